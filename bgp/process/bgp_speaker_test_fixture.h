// BgpSpeakerTest: strata-bgp in one process for the speaker tests (bgp_speaker_test.cc,
// route_reflection_speaker_test.cc, damping_speaker_test.cc): two BgpProcesses (bgp.a AS 65001 on
// 127.0.0.2, bgp.b AS 65002 on 127.0.0.3) with their RIBs, peering over real TCP on loopback,
// driven through bgp/1.0 calls. Each test picks its own port from kPort up.
#pragma once

#include <gtest/gtest.h>

#include "bgp/pipeline/fake_clock.h"
#include "bgp/process/bgp_process.h"
#include "bgp/process/test_env.h"
#include "libipc/interfaces/bgp.strata.h"
#include "libipc/interfaces/rib.strata.h"
#include "rib/proto_convert.h"

namespace strata::bgp::speaker_test {

using namespace std::chrono_literals;
namespace bpb = strata::bgp::v1;
namespace rpb = strata::rib::v1;

inline IpPrefix P(std::string_view s) { return *IpPrefix::Parse(s); }
inline IpAddr A(std::string_view s) { return *IpAddr::Parse(s); }

constexpr uint16_t kPort = 11811;

class BgpSpeakerTest : public ::testing::Test {
 protected:
  void SetUp() override { client_ = &env_.NewRouter("client"); }
  void TearDown() override { procs_.clear(); }

  BgpProcess& StartBgp(const std::string& vr, PipelineClock* clock = nullptr) {
    std::unique_ptr<BgpProcess> proc;
    env_.NewRouter("bgp." + vr, [&](ipc::Router& r) {
      BgpProcess::Options o;
      o.vr = vr;
      o.clock = clock;
      proc = std::make_unique<BgpProcess>(r, o);
      proc->AddTarget();
    });
    proc->Started();
    BgpProcess& ref = *proc;
    procs_[vr] = std::move(proc);
    return ref;
  }

  template <typename Req, typename Rep = bpb::PeerReply>
  Status Bgp(const std::string& vr, const std::string& method, const Req& req, Rep* out = nullptr) {
    auto [s, rep] = env_.Call<Req, Rep>(*client_, "bgp." + vr, "bgp/1.0/" + method, req);
    if (out) *out = rep;
    return s;
  }

