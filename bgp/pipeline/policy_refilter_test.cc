// PolicyRefilter in the input and output filters: a policy change re-filters in scheduler slices,
// sends only differences, keeps both consistency rules while routes are added, replaced and
// deleted under the walk, and restarts cleanly when the policy changes again mid-walk.
#include "bgp/pipeline/policy_refilter.h"

#include <gtest/gtest.h>

#include "bgp/pipeline/input_filter_stage.h"
#include "bgp/pipeline/output_filter_stage.h"
#include "bgp/pipeline/peer_in.h"
#include "common/task_scheduler.h"
#include "testing/bgp/pipeline_test_util.h"
#include "testing/bgp/recording_stage.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::P;
using test_util::Peer;
using test_util::Route;
using V = std::vector<std::string>;

std::string Pfx(int i) { return "10." + std::to_string(i) + ".0.0/16"; }

// Rejects every prefix whose second octet is a multiple of `mod` (from `from` on).
RoutePolicy RejectMultiples(int mod) {
  return [mod](const BgpRouteRef& r) -> BgpRouteRef {
    const int octet = static_cast<int>((r->prefix.addr().v4_host_order() >> 16) & 0xff);
    return octet % mod == 0 ? nullptr : r;
  };
}
RoutePolicy SetMed(uint32_t med) {
  return [med](const BgpRouteRef& r) {
    PathAttributes a = r->path();
    a.med = med;
    return WithAttrs(*r, AttributeSet::Make(std::move(a)));
  };
}

// PeerIn -> InputFilterStage -> RecordingStage; policy walks in slices of 2 prefixes.
class InputRefilterTest : public ::testing::Test {
 protected:
  InputRefilterTest() : filter(1, 65000, A("9.9.9.9"), 0x09090909, &in), rec(&filter) {
    in.set_next(&filter);
    filter.set_next(&rec);
    PolicyRefilter::Background bg;
    bg.scheduler = &scheduler;
    bg.slice = 2;
    filter.refilter().set_background(std::move(bg));
  }
  void Announce(int i, uint32_t second_as = 1) {
    in.announce(Route(Pfx(i), {.path = {65001, second_as}}, peer));
  }
  void Change(RoutePolicy policy) {
    filter.ChangePolicy(std::move(policy), [this](const std::optional<IpPrefix>& after) {
      const auto hit = in.table().next_after(after);
      return hit.value ? std::optional<IpPrefix>(hit.prefix) : std::nullopt;
    });
  }
  void Check() {
    ASSERT_TRUE(rec.violations().empty()) << rec.violations().front();
    ASSERT_TRUE(rec.CheckLookups().ok()) << rec.CheckLookups().ToString();
  }
  // What a synchronous evaluation of `policy` over PeerIn's table gives.
  void ExpectDownstreamIs(const RoutePolicy& policy) {
    std::map<IpPrefix, BgpRouteRef> want;
    for (auto it = in.table().begin(); !it.at_end(); ++it) {
      if (BgpRouteRef r = policy ? policy(it.value()) : it.value()) want[it.key()] = r;
    }
    ASSERT_EQ(rec.current().size(), want.size());
    for (const auto& [prefix, r] : want) {
      ASSERT_TRUE(rec.current(prefix)) << prefix.ToString();
      EXPECT_TRUE(SameRoute(*rec.current(prefix), *r)) << prefix.ToString();
    }
    EXPECT_EQ(filter.counters().accepted, want.size());
  }

  TaskScheduler scheduler;
  PeerRef peer = Peer(1, 65001, false, "10.0.0.1");
  PeerIn in{1};
  InputFilterStage filter;
  RecordingStage rec;
};

