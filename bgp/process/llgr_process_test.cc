// Long-lived graceful restart (RFC 9494) between two in-process speakers (bgp.a AS 65001 on
// 127.0.0.2, bgp.b AS 65002 on 127.0.0.3, BgpSpeakerTest) with their RIBs over loopback TCP:
// b keeps a's routes through a's restart time, then marked LLGR_STALE for the long-lived stale
// time, and withdraws them when it ends; a peer back in time refreshes them and End-of-RIB
// sweeps the rest.
#include <netinet/in.h>
#include <sys/socket.h>

#include "testing/bgp/bgp_speaker_test_fixture.h"
#include "testing/bgp/drop_tcp.h"

namespace strata::bgp::speaker_test {
namespace {

// Ports 12850..12859 (apart from the other process tests: ctest runs them at once).
constexpr uint16_t kLlgrPort = 12850;

class LlgrProcessTest : public BgpSpeakerTest {
 protected:
  // a advertises a 1 s restart time and `a_llst`; b keeps long-lived stale routes up to 60 s.
  void Configure(const std::string& vr, uint16_t port, uint32_t llst,
                 const std::vector<std::string>& networks = {}) {
    const bool a = vr == "a";
    bpb::SetLocalConfigRequest lc;
    lc.set_local_as(a ? 65001 : 65002);
    ipc::AddrToProto(A(a ? "127.0.0.2" : "127.0.0.3"), lc.mutable_router_id());
    ipc::AddrToProto(A(a ? "127.0.0.2" : "127.0.0.3"), lc.mutable_listen_address());
    lc.set_port(port);
    lc.set_graceful_restart_time(1);
    ASSERT_TRUE(
        (Bgp<bpb::SetLocalConfigRequest, bpb::SetLocalConfigReply>(vr, "set_local_config", lc))
            .ok());
    for (const auto& n : networks) ASSERT_TRUE(Network(vr, n).ok());
    ASSERT_TRUE(AddPeer(vr, a ? "127.0.0.3" : "127.0.0.2", a ? 65002 : 65001,
                        a ? "127.0.0.2" : "127.0.0.3", port,
                        [llst](bpb::AddPeerRequest& r) { r.set_long_lived_stale_time(llst); })
                    .ok());
  }
  void LlgrPair(uint16_t port, uint32_t a_llst) {
    for (const char* vr : {"a", "b"}) {
      env_.StartRib(vr);
      AddLoopbackIgp(vr);
      StartBgp(vr);
    }
    Configure("a", port, a_llst);
    Configure("b", port, 60);
    ASSERT_TRUE(env_.RunUntil([&] { return Established(); }, 15s));
  }
  bool Established() {
    return PeerState("a", "127.0.0.3") == "Established" &&
           PeerState("b", "127.0.0.2") == "Established";
  }
  bpb::PeerStatus B() { return Peer("b", "127.0.0.2"); }
  // b's routes from a: "prefix communities...".
  std::vector<std::string> RoutesAtB() {
    bpb::ListRoutesReply rep;
    EXPECT_TRUE(Bgp("b", "list_routes", bpb::ListRoutesRequest(), &rep).ok());
    std::vector<std::string> out;
    for (const auto& r : rep.routes()) {
      std::string s = (*ipc::PrefixFromProto(r.prefix(), "p")).ToString();
      for (const auto& c : r.communities()) s += " " + c;
      out.push_back(s);
    }
    return out;
  }
  // a goes away without a NOTIFICATION and stays away.
  void KillA(uint16_t port) {
    ASSERT_GT(DropTcp(port), 0);
    ASSERT_TRUE(env_.RunUntil([&] { return PeerState("b", "127.0.0.2") != "Established"; }));
    procs_.erase("a");
    env_.DropRouter("bgp.a");
  }
};

TEST_F(LlgrProcessTest, RoutesStayLlgrStaleForTheLongLivedStaleTimeThenGo) {
  LlgrPair(kLlgrPort, /*a_llst=*/3);
  bpb::PeerStatus b = B();
  EXPECT_TRUE(b.long_lived_graceful_restart());
  EXPECT_EQ(b.long_lived_stale_time(), 60u);
  EXPECT_FALSE(b.has_llgr_time_left());
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(Network("a", "10.2.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b", "ebgp").size() == 2; }));

  KillA(kLlgrPort);
  // The 1 s restart time ends: the routes stay, marked LLGR_STALE, installed in the RIB.
  ASSERT_TRUE(env_.RunUntil([&] { return B().llgr_stale_routes() == 2; }, 5s));
  b = B();
  EXPECT_EQ(b.stale_routes(), 2u);
  EXPECT_TRUE(b.peer_restarting());
  ASSERT_TRUE(b.has_llgr_time_left());
  EXPECT_LE(b.llgr_time_left(), 3u);  // a's 3 s (smaller than b's 60 s)
  EXPECT_EQ(RoutesAtB(), (std::vector<std::string>{"10.1.0.0/16 65535:6", "10.2.0.0/16 65535:6"}));
  EXPECT_EQ(RibTable("b", "ebgp").size(), 2u);

  // The long-lived stale time ends with a still away: withdrawn.
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b", "ebgp").empty(); }, 8s));
  b = B();
  EXPECT_EQ(b.stale_routes(), 0u);
  EXPECT_EQ(b.llgr_stale_routes(), 0u);
  EXPECT_FALSE(b.has_llgr_time_left());
  EXPECT_FALSE(b.peer_restarting());
}

TEST_F(LlgrProcessTest, ThePeerBackRefreshesItsRoutesAndEndOfRibSweepsTheRest) {
  LlgrPair(kLlgrPort + 1, /*a_llst=*/60);
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(Network("a", "10.2.0.0/16").ok());
  // b's route in a's RIB makes a a restarting speaker when it comes back (F bits set).
  ASSERT_TRUE(Network("b", "10.9.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil(
      [&] { return RibTable("b", "ebgp").size() == 2 && RibTable("a", "ebgp").size() == 1; }));
  KillA(kLlgrPort + 1);
  ASSERT_TRUE(env_.RunUntil([&] { return B().llgr_stale_routes() == 2; }, 5s));

  // a comes back (its RIB kept) with 10.1 only: b keeps the stale routes until a's End-of-RIB.
  StartBgp("a");
  Configure("a", kLlgrPort + 1, 60, {"10.1.0.0/16"});
  ASSERT_TRUE(env_.RunUntil([&] { return Established(); }, 15s));
  ASSERT_TRUE(env_.RunUntil([&] { return B().stale_routes() == 0; }, 10s));
  // 10.1 fresh (no LLGR_STALE), 10.2 swept; 10.9 is b's own.
  EXPECT_EQ(RoutesAtB(), (std::vector<std::string>{"10.1.0.0/16", "10.9.0.0/16"}));
  EXPECT_EQ(B().llgr_stale_routes(), 0u);
  EXPECT_FALSE(B().has_llgr_time_left());
}

TEST_F(LlgrProcessTest, WithoutLlgrOnOneSideTheRoutesGoAfterTheRestartTime) {
  LlgrPair(kLlgrPort + 2, /*a_llst=*/0);
  EXPECT_FALSE(B().long_lived_graceful_restart());
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b", "ebgp").size() == 1; }));
  KillA(kLlgrPort + 2);
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b", "ebgp").empty(); }, 5s));
  EXPECT_EQ(B().llgr_stale_routes(), 0u);
}

}  // namespace
}  // namespace strata::bgp::speaker_test
