#include "bgp/process/bgp_service.h"

#include "bgp/process/bgp_proto_convert.h"
#include "libipc/common_convert.h"

namespace strata::bgp {

template <typename Rep>
static void Answer(ipc::Responder<Rep>& reply, const Status& s) {
  if (s.ok()) {
    reply(Rep());
  } else {
    reply.Fail(s);
  }
}

template <typename Fn>
void BgpService::with_peer(const common::v1::IpAddress& peer, ipc::Responder<v1::PeerReply>& reply,
                           Fn op) {
  auto addr = RequiredAddrFromProto(peer, "peer");
  if (!addr.ok()) return reply.Fail(addr.status());
  Answer(reply, op(*addr));
}

void BgpService::SetLocalConfig(const v1::SetLocalConfigRequest& request,
                                ipc::Responder<v1::SetLocalConfigReply> reply) {
  auto c = LocalConfigFromProto(request);
  if (!c.ok()) return reply.Fail(c.status());
  const Status s = speaker_.SetLocalConfig(*c);
  // The RIB keeps our routes, after we die, as long as peers wait for us.
  if (s.ok() && sink_) sink_->set_restart_time(c->graceful_restart.restart_time);
  Answer(reply, s);
}

void BgpService::AddPeer(const v1::AddPeerRequest& request,
                         ipc::Responder<v1::AddPeerReply> reply) {
  auto s = PeerSettingsFromProto(request);
  if (!s.ok()) return reply.Fail(s.status());
  Answer(reply, speaker_.AddPeer(std::move(*s)));
}

void BgpService::ChangePeer(const v1::AddPeerRequest& request,
                            ipc::Responder<v1::AddPeerReply> reply) {
  auto s = PeerSettingsFromProto(request);
  if (!s.ok()) return reply.Fail(s.status());
  const IpAddr peer = s->session.peer_address;
  Status st = speaker_.ChangePeer(std::move(*s));
  // A new local address or hop count changes the BFD session's key.
  if (st.ok() && bfd_settings_.contains(peer)) st = update_bfd(peer, bfd_settings_.at(peer));
  Answer(reply, st);
}

void BgpService::DeletePeer(const v1::PeerRequest& request, ipc::Responder<v1::PeerReply> reply) {
  with_peer(request.peer(), reply, [&](const IpAddr& a) {
    const Status s = speaker_.DeletePeer(a);
    if (s.ok() && bfd_ != nullptr && bfd_settings_.erase(a) > 0) bfd_->Clear(a);
    return s;
  });
}

void BgpService::EnablePeer(const v1::PeerRequest& request, ipc::Responder<v1::PeerReply> reply) {
  with_peer(request.peer(), reply, [&](const IpAddr& a) { return speaker_.EnablePeer(a); });
}

void BgpService::DisablePeer(const v1::PeerRequest& request, ipc::Responder<v1::PeerReply> reply) {
  with_peer(request.peer(), reply, [&](const IpAddr& a) { return speaker_.DisablePeer(a); });
}

void BgpService::ResetPeer(const v1::PeerRequest& request, ipc::Responder<v1::PeerReply> reply) {
  with_peer(request.peer(), reply, [&](const IpAddr& a) { return speaker_.ResetPeer(a); });
}

void BgpService::SoftResetPeer(const v1::SoftResetPeerRequest& request,
                               ipc::Responder<v1::PeerReply> reply) {
  with_peer(request.peer(), reply, [&](const IpAddr& a) {
    return speaker_.SoftResetPeer(a, request.direction().empty() ? "both" : request.direction());
  });
}

void BgpService::AddNetwork(const v1::NetworkRequest& request,
                            ipc::Responder<v1::NetworkReply> reply) {
  auto prefix = ipc::PrefixFromProto(request.prefix(), "prefix");
  if (!prefix.ok()) return reply.Fail(prefix.status());
  auto nh = OptionalAddrFromProto(request.nexthop(), "nexthop");
  if (!nh.ok()) return reply.Fail(nh.status());
  Answer(reply, speaker_.AddNetwork(*prefix, *nh));
}

void BgpService::DeleteNetwork(const v1::NetworkRequest& request,
                               ipc::Responder<v1::NetworkReply> reply) {
  auto prefix = ipc::PrefixFromProto(request.prefix(), "prefix");
  if (!prefix.ok()) return reply.Fail(prefix.status());
  Answer(reply, speaker_.DeleteNetwork(*prefix));
}

void BgpService::AddAggregate(const v1::AggregateRequest& request,
                              ipc::Responder<v1::AggregateReply> reply) {
  auto prefix = ipc::PrefixFromProto(request.prefix(), "prefix");
  if (!prefix.ok()) return reply.Fail(prefix.status());
  Answer(reply, speaker_.AddAggregate(AggregateConfig{
                    .prefix = *prefix,
                    .summary_only = request.summary_only(),
                    .as_set = request.as_set(),
                }));
}

void BgpService::DeleteAggregate(const v1::AggregateRequest& request,
                                 ipc::Responder<v1::AggregateReply> reply) {
  auto prefix = ipc::PrefixFromProto(request.prefix(), "prefix");
  if (!prefix.ok()) return reply.Fail(prefix.status());
  Answer(reply, speaker_.DeleteAggregate(*prefix));
}

void BgpService::SetRedistribute(const v1::SetRedistributeRequest& request,
                                 ipc::Responder<v1::SetRedistributeReply> reply) {
  if (!redist_) return reply.Fail(FailedPrecondition("no RIB to redistribute from"));
  std::vector<std::string> protocols;
  for (const std::string& p : request.protocols()) {
    if (p.empty()) return reply.Fail(InvalidArgument("protocols: empty name"));
    protocols.push_back(p);
  }
  redist_->set_protocols(std::move(protocols));
  reply(v1::SetRedistributeReply());
}

void BgpService::SetMultipath(const v1::SetMultipathRequest& request,
                              ipc::Responder<v1::SetMultipathReply> reply) {
  MultipathConfig c;
  c.ebgp_paths = request.ebgp_paths() == 0 ? 1 : request.ebgp_paths();
  c.ibgp_paths = request.ibgp_paths() == 0 ? 1 : request.ibgp_paths();
  c.multiple_as = request.multiple_as();
  Answer(reply, speaker_.SetMultipath(c));
}

void BgpService::DefinePolicy(const v1::DefinePolicyRequest& request,
                              ipc::Responder<v1::DefinePolicyReply> reply) {
  auto p = PolicyFromProto(request);
  if (!p.ok()) return reply.Fail(p.status());
  Answer(reply, speaker_.DefinePolicy(std::move(*p)));
}

void BgpService::DeletePolicy(const v1::DeletePolicyRequest& request,
                              ipc::Responder<v1::DeletePolicyReply> reply) {
  if (request.name().empty()) return reply.Fail(InvalidArgument("name is required"));
  Answer(reply, speaker_.DeletePolicy(request.name()));
}

void BgpService::SetPeerPolicy(const v1::SetPeerPolicyRequest& request,
                               ipc::Responder<v1::PeerReply> reply) {
  auto dir = ParsePolicyDirection(request.direction());
  if (!dir.ok()) return reply.Fail(dir.status());
  with_peer(request.peer(), reply,
            [&](const IpAddr& a) { return speaker_.SetPeerPolicy(a, *dir, request.policy()); });
}

void BgpService::ClearPeerPolicy(const v1::ClearPeerPolicyRequest& request,
                                 ipc::Responder<v1::PeerReply> reply) {
  auto dir = ParsePolicyDirection(request.direction());
  if (!dir.ok()) return reply.Fail(dir.status());
  with_peer(request.peer(), reply,
            [&](const IpAddr& a) { return speaker_.ClearPeerPolicy(a, *dir); });
}

void BgpService::SetDefaultPolicy(const v1::SetDefaultPolicyRequest& request,
                                  ipc::Responder<v1::SetDefaultPolicyReply> reply) {
  auto dir = ParsePolicyDirection(request.direction());
  if (!dir.ok()) return reply.Fail(dir.status());
  Answer(reply, speaker_.SetVrPolicy(*dir, request.policy()));
}

void BgpService::ClearDefaultPolicy(const v1::ClearDefaultPolicyRequest& request,
                                    ipc::Responder<v1::ClearDefaultPolicyReply> reply) {
  auto dir = ParsePolicyDirection(request.direction());
  if (!dir.ok()) return reply.Fail(dir.status());
  Answer(reply, speaker_.ClearVrPolicy(*dir));
}

}  // namespace strata::bgp