TEST_F(InputRefilterTest, WalksInSlicesAndSendsOnlyDifferences) {
  for (int i = 1; i <= 6; ++i) Announce(i);
  rec.clear_events();
  Change(RejectMultiples(3));
  EXPECT_TRUE(rec.events().empty());  // nothing before the first slice
  EXPECT_TRUE(filter.refilter().walking());
  ASSERT_TRUE(scheduler.run_slice());  // 10.1, 10.2: unchanged
  EXPECT_TRUE(rec.events().empty());
  Check();
  ASSERT_TRUE(scheduler.run_slice());  // 10.3 rejected, 10.4 unchanged
  EXPECT_EQ(rec.EventStrings(), (V{"-10.3.0.0/16 p1"}));
  Check();
  scheduler.run_until_idle();
  EXPECT_EQ(rec.EventStrings(), (V{"-10.3.0.0/16 p1", "-10.6.0.0/16 p1"}));
  EXPECT_FALSE(filter.refilter().walking());
  EXPECT_EQ(filter.refilter().stats().visited, 6u);
  EXPECT_EQ(filter.refilter().stats().slices, 4u);  // the last one found the end
  Check();
  ExpectDownstreamIs(RejectMultiples(3));
  EXPECT_EQ(filter.counters().policy_rejected, 2u);

  // Back to no policy: adds for the newly accepted, replaces for changed attributes.
  rec.clear_events();
  Change(SetMed(4));
  scheduler.run_until_idle();
  EXPECT_EQ(rec.EventStrings(), (V{"=10.1.0.0/16 p1", "=10.2.0.0/16 p1", "+10.3.0.0/16 p1",
                                   "=10.4.0.0/16 p1", "=10.5.0.0/16 p1", "+10.6.0.0/16 p1"}));
  Check();
  ExpectDownstreamIs(SetMed(4));
  rec.clear_events();
  Change(SetMed(4));  // the same effect: nothing to send
  scheduler.run_until_idle();
  EXPECT_TRUE(rec.events().empty());
}

TEST_F(InputRefilterTest, RoutesChangedUnderTheWalk) {
  for (int i = 1; i <= 8; ++i) Announce(i);
  Change(RejectMultiples(2));
  ASSERT_TRUE(scheduler.run_slice());  // 10.1, 10.2 done
  rec.clear_events();
  Announce(9);                          // new, ahead: filtered with the new policy at once
  Announce(10);                         // new, ahead, rejected by the new policy: nothing sent
  Announce(3, 7);                       // replaced ahead of the walk: old route out, new one in
  EXPECT_TRUE(in.withdraw(P(Pfx(4))));  // withdrawn ahead: it was passed by the old policy
  Announce(2, 7);                       // behind the walk: rejected either way, nothing sent
  EXPECT_TRUE(in.withdraw(P(Pfx(1))));  // behind the walk
  Announce(4);                          // re-added after its withdrawal: new policy
  EXPECT_EQ(rec.EventStrings(),
            (V{"+10.9.0.0/16 p1", "=10.3.0.0/16 p1", "-10.4.0.0/16 p1", "-10.1.0.0/16 p1"}));
  Check();
  scheduler.run_until_idle();
  Check();
  ExpectDownstreamIs(RejectMultiples(2));
  // 10.3, 10.4, 10.9, 10.10 were touched and not re-filtered a second time.
  EXPECT_EQ(filter.refilter().stats().skipped, 4u);
}

TEST_F(InputRefilterTest, SecondChangeMidWalkRestartsCleanly) {
  for (int i = 1; i <= 12; ++i) Announce(i);
  Change(RejectMultiples(2));
  ASSERT_TRUE(scheduler.run_slice());
  ASSERT_TRUE(scheduler.run_slice());  // 10.1 .. 10.4 on "reject even"
  Announce(7);                         // touched ahead under "reject even"
  Check();
  Change(RejectMultiples(3));
  EXPECT_EQ(filter.refilter().layers(), 3u);
  EXPECT_EQ(filter.refilter().stats().restarts, 1u);
  ASSERT_TRUE(scheduler.run_slice());
  Check();
  Announce(11);
  Change(SetMed(9));
  for (int n = 0; n < 3; ++n) {
    scheduler.run_slice();
    Check();
  }
  EXPECT_TRUE(in.withdraw(P(Pfx(12))));
  Check();
  scheduler.run_until_idle();
  Check();
  EXPECT_EQ(filter.refilter().layers(), 1u);
  ExpectDownstreamIs(SetMed(9));
}

TEST_F(InputRefilterTest, ChangesBeforeTheFirstSliceMerge) {
  for (int i = 1; i <= 4; ++i) Announce(i);
  rec.clear_events();
  Change(RejectMultiples(2));
  Change(RejectMultiples(4));  // nothing went through the first: the walk just retargets
  EXPECT_EQ(filter.refilter().layers(), 2u);
  EXPECT_EQ(filter.refilter().stats().restarts, 0u);
  scheduler.run_until_idle();
  EXPECT_EQ(rec.EventStrings(), (V{"-10.4.0.0/16 p1"}));
  ExpectDownstreamIs(RejectMultiples(4));
}

