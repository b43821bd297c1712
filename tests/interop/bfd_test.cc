// BFD with FRR and BIRD: strata-bfd (started by the rtrmgr for a BGP neighbour with `bfd`)
// against FRR's bfdd and bgpd, and against BIRD's bfd and bgp protocols, and what it buys: the
// time from a cut to BGP's route leaving the kernel.
//
//   peer (AS 65001) 10.200.1.1 --link 1-- [switch: bridge] --link 2-- 10.200.1.3 Strata (AS 65000)
//
// The switch namespace bridges the two links, so that a cut between the peer and the switch (its
// port set down) leaves Strata's own link up with its carrier: only BFD, or BGP's hold time, can
// tell Strata that the peer is gone, as with a failure beyond a real switch. The peer originates
// 10.201.0.0/24;
// Strata (VR "bfd", kernel table 100) installs it. With `bfd { minimum-interval 100; }` the
// session falls within 3 x 100 ms of the cut (plus the time the last packet was already on its
// way), the BGP session with it (Cease, BFD Down), and the route leaves kernel table 100; without
// BFD it takes the hold time (9 s here). Both times are printed. Binaries: $STRATA_BIN_DIR.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/frr_speaker.h"
#include "testing/interop/interop_fixture.h"
#include "testing/interop/strata_router.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

constexpr const char* kPeerSubnet = "10.201.0.0/24";
constexpr const char* kPeer = "10.200.1.1";
constexpr const char* kStrata = "10.200.1.3";

constexpr const char* kRouterConfig = R"(
interfaces {
    interface @IF@ { description "to the switch"; }
}
policy {
    policy-statement accept-all {
        term all { then { action accept; } }
    }
}
virtual-router bfd {
    table-id 100;
    interface @IF@;
    bgp {
        local-as 65000;
        router-id 10.255.0.10;
        peer 10.200.1.1 {
            as 65001;
            local-address 10.200.1.3;
            hold-time 9;
            import accept-all;
            export accept-all;
@BFD@
        }
    }
}
)";

// The peer's implementation: "frr" or "bird".
class BfdInteropTest : public InteropTest, public ::testing::WithParamInterface<std::string> {
 protected:
  bool Bird() const { return GetParam() == "bird"; }
  void SetUp() override {
    InteropTest::SetUp();
    if (IsSkipped()) return;
    if (Bird()) {
      RequireBinary("/usr/sbin/bird");
    } else {
      RequireBinary("/usr/lib/frr/bfdd");
      RequireBinary("/usr/lib/frr/bgpd");
    }
    if (IsSkipped()) return;
    bin_dir_ = std::filesystem::path(StrataBinariesFromEnv().finder).parent_path().string();
    for (const char* b :
         {"strata-rtrmgr", "strata-fea", "strata-rib", "strata-bgp", "strata-bfd"}) {
      RequireBinary(bin_dir_ + "/" + b);
    }
    if (IsSkipped()) return;
    peer_ns_ = &AddNs("f");
    switch_ns_ = &AddNs("sw");
    strata_ns_ = &AddNs("s");
    peer_link_ = &AddLink(*peer_ns_, *switch_ns_, 1);      // the peer, 10.200.1.1
    strata_link_ = &AddLink(*switch_ns_, *strata_ns_, 2);  // Strata, renumbered to 10.200.1.3
    const std::string sw1 = peer_link_->b_ifname();
    const std::string sw2 = strata_link_->a_ifname();
    const std::string s = strata_link_->b_ifname();
    for (const auto& [ns, cmd] : std::vector<std::pair<NetNs*, std::string>>{
             {switch_ns_, "ip addr flush dev " + sw1 + " && ip addr flush dev " + sw2},
             {switch_ns_, "ip link add br0 type bridge && ip link set br0 up"},
             {switch_ns_,
              "ip link set " + sw1 + " master br0 && ip link set " + sw2 + " master br0"},
             {strata_ns_, "ip addr flush dev " + s + " && ip addr add " + std::string(kStrata) +
                              "/24 dev " + s},
             {strata_ns_, "ip rule add pref 1000 lookup 100"}}) {
      const auto r = ns->Exec({"sh", "-c", cmd});
      ASSERT_TRUE(r.ok()) << cmd << ": " << r.output;
    }
    const std::string strata_dir = dir() + "/strata";
    std::filesystem::create_directories(strata_dir);
    router_ = std::make_unique<StrataRouter>(*strata_ns_, strata_dir, bin_dir_);
  }
  void TearDown() override {
    if (router_) {
      router_->Stop();
      if (HasFailure()) std::cerr << router_->Logs("bfd");
    }
    InteropTest::TearDown();
  }

