// change_peer is all or nothing (bgp_speaker.h): a bad value is refused with the session and
// its routes untouched; a failure after the old session went puts the old peer back; the
// max_prefixes settings change in place. Two speakers over loopback (BgpSpeakerTest), ports
// 12350 and up.
#include "testing/bgp/bgp_speaker_test_fixture.h"

namespace strata::bgp::speaker_test {
namespace {

constexpr uint16_t kChangePort = 12350;

class ChangePeerTest : public BgpSpeakerTest {
 protected:
  // b's change_peer for a, from the settings Pair gave it.
  Status Change(uint16_t port, const Adjust& adjust) {
    bpb::AddPeerRequest req;
    ipc::AddrToProto(A("127.0.0.2"), req.mutable_peer());
    req.set_peer_as(65001);
    ipc::AddrToProto(A("127.0.0.3"), req.mutable_local_address());
    req.set_peer_port(port);
    req.set_connect_retry(1);
    req.set_ebgp_requires_policy(false);
    adjust(req);
    return Bgp<bpb::AddPeerRequest, bpb::AddPeerReply>("b", "change_peer", req);
  }
  // Lets the sessions run a while (a flap would show in established_transitions).
  void Settle() {
    (void)env_.RunUntil([] { return false; }, 300ms);
  }
  const BgpPeer* PeerOfB() { return procs_["b"]->speaker().peer(A("127.0.0.2")); }
  // a originates two networks; b has them.
  void PairWithRoutes(uint16_t port) {
    Pair(port);
    ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
    ASSERT_TRUE(Network("a", "10.9.0.0/16").ok());
    ASSERT_TRUE(env_.RunUntil([&] { return Best("b").size() == 2; }));
  }
  const std::vector<std::string> kRoutes = {"10.1.0.0/16 [65001]", "10.9.0.0/16 [65001]"};
};

TEST_F(ChangePeerTest, BadValuesAreRefusedAndTheSessionStays) {
  PairWithRoutes(kChangePort);
  const uint64_t transitions = Peer("b", "127.0.0.2").established_transitions();
  const PeerConfig before = PeerOfB()->settings().session;
  const std::vector<std::pair<std::string, Adjust>> bad = {
      {"hold time 2", [](bpb::AddPeerRequest& r) { r.set_hold_time(2); }},
      {"MD5 key of 81 bytes",
       [](bpb::AddPeerRequest& r) { r.set_md5_password(std::string(81, 'k')); }},
      {"GTSM with multihop",
       [](bpb::AddPeerRequest& r) {
         r.set_ttl_security_hops(1);
         r.set_multihop_ttl(2);
       }},
      {"local address not on this host",
       [](bpb::AddPeerRequest& r) {
         ipc::AddrToProto(A("192.0.2.77"), r.mutable_local_address());
       }},
      {"local address of the other family",
       [](bpb::AddPeerRequest& r) { ipc::AddrToProto(A("::1"), r.mutable_local_address()); }},
      {"route reflector client of an eBGP peer",
       [](bpb::AddPeerRequest& r) { r.set_route_reflector_client(true); }},
  };
  for (const auto& [what, adjust] : bad) {
    Status s = Change(kChangePort, adjust);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << what << ": " << s.ToString();
    ASSERT_NE(PeerOfB(), nullptr) << what;
    EXPECT_EQ(PeerOfB()->settings().session.local_address, before.local_address) << what;
    EXPECT_EQ(PeerOfB()->settings().session.hold_time, before.hold_time) << what;
    EXPECT_TRUE(PeerOfB()->settings().session.md5_password.empty()) << what;
    EXPECT_FALSE(PeerOfB()->settings().session.ttl_security_hops) << what;
    EXPECT_EQ(PeerState("b", "127.0.0.2"), "Established") << what;
  }
  // No flap: the session was never reset, the routes never left.
  Settle();
  EXPECT_EQ(Peer("b", "127.0.0.2").established_transitions(), transitions);
  EXPECT_EQ(PeerState("b", "127.0.0.2"), "Established");
  EXPECT_EQ(Best("b"), kRoutes);
}

TEST_F(ChangePeerTest, FailureAfterTeardownRestoresTheOldPeer) {
  PairWithRoutes(kChangePort + 1);
  const PeerSettings before = PeerOfB()->settings();
  // The kernel refusing something of the new peer once the old one is gone.
  procs_["b"]->speaker().set_peer_build_check([](const PeerSettings& s) {
    return s.session.hold_time == 30 ? InvalidArgument("refused by the test") : Status::Ok();
  });
  Status s = Change(kChangePort + 1, [](bpb::AddPeerRequest& r) {
    r.set_hold_time(30);
    r.set_description("new");
  });
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("refused by the test"), std::string::npos) << s.ToString();
  ASSERT_NE(PeerOfB(), nullptr);
  const PeerSettings& after = PeerOfB()->settings();
  EXPECT_EQ(after.session.hold_time, before.session.hold_time);
  EXPECT_EQ(after.session.description, before.session.description);
  EXPECT_EQ(after.session.local_address, before.session.local_address);
  EXPECT_EQ(after.session.peer_as, before.session.peer_as);
  EXPECT_EQ(after.enabled, before.enabled);
  EXPECT_EQ(after.ebgp_requires_policy, before.ebgp_requires_policy);
  // A new session of the restored peer brings the routes back.
  ASSERT_TRUE(env_.RunUntil(
      [&] { return PeerState("b", "127.0.0.2") == "Established" && Best("b") == kRoutes; }, 15s))
      << PeerState("b", "127.0.0.2");
  // A new peer with a new session (its counters start again).
  EXPECT_EQ(Peer("b", "127.0.0.2").established_transitions(), 1u);

  // Without the refusal the same change goes through.
  procs_["b"]->speaker().set_peer_build_check(nullptr);
  ASSERT_TRUE(Change(kChangePort + 1, [](bpb::AddPeerRequest& r) { r.set_hold_time(30); }).ok());
  EXPECT_EQ(PeerOfB()->settings().session.hold_time, 30);
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b") == kRoutes; }, 15s));
}

TEST_F(ChangePeerTest, MaxPrefixesChangeInPlace) {
  PairWithRoutes(kChangePort + 2);
  const uint64_t transitions = Peer("b", "127.0.0.2").established_transitions();
  ASSERT_TRUE(Change(kChangePort + 2, [](bpb::AddPeerRequest& r) {
                r.set_max_prefixes(100);
                r.set_max_prefixes_warning(50);
                r.set_description("limited");
              }).ok());
  EXPECT_EQ(PeerOfB()->settings().session.max_prefixes, 100u);
  EXPECT_EQ(PeerOfB()->settings().session.max_prefixes_warning_pct, 50);
  EXPECT_EQ(PeerOfB()->settings().session.description, "limited");
  Settle();
  EXPECT_EQ(Peer("b", "127.0.0.2").established_transitions(), transitions);
  EXPECT_EQ(Best("b"), kRoutes);
  // A limit below what the peer already sent applies at once: Cease, session down.
  ASSERT_TRUE(Change(kChangePort + 2, [](bpb::AddPeerRequest& r) { r.set_max_prefixes(1); }).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Peer("b", "127.0.0.2").max_prefixes_exceeded(); }));
  EXPECT_EQ(PeerOfB()->counters().max_prefixes_teardowns, 1u);
}

}  // namespace
}  // namespace strata::bgp::speaker_test
