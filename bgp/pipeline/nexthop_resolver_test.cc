// NexthopResolverStage and NexthopCache against FakeNexthopOracle.
#include <gtest/gtest.h>

#include "bgp/pipeline/nexthop_resolver_stage.h"
#include "bgp/pipeline/peer_in.h"
#include "common/task_scheduler.h"
#include "testing/bgp/fake_nexthop_oracle.h"
#include "testing/bgp/pipeline_test_util.h"
#include "testing/bgp/recording_stage.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::P;
using test_util::Peer;
using test_util::Route;
using test_util::WalkOf;
using V = std::vector<std::string>;

class NexthopResolverTest : public ::testing::Test {
 protected:
  NexthopResolverTest() : resolver("1", &in, cache, WalkOf(in)), rec(&resolver) {
    in.set_next(&resolver);
    resolver.set_next(&rec);
    oracle.set_route(P("192.0.2.0/24"), 10);
  }
  void Announce(const std::string& prefix, const std::string& nh) {
    in.announce(Route(prefix, {.path = {65001}, .next_hop = nh}, peer));
  }
  void Check() {
    EXPECT_TRUE(rec.violations().empty()) << rec.violations().front();
    EXPECT_TRUE(rec.CheckLookups().ok()) << rec.CheckLookups().ToString();
  }

  TaskScheduler scheduler;  // outlives the resolver's walk task (when a test sets one)
  FakeNexthopOracle oracle;
  NexthopCache cache{oracle};
  PeerRef peer = Peer(1, 65001, false, "10.0.0.1");
  PeerIn in{1};
  NexthopResolverStage resolver;
  RecordingStage rec;
};

TEST_F(NexthopResolverTest, HoldsRoutesUntilAnswered) {
  Announce("1.0.0.0/8", "192.0.2.1");
  Announce("2.0.0.0/8", "192.0.2.1");
  EXPECT_TRUE(rec.events().empty());
  EXPECT_EQ(resolver.lookup_route(P("1.0.0.0/8")), nullptr);
  EXPECT_EQ(resolver.counters().held, 2u);
  Check();
  EXPECT_EQ(oracle.questions(), 1u);  // one question per next hop
  oracle.answer_all();
  EXPECT_EQ(rec.EventStrings(), (V{"+1.0.0.0/8 p1", "+2.0.0.0/8 p1"}));
  EXPECT_EQ(rec.events()[0].route->igp_metric, 10u);
  EXPECT_TRUE(rec.events()[0].route->resolvable);
  // The answer covers 192.0.2.0/24, so it serves another next hop there at once.
  Announce("3.0.0.0/8", "192.0.2.3");
  EXPECT_EQ(rec.events().size(), 3u);
  EXPECT_EQ(oracle.questions(), 1u);
  Check();
}

TEST_F(NexthopResolverTest, PrefetchHintPassesThroughAndChangesNothing) {
  Announce("1.0.0.0/8", "192.0.2.1");
  oracle.answer_all();
  const std::vector<IpPrefix> hint{P("1.0.0.0/8"), P("5.0.0.0/8")};
  in.prefetch(hint);  // PeerIn, then the resolver, then the recorder
  EXPECT_EQ(rec.prefetched(), hint);
  EXPECT_EQ(rec.EventStrings(), (V{"+1.0.0.0/8 p1"}));
  EXPECT_EQ(resolver.size(), 1u);
  Check();
}

// Next hops of one subnet asked before the first answer came back each get the same answer:
// the clients hear about the subnet once, not once per next hop (which re-evaluated every route
// in the subnet per next hop: quadratic on a full table from one upstream).
TEST_F(NexthopResolverTest, RepeatedAnswersForOneSubnetNotifyOnce) {
  struct CountingClient : NexthopClient {
    void nexthops_changed(const IpPrefix&) override { ++calls; }
    int calls = 0;
  } counting;
  cache.add_client(&counting);
  for (int i = 1; i <= 50; ++i) {
    Announce("10." + std::to_string(i) + ".0.0/16", "192.0.2." + std::to_string(i));
  }
  EXPECT_EQ(oracle.questions(), 50u);  // all asked before any answer
  oracle.answer_all();
  EXPECT_EQ(counting.calls, 1);
  EXPECT_EQ(rec.events().size(), 50u);
  EXPECT_EQ(resolver.counters().held, 0u);
  // A different answer for the subnet (metric change) is news again.
  oracle.set_route(P("192.0.2.0/24"), 30);
  oracle.answer_all();
  EXPECT_EQ(counting.calls, 2);
  EXPECT_EQ(resolver.lookup_route(P("10.7.0.0/16"))->igp_metric, 30u);
  cache.remove_client(&counting);
  Check();
}

