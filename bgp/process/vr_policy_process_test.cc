// VR-level policies (bgp/1.0 set_default_policy / clear_default_policy) between in-process
// speakers (the fixture in bgp_speaker_test_fixture.h, plus bgp.c AS 65003 on 127.0.0.4): the VR's
// export policy shapes what every peer without its own receives and counts as a policy for RFC
// 8212, a peer's own policy overrides it, a change re-filters in the background and peers see
// only the differences; an export policy matching `protocol static` brings the RIB's static
// routes to the peers without `redistribute`.
#include "common/log.h"
#include "testing/bgp/bgp_speaker_test_fixture.h"

namespace strata::bgp::speaker_test {
namespace {

// Port range of this test: 12700..12749.
constexpr uint16_t kVrPort = 12700;

class VrPolicyProcessTest : public BgpSpeakerTest {
 protected:
  // a peers with b and c; a's side keeps RFC 8212 on, so a peer with no policy is sent nothing.
  void Trio(uint16_t port) {
    for (const char* vr : {"a", "b", "c"}) {
      env_.StartRib(vr);
      AddLoopbackIgp(vr);
      StartBgp(vr);
    }
    ASSERT_TRUE(SetLocal("a", 65001, "127.0.0.2", port).ok());
    ASSERT_TRUE(SetLocal("b", 65002, "127.0.0.3", port).ok());
    ASSERT_TRUE(SetLocal("c", 65003, "127.0.0.4", port).ok());
    auto strict = [](bpb::AddPeerRequest& r) { r.set_ebgp_requires_policy(true); };
    ASSERT_TRUE(AddPeer("a", "127.0.0.3", 65002, "127.0.0.2", port, strict).ok());
    ASSERT_TRUE(AddPeer("a", "127.0.0.4", 65003, "127.0.0.2", port, strict).ok());
    ASSERT_TRUE(AddPeer("b", "127.0.0.2", 65001, "127.0.0.3", port).ok());
    ASSERT_TRUE(AddPeer("c", "127.0.0.2", 65001, "127.0.0.4", port).ok());
    ASSERT_TRUE(env_.RunUntil(
        [&] {
          return PeerState("a", "127.0.0.3") == "Established" &&
                 PeerState("a", "127.0.0.4") == "Established";
        },
        10s));
  }
  // A policy accepting exactly `prefixes` (and, if given, only routes of `protocol` within
  // 10.0.0.0/8); everything else is rejected.
  Status Accepting(const std::string& vr, const std::string& name,
                   const std::vector<std::string>& prefixes, const std::string& protocol = "") {
    bpb::DefinePolicyRequest p;
    p.set_name(name);
    p.set_default_action(bpb::POLICY_ACTION_REJECT);
    auto* t = p.add_terms();
    for (const auto& prefix : prefixes) {
      ipc::PrefixToProto(P(prefix), t->add_prefixes()->mutable_prefix());
    }
    if (!protocol.empty()) {
      auto* m = t->add_prefixes();
      ipc::PrefixToProto(P("10.0.0.0/8"), m->mutable_prefix());
      m->set_ge(8);
      m->set_le(32);
      t->add_protocols(protocol);
    }
    t->set_action(bpb::POLICY_ACTION_ACCEPT);
    return DefinePolicy(p, vr);
  }
  Status SetVr(const std::string& vr, const std::string& dir, const std::string& name) {
    bpb::SetDefaultPolicyRequest req;
    req.set_direction(dir);
    req.set_policy(name);
    return Bgp<bpb::SetDefaultPolicyRequest, bpb::SetDefaultPolicyReply>(vr, "set_default_policy",
                                                                         req);
  }
  Status ClearVr(const std::string& vr, const std::string& dir) {
    bpb::ClearDefaultPolicyRequest req;
    req.set_direction(dir);
    return Bgp<bpb::ClearDefaultPolicyRequest, bpb::ClearDefaultPolicyReply>(
        vr, "clear_default_policy", req);
  }
  bpb::GetStatsReply Stats(const std::string& vr) {
    bpb::GetStatsReply rep;
    EXPECT_TRUE(Bgp(vr, "get_stats", bpb::GetStatsRequest(), &rep).ok());
    return rep;
  }
  // Prefixes of `vr`'s best routes.
  std::vector<std::string> Prefixes(const std::string& vr) {
    std::vector<std::string> out;
    for (const std::string& r : Best(vr)) out.push_back(r.substr(0, r.find(' ')));
    return out;
  }
};

using V = std::vector<std::string>;

TEST_F(VrPolicyProcessTest, VrExportPolicyShapesPeersAndPeerPolicyOverridesIt) {
  Trio(kVrPort);
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(Network("a", "10.2.0.0/16").ok());
  // RFC 8212: no policy anywhere, nothing sent.
  env_.Run(300ms);
  EXPECT_TRUE(Best("b").empty());
  EXPECT_TRUE(Best("c").empty());

  // The VR's export policy is every peer's, and counts as a policy.
  ASSERT_TRUE(Accepting("a", "vr-out", {"10.1.0.0/16"}).ok());
  ASSERT_TRUE(SetVr("a", "export", "vr-out").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Prefixes("b") == V{"10.1.0.0/16"}; }));
  ASSERT_TRUE(env_.RunUntil([&] { return Prefixes("c") == V{"10.1.0.0/16"}; }));

