// Redistribution from the RIB into BGP between two in-process speakers (bgp.a AS 65001 on
// 127.0.0.2, bgp.b AS 65002 on 127.0.0.3) with real RIBs via the Finder: a static route added to
// rib.a reaches b only while a's export policy accepts `protocol static`, and is withdrawn when
// the static route is deleted or neither `redistribute` nor an export policy names static.
// Connected routes come from the interfaces a FakeFea reports to rib.a (as in rib_service_test).
// When rib.a dies and a new one starts (empty, as strata-rib after a crash), bgp.a subscribes again
// and b ends up with what the new RIB has.
#include <gtest/gtest.h>

#include "bgp/process/speaker_pair_fixture.h"
#include "rib/fake_fea.h"
#include "rib/proto_convert.h"

namespace strata::bgp {
namespace {

using namespace speaker_test;

// Port range of this test: 12450..12499, and 12800..12849.
constexpr uint16_t kPort = 12450;
constexpr uint16_t kPort2 = 12800;

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
  // A FEA (FakeFea, target "fea") reporting `ifc`: rib.a watches it and makes connected routes.
  void StartFea(const fea::v1::Interface& ifc) {
    fea_router_ = &env_.NewRouter("fea", [&](ipc::Router& r) {
      fea_ = std::make_unique<rib::FakeFea>(r);
      fea_->set_interface(ifc);
      r.AddTarget("fea", "fea", true).Serve(*fea_);
    });
  }
  // Interface `name` of VR a with address `addr`/24, up or down.
  static fea::v1::Interface Ifc(const std::string& name, const std::string& addr, bool up) {
    fea::v1::Interface ifc;
    ifc.set_name(name);
    ifc.set_up(up);
    ifc.set_vr("a");
    auto* a = ifc.add_addresses();
    rib::AddrToProto(A(addr), a->mutable_address());
    common::v1::IpAddress bytes;
    rib::AddrToProto(A(addr), &bytes);
    a->mutable_prefix()->set_addr(bytes.addr());  // with host bits, as the FEA sends it
    a->mutable_prefix()->set_len(24);
    return ifc;
  }
  // The prefixes bgp.a redistributes.
  std::vector<std::string> Redistributed() {
    std::vector<std::string> out;
    for (const auto& [prefix, route] : procs_["a"]->speaker().redistributed()) {
      out.push_back(prefix.ToString() + " " + route.protocol);
    }
    return out;
  }

  ipc::Router* fea_router_ = nullptr;
  std::unique_ptr<rib::FakeFea> fea_;
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

  // Redistribution off, but the export policy still names `protocol static`: still subscribed
  // (export policies subscribe by themselves), nothing changes.
  ASSERT_TRUE(Redistribute({}).ok());
  env_.Run(300ms);
  EXPECT_EQ(RibB(), V{"10.6.0.0/16"});
  // No export policy names static any more: unsubscribed, the route withdrawn and forgotten.
  ASSERT_TRUE(ExportOnly("bgp").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.9.0.0/16"}; }))
      << ::testing::PrintToString(RibB());
  ASSERT_TRUE(env_.RunUntil([&] { return procs_["a"]->speaker().redistributed().empty(); }));
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

// The connected route of an interface in VR a is redistributed while the interface is up and
// "connected" is asked for.
TEST_F(RedistributeProcessTest, ConnectedRoutesOfInterfacesAreRedistributed) {
  Pair(kPort2);
  ASSERT_TRUE(ExportOnly("connected").ok());
  ASSERT_TRUE(Redistribute({"connected", "static"}).ok());
  ASSERT_TRUE(Static("10.5.0.0/16").ok());  // static, rejected by the policy
  StartFea(Ifc("eth1", "10.44.0.1", true));
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.44.0.0/24"}; }))
      << ::testing::PrintToString(RibB());
  // The loopback IGP route is static too (the policy rejects it).
  EXPECT_EQ(Redistributed(),
            (V{"10.5.0.0/16 static", "10.44.0.0/24 connected", "127.0.0.0/8 static"}));

  // The interface goes down: its route is withdrawn; up again: back.
  fea_->send_interface(Ifc("eth1", "10.44.0.1", false));
  ASSERT_TRUE(env_.RunUntil([&] { return RibB().empty(); }));
  fea_->send_interface(Ifc("eth1", "10.44.0.1", true));
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.44.0.0/24"}; }));

  // Neither `redistribute` nor the export policy names connected any more: the connected route
  // goes (an export policy matching `protocol connected` would keep it subscribed).
  ASSERT_TRUE(Redistribute({"static"}).ok());
  ASSERT_TRUE(ExportOnly("bgp").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB().empty(); }));
  ASSERT_TRUE(env_.RunUntil([&] {
    return Redistributed() == V{"10.5.0.0/16 static", "127.0.0.0/8 static"};
  })) << ::testing::PrintToString(Redistributed());
}

// rib.a dies and a new, empty one starts; its static table and routes are configured again after
// bgp.a has subscribed to it (as rtrmgr does after strata-rib restarts). b ends up with the new
// RIB's routes: the one not configured again is withdrawn.
TEST_F(RedistributeProcessTest, SubscribesAgainWhenTheRibRestarts) {
  Pair(kPort2 + 1);
  ASSERT_TRUE(Redistribute({"static"}).ok());
  ASSERT_TRUE(Static("10.5.0.0/16").ok());
  ASSERT_TRUE(Static("10.6.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.5.0.0/16", "10.6.0.0/16"}; }));

  env_.StopRib("a");
  // Without the RIB bgp.a has nothing to redistribute.
  ASSERT_TRUE(env_.RunUntil([&] { return Redistributed().empty(); }));
  env_.StartRib("a");
  env_.Run(500ms);  // bgp.a learns of the new RIB and subscribes before anything is configured
  AddLoopbackIgp("a");
  ASSERT_TRUE(Static("10.6.0.0/16").ok());
  ASSERT_TRUE(Static("10.7.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil(
      [&] {
        return RibB() == V{"10.6.0.0/16", "10.7.0.0/16"};
      },
      10s))
      << ::testing::PrintToString(RibB());
  EXPECT_EQ(Redistributed(), (V{"10.6.0.0/16 static", "10.7.0.0/16 static", "127.0.0.0/8 static"}));
  // The subscription is live: later changes still arrive.
  ASSERT_TRUE(Static("10.6.0.0/16", false).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.7.0.0/16"}; }));
  EXPECT_TRUE(PairEstablished());
}

}  // namespace
}  // namespace strata::bgp