TEST_F(NexthopResolverTest, UnresolvableRoutesAreNotPassed) {
  Announce("1.0.0.0/8", "198.51.100.1");
  oracle.answer_all();
  EXPECT_TRUE(rec.events().empty());
  EXPECT_EQ(resolver.counters().unresolvable, 1u);
  // The IGP learns a route: the answer is invalidated, asked again, and the route goes through.
  oracle.set_route(P("198.51.100.0/24"), 7);
  oracle.answer_all();
  EXPECT_EQ(rec.EventStrings(), (V{"+1.0.0.0/8 p1"}));
  EXPECT_EQ(rec.events()[0].route->igp_metric, 7u);
  oracle.remove_route(P("198.51.100.0/24"));
  oracle.answer_all();
  EXPECT_EQ(rec.EventStrings().back(), "-1.0.0.0/8 p1");
  Check();
}

TEST_F(NexthopResolverTest, AnnotatesInPlaceOnceThenCopiesOnChange) {
  Announce("1.0.0.0/8", "192.0.2.1");
  const BgpRouteRef stored = in.lookup_route(P("1.0.0.0/8"));
  oracle.answer_all();
  // The first annotation is made on PeerIn's own object: the route is stored once.
  const BgpRouteRef sent = resolver.lookup_route(P("1.0.0.0/8"));
  ASSERT_NE(sent, nullptr);
  EXPECT_EQ(sent.get(), stored.get());
  EXPECT_TRUE(stored->annotated);
  EXPECT_EQ(stored->igp_metric, 10u);
  // A changed answer: a copy is sent and the object already below keeps its annotation.
  rec.clear_events();
  oracle.set_route(P("192.0.2.0/24"), 30);
  oracle.answer_all();
  const BgpRouteRef changed = resolver.lookup_route(P("1.0.0.0/8"));
  ASSERT_NE(changed, nullptr);
  EXPECT_NE(changed.get(), stored.get());
  EXPECT_EQ(changed->igp_metric, 30u);
  EXPECT_EQ(changed->attrs, stored->attrs);  // the attribute set is shared, not copied
  EXPECT_EQ(stored->igp_metric, 10u);
  ASSERT_EQ(rec.EventStrings(), (V{"=1.0.0.0/8 p1"}));
  EXPECT_EQ(rec.events()[0].route.get(), changed.get());
  Check();
}

TEST_F(NexthopResolverTest, InvalidationReevaluatesAffectedRoutesOnly) {
  oracle.set_route(P("203.0.113.0/24"), 20);
  Announce("1.0.0.0/8", "192.0.2.1");
  Announce("2.0.0.0/8", "203.0.113.1");
  oracle.answer_all();
  rec.clear_events();
  // A more specific route for 192.0.2.0/25: the old answer stays usable until the new one comes.
  oracle.set_route(P("192.0.2.0/25"), 3);
  EXPECT_TRUE(rec.events().empty());
  EXPECT_EQ(resolver.lookup_route(P("1.0.0.0/8"))->igp_metric, 10u);
  oracle.answer_all();
  ASSERT_EQ(rec.EventStrings(), (V{"=1.0.0.0/8 p1"}));
  EXPECT_EQ(rec.events()[0].route->igp_metric, 3u);
  EXPECT_EQ(resolver.counters().reevaluated, 1u);
  // Withdrawing releases the registration.
  in.withdraw(P("2.0.0.0/8"));
  EXPECT_FALSE(oracle.registered().contains(P("203.0.113.0/24")));
  Check();
}

TEST_F(NexthopResolverTest, ReplaceWithNewNexthopIsReResolved) {
  oracle.set_auto_answer(true);
  oracle.set_route(P("203.0.113.0/24"), 20);
  Announce("1.0.0.0/8", "192.0.2.1");
  Announce("1.0.0.0/8", "203.0.113.9");
  Announce("1.0.0.0/8", "198.51.100.1");  // unreachable: becomes a delete
  EXPECT_EQ(rec.EventStrings(), (V{"+1.0.0.0/8 p1", "=1.0.0.0/8 p1", "-1.0.0.0/8 p1"}));
  EXPECT_EQ(rec.events()[1].route->igp_metric, 20u);
  Check();
}