TEST_F(InputRefilterTest, ThrottleHoldsSlicesAndHooksRunAroundThem) {
  for (int i = 1; i <= 4; ++i) Announce(i);
  bool hold = true;
  int before = 0, after = 0;
  PolicyRefilter::Background bg;
  bg.scheduler = &scheduler;
  bg.slice = 1;
  bg.throttle = [&hold] { return hold; };
  bg.before_slice = [&before] { ++before; };
  bg.after_slice = [&after] { ++after; };
  filter.refilter().set_background(std::move(bg));
  rec.clear_events();
  Change(RejectMultiples(1));
  ASSERT_TRUE(scheduler.run_slice());
  ASSERT_TRUE(scheduler.run_slice());
  EXPECT_TRUE(rec.events().empty());
  EXPECT_EQ(before, 0);
  hold = false;
  scheduler.run_until_idle();
  EXPECT_EQ(rec.events().size(), 4u);
  EXPECT_EQ(before, after);
  EXPECT_GE(before, 4);
}

TEST_F(InputRefilterTest, WithoutSchedulerRunsAtOnce) {
  for (int i = 1; i <= 4; ++i) Announce(i);
  filter.refilter().set_background({});
  Change(RejectMultiples(2));
  EXPECT_FALSE(filter.refilter().walking());
  EXPECT_EQ(scheduler.run_until_idle(), 0u);
  ExpectDownstreamIs(RejectMultiples(2));
}

// PeerIn (routes from an eBGP peer) -> OutputFilterStage (to another eBGP peer) -> Recording.
class OutputRefilterTest : public ::testing::Test {
 protected:
  OutputRefilterTest() {
    PipelinePeerConfig c;
    c.address = A("10.9.9.9");
    c.peer_as = 65002;
    c.local_address = A("10.0.1.254");
    c.other_family_local_address = A("2001:db8::fe");
    filter = std::make_unique<OutputFilterStage>(2, 65000, c, &in);
    rec = std::make_unique<RecordingStage>(filter.get());
    in.set_next(filter.get());
    filter->set_next(rec.get());
    PolicyRefilter::Background bg;
    bg.scheduler = &scheduler;
    bg.slice = 2;
    filter->refilter().set_background(std::move(bg));
  }
  void Change(RoutePolicy policy) {
    filter->ChangePolicy(std::move(policy), [this](const std::optional<IpPrefix>& after) {
      const auto hit = in.table().next_after(after);
      return hit.value ? std::optional<IpPrefix>(hit.prefix) : std::nullopt;
    });
  }
  void Refresh(std::optional<Family> family) {
    filter->Refresh(family, [this](const std::optional<IpPrefix>& after) {
      const auto hit = in.table().next_after(after);
      return hit.value ? std::optional<IpPrefix>(hit.prefix) : std::nullopt;
    });
  }
  void Check() {
    ASSERT_TRUE(rec->violations().empty()) << rec->violations().front();
    ASSERT_TRUE(rec->CheckLookups().ok()) << rec->CheckLookups().ToString();
  }

  TaskScheduler scheduler;
  PeerRef src = Peer(1, 65001, false, "10.0.0.1");
  PeerIn in{1};
  std::unique_ptr<OutputFilterStage> filter;
  std::unique_ptr<RecordingStage> rec;
};

