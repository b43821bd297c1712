// OutputFilterStage (RFC 4271 export rules) and PeerOut (batching, flow control).
#include <gtest/gtest.h>

#include "bgp/pipeline/output_filter_stage.h"
#include "bgp/pipeline/peer_in.h"
#include "bgp/pipeline/peer_out.h"
#include "testing/bgp/pipeline_test_util.h"
#include "testing/bgp/recording_stage.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::P;
using test_util::Peer;
using test_util::Route;

constexpr uint32_t kLocalAs = 65000;

PipelinePeerConfig Config(uint32_t as, const std::string& local, bool nh_self = false) {
  PipelinePeerConfig c;
  c.address = A("10.9.9.9");
  c.peer_as = as;
  c.local_address = A(local);
  c.next_hop_self = nh_self;
  return c;
}

class OutputFilterTest : public ::testing::Test {
 protected:
  void Build(PeerId target, PipelinePeerConfig config) {
    filter = std::make_unique<OutputFilterStage>(target, kLocalAs, std::move(config), &in);
    rec = std::make_unique<RecordingStage>(filter.get());
    in.set_next(filter.get());
    filter->set_next(rec.get());
  }
  PeerIn in{1};
  PeerRef ebgp_src = Peer(1, 65001, false, "10.0.0.1");
  std::unique_ptr<OutputFilterStage> filter;
  std::unique_ptr<RecordingStage> rec;
};

TEST_F(OutputFilterTest, NothingBackToItsSource) {
  Build(1, Config(65001, "10.0.0.254"));
  in.announce(Route("1.0.0.0/8", {.path = {65001}}, ebgp_src));
  EXPECT_TRUE(rec->events().empty());
  EXPECT_EQ(filter->counters().to_source, 1u);
}

TEST_F(OutputFilterTest, EbgpPrependsSetsNexthopAndStrips) {
  Build(2, Config(65002, "10.0.1.254"));
  in.announce(Route("1.0.0.0/8",
                    {.path = {65001, 7},
                     .med = 5,
                     .local_pref = 200,
                     .originator_id = "1.1.1.1",
                     .cluster_list = 2},
                    ebgp_src));
  ASSERT_EQ(rec->events().size(), 1u);
  const PathAttributes& a = rec->events()[0].route->path();
  EXPECT_EQ(a.as_path->ToString(), "65000 65001 7");
  EXPECT_EQ(*a.next_hop, A("10.0.1.254"));
  EXPECT_FALSE(a.local_pref);
  EXPECT_FALSE(a.med);
  EXPECT_FALSE(a.originator_id());
  EXPECT_TRUE(a.cluster_list().empty());
  // An IPv6 route has no IPv6 local address: not sent.
  in.announce(Route("2001:db8::/32", {.path = {65001}, .next_hop = "2001:db8::1"}, ebgp_src));
  EXPECT_EQ(filter->counters().no_nexthop, 1u);
  in.withdraw(P("1.0.0.0/8"));
  EXPECT_TRUE(rec->violations().empty());
  EXPECT_TRUE(rec->CheckLookups().ok());
}

TEST_F(OutputFilterTest, IbgpRules) {
  Build(3, Config(kLocalAs, "10.0.2.254"));
  PeerRef ibgp_src = Peer(4, kLocalAs, true, "10.0.0.4");
  PeerIn ibgp_in{4};
  ibgp_in.set_next(filter.get());
  ibgp_in.announce(Route("2.0.0.0/8", {.path = {7}}, ibgp_src));
  EXPECT_EQ(filter->counters().ibgp_to_ibgp, 1u);
  in.announce(Route("1.0.0.0/8", {.path = {65001}, .med = 5}, ebgp_src));
  ASSERT_EQ(rec->events().size(), 1u);
  const PathAttributes& a = rec->events()[0].route->path();
  EXPECT_EQ(a.as_path->ToString(), "65001");   // no prepend inside the AS
  EXPECT_EQ(*a.next_hop, A("192.0.2.1"));      // unchanged
  EXPECT_EQ(a.local_pref, kDefaultLocalPref);  // always sent to iBGP
  EXPECT_EQ(a.med, 5u);
}

TEST_F(OutputFilterTest, NextHopSelfAndExportPolicy) {
  PipelinePeerConfig c = Config(kLocalAs, "10.0.2.254", /*nh_self=*/true);
  c.export_policy = [](const BgpRouteRef& r) { return r->prefix.len() == 8 ? r : nullptr; };
  Build(3, std::move(c));
  in.announce(Route("1.0.0.0/8", {.path = {65001}}, ebgp_src));
  in.announce(Route("1.1.0.0/16", {.path = {65001}}, ebgp_src));
  ASSERT_EQ(rec->events().size(), 1u);
  EXPECT_EQ(*rec->events()[0].route->path().next_hop, A("10.0.2.254"));
  EXPECT_EQ(filter->counters().policy_rejected, 1u);
}

TEST_F(OutputFilterTest, WithdrawByPrefixSkipsTheRewriteNotTheVerdict) {
  Build(2, Config(65002, "10.0.1.254"));
  filter->set_withdraw_by_prefix(true);
  in.announce(Route("1.0.0.0/8", {.path = {65001}}, ebgp_src));
  in.announce(Route("2001:db8::/32", {.path = {65001}, .next_hop = "2001:db8::1"}, ebgp_src));
  in.withdraw(P("1.0.0.0/8"));
  in.withdraw(P("2001:db8::/32"));  // never sent (no IPv6 local address): no withdrawal
  ASSERT_EQ(rec->events().size(), 2u);
  EXPECT_EQ(rec->events()[0].route->path().as_path->ToString(), "65000 65001");
  const auto& del = rec->events()[1];
  EXPECT_EQ(del.op, RecordingStage::Op::kDelete);
  EXPECT_EQ(del.route->prefix, P("1.0.0.0/8"));
  EXPECT_EQ(del.route->path().as_path->ToString(), "65001");  // the parent's, not rewritten
  EXPECT_EQ(filter->counters().no_nexthop, 1u);               // the add's; deletes count nothing
  EXPECT_TRUE(rec->current().empty());
}