// Regression: a replace keeping its next hop must stay indexed under it, so that a later answer
// still re-evaluates the route.
TEST_F(NexthopResolverTest, ReplaceWithSameNexthopStaysIndexed) {
  Announce("1.0.0.0/8", "198.51.100.1");
  oracle.answer_all();
  in.announce(Route("1.0.0.0/8", {.path = {65001, 5}, .next_hop = "198.51.100.1"}, peer));
  EXPECT_TRUE(rec.events().empty());
  oracle.set_route(P("198.51.100.0/24"), 4);
  oracle.answer_all();
  EXPECT_EQ(rec.EventStrings(), (V{"+1.0.0.0/8 p1"}));
  Check();
}

// The per-next-hop chains: routes leave them from the head, the middle and the tail, move between
// next hops by replace, and a changed answer re-evaluates exactly the routes still chained there.
TEST_F(NexthopResolverTest, ChainsFollowDeletesAndMovesBetweenNexthops) {
  oracle.set_auto_answer(true);
  oracle.set_route(P("203.0.113.0/24"), 20);
  for (int i = 1; i <= 6; ++i) Announce(std::to_string(i) + ".0.0.0/8", "192.0.2.1");
  Announce("7.0.0.0/8", "203.0.113.1");
  ASSERT_EQ(rec.events().size(), 7u);
  in.withdraw(P("6.0.0.0/8"));           // chained first (the newest)
  in.withdraw(P("3.0.0.0/8"));           // in the middle
  in.withdraw(P("1.0.0.0/8"));           // chained last
  Announce("2.0.0.0/8", "203.0.113.1");  // moves to the other next hop
  Announce("7.0.0.0/8", "192.0.2.1");    // and one moves the other way
  Announce("4.0.0.0/8", "192.0.2.1");    // a replace keeping its next hop
  rec.clear_events();
  oracle.set_route(P("192.0.2.0/24"), 11);
  // 4, 5 and 7 are under 192.0.2.1 now, in prefix order.
  EXPECT_EQ(rec.EventStrings(), (V{"=4.0.0.0/8 p1", "=5.0.0.0/8 p1", "=7.0.0.0/8 p1"}));
  for (const auto& e : rec.events()) EXPECT_EQ(e.route->igp_metric, 11u);
  EXPECT_EQ(resolver.lookup_route(P("2.0.0.0/8"))->igp_metric, 20u);
  rec.clear_events();
  oracle.set_route(P("203.0.113.0/24"), 21);
  EXPECT_EQ(rec.EventStrings(), (V{"=2.0.0.0/8 p1"}));
  // The last route of a next hop releases its registration; the others keep theirs.
  in.withdraw(P("2.0.0.0/8"));
  EXPECT_FALSE(oracle.registered().contains(P("203.0.113.0/24")));
  EXPECT_TRUE(oracle.registered().contains(P("192.0.2.0/24")));
  for (const char* p : {"4.0.0.0/8", "5.0.0.0/8", "7.0.0.0/8"}) in.withdraw(P(p));
  EXPECT_TRUE(oracle.registered().empty());
  EXPECT_EQ(resolver.size(), 0u);
  Check();
}

// Routes waiting for a first answer are sent once each, in prefix order, as their prefix's route
// is when the answer comes: replaced ones as the newest, deleted ones and those that moved to
// another next hop not at all.
TEST_F(NexthopResolverTest, WaitingRoutesAreSentOnceAsTheyAreNow) {
  Announce("2.0.0.0/8", "192.0.2.1");
  Announce("1.0.0.0/8", "192.0.2.1");
  in.announce(Route("2.0.0.0/8", {.path = {65001, 7}, .next_hop = "192.0.2.1"}, peer));
  Announce("3.0.0.0/8", "192.0.2.1");
  in.withdraw(P("3.0.0.0/8"));
  Announce("4.0.0.0/8", "198.51.100.1");  // waits for another (unreachable) next hop
  Announce("4.0.0.0/8", "192.0.2.1");     // then moves to the first one
  EXPECT_TRUE(rec.events().empty());
  EXPECT_EQ(resolver.counters().held, 3u);
  EXPECT_EQ(resolver.size(), 3u);
  oracle.answer_all();
  EXPECT_EQ(rec.EventStrings(), (V{"+1.0.0.0/8 p1", "+2.0.0.0/8 p1", "+4.0.0.0/8 p1"}));
  EXPECT_EQ(rec.events()[1].route.get(), in.lookup_route(P("2.0.0.0/8")).get());
  EXPECT_EQ(resolver.counters().held, 0u);
  EXPECT_EQ(resolver.counters().unresolvable, 0u);
  Check();
}

