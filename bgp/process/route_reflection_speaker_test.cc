// Route reflection (RFC 4456) in strata-bgp: a reflects between its client c and non-client d.
#include "testing/bgp/bgp_speaker_test_fixture.h"

namespace strata::bgp::speaker_test {
namespace {

TEST_F(BgpSpeakerTest, RouteReflectorReflectsByClientRules) {
  Pair(kPort + 26);  // a (AS 65001, our reflector) and its eBGP peer b
  auto code = [](const Status& s) { return s.code(); };
  // Bad reflection settings: an eBGP client, an IPv6 cluster id.
  Status s = AddPeer("a", "127.0.0.9", 65009, "127.0.0.2", kPort + 26,
                     [](bpb::AddPeerRequest& r) { r.set_route_reflector_client(true); });
  EXPECT_EQ(code(s), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("route_reflector_client"), std::string::npos) << s.ToString();
  bpb::SetLocalConfigRequest local;
  local.set_local_as(65001);
  ipc::AddrToProto(A("127.0.0.2"), local.mutable_router_id());
  ipc::AddrToProto(A("127.0.0.2"), local.mutable_listen_address());
  local.set_port(kPort + 26);
  ipc::AddrToProto(A("2001:db8::1"), local.mutable_cluster_id());
  s = Bgp<bpb::SetLocalConfigRequest, bpb::SetLocalConfigReply>("a", "set_local_config", local);
  EXPECT_EQ(code(s), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("cluster_id"), std::string::npos) << s.ToString();
  ipc::AddrToProto(A("10.0.0.1"), local.mutable_cluster_id());
  ASSERT_TRUE(
      (Bgp<bpb::SetLocalConfigRequest, bpb::SetLocalConfigReply>("a", "set_local_config", local))
          .ok());
  ASSERT_TRUE(env_.RunUntil([&] { return PeerState("a", "127.0.0.3") == "Established"; }, 10s));

  // c: a client of a; d: a non-client. Both iBGP, peering with a only.
  for (const auto& [vr, addr] : {std::pair<std::string, std::string>{"c", "127.0.0.4"},
                                 std::pair<std::string, std::string>{"d", "127.0.0.5"}}) {
    env_.StartRib(vr);
    AddLoopbackIgp(vr);
    StartBgp(vr);
    ASSERT_TRUE(SetLocal(vr, 65001, addr, kPort + 26).ok());
    ASSERT_TRUE(AddPeer(vr, "127.0.0.2", 65001, addr, kPort + 26).ok());
  }
  ASSERT_TRUE(AddPeer("a", "127.0.0.4", 65001, "127.0.0.2", kPort + 26, [](bpb::AddPeerRequest& r) {
                r.set_route_reflector_client(true);
              }).ok());
  ASSERT_TRUE(AddPeer("a", "127.0.0.5", 65001, "127.0.0.2", kPort + 26).ok());
  ASSERT_TRUE(env_.RunUntil(
      [&] {
        return PeerState("c", "127.0.0.2") == "Established" &&
               PeerState("d", "127.0.0.2") == "Established";
      },
      10s));
  EXPECT_TRUE(Peer("a", "127.0.0.4").route_reflector_client());
  EXPECT_FALSE(Peer("a", "127.0.0.5").route_reflector_client());
  ASSERT_TRUE(Network("c", "10.3.0.0/16").ok());
  ASSERT_TRUE(Network("d", "10.4.0.0/16").ok());

  // "prefix originator cluster-list" of a speaker's best routes.
  auto reflected = [&](const std::string& vr) {
    bpb::ListRoutesRequest req;
    req.set_best_only(true);
    bpb::ListRoutesReply rep;
    EXPECT_TRUE(Bgp(vr, "list_routes", req, &rep).ok());
    std::vector<std::string> out;
    for (const auto& r : rep.routes()) {
      std::string line = (*ipc::PrefixFromProto(r.prefix(), "p")).ToString();
      if (r.has_originator_id()) {
        line += " originator " + (*ipc::AddrFromProto(r.originator_id(), "o")).ToString();
      }
      for (const std::string& c : r.cluster_list()) line += " cluster " + c;
      out.push_back(line);
    }
    return out;
  };
  // The client's route goes to the non-client and the client gets the non-client's, each with
  // the originator's router id and our cluster id; b (eBGP) gets both without them.
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("d", "ibgp").size() == 1; }))
      << ::testing::PrintToString(reflected("d"));
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("c", "ibgp").size() == 1; }))
      << ::testing::PrintToString(reflected("c"));
  EXPECT_EQ(reflected("d"),
            (std::vector<std::string>{"10.3.0.0/16 originator 127.0.0.4 cluster 10.0.0.1",
                                      "10.4.0.0/16"}));
  EXPECT_EQ(reflected("c"),
            (std::vector<std::string>{"10.3.0.0/16",
                                      "10.4.0.0/16 originator 127.0.0.5 cluster 10.0.0.1"}));
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").size() == 2; }));
  EXPECT_EQ(reflected("b"), (std::vector<std::string>{"10.3.0.0/16", "10.4.0.0/16"}));
  bpb::GetStatsReply stats;
  ASSERT_TRUE((Bgp<bpb::GetStatsRequest, bpb::GetStatsReply>("a", "get_stats", {}, &stats)).ok());
  EXPECT_EQ(*ipc::AddrFromProto(stats.cluster_id(), "c"), A("10.0.0.1"));
}

}  // namespace
}  // namespace strata::bgp::speaker_test
