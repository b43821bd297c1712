// Confederations (RFC 5065) in strata-bgp: a (member AS 64512) and b (member AS 64513) form
// confederation 65000; e (AS 65009) is a true external peer of b that knows only AS 65000.
#include "testing/bgp/bgp_speaker_test_fixture.h"

namespace strata::bgp::speaker_test {
namespace {

constexpr uint16_t kConfedPort = 12000;  // this test's port range: 12000-12049

class ConfederationSpeakerTest : public BgpSpeakerTest {
 protected:
  Status SetLocalConfed(const std::string& vr, uint32_t member, std::string_view addr,
                        uint32_t identifier, std::vector<uint32_t> members) {
    bpb::SetLocalConfigRequest req;
    req.set_local_as(member);
    ipc::AddrToProto(A(addr), req.mutable_router_id());
    ipc::AddrToProto(A(addr), req.mutable_listen_address());
    req.set_port(kConfedPort);
    req.set_confederation_identifier(identifier);
    for (uint32_t m : members) req.add_confederation_members(m);
    return Bgp<bpb::SetLocalConfigRequest, bpb::SetLocalConfigReply>(vr, "set_local_config", req);
  }
  void Start(const std::string& vr) {
    env_.StartRib(vr);
    AddLoopbackIgp(vr);
    StartBgp(vr);
  }
};

TEST_F(ConfederationSpeakerTest, RejectsBadConfederationConfig) {
  Start("a");
  auto code = [](const Status& s) { return s.code(); };
  EXPECT_EQ(code(SetLocalConfed("a", 64512, "127.0.0.2", 64512, {64513})),
            StatusCode::kInvalidArgument);  // identifier == member AS
  EXPECT_EQ(code(SetLocalConfed("a", 64512, "127.0.0.2", 0, {64513})),
            StatusCode::kInvalidArgument);  // members without identifier
  EXPECT_EQ(code(SetLocalConfed("a", 64512, "127.0.0.2", 65000, {65000})),
            StatusCode::kInvalidArgument);  // identifier listed as a member
  EXPECT_EQ(code(SetLocalConfed("a", 64512, "127.0.0.2", 65000, {0})),
            StatusCode::kInvalidArgument);  // AS 0
}

TEST_F(ConfederationSpeakerTest, ConfedSegmentsInsideIdentifierOutside) {
  Start("a");
  Start("b");
  Start("e");
  ASSERT_TRUE(SetLocalConfed("a", 64512, "127.0.0.2", 65000, {64513}).ok());
  ASSERT_TRUE(SetLocalConfed("b", 64513, "127.0.0.3", 65000, {64512, 64513}).ok());
  ASSERT_TRUE(SetLocal("e", 65009, "127.0.0.4", kConfedPort).ok());
  ASSERT_TRUE(AddPeer("a", "127.0.0.3", 64513, "127.0.0.2", kConfedPort).ok());
  ASSERT_TRUE(AddPeer("b", "127.0.0.2", 64512, "127.0.0.3", kConfedPort).ok());
  ASSERT_TRUE(AddPeer("b", "127.0.0.4", 65009, "127.0.0.3", kConfedPort).ok());
  ASSERT_TRUE(AddPeer("e", "127.0.0.3", 65000, "127.0.0.4", kConfedPort).ok());
  ASSERT_TRUE(env_.RunUntil(
      [&] {
        return PeerState("a", "127.0.0.3") == "Established" &&
               PeerState("e", "127.0.0.3") == "Established";
      },
      10s));
  EXPECT_EQ(Peer("a", "127.0.0.3").peer_type(), "confed-external");
  EXPECT_EQ(Peer("b", "127.0.0.4").peer_type(), "external");
  EXPECT_EQ(Peer("e", "127.0.0.3").peer_type(), "external");

  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(Network("e", "10.9.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Best("a").size() == 2 && Best("e").size() == 2; }, 10s))
      << ::testing::PrintToString(Best("a")) << ::testing::PrintToString(Best("e"));
  // Inside: the member ASes in an AS_CONFED_SEQUENCE, LOCAL_PREF carried.
  EXPECT_EQ(Best("b"),
            (std::vector<std::string>{"10.1.0.0/16 [(64512)] lp 100", "10.9.0.0/16 [65009]"}));
  EXPECT_EQ(Best("a"),
            (std::vector<std::string>{"10.1.0.0/16 []", "10.9.0.0/16 [(64513) 65009] lp 100"}));
  // Outside: only the confederation identifier, no LOCAL_PREF.
  EXPECT_EQ(Best("e"), (std::vector<std::string>{"10.1.0.0/16 [65000]", "10.9.0.0/16 []"}));
  // The confederation route installs as internal, its next hop (e's) kept across the member ASes.
  EXPECT_EQ(RibTable("a", "ibgp"), (std::vector<std::string>{"10.9.0.0/16 127.0.0.4"}));
}

}  // namespace
}  // namespace strata::bgp::speaker_test
