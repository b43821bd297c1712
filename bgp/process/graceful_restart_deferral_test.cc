// A restarting speaker's route selection deferral towards its peers (RFC 4724 4.1), with three
// in-process speakers and their RIBs over loopback TCP: a (AS 65001, 127.0.0.2) peers with b
// (65002, 127.0.0.3) and c (65003, 127.0.0.4), all with graceful restart. a dies without a
// NOTIFICATION and comes back; b, its helper, keeps a's routes stale. Until every graceful
// restart peer of a sent End-of-RIB (or a's selection deferral timer ends) b gets nothing from
// a, then a's table once followed by End-of-RIB. a's RIB keeps a's stale routes all along, even
// past a's restart time (the RIB's timer is replaced by a's deferral).
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>

#include "bgp/process/bgp_process.h"
#include "libipc/common_convert.h"
#include "libipc/interfaces/bgp.strata.h"
#include "libipc/interfaces/rib.strata.h"
#include "testing/bgp/bgp_test_env.h"
#include "testing/bgp/drop_tcp.h"

namespace strata::bgp {
namespace {

using namespace std::chrono_literals;
namespace bpb = strata::bgp::v1;
namespace rpb = strata::rib::v1;

IpPrefix P(std::string_view s) { return *IpPrefix::Parse(s); }
IpAddr A(std::string_view s) { return *IpAddr::Parse(s); }

struct Speaker {
  uint32_t as;
  const char* addr;
};
const std::map<std::string, Speaker> kSpeakers = {
    {"a", {65001, "127.0.0.2"}}, {"b", {65002, "127.0.0.3"}}, {"c", {65003, "127.0.0.4"}}};

class GracefulRestartDeferralTest : public ::testing::Test {
 protected:
  void SetUp() override { client_ = &env_.NewRouter("client"); }
  void TearDown() override { procs_.clear(); }

