// Redistribution from the RIB into BGP between two in-process speakers (bgp.a AS 65001 on
// 127.0.0.2, bgp.b AS 65002 on 127.0.0.3) with real RIBs via the Finder: a static route added to
// rib.a reaches b only while a's export policy accepts `protocol static`, and is withdrawn when
// the static route is deleted or redistribution is turned off.
#include <gtest/gtest.h>

#include "bgp/process/speaker_pair_fixture.h"
#include "rib/proto_convert.h"

namespace strata::bgp {
namespace {

using namespace speaker_test;

// Port range of this test: 12450..12499.
constexpr uint16_t kPort = 12450;

class RedistributeProcessTest : public SpeakerPairTest {
 protected:
  Status Static(std::string_view prefix, bool add = true) {
    return RibStatic("a", prefix, "127.0.0.2", add);
  }
  Status Network(std::string_view prefix) { return SpeakerPairTest::Network("a", prefix); }
  Status Redistribute(const std::vector<std::string>& protocols) {
    bpb::SetRedistributeRequest req;
    for (const auto& p : protocols) req.add_protocols(p);
    return Bgp<bpb::SetRedistributeRequest, bpb::SetRedistributeReply>("a", "set_redistribute",
                                                                       req);
  }
  // a's export policy "out": routes within 10.0.0.0/8 of `protocol` are accepted, others not.
  Status ExportOnly(const std::string& protocol) {
    bpb::DefinePolicyRequest def;
    def.set_name("out");
    auto* t = def.add_terms();
    auto* m = t->add_prefixes();
    rib::PrefixToProto(P("10.0.0.0/8"), m->mutable_prefix());
    m->set_ge(8);
    m->set_le(32);
    t->add_protocols(protocol);
    t->set_action(bpb::POLICY_ACTION_ACCEPT);
    def.set_default_action(bpb::POLICY_ACTION_REJECT);
    return Bgp<bpb::DefinePolicyRequest, bpb::DefinePolicyReply>("a", "define_policy", def);
  }
  // b's RIB ebgp table, prefixes.
  std::vector<std::string> RibB() {
    const rpb::ListRoutesReply rep = RibRoutes("b", "ebgp");
    std::vector<std::string> out;
    for (const auto& r : rep.routes()) {
      out.push_back((*rib::PrefixFromProto(r.prefix(), "p")).ToString());
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  // b resolves a's next hop (127.0.0.2) through the loopback IGP route; a's own is outside 10/8.
  void Pair(uint16_t port) {
    StartPair([](BgpProcess::Options& o) { o.rib_wait = 100ms; });
    ConfigureSide("a", port);
    ConfigureSide("b", port);
    ASSERT_TRUE(ExportOnly("static").ok());
    bpb::SetPeerPolicyRequest sp;
    rib::AddrToProto(A("127.0.0.3"), sp.mutable_peer());
    sp.set_direction("export");
    sp.set_policy("out");
    ASSERT_TRUE(Bgp("a", "set_peer_policy", sp).ok());
    ASSERT_TRUE(env_.RunUntil([&] { return PairEstablished(); }, 15s));
  }
};

using V = std::vector<std::string>;

TEST_F(RedistributeProcessTest, StaticRouteAdvertisedOnlyWhileExportPolicyAcceptsStatic) {
  Pair(kPort);
  ASSERT_TRUE(Static("10.5.0.0/16").ok());   // in the RIB before redistribution is on
  ASSERT_TRUE(Network("10.9.0.0/16").ok());  // protocol "bgp": the policy rejects it
  ASSERT_TRUE(Redistribute({"static"}).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.5.0.0/16"}; }));
  ASSERT_TRUE(Static("10.6.0.0/16").ok());  // added while redistributing
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.5.0.0/16", "10.6.0.0/16"}; }));
  EXPECT_EQ(procs_["a"]->speaker().redistributed().at(P("10.5.0.0/16")).protocol, "static");

  // The static route deleted from the RIB: withdrawn.
  ASSERT_TRUE(Static("10.5.0.0/16", false).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.6.0.0/16"}; }));

  // The export policy now accepts only "bgp": the network goes, the static route not.
  ASSERT_TRUE(ExportOnly("bgp").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.9.0.0/16"}; }));
  ASSERT_TRUE(ExportOnly("static").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.6.0.0/16"}; }));

  // Redistribution off: the redistributed route is withdrawn.
  ASSERT_TRUE(Redistribute({}).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB().empty(); }));
  EXPECT_TRUE(procs_["a"]->speaker().redistributed().empty());
}

// add_network wins over a redistributed route of the same prefix; deleting the network brings
// the redistributed one back.
TEST_F(RedistributeProcessTest, NetworkWinsOverRedistributedRoute) {
  Pair(kPort + 1);
  ASSERT_TRUE(Redistribute({"static"}).ok());
  ASSERT_TRUE(Static("10.5.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.5.0.0/16"}; }));
  ASSERT_TRUE(Network("10.5.0.0/16").ok());  // now protocol "bgp": rejected by the policy
  ASSERT_TRUE(env_.RunUntil([&] { return RibB().empty(); }));
  bpb::NetworkRequest del;
  rib::PrefixToProto(P("10.5.0.0/16"), del.mutable_prefix());
  ASSERT_TRUE((Bgp<bpb::NetworkRequest, bpb::NetworkReply>("a", "delete_network", del)).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.5.0.0/16"}; }));
}

}  // namespace
}  // namespace strata::bgp
