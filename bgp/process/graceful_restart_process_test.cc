// Graceful restart (RFC 4724) between two in-process speakers (bgp.a AS 65001 on 127.0.0.2,
// bgp.b AS 65002 on 127.0.0.3) with their RIBs over loopback TCP: the helper keeps a peer's
// routes across a TCP loss; a non-GR peer's routes go at once; a restarting speaker (process
// destroyed without NOTIFICATION and started again) finds its routes stale in its RIB, defers
// its End-of-RIB and tells the RIB when it is done, and its helper sweeps what it did not
// announce again on that End-of-RIB.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <vector>

#include "libipc/common_convert.h"
#include "testing/bgp/drop_tcp.h"
#include "testing/bgp/speaker_pair_fixture.h"

namespace strata::bgp {
namespace {

using namespace speaker_test;

class GracefulRestartProcessTest : public SpeakerPairTest {
 protected:
  // `networks`: originated before the peer is added (so they precede our End-of-RIB).
  void Configure(const std::string& vr, uint16_t port, bool gr = true,
                 const std::vector<std::string>& networks = {}) {
    ASSERT_TRUE(SetLocal(vr, As(vr), Addr(vr), port, [&](bpb::SetLocalConfigRequest& lc) {
                  lc.set_graceful_restart_time(restart_time_[vr]);
                }).ok());
    for (const auto& n : networks) ASSERT_TRUE(Network(vr, n).ok());
    ASSERT_TRUE(
        AddPeer(vr, Addr(Other(vr)), As(Other(vr)), Addr(vr), port, [gr](bpb::AddPeerRequest& r) {
          r.set_graceful_restart(gr);
        }).ok());
  }
  using SpeakerPairTest::Peer;
  bpb::PeerStatus Peer(const std::string& vr) { return Peer(vr, Addr(Other(vr))); }
  bool Established() { return PairEstablished(); }
  // The RIB's ebgp table: "prefix" or "prefix stale".
  std::vector<std::string> RibTable(const std::string& vr) {
    const rpb::ListRoutesReply rep = RibRoutes(vr, "ebgp");
    std::vector<std::string> out;
    for (const auto& r : rep.routes()) {
      out.push_back((*ipc::PrefixFromProto(r.prefix(), "p")).ToString() +
                    (r.stale() ? " stale" : ""));
    }
    return out;
  }
  // The restart time the RIB keeps the ebgp table's routes for after bgp.<vr> dies.
  uint32_t RibRestartTime(const std::string& vr) {
    rpb::GetStatsReply rep;
    (void)Call("rib." + vr, "rib/1.0/get_stats", rpb::GetStatsRequest(), &rep);
    for (const auto& t : rep.tables()) {
      if (t.protocol() == "ebgp") return t.restart_time_s();
    }
    return 0;
  }
  void Pair(uint16_t port, bool b_gr = true) {
    StartPair();
    Configure("a", port);
    Configure("b", port, b_gr);
    ASSERT_TRUE(env_.RunUntil([&] { return Established(); }, 15s));
  }

  std::map<std::string, uint32_t> restart_time_{{"a", 30}, {"b", 30}};
};

// Apart from bgp_speaker_test's 11811..11871: ctest runs tests of both at once.
constexpr uint16_t kPort = 11951;

// The session comes back from a plain TCP loss: a did not restart, so its OPEN has the F bit
// clear and b flushes the stale routes at once (RFC 4724 4.2), then learns a's table again.
TEST_F(GracefulRestartProcessTest, HelperKeepsRoutesWhileThePeerIsAway) {
  Pair(kPort);
  EXPECT_TRUE(Peer("b").graceful_restart());
  EXPECT_EQ(Peer("b").peer_restart_time(), 30u);
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(Network("a", "10.2.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b").size() == 2; }));

  ASSERT_GT(DropTcp(kPort), 0);
  ASSERT_TRUE(env_.RunUntil([&] { return Peer("b").state() != "Established"; }));
  // a withdraws 10.2 while the session is down: b keeps it until a is back.
  ASSERT_TRUE(Network("a", "10.2.0.0/16", false).ok());
  bpb::PeerStatus b = Peer("b");
  EXPECT_TRUE(b.peer_restarting());
  EXPECT_EQ(b.stale_routes(), 2u);
  EXPECT_EQ(RibTable("b"), (std::vector<std::string>{"10.1.0.0/16", "10.2.0.0/16"}));

  ASSERT_TRUE(env_.RunUntil([&] { return Established() && RibTable("b").size() == 1; }, 15s));
  EXPECT_EQ(RibTable("b"), (std::vector<std::string>{"10.1.0.0/16"}));
  ASSERT_TRUE(env_.RunUntil([&] { return !Peer("b").peer_restarting(); }));
  EXPECT_EQ(Peer("b").stale_routes(), 0u);
  EXPECT_EQ(Peer("b").prefixes_received(), 1u);
}