  BgpSpeaker& StartPeer(bool bfd) {
    SpeakerConfig config{.name = GetParam(),
                         .local_as = 65001,
                         .router_id = "10.255.0.1",
                         .neighbors = {Neighbor{.address = kStrata,
                                                .remote_as = 65000,
                                                .local_address = kPeer,
                                                .bfd_interval_ms = bfd ? 100u : 0u}},
                         .routes = {{.prefix = kPeerSubnet}}};
    BgpSpeaker* peer = nullptr;
    if (Bird()) {
      bird_ = &AddSpeaker<BirdSpeaker>(*peer_ns_, std::move(config));
      peer = bird_;
    } else {
      frr_ = &AddSpeaker<FrrSpeaker>(*peer_ns_, std::move(config));
      peer = frr_;
    }
    EXPECT_OK(peer->Start());
    return *peer;
  }
  Status StartRouter(bool bfd) {
    std::string c = kRouterConfig;
    c.replace(c.find("@IF@"), 4, strata_link_->b_ifname());
    c.replace(c.find("@IF@"), 4, strata_link_->b_ifname());
    c.replace(c.find("@BFD@"), 5,
              bfd ? "            bfd { minimum-interval 100; multiplier 3; }" : "");
    return router_->Start(c);
  }
  json Peer() {
    const json j = router_->Call("finder://bgp.bfd/bgp/1.0/list_peers");
    if (!j.is_object()) return nullptr;
    for (const auto& p : j.value("peers", json::array())) {
      if (p.value("peer", "") == kPeer) return p;
    }
    return nullptr;
  }
  bool Established() {
    const json p = Peer();
    return p.is_object() && p.value("state", "") == "Established";
  }
  bool KernelHasRoute() {
    return strata_ns_->Exec({"ip", "route", "show", "table", "100", kPeerSubnet})
               .output.find(kPeerSubnet) != std::string::npos;
  }
  // The peer's view of its BFD session with Strata ("up", "down", ...; "" when none).
  std::string PeerBfdState() {
    if (bird_ != nullptr) return bird_->BfdState(kStrata);
    const json peers = frr_->BfdPeers();
    if (!peers.is_array()) return "";
    for (const auto& p : peers) {
      if (p.value("peer", "") == kStrata) return p.value("status", "");
    }
    return "";
  }
  // Cuts the peer off the switch (Strata's link keeps its carrier); the time to the route's end.
  std::chrono::milliseconds CutAndTimeRouteGone(std::chrono::seconds limit) {
    const auto cut = std::chrono::steady_clock::now();
    EXPECT_TRUE(switch_ns_->Exec({"ip", "link", "set", peer_link_->b_ifname(), "down"}).ok());
    while (KernelHasRoute() && std::chrono::steady_clock::now() - cut < limit) {
      std::this_thread::sleep_for(10ms);
    }
    EXPECT_FALSE(KernelHasRoute()) << "still in the kernel after " << limit.count() << " s";
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 cut);
  }

  std::string bin_dir_;
  std::unique_ptr<StrataRouter> router_;
  FrrSpeaker* frr_ = nullptr;
  BirdSpeaker* bird_ = nullptr;
  NetNs* peer_ns_ = nullptr;  // the peer's namespace
  NetNs* switch_ns_ = nullptr;
  NetNs* strata_ns_ = nullptr;
  VethLink* peer_link_ = nullptr;
  VethLink* strata_link_ = nullptr;
};

