#include "testing/bgp/speaker_pair_fixture.h"

#include "libipc/common_convert.h"

namespace strata::bgp::speaker_test {

void SpeakerPairTest::SetUp() { client_ = &env_.NewRouter("client"); }
void SpeakerPairTest::TearDown() { procs_.clear(); }

std::string SpeakerPairTest::Addr(const std::string& vr) {
  return vr == "a" ? "127.0.0.2" : "127.0.0.3";
}
uint32_t SpeakerPairTest::As(const std::string& vr) { return vr == "a" ? 65001 : 65002; }

BgpProcess& SpeakerPairTest::StartBgp(const std::string& vr, const OptionsAdjust& adjust) {
  std::unique_ptr<BgpProcess> proc;
  env_.NewRouter("bgp." + vr, [&](ipc::Router& r) {
    BgpProcess::Options o;
    o.vr = vr;
    if (adjust) adjust(o);
    proc = std::make_unique<BgpProcess>(r, o);
    proc->AddTarget();
  });
  proc->Started();
  BgpProcess& ref = *proc;
  procs_[vr] = std::move(proc);
  return ref;
}

void SpeakerPairTest::KillBgp(const std::string& vr) {
  procs_.erase(vr);
  env_.DropRouter("bgp." + vr);
}

Status SpeakerPairTest::SetLocal(const std::string& vr, uint32_t as, std::string_view addr,
                                 uint16_t port, const LocalAdjust& adjust) {
  bpb::SetLocalConfigRequest req;
  req.set_local_as(as);
  ipc::AddrToProto(A(addr), req.mutable_router_id());
  ipc::AddrToProto(A(addr), req.mutable_listen_address());
  req.set_port(port);
  if (adjust) adjust(req);
  return Bgp<bpb::SetLocalConfigRequest, bpb::SetLocalConfigReply>(vr, "set_local_config", req);
}

Status SpeakerPairTest::AddPeer(const std::string& vr, std::string_view peer, uint32_t as,
                                std::string_view local, uint16_t port, const Adjust& adjust) {
  bpb::AddPeerRequest req;
  ipc::AddrToProto(A(peer), req.mutable_peer());
  req.set_peer_as(as);
  ipc::AddrToProto(A(local), req.mutable_local_address());
  req.set_peer_port(port);
  req.set_connect_retry(1);
  req.set_ebgp_requires_policy(false);  // RFC 8212 has its own tests
  if (adjust) adjust(req);
  return Bgp<bpb::AddPeerRequest, bpb::AddPeerReply>(vr, "add_peer", req);
}

void SpeakerPairTest::ConfigureSide(const std::string& vr, uint16_t port, const LocalAdjust& local,
                                    const Adjust& peer) {
  const std::string other = Other(vr);
  ASSERT_TRUE(SetLocal(vr, As(vr), Addr(vr), port, local).ok());
  ASSERT_TRUE(AddPeer(vr, Addr(other), As(other), Addr(vr), port, peer).ok());
}

bpb::PeerStatus SpeakerPairTest::Peer(const std::string& vr, std::string_view peer) {
  bpb::ListPeersRequest req;
  ipc::AddrToProto(A(peer), req.mutable_peer());
  bpb::ListPeersReply rep;
  if (!Bgp(vr, "list_peers", req, &rep).ok() || rep.peers_size() != 1) return bpb::PeerStatus();
  return rep.peers(0);
}

std::string SpeakerPairTest::PeerState(const std::string& vr, std::string_view peer) {
  const bpb::PeerStatus s = Peer(vr, peer);
  return s.state().empty() ? "?" : s.state();
}

bool SpeakerPairTest::PairEstablished() {
  return PeerState("a", Addr("b")) == "Established" && PeerState("b", Addr("a")) == "Established";
}

Status SpeakerPairTest::Network(const std::string& vr, std::string_view prefix, bool add) {
  bpb::NetworkRequest req;
  ipc::PrefixToProto(P(prefix), req.mutable_prefix());
  return Bgp<bpb::NetworkRequest, bpb::NetworkReply>(vr, add ? "add_network" : "delete_network",
                                                     req);
}

rpb::ListRoutesReply SpeakerPairTest::RibRoutes(const std::string& vr,
                                                const std::string& protocol) {
  rpb::ListRoutesRequest req;
  req.set_protocol(protocol);
  rpb::ListRoutesReply rep;
  (void)Call("rib." + vr, "rib/1.0/list_routes", req, &rep);
  return rep;
}

void SpeakerPairTest::AddStaticTable(const std::string& vr) {
  rpb::AddOriginTableRequest t;
  t.set_protocol("static");
  t.set_kind(rpb::PROTOCOL_KIND_IGP);
  ASSERT_TRUE((Call<rpb::AddOriginTableRequest, rpb::AddOriginTableReply>(
                   "rib." + vr, "rib/1.0/add_origin_table", t))
                  .ok());
}

Status SpeakerPairTest::RibStatic(const std::string& vr, std::string_view prefix,
                                  std::string_view nexthop, bool add) {
  if (!add) {
    rpb::DeleteRoutesRequest req;
    req.set_protocol("static");
    ipc::PrefixToProto(P(prefix), req.add_prefixes());
    return Call<rpb::DeleteRoutesRequest, rpb::DeleteRoutesReply>("rib." + vr,
                                                                  "rib/1.0/delete_routes", req);
  }
  rpb::AddRoutesRequest req;
  req.set_protocol("static");
  auto* e = req.add_routes();
  ipc::PrefixToProto(P(prefix), e->mutable_prefix());
  ipc::AddrToProto(A(nexthop), e->mutable_nexthop());
  return Call<rpb::AddRoutesRequest, rpb::AddRoutesReply>("rib." + vr, "rib/1.0/add_routes", req);
}

void SpeakerPairTest::AddLoopbackIgp(const std::string& vr) {
  AddStaticTable(vr);
  ASSERT_TRUE(RibStatic(vr, "127.0.0.0/8", "127.0.0.1").ok());
}

void SpeakerPairTest::StartPair(const OptionsAdjust& adjust) {
  for (const char* vr : {"a", "b"}) {
    env_.StartRib(vr);
    AddLoopbackIgp(vr);
    StartBgp(vr, adjust);
  }
}

}  // namespace strata::bgp::speaker_test
