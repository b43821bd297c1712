// Redistribution from the RIB into BGP between two in-process speakers (bgp.a AS 65001 on
// 127.0.0.2, bgp.b AS 65002 on 127.0.0.3) with real RIBs via the Finder: a static route added to
// rib.a reaches b only while a's export policy accepts `protocol static`, and is withdrawn when
// the static route is deleted or neither `redistribute` nor an export policy names static.
// Connected routes come from the interfaces a FakeFea reports to rib.a (as in rib_service_test).
// When rib.a dies bgp.a keeps its
// redistributed routes, stale, still advertised; a new RIB (empty, as strata-rib after a crash,
// then configured again) gets a new subscription, and after its dump only the routes it lacks are
// withdrawn; without a new RIB they go after the stale time.
#include <gtest/gtest.h>

#include <algorithm>

#include "libipc/common_convert.h"
#include "testing/bgp/speaker_pair_fixture.h"
#include "testing/rib/fake_fea.h"

namespace strata::bgp {
namespace {

using namespace speaker_test;

// Port range of this test: 12450..12499, 12800..12849 and 12900..12949.
constexpr uint16_t kPort = 12450;
constexpr uint16_t kPort2 = 12800;
constexpr uint16_t kPort3 = 12900;

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
    ipc::PrefixToProto(P("10.0.0.0/8"), m->mutable_prefix());
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
      out.push_back((*ipc::PrefixFromProto(r.prefix(), "p")).ToString());
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  // b resolves a's next hop (127.0.0.2) through the loopback IGP route; a's own is outside 10/8.
  void Pair(uint16_t port, RedistTimers redist = {}) {
    StartPair([&](BgpProcess::Options& o) {
      o.rib_wait = 100ms;
      o.redist = redist;
    });
    ConfigureSide("a", port);
    ConfigureSide("b", port);
    ASSERT_TRUE(ExportOnly("static").ok());
    bpb::SetPeerPolicyRequest sp;
    ipc::AddrToProto(A("127.0.0.3"), sp.mutable_peer());
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
    ipc::AddrToProto(A(addr), a->mutable_address());
    common::v1::IpAddress bytes;
    ipc::AddrToProto(A(addr), &bytes);
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

// Adding a protocol to the subscription renews it without a flap: b never loses the static route
// while the connected one joins it; dropping "connected" withdraws only the connected route.
TEST_F(RedistributeProcessTest, ChangingTheProtocolsDoesNotFlapTheOthers) {
  Pair(kPort + 2);
  ASSERT_TRUE(ExportOnly("static").ok());
  ASSERT_TRUE(Redistribute({"static"}).ok());
  ASSERT_TRUE(Static("10.5.0.0/16").ok());
  StartFea(Ifc("eth1", "10.44.0.1", true));
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.5.0.0/16"}; }));
  ASSERT_TRUE(env_.RunUntil([&] { return Redistributed().size() == 2; }));  // + 127/8 static

  ASSERT_TRUE(Redistribute({"connected", "static"}).ok());
  bool lost = false;
  ASSERT_TRUE(env_.RunUntil([&] {
    const V now = RibB();
    if (std::find(now.begin(), now.end(), "10.5.0.0/16") == now.end()) lost = true;
    const V redist = Redistributed();
    return std::find(redist.begin(), redist.end(), "10.44.0.0/24 connected") != redist.end();
  })) << ::testing::PrintToString(Redistributed());
  env_.Run(300ms);
  EXPECT_FALSE(lost);
  EXPECT_EQ(RibB(), V{"10.5.0.0/16"});  // the policy still accepts only static

  ASSERT_TRUE(Redistribute({"static"}).ok());
  ASSERT_TRUE(env_.RunUntil([&] {
    return Redistributed() == V{"10.5.0.0/16 static", "127.0.0.0/8 static"};
  })) << ::testing::PrintToString(Redistributed());
  EXPECT_EQ(RibB(), V{"10.5.0.0/16"});
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
  ipc::PrefixToProto(P("10.5.0.0/16"), del.mutable_prefix());
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

// rib.a dies: bgp.a keeps its routes (stale, still advertised). A new, empty one starts; its
// static table and routes are configured again after bgp.a has subscribed to it and its dump is
// done (as rtrmgr does after strata-rib restarts), within the settle time. bgp.a then withdraws
// only the route not configured again; the one the new RIB has again is not injected again.
TEST_F(RedistributeProcessTest, SubscribesAgainWhenTheRibRestarts) {
  Pair(kPort2 + 1, {.stale_time = 30s, .settle = 2s});
  ASSERT_TRUE(Redistribute({"static"}).ok());
  ASSERT_TRUE(Static("10.5.0.0/16").ok());
  ASSERT_TRUE(Static("10.6.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.5.0.0/16", "10.6.0.0/16"}; }));

  env_.StopRib("a");
  ASSERT_TRUE(env_.RunUntil([&] { return procs_["a"]->redist().stale() == 3; }));
  env_.Run(300ms);
  // Without the RIB bgp.a still redistributes what it had; b keeps it and heard nothing.
  EXPECT_EQ(Redistributed(), (V{"10.5.0.0/16 static", "10.6.0.0/16 static", "127.0.0.0/8 static"}));
  EXPECT_EQ(RibB(), (V{"10.5.0.0/16", "10.6.0.0/16"}));

  env_.StartRib("a");
  env_.Run(500ms);  // bgp.a learns of the new RIB, subscribes, gets its (empty) dump
  EXPECT_FALSE(procs_["a"]->redist().subscription() == std::nullopt);
  // Swept only after the settle time: the dump alone withdrew nothing. (b may lose them for a
  // while all the same: their next hop 127.0.0.2 is unreachable in the new RIB until the
  // loopback IGP route is back, a next hop resolution matter, not redistribution's.)
  EXPECT_EQ(procs_["a"]->redist().stale(), 3u);
  EXPECT_EQ(Redistributed(), (V{"10.5.0.0/16 static", "10.6.0.0/16 static", "127.0.0.0/8 static"}));
  AddLoopbackIgp("a");
  ASSERT_TRUE(Static("10.6.0.0/16").ok());
  ASSERT_TRUE(Static("10.7.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return procs_["a"]->redist().stale() == 1; }));
  ASSERT_TRUE(env_.RunUntil(
      [&] {
        return RibB() == V{"10.6.0.0/16", "10.7.0.0/16"};
      },
      10s))
      << ::testing::PrintToString(RibB());
  EXPECT_EQ(procs_["a"]->redist().stale(), 0u);
  EXPECT_EQ(Redistributed(), (V{"10.6.0.0/16 static", "10.7.0.0/16 static", "127.0.0.0/8 static"}));
  // The subscription is live: later changes still arrive.
  ASSERT_TRUE(Static("10.6.0.0/16", false).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.7.0.0/16"}; }));
  EXPECT_TRUE(PairEstablished());
}

// rib.a dies and does not come back: its routes stay advertised for the stale time, then go.
TEST_F(RedistributeProcessTest, StaleRoutesGoWhenTheRibStaysAway) {
  Pair(kPort3, {.stale_time = 1500ms, .settle = 2s});
  ASSERT_TRUE(Redistribute({"static"}).ok());
  ASSERT_TRUE(Static("10.5.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.5.0.0/16"}; }));

  env_.StopRib("a");
  env_.Run(700ms);
  EXPECT_EQ(RibB(), V{"10.5.0.0/16"});
  EXPECT_EQ(procs_["a"]->redist().stale(), 2u);  // with 127.0.0.0/8
  ASSERT_TRUE(env_.RunUntil([&] { return RibB().empty(); }, 5s));
  EXPECT_TRUE(Redistributed().empty());
  EXPECT_EQ(procs_["a"]->redist().stale(), 0u);
  EXPECT_TRUE(PairEstablished());
}

}  // namespace
}  // namespace strata::bgp