  void StartBgp(const std::string& vr) {
    std::unique_ptr<BgpProcess> proc;
    env_.NewRouter("bgp." + vr, [&](ipc::Router& r) {
      BgpProcess::Options o;
      o.vr = vr;
      proc = std::make_unique<BgpProcess>(r, o);
      proc->AddTarget();
    });
    proc->Started();
    procs_[vr] = std::move(proc);
  }
  void KillBgp(const std::string& vr) {
    procs_.erase(vr);
    env_.DropRouter("bgp." + vr);
  }
  template <typename Req, typename Rep = bpb::PeerReply>
  Status Bgp(const std::string& vr, const std::string& method, const Req& req, Rep* out = nullptr) {
    auto [s, rep] = env_.Call<Req, Rep>(*client_, "bgp." + vr, "bgp/1.0/" + method, req);
    if (out) *out = rep;
    return s;
  }
  Status Network(const std::string& vr, std::string_view prefix, bool add = true) {
    bpb::NetworkRequest req;
    ipc::PrefixToProto(P(prefix), req.mutable_prefix());
    return Bgp<bpb::NetworkRequest, bpb::NetworkReply>(vr, add ? "add_network" : "delete_network",
                                                       req);
  }
  // Local config, networks (before the peers, so they precede our End-of-RIB), then peers.
  void Configure(const std::string& vr, const std::vector<std::string>& peers,
                 const std::vector<std::string>& networks) {
    const Speaker& me = kSpeakers.at(vr);
    bpb::SetLocalConfigRequest lc;
    lc.set_local_as(me.as);
    ipc::AddrToProto(A(me.addr), lc.mutable_router_id());
    ipc::AddrToProto(A(me.addr), lc.mutable_listen_address());
    lc.set_port(port_);
    lc.set_graceful_restart_time(restart_time_);
    lc.set_graceful_selection_deferral_time(deferral_time_);
    ASSERT_TRUE(
        (Bgp<bpb::SetLocalConfigRequest, bpb::SetLocalConfigReply>(vr, "set_local_config", lc))
            .ok());
    for (const auto& n : networks) ASSERT_TRUE(Network(vr, n).ok());
    for (const auto& p : peers) {
      const Speaker& other = kSpeakers.at(p);
      bpb::AddPeerRequest req;
      ipc::AddrToProto(A(other.addr), req.mutable_peer());
      req.set_peer_as(other.as);
      ipc::AddrToProto(A(me.addr), req.mutable_local_address());
      req.set_peer_port(port_);
      req.set_connect_retry(1);
      req.set_graceful_restart(true);
      req.set_ebgp_requires_policy(false);
      ASSERT_TRUE((Bgp<bpb::AddPeerRequest, bpb::AddPeerReply>(vr, "add_peer", req)).ok());
    }
  }
  bpb::PeerStatus Peer(const std::string& vr, const std::string& peer) {
    bpb::ListPeersRequest req;
    ipc::AddrToProto(A(kSpeakers.at(peer).addr), req.mutable_peer());
    bpb::ListPeersReply rep;
    if (!Bgp(vr, "list_peers", req, &rep).ok() || rep.peers_size() != 1) return bpb::PeerStatus();
    return rep.peers(0);
  }
  bool Up(const std::string& vr, const std::string& peer) {
    return Peer(vr, peer).state() == "Established";
  }
  Status PeerOp(const std::string& vr, const std::string& peer, const std::string& method) {
    bpb::PeerRequest req;
    ipc::AddrToProto(A(kSpeakers.at(peer).addr), req.mutable_peer());
    return Bgp(vr, method, req);
  }
  bpb::GetStatsReply Stats(const std::string& vr) {
    bpb::GetStatsReply stats;
    EXPECT_TRUE((Bgp<bpb::GetStatsRequest, bpb::GetStatsReply>(vr, "get_stats", {}, &stats)).ok());
    return stats;
  }
  // The RIB's ebgp table: "prefix" or "prefix stale", sorted as text.
  std::vector<std::string> RibTable(const std::string& vr) {
    rpb::ListRoutesRequest req;
    req.set_protocol("ebgp");
    auto [s, rep] = env_.Call<rpb::ListRoutesRequest, rpb::ListRoutesReply>(
        *client_, "rib." + vr, "rib/1.0/list_routes", req);
    std::vector<std::string> out;
    for (const auto& r : rep.routes()) {
      out.push_back((*ipc::PrefixFromProto(r.prefix(), "p")).ToString() +
                    (r.stale() ? " stale" : ""));
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  void AddLoopbackIgp(const std::string& vr) {
    rpb::AddOriginTableRequest t;
    t.set_protocol("static");
    t.set_kind(rpb::PROTOCOL_KIND_IGP);
    ASSERT_TRUE((env_.Call<rpb::AddOriginTableRequest, rpb::AddOriginTableReply>(
                     *client_, "rib." + vr, "rib/1.0/add_origin_table", t))
                    .first.ok());
    rpb::AddRoutesRequest req;
    req.set_protocol("static");
    auto* e = req.add_routes();
    ipc::PrefixToProto(P("127.0.0.0/8"), e->mutable_prefix());
    ipc::AddrToProto(A("127.0.0.1"), e->mutable_nexthop());
    ASSERT_TRUE((env_.Call<rpb::AddRoutesRequest, rpb::AddRoutesReply>(*client_, "rib." + vr,
                                                                       "rib/1.0/add_routes", req))
                    .first.ok());
  }
  // b's session counters for a (b's BgpPeer lives on across a's restart).
  const PeerCounters& BFromA() {
    return procs_["b"]->speaker().peer(A("127.0.0.2"))->session().fsm().counters();
  }

  // Everything up: a originates 10.1 and 10.3, b 10.8, c 10.20; then a dies (no NOTIFICATION)
  // then c's session to a is disabled, so c stays away until the test enables it.
  void RunThenKillA() {
    for (const char* vr : {"a", "b", "c"}) {
      env_.StartRib(vr);
      AddLoopbackIgp(vr);
      StartBgp(vr);
    }
    Configure("a", {"b", "c"}, {"10.1.0.0/16", "10.3.0.0/16"});
    Configure("b", {"a"}, {"10.8.0.0/16"});
    Configure("c", {"a"}, {"10.20.0.0/16"});
    ASSERT_TRUE(env_.RunUntil([&] { return Up("b", "a") && Up("c", "a"); }, 15s));
    ASSERT_TRUE(env_.RunUntil(
        [&] {
          return RibTable("b") ==
                 std::vector<std::string>{"10.1.0.0/16", "10.20.0.0/16", "10.3.0.0/16"};
        },
        10s))
        << ::testing::PrintToString(RibTable("b"));
    ASSERT_TRUE(env_.RunUntil([&] { return RibTable("a").size() == 2; }));
    ASSERT_GT(DropTcp(port_), 0);
    ASSERT_TRUE(env_.RunUntil([&] { return !Up("b", "a") && !Up("c", "a"); }));
    KillBgp("a");
    died_ = std::chrono::steady_clock::now();
    ASSERT_TRUE(PeerOp("c", "a", "disable_peer").ok());
    ASSERT_TRUE(env_.RunUntil([&] {
      return RibTable("a") == std::vector<std::string>{"10.20.0.0/16 stale", "10.8.0.0/16 stale"};
    }));
    EXPECT_EQ(Peer("b", "a").stale_routes(), 3u);
  }
  // a comes back with 10.1, 10.2 and 10.4 (not 10.3) and is established with b, whose
  // End-of-RIB it has; it still waits for c's.
  void RestartA() {
    updates_before_ = BFromA().in(MessageType::kUpdate);
    eor_before_ = BFromA().end_of_rib_in;
    restarted_ = std::chrono::steady_clock::now();
    StartBgp("a");
    Configure("a", {"b", "c"}, {"10.1.0.0/16", "10.2.0.0/16", "10.4.0.0/16"});
    ASSERT_TRUE(env_.RunUntil([&] { return Up("a", "b"); }, 15s));
    families_ = static_cast<uint64_t>(Peer("a", "b").families_size());
    ASSERT_GT(families_, 0u);
    ASSERT_TRUE(env_.RunUntil([&] {
      return static_cast<uint64_t>(Peer("a", "b").end_of_rib_received_size()) == families_;
    }));
    const bpb::GetStatsReply stats = Stats("a");
    EXPECT_TRUE(stats.graceful_restart_restarting());
    ASSERT_EQ(stats.graceful_restart_awaiting_size(), 1);
    EXPECT_EQ(*ipc::AddrFromProto(stats.graceful_restart_awaiting(0), "a"), A("127.0.0.4"));
    EXPECT_GT(stats.graceful_restart_deferral_remaining_s(), 0u);
    EXPECT_LE(stats.graceful_restart_deferral_remaining_s(), deferral_time_);
  }
  // Nothing from a has reached b since a came back (b keeps a's old routes stale, unless a took
  // longer than its restart time to come back: `stale_kept`).
  void ExpectBGotNothing(bool stale_kept = true) {
    EXPECT_EQ(BFromA().in(MessageType::kUpdate), updates_before_);
    EXPECT_EQ(BFromA().end_of_rib_in, eor_before_);
    if (stale_kept) {
      EXPECT_EQ(Peer("b", "a").stale_routes(), 3u);
    }
    const bpb::PeerStatus held = Peer("a", "b");
    EXPECT_TRUE(held.output_deferred());
    EXPECT_EQ(held.output_deferred_routes(), 3u);  // 10.1, 10.2, 10.4
  }

  uint16_t port_ = 0;
  uint32_t restart_time_ = 30;
  uint32_t deferral_time_ = 60;
  std::chrono::steady_clock::time_point died_;
  std::chrono::steady_clock::time_point restarted_;
  uint64_t updates_before_ = 0;
  uint64_t eor_before_ = 0;
  uint64_t families_ = 0;  // negotiated: one End-of-RIB each
  BgpTestEnv env_;
  ipc::Router* client_ = nullptr;
  std::map<std::string, std::unique_ptr<BgpProcess>> procs_;
};

// Ports of this file: 12750..12759 (ctest runs other tests at once).
TEST_F(GracefulRestartDeferralTest, PeersGetNothingUntilEveryEndOfRibThenTheTableOnce) {
  port_ = 12750;
  RunThenKillA();
  RestartA();
  // Churn while deferring: a network comes and goes; b must never hear of it.
  ASSERT_TRUE(Network("a", "10.5.0.0/16").ok());
  env_.Run(200ms);
  ASSERT_TRUE(Network("a", "10.5.0.0/16", false).ok());
  env_.Run(300ms);
  ExpectBGotNothing();
  // a's RIB still has the stale routes: selection towards the RIB is deferred too.
  EXPECT_EQ(RibTable("a"), (std::vector<std::string>{"10.20.0.0/16 stale", "10.8.0.0/16 stale"}));

  // c comes back and sends its table and End-of-RIB: a's selection is done.
  ASSERT_TRUE(PeerOp("c", "a", "enable_peer").ok());
  ASSERT_TRUE(
      env_.RunUntil([&] { return BFromA().end_of_rib_in == eor_before_ + families_; }, 15s));
  // b got a's table once: one UPDATE for a's three networks (one attribute set), one for c's
  // route, then End-of-RIB per family; its sweep dropped 10.3, which a no longer has.
  EXPECT_EQ(BFromA().in(MessageType::kUpdate), updates_before_ + 2 + families_);
  ASSERT_TRUE(env_.RunUntil([&] {
    return RibTable("b") ==
           std::vector<std::string>{"10.1.0.0/16", "10.2.0.0/16", "10.20.0.0/16", "10.4.0.0/16"};
  })) << ::testing::PrintToString(RibTable("b"));
  const bpb::PeerStatus b = Peer("b", "a");
  EXPECT_EQ(b.stale_routes(), 0u);
  EXPECT_EQ(b.prefixes_received(), 4u);
  const bpb::PeerStatus held = Peer("a", "b");
  EXPECT_FALSE(held.output_deferred());
  EXPECT_EQ(procs_["a"]->speaker().peer(A("127.0.0.3"))->output_gate().counters().released_prefixes,
            4u);
  EXPECT_FALSE(Stats("a").graceful_restart_restarting());
  EXPECT_EQ(Stats("a").graceful_restart_awaiting_size(), 0);
  ASSERT_TRUE(env_.RunUntil([&] {
    return RibTable("a") == std::vector<std::string>{"10.20.0.0/16", "10.8.0.0/16"};
  }));
}

// c never comes back: a's selection deferral timer (3 s) releases b. a advertised a restart time
// of 1 s, so its RIB would have swept its stale routes after 1 s; a's registration with its
// deferral made the RIB keep them until a said it was done.
TEST_F(GracefulRestartDeferralTest, DeferralTimerReleasesPeersWhenOneNeverSendsEndOfRib) {
  port_ = 12751;
  restart_time_ = 1;
  deferral_time_ = 3;
  RunThenKillA();
  RestartA();
  env_.Run(std::chrono::duration_cast<std::chrono::milliseconds>(died_ + 2s -
                                                                 std::chrono::steady_clock::now()));
  // b, a's helper, may have dropped a's stale routes: a took longer than the 1 s it advertised.
  ExpectBGotNothing(/*stale_kept=*/false);
  EXPECT_EQ(RibTable("a"), (std::vector<std::string>{"10.20.0.0/16 stale", "10.8.0.0/16 stale"}));
  ASSERT_TRUE(
      env_.RunUntil([&] { return BFromA().end_of_rib_in == eor_before_ + families_; }, 10s));
  EXPECT_GE(std::chrono::steady_clock::now() - restarted_, 2900ms);
  // a's networks in one UPDATE, then End-of-RIB per family.
  EXPECT_EQ(BFromA().in(MessageType::kUpdate), updates_before_ + 1 + families_);
  ASSERT_TRUE(env_.RunUntil([&] {
    return RibTable("b") == std::vector<std::string>{"10.1.0.0/16", "10.2.0.0/16", "10.4.0.0/16"};
  })) << ::testing::PrintToString(RibTable("b"));
  // a's RIB: 10.8 re-learnt, 10.20 (c's, not back) swept at a's graceful_restart_done.
  ASSERT_TRUE(env_.RunUntil([&] {
    return RibTable("a") == std::vector<std::string>{"10.8.0.0/16"};
  })) << ::testing::PrintToString(RibTable("a"));
  EXPECT_FALSE(Stats("a").graceful_restart_restarting());
}

// a and b restart at the same time: each OPEN has the R bit, and each defers its End-of-RIB
// until its selection is done, so neither waits for the other's End-of-RIB (4.1 excludes peers
// that are restarting too): both finish long before their 60 s deferral timers.
TEST_F(GracefulRestartDeferralTest, PeersRestartingTogetherDoNotWaitForEachOther) {
  port_ = 12752;
  for (const char* vr : {"a", "b"}) {
    env_.StartRib(vr);
    AddLoopbackIgp(vr);
    StartBgp(vr);
  }
  Configure("a", {"b"}, {"10.1.0.0/16"});
  Configure("b", {"a"}, {"10.8.0.0/16"});
  ASSERT_TRUE(
      env_.RunUntil([&] { return RibTable("a").size() == 1 && RibTable("b").size() == 1; }, 15s));
  ASSERT_GT(DropTcp(port_), 0);
  KillBgp("a");
  KillBgp("b");
  ASSERT_TRUE(env_.RunUntil([&] {
    return RibTable("a") == std::vector<std::string>{"10.8.0.0/16 stale"} &&
           RibTable("b") == std::vector<std::string>{"10.1.0.0/16 stale"};
  }));
  const auto restarted = std::chrono::steady_clock::now();
  StartBgp("a");
  StartBgp("b");
  Configure("a", {"b"}, {"10.1.0.0/16"});
  Configure("b", {"a"}, {"10.8.0.0/16"});
  ASSERT_TRUE(env_.RunUntil([&] { return Up("a", "b") && Up("b", "a"); }, 15s));
  EXPECT_TRUE(procs_["a"]->speaker().peer(A("127.0.0.3"))->peer_restarting());
  EXPECT_TRUE(procs_["b"]->speaker().peer(A("127.0.0.2"))->peer_restarting());
  ASSERT_TRUE(env_.RunUntil(
      [&] {
        return !Stats("a").graceful_restart_restarting() &&
               !Stats("b").graceful_restart_restarting();
      },
      15s));
  EXPECT_LT(std::chrono::steady_clock::now() - restarted, 20s);
  ASSERT_TRUE(env_.RunUntil([&] {
    return RibTable("a") == std::vector<std::string>{"10.8.0.0/16"} &&
           RibTable("b") == std::vector<std::string>{"10.1.0.0/16"};
  })) << ::testing::PrintToString(RibTable("a"))
      << ::testing::PrintToString(RibTable("b"));
}

}  // namespace
}  // namespace strata::bgp