  // c's own export policy replaces the VR's for c only.
  ASSERT_TRUE(Accepting("a", "c-out", {"10.2.0.0/16"}).ok());
  ASSERT_TRUE(SetPolicy("a", "127.0.0.4", "export", "c-out").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Prefixes("c") == V{"10.2.0.0/16"}; }));
  EXPECT_EQ(Prefixes("b"), V{"10.1.0.0/16"});
  const bpb::PeerStatus pb = Peer("a", "127.0.0.3");
  EXPECT_EQ(pb.export_policy(), "vr-out");
  EXPECT_TRUE(pb.export_policy_inherited());
  EXPECT_EQ(pb.import_policy(), "");
  EXPECT_FALSE(pb.import_policy_inherited());
  const bpb::PeerStatus pc = Peer("a", "127.0.0.4");
  EXPECT_EQ(pc.export_policy(), "c-out");
  EXPECT_FALSE(pc.export_policy_inherited());
  EXPECT_EQ(Stats("a").export_policy(), "vr-out");

  // Redefining the VR's statement re-filters the inheriting peer; b is sent only the new route
  // (one UPDATE), not 10.1 again; c (own policy) is not touched.
  const uint64_t b_updates = Peer("b", "127.0.0.2").updates_in();
  const uint64_t c_updates = Peer("c", "127.0.0.2").updates_in();
  ASSERT_TRUE(Accepting("a", "vr-out", {"10.1.0.0/16", "10.2.0.0/16"}).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Prefixes("b") == V{"10.1.0.0/16", "10.2.0.0/16"}; }));
  env_.Run(300ms);
  EXPECT_EQ(Peer("b", "127.0.0.2").updates_in(), b_updates + 1);
  EXPECT_EQ(Peer("c", "127.0.0.2").updates_in(), c_updates);

  // A VR policy naming a missing statement is refused; the old one stays.
  EXPECT_EQ(SetVr("a", "export", "no-such").code(), StatusCode::kNotFound);
  EXPECT_EQ(SetVr("a", "sideways", "vr-out").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Stats("a").export_policy(), "vr-out");
  // In use by the VR: cannot be deleted.
  bpb::DeletePolicyRequest del;
  del.set_name("vr-out");
  EXPECT_EQ(
      (Bgp<bpb::DeletePolicyRequest, bpb::DeletePolicyReply>("a", "delete_policy", del)).code(),
      StatusCode::kFailedPrecondition);

  // Cleared: b is back to RFC 8212 default-deny (withdrawn in the background); c keeps its own.
  ASSERT_TRUE(ClearVr("a", "export").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").empty(); }));
  EXPECT_EQ(Prefixes("c"), V{"10.2.0.0/16"});
  EXPECT_EQ(Peer("a", "127.0.0.3").export_policy(), "");
  EXPECT_FALSE(Peer("a", "127.0.0.3").export_policy_inherited());

  // With a VR policy again, clearing c's own policy makes c inherit it.
  ASSERT_TRUE(SetVr("a", "export", "vr-out").ok());
  ASSERT_TRUE(Bgp("a", "clear_peer_policy",
                  [] {
                    bpb::ClearPeerPolicyRequest r;
                    ipc::AddrToProto(A("127.0.0.4"), r.mutable_peer());
                    r.set_direction("export");
                    return r;
                  }())
                  .ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Prefixes("c") == V{"10.1.0.0/16", "10.2.0.0/16"}; }));
  EXPECT_TRUE(Peer("a", "127.0.0.4").export_policy_inherited());
}