TEST_F(OutputRefilterTest, ExportChangeSendsOnlyDifferencesInSlices) {
  for (int i = 1; i <= 6; ++i) in.announce(Route(Pfx(i), {.path = {65001}}, src));
  rec->clear_events();
  Change(RejectMultiples(2));
  ASSERT_TRUE(scheduler.run_slice());
  EXPECT_EQ(rec->EventStrings(), (V{"-10.2.0.0/16 p1"}));
  in.announce(Route(Pfx(4), {.path = {65001, 5}}, src));  // ahead: the new policy rejects it
  in.announce(Route(Pfx(7), {.path = {65001}}, src));     // ahead, new
  EXPECT_EQ(rec->EventStrings(), (V{"-10.2.0.0/16 p1", "-10.4.0.0/16 p1", "+10.7.0.0/16 p1"}));
  Check();
  scheduler.run_until_idle();
  EXPECT_EQ(rec->EventStrings(),
            (V{"-10.2.0.0/16 p1", "-10.4.0.0/16 p1", "+10.7.0.0/16 p1", "-10.6.0.0/16 p1"}));
  Check();
  EXPECT_EQ(rec->current().size(), 4u);
  // The route as sent keeps the export rules (AS prepended) under the new policy.
  EXPECT_EQ(rec->current(P(Pfx(7)))->path().as_path->ToString(), "65000 65001");
  rec->clear_events();
  Change(nullptr);
  scheduler.run_until_idle();
  EXPECT_EQ(rec->EventStrings(), (V{"+10.2.0.0/16 p1", "+10.4.0.0/16 p1", "+10.6.0.0/16 p1"}));
  Check();
}

// Route refresh (no Adj-RIB-Out): each route of the family is sent again as a replace of itself,
// in slices; a prefix a change reaches meanwhile is skipped (the change sent it); a policy
// change mid-walk restarts it and the refresh still reaches every prefix.
TEST_F(OutputRefilterTest, RefreshSendsEveryRouteOfTheFamilyAgain) {
  for (int i = 1; i <= 5; ++i) in.announce(Route(Pfx(i), {.path = {65001}}, src));
  in.announce(Route("2001:db8::/32", {.path = {65001}, .next_hop = "2001:db8::1"}, src));
  rec->clear_events();
  Refresh(Family::kIpv4);
  ASSERT_TRUE(scheduler.run_slice());  // 10.1, 10.2
  EXPECT_EQ(rec->EventStrings(), (V{"=10.1.0.0/16 p1", "=10.2.0.0/16 p1"}));
  in.announce(Route(Pfx(4), {.path = {65001, 5}}, src));  // ahead: sent by the change
  const RoutePolicy reject_5 = [](const BgpRouteRef& r) -> BgpRouteRef {
    return r->prefix == P(Pfx(5)) ? nullptr : r;
  };
  Change(reject_5);  // restarts the walk
  scheduler.run_until_idle();
  EXPECT_FALSE(filter->refilter().walking());
  EXPECT_EQ(rec->EventStrings(),
            (V{"=10.1.0.0/16 p1", "=10.2.0.0/16 p1", "=10.4.0.0/16 p1", "=10.1.0.0/16 p1",
               "=10.2.0.0/16 p1", "=10.3.0.0/16 p1", "=10.4.0.0/16 p1", "-10.5.0.0/16 p1"}));
  Check();
  EXPECT_EQ(rec->current().size(), 5u);  // 10.1-10.4 and the IPv6 route, never re-sent
  // Over: a later policy change sends only differences again.
  rec->clear_events();
  Change(reject_5);
  scheduler.run_until_idle();
  EXPECT_TRUE(rec->events().empty());
  Refresh(std::nullopt);
  scheduler.run_until_idle();
  EXPECT_EQ(rec->events().size(), 5u);
  Check();
}

// Background::paused ends the walk's task (no spinning while the session is busy); Resume
// picks it up where it stopped.
TEST_F(OutputRefilterTest, PausedWalkWaitsForResume) {
  for (int i = 1; i <= 4; ++i) in.announce(Route(Pfx(i), {.path = {65001}}, src));
  bool busy = false;
  PolicyRefilter::Background bg;
  bg.scheduler = &scheduler;
  bg.slice = 1;
  bg.paused = [&busy] { return busy; };
  filter->refilter().set_background(std::move(bg));
  rec->clear_events();
  Refresh(std::nullopt);
  ASSERT_TRUE(scheduler.run_slice());
  busy = true;
  EXPECT_LE(scheduler.run_until_idle(), 2u);  // the task ended
  EXPECT_TRUE(filter->refilter().walking());
  EXPECT_EQ(rec->events().size(), 1u);
  filter->refilter().Resume();  // still busy: ends again
  scheduler.run_until_idle();
  EXPECT_EQ(rec->events().size(), 1u);
  busy = false;
  filter->refilter().Resume();
  scheduler.run_until_idle();
  EXPECT_FALSE(filter->refilter().walking());
  EXPECT_EQ(rec->events().size(), 4u);
  Check();
}

}  // namespace
}  // namespace strata::bgp
