// Randomized: route announcements, withdrawals and session flaps (deletion stages) interleaved
// with policy changes and background slices, through the input filter (import policy) and the
// output filter (export policy). After every step both consistency rules hold (RecordingStage);
// whenever no walk or deletion is pending, and at the end, what is downstream equals the newest
// policy applied to the Adj-RIB-In (a fresh filter stage's result for each route).
#include <gtest/gtest.h>

#include <list>
#include <random>

#include "bgp/pipeline/deletion_stage.h"
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

constexpr int kPrefixes = 40;
constexpr int kPolicies = 6;

int Octet(const BgpRouteRef& r) {
  return static_cast<int>((r->prefix.addr().v4_host_order() >> 16) & 0xff);
}
BgpRouteRef WithMed(const BgpRouteRef& r, uint32_t med) {
  PathAttributes a = r->path();
  a.med = med;
  return WithAttrs(*r, AttributeSet::Make(std::move(a)));
}
RoutePolicy Policy(int k) {
  switch (k) {
    case 1:
      return [](const BgpRouteRef& r) { return Octet(r) % 2 == 0 ? nullptr : r; };
    case 2:
      return [](const BgpRouteRef& r) { return Octet(r) % 3 == 0 ? nullptr : r; };
    case 3:
      return [](const BgpRouteRef& r) { return WithMed(r, 5); };
    case 4:
      return [](const BgpRouteRef& r) { return Octet(r) % 5 == 0 ? nullptr : WithMed(r, 6); };
    case 5:
      return [](const BgpRouteRef& r) { return r->path().as_path->PathLength() > 2 ? nullptr : r; };
    default:
      return nullptr;
  }
}

enum class Side { kImport, kExport };