TEST_F(VrPolicyProcessTest, VrImportPolicyFiltersWhatPeersSend) {
  Trio(kVrPort + 1);
  ASSERT_TRUE(Accepting("a", "all-out", {"10.1.0.0/16", "10.2.0.0/16"}).ok());
  ASSERT_TRUE(SetVr("a", "export", "all-out").ok());
  // RFC 8212's warning comes with the first route dropped, not with the peer: a commit adds a
  // peer before its policies, and warned of a policy it was about to get.
  auto warned = [] {
    size_t n = 0;
    for (const LogLine& l : RecentLogLines(0, "")) {
      if (l.text.find("no import policy: RFC 8212") != std::string::npos &&
          (l.text.rfind("127.0.0.3", 0) == 0 || l.text.rfind("127.0.0.4", 0) == 0)) {
        ++n;
      }
    }
    return n;
  };
  const size_t before = warned();
  ASSERT_TRUE(Network("b", "10.7.0.0/16").ok());
  ASSERT_TRUE(Network("c", "10.8.0.0/16").ok());
  // RFC 8212 on a's side: no import policy, nothing accepted.
  env_.Run(300ms);
  EXPECT_TRUE(Best("a").empty());
  EXPECT_EQ(warned() - before, 2u);  // once per peer
  ASSERT_TRUE(Accepting("a", "vr-in", {"10.7.0.0/16", "10.8.0.0/16"}).ok());
  ASSERT_TRUE(SetVr("a", "import", "vr-in").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Prefixes("a") == V{"10.7.0.0/16", "10.8.0.0/16"}; }));
  ASSERT_TRUE(Accepting("a", "c-in", {"10.99.0.0/16"}).ok());  // not 10.8
  ASSERT_TRUE(SetPolicy("a", "127.0.0.4", "import", "c-in").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Prefixes("a") == V{"10.7.0.0/16"}; }));
  EXPECT_TRUE(Peer("a", "127.0.0.3").import_policy_inherited());
  EXPECT_EQ(Peer("a", "127.0.0.4").import_policy(), "c-in");
}

TEST_F(VrPolicyProcessTest, ExportPolicyMatchingStaticRedistributesWithoutRedistribute) {
  Pair(kVrPort + 2);
  rpb::AddRoutesRequest st;
  st.set_protocol("static");
  auto* e = st.add_routes();
  ipc::PrefixToProto(P("10.5.0.0/16"), e->mutable_prefix());
  ipc::AddrToProto(A("127.0.0.2"), e->mutable_nexthop());
  ASSERT_TRUE((env_.Call<rpb::AddRoutesRequest, rpb::AddRoutesReply>(*client_, "rib.a",
                                                                     "rib/1.0/add_routes", st))
                  .first.ok());
  env_.Run(300ms);
  EXPECT_TRUE(procs_["a"]->speaker().redistributed().empty());
  EXPECT_EQ(Stats("a").redistributed_protocols_size(), 0);

  // The VR's export policy matches `protocol static`: a subscribes to the RIB's static routes.
  ASSERT_TRUE(Accepting("a", "statics", {}, "static").ok());
  ASSERT_TRUE(SetVr("a", "export", "statics").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Prefixes("b") == V{"10.5.0.0/16"}; }));
  bpb::GetStatsReply s = Stats("a");
  ASSERT_EQ(s.redistributed_protocols_size(), 1);
  EXPECT_EQ(s.redistributed_protocols(0), "static");
  ASSERT_EQ(s.redistributed_routes_size(), 1);
  EXPECT_EQ(s.redistributed_routes(0).protocol(), "static");
  EXPECT_EQ(s.redistributed_routes(0).routes(), 2u);  // 10.5.0.0/16 and 127.0.0.0/8

  // No export policy names static any more: unsubscribed, the route withdrawn.
  ASSERT_TRUE(ClearVr("a", "export").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").empty(); }));
  ASSERT_TRUE(env_.RunUntil([&] { return procs_["a"]->speaker().redistributed().empty(); }));
  EXPECT_EQ(Stats("a").redistributed_protocols_size(), 0);

  // A peer's own export policy subscribes too.
  ASSERT_TRUE(SetPolicy("a", "127.0.0.3", "export", "statics").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Prefixes("b") == V{"10.5.0.0/16"}; }));
  EXPECT_EQ(Stats("a").redistributed_protocols_size(), 1);
}

}  // namespace
}  // namespace strata::bgp::speaker_test
