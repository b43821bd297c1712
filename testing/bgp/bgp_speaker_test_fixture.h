// BgpSpeakerTest: strata-bgp in one process for the speaker tests (bgp_speaker_test.cc,
// route_reflection_speaker_test.cc, damping_speaker_test.cc): the a/b pair of SpeakerPairTest
// with a damping clock for b and helpers for best routes and policies. Each test picks its own
// port from kPort up.
#pragma once

#include "libipc/common_convert.h"
#include "testing/bgp/speaker_pair_fixture.h"
#include "testing/common/fake_clock.h"

namespace strata::bgp::speaker_test {

constexpr uint16_t kPort = 11811;

class BgpSpeakerTest : public SpeakerPairTest {
 protected:
  BgpProcess& StartBgp(const std::string& vr, PipelineClock* clock = nullptr) {
    return SpeakerPairTest::StartBgp(vr, [clock](BgpProcess::Options& o) { o.clock = clock; });
  }
  // b's best routes: "prefix as_path lp" strings.
  std::vector<std::string> Best(const std::string& vr) {
    bpb::ListRoutesRequest req;
    req.set_best_only(true);
    bpb::ListRoutesReply rep;
    EXPECT_TRUE(Bgp(vr, "list_routes", req, &rep).ok());
    std::vector<std::string> out;
    for (const auto& r : rep.routes()) {
      out.push_back((*ipc::PrefixFromProto(r.prefix(), "p")).ToString() + " [" + r.as_path() + "]" +
                    (r.has_local_pref() ? " lp " + std::to_string(r.local_pref()) : ""));
    }
    return out;
  }
  // `vr`'s discarded routes from `peer`, oldest first: "prefix FATE" strings.
  std::vector<std::string> Discarded(const std::string& vr, std::string_view peer) {
    bpb::ListPeerRoutesRequest req;
    ipc::AddrToProto(A(peer), req.mutable_peer());
    req.set_view(bpb::PEER_ROUTE_VIEW_DISCARDED);
    bpb::ListPeerRoutesReply rep;
    EXPECT_TRUE((Bgp<bpb::ListPeerRoutesRequest, bpb::ListPeerRoutesReply>(vr, "list_peer_routes",
                                                                           req, &rep))
                    .ok());
    std::vector<std::string> out;
    for (const auto& r : rep.routes()) {
      out.push_back((*ipc::PrefixFromProto(r.route().prefix(), "p")).ToString() + " " +
                    bpb::RouteFate_Name(r.fate()));
    }
    return out;
  }
  std::vector<std::string> RibTable(const std::string& vr, const std::string& protocol) {
    const rpb::ListRoutesReply rep = RibRoutes(vr, protocol);
    std::vector<std::string> out;
    for (const auto& r : rep.routes()) {
      out.push_back((*ipc::PrefixFromProto(r.prefix(), "p")).ToString() + " " +
                    (*ipc::AddrFromProto(r.nexthop(), "n")).ToString());
    }
    return out;
  }
  // `adjust_b`: changes to b's add_peer call for a; `clock_b`: b's damping clock.
  void Pair(uint16_t port, const Adjust& adjust_b = nullptr, PipelineClock* clock_b = nullptr) {
    for (const char* vr : {"a", "b"}) {
      env_.StartRib(vr);
      AddLoopbackIgp(vr);
    }
    StartBgp("a");
    StartBgp("b", clock_b);
    ConfigureSide("a", port);
    ConfigureSide("b", port, nullptr, adjust_b);
    ASSERT_TRUE(env_.RunUntil([&] { return PairEstablished(); }, 10s));
  }
  Status DefinePolicy(const bpb::DefinePolicyRequest& p, const std::string& vr) {
    return Bgp<bpb::DefinePolicyRequest, bpb::DefinePolicyReply>(vr, "define_policy", p);
  }
  Status SetPolicy(const std::string& vr, std::string_view peer, const std::string& dir,
                   const std::string& name) {
    bpb::SetPeerPolicyRequest req;
    ipc::AddrToProto(A(peer), req.mutable_peer());
    req.set_direction(dir);
    req.set_policy(name);
    return Bgp(vr, "set_peer_policy", req);
  }
};

}  // namespace strata::bgp::speaker_test