// A connection collision (a second connection from the peer while the session is up) ends
// with b's Cease / Connection Collision Resolution on that connection; the session's later loss
// without a NOTIFICATION is still a restart to help with (it was counted as b's own NOTIFICATION).
TEST_F(GracefulRestartProcessTest, CollisionNotificationOnTheSecondConnectionKeepsTheHelper) {
  Pair(kPort + 10);
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b").size() == 1; }));
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket second(io);
  second.open(boost::asio::ip::tcp::v4());
  second.bind({boost::asio::ip::make_address("127.0.0.2"), 0});
  second.connect({boost::asio::ip::make_address("127.0.0.3"), static_cast<uint16_t>(kPort + 10)});
  // a's OPEN on it (AS 65001, hold 90, BGP id 127.0.0.2, no capabilities); b answers with its
  // own OPEN and, the session being up, a NOTIFICATION Cease / Connection Collision Resolution
  // (type 3, code 6, subcode 7), then closes it.
  std::vector<uint8_t> open(16, 0xff);
  for (uint8_t b : {0, 29, 1, 4, 0xfd, 0xe9, 0, 90, 127, 0, 0, 2, 0}) open.push_back(b);
  boost::asio::write(second, boost::asio::buffer(open));
  std::vector<uint8_t> got;
  bool closed = false;
  boost::asio::async_read(second, boost::asio::dynamic_buffer(got),
                          [&](const boost::system::error_code&, size_t) { closed = true; });
  ASSERT_TRUE(env_.RunUntil([&] {
    io.poll();
    return closed;
  }));
  ASSERT_GE(got.size(), 21u);
  EXPECT_EQ(std::vector<uint8_t>(got.end() - 3, got.end()), (std::vector<uint8_t>{3, 6, 7}));
  second.close();

  ASSERT_GT(DropTcp(kPort + 10), 0);
  ASSERT_TRUE(env_.RunUntil([&] { return Peer("b").state() != "Established"; }));
  EXPECT_TRUE(Peer("b").peer_restarting());
  EXPECT_EQ(RibTable("b"), (std::vector<std::string>{"10.1.0.0/16"}));
}

TEST_F(GracefulRestartProcessTest, PeerWithoutGracefulRestartLosesRoutesAtOnce) {
  Pair(kPort + 1, /*b_gr=*/false);
  EXPECT_FALSE(Peer("a").graceful_restart());
  EXPECT_FALSE(Peer("b").graceful_restart_configured());
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b").size() == 1; }));
  ASSERT_GT(DropTcp(kPort + 1), 0);
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b").empty(); }));
  EXPECT_EQ(Peer("b").stale_routes(), 0u);
}

// The RIB sink keeps no copy of what it gave the RIB: when the RIB refuses a batch (here a
// delete of a route someone removed behind b's back), b registers its tables afresh and its
// pipeline sends the table again (a dump of the RIB's fanout reader); a restarted RIB gets b's
// routes again too.
TEST_F(GracefulRestartProcessTest, RibGetsTheTableAgainFromThePipeline) {
  Pair(kPort + 4);
  for (const char* n : {"10.1.0.0/16", "10.2.0.0/16", "10.3.0.0/16"}) {
    ASSERT_TRUE(Network("a", n).ok());
  }
  const std::vector<std::string> all = {"10.1.0.0/16", "10.2.0.0/16", "10.3.0.0/16"};
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b") == all; }));
  rpb::DeleteRoutesRequest del;
  del.set_protocol("ebgp");
  ipc::PrefixToProto(P("10.1.0.0/16"), del.add_prefixes());
  ASSERT_TRUE((Call<rpb::DeleteRoutesRequest, rpb::DeleteRoutesReply>("rib.b",
                                                                      "rib/1.0/delete_routes", del))
                  .ok());
  ASSERT_TRUE(Network("a", "10.1.0.0/16", /*add=*/false).ok());  // b's delete is refused
  const std::vector<std::string> two = {"10.2.0.0/16", "10.3.0.0/16"};
  // The table is `two` before the resync too: wait for the resync and its resend to be done.
  const RibIpcSink& sink = procs_.at("b")->sink();
  ASSERT_TRUE(env_.RunUntil([&] {
    return sink.counters().resyncs == 1 && sink.ready() && sink.queued() == 0 &&
           sink.in_flight() == 0 && RibTable("b") == two;
  })) << ::testing::PrintToString(RibTable("b"));

  env_.StopRib("b");
  env_.StartRib("b");
  AddLoopbackIgp("b");
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b") == two; }))
      << ::testing::PrintToString(RibTable("b"));
  ASSERT_TRUE(Network("a", "10.2.0.0/16", /*add=*/false).ok());
  ASSERT_TRUE(env_.RunUntil([&] {
    return RibTable("b") == std::vector<std::string>{"10.3.0.0/16"};
  })) << ::testing::PrintToString(RibTable("b"));
}

