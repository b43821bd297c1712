// bgp/1.0 set_peer_bfd and clear_peer_bfd: a peer's BFD session held through BfdLink.
#include "bgp/process/bgp_proto_convert.h"
#include "bgp/process/bgp_service.h"

namespace strata::bgp {

Status BgpService::update_bfd(const IpAddr& peer, const BfdSettings& settings) {
  const BgpPeer* p = speaker_.peer(peer);
  if (p == nullptr) return NotFound("no peer " + peer.ToString());
  const PeerConfig& c = p->settings().session;
  // A directly connected eBGP peer (no multihop, or GTSM one hop away) is single hop (RFC
  // 5881); any other (iBGP, eBGP multihop) multihop from its local address (RFC 5883).
  const bool multihop = c.multihop_ttl.value_or(1) > 1;
  const IpAddr local = c.local_address.value_or(IpAddr::Zero(peer.family()));
  if (multihop && local.is_zero()) {
    return FailedPrecondition("peer " + peer.ToString() +
                              " is multihop: BFD needs its local-address (RFC 5883)");
  }
  bfd_->Set(peer, local, multihop, settings);
  return Status::Ok();
}

void BgpService::SetPeerBfd(const v1::SetPeerBfdRequest& request,
                            ipc::Responder<v1::PeerReply> reply) {
  if (bfd_ == nullptr) return reply.Fail(FailedPrecondition("this speaker has no BFD link"));
  auto peer = RequiredAddrFromProto(request.peer(), "peer");
  if (!peer.ok()) return reply.Fail(peer.status());
  BfdSettings s;
  if (request.min_tx_ms() != 0) s.min_tx_ms = request.min_tx_ms();
  if (request.min_rx_ms() != 0) s.min_rx_ms = request.min_rx_ms();
  if (request.multiplier() != 0) s.multiplier = request.multiplier();
  for (auto [name, v] :
       {std::pair{"min_tx_ms", s.min_tx_ms}, std::pair{"min_rx_ms", s.min_rx_ms}}) {
    if (v < 10 || v > 60000) {
      return reply.Fail(
          InvalidArgument(std::string(name) + ": " + std::to_string(v) + " not in 10..60000"));
    }
  }
  if (s.multiplier > 255) return reply.Fail(InvalidArgument("multiplier: more than 255"));
  if (Status st = update_bfd(*peer, s); !st.ok()) return reply.Fail(st);
  bfd_settings_[*peer] = s;
  reply(v1::PeerReply());
}

void BgpService::ClearPeerBfd(const v1::PeerRequest& request, ipc::Responder<v1::PeerReply> reply) {
  if (bfd_ == nullptr) return reply.Fail(FailedPrecondition("this speaker has no BFD link"));
  auto peer = RequiredAddrFromProto(request.peer(), "peer");
  if (!peer.ok()) return reply.Fail(peer.status());
  bfd_settings_.erase(*peer);
  if (!bfd_->Clear(*peer)) return reply.Fail(NotFound("no BFD for peer " + peer->ToString()));
  reply(v1::PeerReply());
}

}  // namespace strata::bgp