TEST_P(BfdInteropTest, BfdTakesTheBgpSessionAndItsRouteDownWithinTheDetectionTime) {
  BgpSpeaker& peer = StartPeer(true);
  ASSERT_OK(StartRouter(true));
  ASSERT_TRUE(PollUntil([&] { return Established(); }, 40s)) << peer.Logs();
  ASSERT_TRUE(PollUntil([&] { return KernelHasRoute(); }, 20s));
  // The BFD session up on both sides, at the peer's and our 100 ms.
  ASSERT_TRUE(PollUntil([&] { return PeerBfdState() == "up"; }, 20s)) << peer.Logs();
  ASSERT_TRUE(PollUntil([&] { return Peer().value("bfd", "") == "up"; }, 10s)) << Peer().dump();
  const json sessions = router_->Call("finder://bfd/bfd/1.0/list_sessions");
  ASSERT_TRUE(sessions.is_object()) << router_->Logs("bfd");
  ASSERT_EQ(sessions.value("sessions", json::array()).size(), 1u) << sessions.dump();
  const json& s = sessions["sessions"][0];
  EXPECT_EQ(s.value("state", ""), "SESSION_STATE_UP");
  EXPECT_EQ(s.value("detection_time_ms", 0u), 300u) << s.dump();
  EXPECT_EQ(s.value("clients", json::array()), json::array({"bgp.bfd"}));
  const auto sh = router_->Exec({"strata-sh", "-c", "show bfd sessions"});
  EXPECT_NE(sh.output.find(kPeer), std::string::npos) << sh.output;
  EXPECT_NE(sh.output.find("Up"), std::string::npos) << sh.output;

  const auto took = CutAndTimeRouteGone(5s);
  std::cout << GetParam()
            << ": link cut to route gone from the kernel, with BFD at 100 ms x 3: " << took.count()
            << " ms\n";
  EXPECT_LT(took, 1000ms) << "3 x 100 ms detection, then BGP and the RIB/FEA";
  const json p = Peer();
  EXPECT_NE(p.value("state", ""), "Established");
  EXPECT_NE(p.value("last_error", "").find("BFD"), std::string::npos) << p.dump();
  EXPECT_NE(p.value("bfd", "").find("down"), std::string::npos) << p.dump();

  // The link back: BFD and BGP up again, the route back.
  ASSERT_TRUE(switch_ns_->Exec({"ip", "link", "set", peer_link_->b_ifname(), "up"}).ok());
  EXPECT_TRUE(PollUntil([&] { return Established() && KernelHasRoute(); }, 60s));
  EXPECT_TRUE(PollUntil([&] { return Peer().value("bfd", "") == "up"; }, 20s)) << Peer().dump();
}

TEST_P(BfdInteropTest, WithoutBfdTheHoldTimeDecides) {
  StartPeer(false);
  ASSERT_OK(StartRouter(false));
  ASSERT_TRUE(PollUntil([&] { return Established(); }, 40s));
  ASSERT_TRUE(PollUntil([&] { return KernelHasRoute(); }, 20s));
  EXPECT_EQ(Peer().value("bfd", ""), "");
  const auto took = CutAndTimeRouteGone(20s);
  std::cout << GetParam() << ": link cut to route gone from the kernel, without BFD (hold time "
            << "9 s): " << took.count() << " ms\n";
  EXPECT_GT(took, 5000ms) << "only the hold time can tell";
}

INSTANTIATE_TEST_SUITE_P(Peers, BfdInteropTest, ::testing::Values("frr", "bird"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace strata::interop