TEST_F(GracefulRestartProcessTest, HelperWithdrawsWhenThePeerMissesItsRestartTime) {
  restart_time_["a"] = 1;
  Pair(kPort + 3);
  EXPECT_EQ(Peer("b").peer_restart_time(), 1u);
  // Its RIB keeps its routes as long as it tells peers to: set_local_config reached the RIB.
  ASSERT_TRUE(env_.RunUntil([&] { return RibRestartTime("a") == 1; }));
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b").size() == 1; }));
  ASSERT_GT(DropTcp(kPort + 3), 0);
  ASSERT_TRUE(env_.RunUntil([&] { return Peer("b").state() != "Established"; }));
  KillBgp("a");
  EXPECT_EQ(Peer("b").stale_routes(), 1u);
  EXPECT_EQ(RibTable("b"), (std::vector<std::string>{"10.1.0.0/16"}));
  // a stays away longer than the 1 s it advertised: b withdraws its routes.
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b").empty(); }, 5s));
  EXPECT_EQ(Peer("b").stale_routes(), 0u);
  EXPECT_FALSE(Peer("b").peer_restarting());
}

TEST_F(GracefulRestartProcessTest, RestartingSpeakerKeepsRibRoutesUntilEndOfRib) {
  Pair(kPort + 2);
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(Network("a", "10.3.0.0/16").ok());
  ASSERT_TRUE(Network("b", "10.8.0.0/16").ok());
  ASSERT_TRUE(Network("b", "10.9.0.0/16").ok());
  ASSERT_TRUE(
      env_.RunUntil([&] { return RibTable("a").size() == 2 && RibTable("b").size() == 2; }));

  // a dies without a NOTIFICATION.
  ASSERT_GT(DropTcp(kPort + 2), 0);
  ASSERT_TRUE(env_.RunUntil([&] { return Peer("b").state() != "Established"; }));
  KillBgp("a");
  // Its RIB keeps a's routes, stale; b keeps a's route, stale.
  ASSERT_TRUE(env_.RunUntil([&] {
    return RibTable("a") == std::vector<std::string>{"10.8.0.0/16 stale", "10.9.0.0/16 stale"};
  }));
  EXPECT_EQ(RibTable("b"), (std::vector<std::string>{"10.1.0.0/16", "10.3.0.0/16"}));
  EXPECT_EQ(Peer("b").stale_routes(), 2u);
  ASSERT_TRUE(Network("b", "10.9.0.0/16", false).ok());

  // a comes back with 10.1 only: finds its stale routes, restarts gracefully (R and F bits:
  // b keeps a's routes until a's End-of-RIB).
  StartBgp("a");
  Configure("a", kPort + 2, true, {"10.1.0.0/16"});
  ASSERT_TRUE(env_.RunUntil([&] { return Established(); }, 15s));
  bpb::GetStatsReply stats;
  // b's End-of-RIB ends a's restart: the RIB drops 10.9 (not re-announced), 10.8 is fresh.
  ASSERT_TRUE(
      env_.RunUntil([&] { return RibTable("a") == std::vector<std::string>{"10.8.0.0/16"}; }, 10s))
      << ::testing::PrintToString(RibTable("a"));
  ASSERT_TRUE((Bgp<bpb::GetStatsRequest, bpb::GetStatsReply>("a", "get_stats",
                                                             bpb::GetStatsRequest(), &stats))
                  .ok());
  EXPECT_FALSE(stats.graceful_restart_restarting());
  // a's OPEN had the R bit; its next OPENs will not.
  const OpenMessage* seen =
      procs_["b"]->speaker().peer(A("127.0.0.2"))->session().fsm().remote_open();
  ASSERT_TRUE(seen && seen->caps.graceful_restart);
  EXPECT_TRUE(seen->caps.graceful_restart->restarting);
  EXPECT_TRUE(seen->caps.graceful_restart->families[0].forwarding_preserved);
  const auto& next =
      procs_["a"]->speaker().peer(A("127.0.0.3"))->session().fsm().negotiator().local_open();
  ASSERT_TRUE(next.caps.graceful_restart);
  EXPECT_FALSE(next.caps.graceful_restart->restarting);
  // a's End-of-RIB reaches b: 10.1 was announced again, 10.3 was not and goes.
  ASSERT_TRUE(env_.RunUntil([&] { return Peer("b").stale_routes() == 0; }));
  ASSERT_TRUE(
      env_.RunUntil([&] { return RibTable("b") == std::vector<std::string>{"10.1.0.0/16"}; }));
  EXPECT_EQ(Peer("b").prefixes_received(), 1u);
}

}  // namespace
}  // namespace strata::bgp