// A changed answer is applied by a walk over the parent's prefixes, in background slices: a
// prefix keeps its old annotation (lookups and messages alike) until the walk passes it, and an
// answer changing again during the walk is applied by another walk after it.
TEST_F(NexthopResolverTest, ChangedAnswerIsWalkedInSlices) {
  resolver.set_background({.scheduler = &scheduler, .slice = 1, .throttle = nullptr, .name = "w"});
  for (const char* p : {"1.0.0.0/8", "2.0.0.0/8", "3.0.0.0/8"}) Announce(p, "192.0.2.1");
  Announce("5.0.0.0/8", "203.0.113.1");  // unreachable: the walk has nothing to do with it
  oracle.answer_all();
  ASSERT_EQ(rec.events().size(), 3u);
  rec.clear_events();
  oracle.set_route(P("192.0.2.0/24"), 30);
  oracle.answer_all();
  EXPECT_TRUE(rec.events().empty());
  EXPECT_TRUE(resolver.walking());
  EXPECT_EQ(resolver.lookup_route(P("1.0.0.0/8"))->igp_metric, 10u);
  scheduler.run_slice();
  EXPECT_EQ(rec.EventStrings(), (V{"=1.0.0.0/8 p1"}));
  EXPECT_EQ(resolver.lookup_route(P("1.0.0.0/8"))->igp_metric, 30u);
  EXPECT_EQ(resolver.lookup_route(P("2.0.0.0/8"))->igp_metric, 10u);
  Check();
  // Messages ahead of the cursor use the old answer; those behind it the new one.
  rec.clear_events();
  in.announce(Route("2.0.0.0/8", {.path = {65001, 7}, .next_hop = "192.0.2.1"}, peer));
  Announce("4.0.0.0/8", "192.0.2.1");
  Announce("0.0.0.0/0", "192.0.2.1");
  ASSERT_EQ(rec.EventStrings(), (V{"=2.0.0.0/8 p1", "+4.0.0.0/8 p1", "+0.0.0.0/0 p1"}));
  EXPECT_EQ(rec.events()[0].route->igp_metric, 10u);
  EXPECT_EQ(rec.events()[1].route->igp_metric, 10u);
  EXPECT_EQ(rec.events()[2].route->igp_metric, 30u);
  Check();
  // Another change during the walk: this walk ends at 30, the next one moves all to 40.
  oracle.set_route(P("192.0.2.0/24"), 40);
  oracle.answer_all();
  EXPECT_EQ(resolver.lookup_route(P("3.0.0.0/8"))->igp_metric, 10u);
  rec.clear_events();
  scheduler.run_until_idle();
  EXPECT_FALSE(resolver.walking());
  EXPECT_EQ(rec.EventStrings(),
            (V{"=2.0.0.0/8 p1", "=3.0.0.0/8 p1", "=4.0.0.0/8 p1", "=0.0.0.0/0 p1", "=1.0.0.0/8 p1",
               "=2.0.0.0/8 p1", "=3.0.0.0/8 p1", "=4.0.0.0/8 p1"}));
  for (const char* p : {"0.0.0.0/0", "1.0.0.0/8", "2.0.0.0/8", "3.0.0.0/8", "4.0.0.0/8"}) {
    EXPECT_EQ(resolver.lookup_route(P(p))->igp_metric, 40u) << p;
    EXPECT_EQ(rec.current(P(p))->igp_metric, 40u) << p;
  }
  EXPECT_EQ(resolver.lookup_route(P("5.0.0.0/8")), nullptr);
  EXPECT_EQ(resolver.counters().unresolvable, 1u);
  Check();
  // Deleting a route sent as a copy deletes that copy, and the side table forgets it.
  EXPECT_GT(resolver.copies(), 0u);
  for (const char* p : {"0.0.0.0/0", "1.0.0.0/8", "2.0.0.0/8", "3.0.0.0/8", "4.0.0.0/8"}) {
    in.withdraw(P(p));
  }
  EXPECT_EQ(resolver.copies(), 0u);
  EXPECT_TRUE(rec.current().empty());
  Check();
}