class PolicyRefilterRandomTest : public ::testing::TestWithParam<std::tuple<Side, int>> {
 protected:
  PolicyRefilterRandomTest() : rng(static_cast<unsigned>(std::get<1>(GetParam()))) {
    PolicyRefilter::Background bg;
    bg.scheduler = &scheduler;
    bg.slice = 3;
    if (side() == Side::kImport) {
      in_filter = std::make_unique<InputFilterStage>(1, 65000, A("9.9.9.9"), 0x09090909, &in);
      in_filter->refilter().set_background(bg);
      head = in_filter.get();
    } else {
      out_filter = std::make_unique<OutputFilterStage>(2, 65000, OutConfig(nullptr), &in);
      out_filter->refilter().set_background(bg);
      head = out_filter.get();
    }
    in.set_next(head);
    rec = std::make_unique<RecordingStage>(head);
    head->set_next(rec.get());
  }
  Side side() const { return std::get<0>(GetParam()); }
  static PipelinePeerConfig OutConfig(RoutePolicy policy) {
    PipelinePeerConfig c;
    c.address = A("10.9.9.9");
    c.peer_as = 65002;
    c.local_address = A("10.0.1.254");
    c.export_policy = std::move(policy);
    return c;
  }
  int Rand(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
  IpPrefix RandomPrefix() { return P("10." + std::to_string(1 + Rand(kPrefixes)) + ".0.0/16"); }

  std::optional<IpPrefix> NextHeld(const std::optional<IpPrefix>& after) {
    std::optional<IpPrefix> first;
    if (const auto hit = in.table().next_after(after); hit.value) first = hit.prefix;
    for (const auto& d : deletions) {
      const std::optional<IpPrefix> c = d->next_prefix(after);
      if (c && (!first || *c < *first)) first = c;
    }
    return first;
  }
  void ChangePolicy(int k) {
    policy = k;
    auto next = [this](const std::optional<IpPrefix>& after) { return NextHeld(after); };
    if (in_filter) {
      in_filter->ChangePolicy(Policy(k), next);
    } else {
      out_filter->ChangePolicy(Policy(k), next);
    }
  }
  // The session goes: its table is withdrawn by a deletion stage under PeerIn (import side).
  void Flap() {
    auto stage = std::make_unique<DeletionStage>(
        "1", in.take_routes(), &in, scheduler, 2, [this](DeletionStage* done) {
          Unplumb(done->parent(), done);
          deletions.remove_if([done](const auto& s) { return s.get() == done; });
        });
    PlumbAfter(&in, stage.get());
    deletions.push_back(std::move(stage));
  }
  bool Walking() const {
    return in_filter ? in_filter->refilter().walking() : out_filter->refilter().walking();
  }
  void CheckRules(int step) {
    ASSERT_TRUE(rec->violations().empty()) << "step " << step << ": " << rec->violations().front();
    const Status s = rec->CheckLookups();
    ASSERT_TRUE(s.ok()) << "step " << step << ": " << s.ToString();
  }
  // Downstream equals the newest policy applied to the Adj-RIB-In.
  void CheckAgainstReference(int step) {
    InputFilterStage fresh_in(1, 65000, A("9.9.9.9"), 0x09090909, &in, Policy(policy));
    OutputFilterStage fresh_out(2, 65000, OutConfig(Policy(policy)), &in);
    std::map<IpPrefix, BgpRouteRef> want;
    for (auto it = in.table().begin(); !it.at_end(); ++it) {
      BgpRouteRef r = side() == Side::kImport ? fresh_in.lookup_route(it.key())
                                              : fresh_out.Transform(it.value(), false);
      if (r) want[it.key()] = r;
    }
    ASSERT_EQ(rec->current().size(), want.size()) << "step " << step;
    for (const auto& [prefix, r] : want) {
      const BgpRouteRef got = rec->current(prefix);
      ASSERT_TRUE(got) << "step " << step << " " << prefix.ToString();
      ASSERT_TRUE(SameRoute(*got, *r))
          << "step " << step << " " << got->ToString() << " vs " << r->ToString();
    }
    if (in_filter) {
      EXPECT_EQ(in_filter->counters().accepted, want.size());
    }
  }

  std::mt19937 rng;
  TaskScheduler scheduler;
  PeerRef src = Peer(1, 65001, false, "10.0.0.1");
  PeerIn in{1};
  std::list<std::unique_ptr<DeletionStage>> deletions;
  std::unique_ptr<InputFilterStage> in_filter;
  std::unique_ptr<OutputFilterStage> out_filter;
  BgpStage* head = nullptr;
  std::unique_ptr<RecordingStage> rec;
  int policy = 0;
};

TEST_P(PolicyRefilterRandomTest, DownstreamMatchesNewestPolicy) {
  size_t compared = 0;
  for (int step = 0; step < 3000; ++step) {
    const int op = Rand(100);
    if (op < 35) {
      std::vector<uint32_t> path = {65001, static_cast<uint32_t>(1 + Rand(3))};
      if (Rand(3) == 0) path.push_back(7);
      in.announce(Route(RandomPrefix().ToString(), {.path = path}, src));
    } else if (op < 50) {
      in.withdraw(RandomPrefix());
    } else if (op < 57) {
      ChangePolicy(Rand(kPolicies));
    } else if (op < 59 && side() == Side::kImport) {
      Flap();
    } else {
      scheduler.run_slice();
    }
    CheckRules(step);
    if (::testing::Test::HasFatalFailure()) return;
    if (!Walking() && deletions.empty()) {
      CheckAgainstReference(step);
      if (::testing::Test::HasFatalFailure()) return;
      ++compared;
    }
  }
  scheduler.run_until_idle();
  CheckRules(-1);
  CheckAgainstReference(-1);
  EXPECT_GT(compared, 10u);
}

INSTANTIATE_TEST_SUITE_P(Seeds, PolicyRefilterRandomTest,
                         ::testing::Combine(::testing::Values(Side::kImport, Side::kExport),
                                            ::testing::Range(1, 7)));

}  // namespace
}  // namespace strata::bgp