TEST_F(OutputFilterTest, WithdrawByPrefixUnderAnExportPolicyIsTheFullExport) {
  PipelinePeerConfig c = Config(65002, "10.0.1.254");
  c.export_policy = [](const BgpRouteRef& r) { return r->prefix.len() == 8 ? r : nullptr; };
  Build(2, std::move(c));
  filter->set_withdraw_by_prefix(true);
  in.announce(Route("1.0.0.0/8", {.path = {65001}}, ebgp_src));
  in.announce(Route("1.1.0.0/16", {.path = {65001}}, ebgp_src));
  in.withdraw(P("1.0.0.0/8"));
  in.withdraw(P("1.1.0.0/16"));  // the policy dropped its add: no withdrawal
  EXPECT_EQ(rec->EventStrings(), (std::vector<std::string>{"+1.0.0.0/8 p1", "-1.0.0.0/8 p1"}));
  EXPECT_TRUE(rec->violations().empty());  // the delete is the add's rewritten route
}

class PeerOutTest : public ::testing::Test {
 protected:
  PeerOutTest() : out(2, sink, &in, 3, [this](bool busy) { flow.push_back(busy); }) {
    in.set_next(&out);
  }
  PeerIn in{1};
  PeerRef src = Peer(1, 65001, false, "10.0.0.1");
  test_util::FakeSessionSink sink;
  std::vector<bool> flow;
  PeerOut out;
};

TEST_F(PeerOutTest, GroupsByAttributeSetAndCoalesces) {
  in.announce(Route("1.0.0.0/8", {.path = {1}}, src));
  in.announce(Route("2.0.0.0/8", {.path = {2}}, src));
  in.announce(Route("2.0.0.0/8", {.path = {1}}, src));  // same prefix: newest wins
  EXPECT_EQ(out.pending(), 2u);
  out.flush();
  ASSERT_EQ(sink.batches.size(), 1u);
  ASSERT_EQ(sink.batches[0].announcements.size(), 1u);  // equal sets by value share a group
  EXPECT_EQ(sink.batches[0].announcements[0].prefixes.size(), 2u);
  in.withdraw(P("1.0.0.0/8"));
  in.announce(Route("3.0.0.0/8", {.path = {1}}, src));
  in.withdraw(P("3.0.0.0/8"));
  out.flush();
  EXPECT_EQ(sink.batches[1].withdrawals.size(), 2u);
  EXPECT_EQ(sink.table.size(), 1u);
  EXPECT_EQ(out.counters().advertised, 1u);
}

TEST_F(PeerOutTest, OneChangeIsOneGroupOrOneWithdrawal) {
  in.announce(Route("1.0.0.0/8", {.path = {1}}, src));
  out.flush();
  ASSERT_EQ(sink.batches.size(), 1u);
  ASSERT_EQ(sink.batches[0].announcements.size(), 1u);
  EXPECT_EQ(sink.batches[0].announcements[0].prefixes, std::vector<IpPrefix>{P("1.0.0.0/8")});
  EXPECT_EQ(sink.batches[0].announcements[0].family, Family::kIpv4);
  EXPECT_EQ(sink.batches[0].announcements[0].attrs->attrs().as_path->ToString(), "1");
  EXPECT_TRUE(sink.batches[0].withdrawals.empty());
  EXPECT_EQ(out.pending(), 0u);
  in.withdraw(P("1.0.0.0/8"));
  out.flush();
  ASSERT_EQ(sink.batches.size(), 2u);
  EXPECT_TRUE(sink.batches[1].announcements.empty());
  EXPECT_EQ(sink.batches[1].withdrawals, std::vector<IpPrefix>{P("1.0.0.0/8")});
  EXPECT_TRUE(sink.table.empty());
  EXPECT_EQ(out.counters().announcements_sent, 1u);
  EXPECT_EQ(out.counters().withdrawals_sent, 1u);
  EXPECT_EQ(out.counters().batches_sent, 2u);
  out.flush();  // nothing pending: nothing sent
  EXPECT_EQ(sink.batches.size(), 2u);
}

TEST_F(PeerOutTest, RespectsFlowControl) {
  sink.is_busy = true;
  in.announce(Route("1.0.0.0/8", {.path = {1}}, src));
  out.flush();
  EXPECT_TRUE(sink.batches.empty());
  EXPECT_EQ(flow, std::vector<bool>{true});
  EXPECT_TRUE(out.blocked());
  out.sink_ready();  // still busy: nothing
  EXPECT_TRUE(sink.batches.empty());
  sink.is_busy = false;
  out.sink_ready();
  EXPECT_EQ(sink.batches.size(), 1u);
  EXPECT_EQ(flow, (std::vector<bool>{true, false}));
  // A full batch flushes on its own.
  for (int i = 0; i < 3; ++i) {
    in.announce(Route("2.0." + std::to_string(i) + ".0/24", {.path = {1}}, src));
  }
  EXPECT_EQ(sink.batches.size(), 2u);
  EXPECT_EQ(out.pending(), 0u);
}

}  // namespace
}  // namespace strata::bgp