// RFC 4271 6.3: a next hop that is our own address on a connected subnet, or the subnet's
// network or broadcast address, is not usable; another host of the subnet is.
TEST_F(NexthopResolverTest, OwnAndSubnetBroadcastNextHopsAreUnusable) {
  oracle.set_connected(P("203.0.113.0/24"), A("203.0.113.1"));
  Announce("11.0.0.0/8", "203.0.113.1");
  Announce("12.0.0.0/8", "203.0.113.0");
  Announce("13.0.0.0/8", "203.0.113.255");
  Announce("14.0.0.0/8", "203.0.113.9");
  oracle.answer_all();
  EXPECT_EQ(rec.EventStrings(), (V{"+14.0.0.0/8 p1"}));
  EXPECT_NE(resolver.lookup_route(P("14.0.0.0/8")), nullptr);
  EXPECT_EQ(resolver.lookup_route(P("11.0.0.0/8")), nullptr);
  EXPECT_EQ(resolver.lookup_route(P("12.0.0.0/8")), nullptr);
  EXPECT_EQ(resolver.lookup_route(P("13.0.0.0/8")), nullptr);
  // A /31 has neither network nor broadcast address (RFC 3021).
  oracle.set_connected(P("198.51.100.0/31"), A("198.51.100.0"));
  Announce("15.0.0.0/8", "198.51.100.1");
  oracle.answer_all();
  EXPECT_NE(resolver.lookup_route(P("15.0.0.0/8")), nullptr);
  Check();
}

// From a single-hop external peer, a next hop must be on a connected subnet; a multihop peer's
// may be anywhere the IGP reaches.
TEST_F(NexthopResolverTest, SingleHopExternalNextHopMustBeOnLink) {
  const auto single_hop = [](const char* address) {
    PeerInfo info;
    info.id = 1;
    info.peer_as = 65001;
    info.address = A(address);
    info.router_id = A(address);
    info.directly_connected = true;
    return PeerRef(NewPeerInfo(info));
  };
  const PeerRef onehop = single_hop("203.0.113.2");
  in.set_session(onehop);
  oracle.set_connected(P("203.0.113.0/24"), A("203.0.113.1"));
  in.announce(Route("1.0.0.0/8", {.path = {65001}, .next_hop = "203.0.113.2"}, onehop));
  in.announce(Route("2.0.0.0/8", {.path = {65001}, .next_hop = "203.0.113.7"}, onehop));
  in.announce(Route("3.0.0.0/8", {.path = {65001}, .next_hop = "192.0.2.1"}, onehop));
  oracle.answer_all();
  EXPECT_NE(resolver.lookup_route(P("1.0.0.0/8")), nullptr);  // the peer itself
  EXPECT_NE(resolver.lookup_route(P("2.0.0.0/8")), nullptr);  // a third party on the subnet
  EXPECT_EQ(resolver.lookup_route(P("3.0.0.0/8")), nullptr);  // off-link (192.0.2.0/24 is IGP)
  EXPECT_EQ(rec.EventStrings(), (V{"+1.0.0.0/8 p1", "+2.0.0.0/8 p1"}));
  // The peer's own address is usable however it is reached.
  in.announce(Route("5.0.0.0/8", {.path = {65001}, .next_hop = "203.0.113.2"}, onehop));
  const PeerRef far = single_hop("192.0.2.5");
  in.set_session(far);
  in.announce(Route("6.0.0.0/8", {.path = {65001}, .next_hop = "192.0.2.5"}, far));
  EXPECT_NE(resolver.lookup_route(P("6.0.0.0/8")), nullptr);
  // The same next hop from a multihop peer is usable.
  Announce("4.0.0.0/8", "192.0.2.1");
  EXPECT_NE(resolver.lookup_route(P("4.0.0.0/8")), nullptr);
  Check();
}

// The zero next hop means "ourselves" only in the speaker's own routes.
TEST_F(NexthopResolverTest, ZeroNextHopIsOursOnlyFromTheLocalPseudoPeer) {
  PeerInfo info;
  info.id = 1;
  info.local = true;
  const PeerRef local = NewPeerInfo(info);
  in.set_session(local);
  in.announce(Route("1.0.0.0/8", {.path = {}, .next_hop = "0.0.0.0"}, local));
  EXPECT_NE(resolver.lookup_route(P("1.0.0.0/8")), nullptr);
  in.announce(Route("2.0.0.0/8", {.path = {65001}, .next_hop = "0.0.0.0"}, peer));
  EXPECT_EQ(resolver.lookup_route(P("2.0.0.0/8")), nullptr);
  EXPECT_EQ(rec.EventStrings(), (V{"+1.0.0.0/8 p1"}));
  Check();
}

}  // namespace
}  // namespace strata::bgp