  Status SetLocal(const std::string& vr, uint32_t as, std::string_view addr, uint16_t port) {
    bpb::SetLocalConfigRequest req;
    req.set_local_as(as);
    rib::AddrToProto(A(addr), req.mutable_router_id());
    rib::AddrToProto(A(addr), req.mutable_listen_address());
    req.set_port(port);
    return Bgp<bpb::SetLocalConfigRequest, bpb::SetLocalConfigReply>(vr, "set_local_config", req);
  }
  using Adjust = std::function<void(bpb::AddPeerRequest&)>;
  Status AddPeer(const std::string& vr, std::string_view peer, uint32_t as, std::string_view local,
                 uint16_t port, const Adjust& adjust = nullptr) {
    bpb::AddPeerRequest req;
    rib::AddrToProto(A(peer), req.mutable_peer());
    req.set_peer_as(as);
    rib::AddrToProto(A(local), req.mutable_local_address());
    req.set_peer_port(port);
    req.set_connect_retry(1);
    req.set_ebgp_requires_policy(false);  // RFC 8212 has its own tests
    if (adjust) adjust(req);
    return Bgp<bpb::AddPeerRequest, bpb::AddPeerReply>(vr, "add_peer", req);
  }
  bpb::PeerStatus Peer(const std::string& vr, std::string_view peer) {
    bpb::ListPeersRequest req;
    rib::AddrToProto(A(peer), req.mutable_peer());
    bpb::ListPeersReply rep;
    EXPECT_TRUE(Bgp(vr, "list_peers", req, &rep).ok());
    return rep.peers_size() == 1 ? rep.peers(0) : bpb::PeerStatus();
  }
  Status Network(const std::string& vr, std::string_view prefix, bool add = true) {
    bpb::NetworkRequest req;
    rib::PrefixToProto(P(prefix), req.mutable_prefix());
    return Bgp<bpb::NetworkRequest, bpb::NetworkReply>(vr, add ? "add_network" : "delete_network",
                                                       req);
  }
  std::string PeerState(const std::string& vr, std::string_view peer) {
    bpb::ListPeersRequest req;
    rib::AddrToProto(A(peer), req.mutable_peer());
    bpb::ListPeersReply rep;
    if (!Bgp(vr, "list_peers", req, &rep).ok() || rep.peers_size() != 1) return "?";
    return rep.peers(0).state();
  }
  // b's best routes: "prefix as_path lp" strings.
  std::vector<std::string> Best(const std::string& vr) {
    bpb::ListRoutesRequest req;
    req.set_best_only(true);
    bpb::ListRoutesReply rep;
    EXPECT_TRUE(Bgp(vr, "list_routes", req, &rep).ok());
    std::vector<std::string> out;
    for (const auto& r : rep.routes()) {
      out.push_back((*rib::PrefixFromProto(r.prefix(), "p")).ToString() + " [" + r.as_path() + "]" +
                    (r.has_local_pref() ? " lp " + std::to_string(r.local_pref()) : ""));
    }
    return out;
  }
  std::vector<std::string> RibTable(const std::string& vr, const std::string& protocol) {
    rpb::ListRoutesRequest req;
    req.set_protocol(protocol);
    auto [s, rep] = env_.Call<rpb::ListRoutesRequest, rpb::ListRoutesReply>(
        *client_, "rib." + vr, "rib/1.0/list_routes", req);
    std::vector<std::string> out;
    for (const auto& r : rep.routes()) {
      out.push_back((*rib::PrefixFromProto(r.prefix(), "p")).ToString() + " " +
                    (*rib::AddrFromProto(r.nexthop(), "n")).ToString());
    }
    return out;
  }
  // An IGP route to the loopback peers, so their next hops resolve.
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
    rib::PrefixToProto(P("127.0.0.0/8"), e->mutable_prefix());
    rib::AddrToProto(A("127.0.0.1"), e->mutable_nexthop());
    ASSERT_TRUE((env_.Call<rpb::AddRoutesRequest, rpb::AddRoutesReply>(*client_, "rib." + vr,
                                                                       "rib/1.0/add_routes", req))
                    .first.ok());
  }
  // `adjust_b`: changes to b's add_peer call for a; `clock_b`: b's damping clock.
  void Pair(uint16_t port, const Adjust& adjust_b = nullptr, PipelineClock* clock_b = nullptr) {
    env_.StartRib("a");
    env_.StartRib("b");
    AddLoopbackIgp("a");
    AddLoopbackIgp("b");
    StartBgp("a");
    StartBgp("b", clock_b);
    ASSERT_TRUE(SetLocal("a", 65001, "127.0.0.2", port).ok());
    ASSERT_TRUE(SetLocal("b", 65002, "127.0.0.3", port).ok());
    ASSERT_TRUE(AddPeer("a", "127.0.0.3", 65002, "127.0.0.2", port).ok());
    ASSERT_TRUE(AddPeer("b", "127.0.0.2", 65001, "127.0.0.3", port, adjust_b).ok());
    ASSERT_TRUE(env_.RunUntil(
        [&] {
          return PeerState("a", "127.0.0.3") == "Established" &&
                 PeerState("b", "127.0.0.2") == "Established";
        },
        10s));
  }
  Status DefinePolicy(const bpb::DefinePolicyRequest& p, const std::string& vr) {
    return Bgp<bpb::DefinePolicyRequest, bpb::DefinePolicyReply>(vr, "define_policy", p);
  }
  Status SetPolicy(const std::string& vr, std::string_view peer, const std::string& dir,
                   const std::string& name) {
    bpb::SetPeerPolicyRequest req;
    rib::AddrToProto(A(peer), req.mutable_peer());
    req.set_direction(dir);
    req.set_policy(name);
    return Bgp(vr, "set_peer_policy", req);
  }

  BgpTestEnv env_;
  ipc::Router* client_ = nullptr;
  std::map<std::string, std::unique_ptr<BgpProcess>> procs_;
};

}  // namespace strata::bgp::speaker_test
