// BgpService's damping methods: set_damping, list_damped_routes, clear_damping.
#include <map>

#include "bgp/process/bgp_proto_convert.h"
#include "bgp/process/bgp_service.h"
#include "bgp/process/damping_convert.h"
#include "libipc/common_convert.h"

namespace strata::bgp {

namespace {

// An unset prefix is nullopt.
StatusOr<std::optional<IpPrefix>> OptionalPrefix(const common::v1::IpPrefix& p) {
  if (p.addr().empty()) return std::optional<IpPrefix>();
  auto prefix = ipc::PrefixFromProto(p, "prefix");
  if (!prefix.ok()) return prefix.status();
  return std::optional<IpPrefix>(*prefix);
}

}  // namespace

void BgpService::SetDamping(const v1::SetDampingRequest& request,
                            ipc::Responder<v1::SetDampingReply> reply) {
  auto params = DampingParamsFromProto(request);
  if (!params.ok()) return reply.Fail(params.status());
  if (Status s = speaker_.SetDamping(*params); !s.ok()) return reply.Fail(s);
  reply(v1::SetDampingReply());
}

void BgpService::ListDampedRoutes(const v1::ListDampedRoutesRequest& request,
                                  ipc::Responder<v1::ListDampedRoutesReply> reply) {
  auto prefix = OptionalPrefix(request.prefix());
  if (!prefix.ok()) return reply.Fail(prefix.status());
  v1::ListDampedRoutesReply out;
  if (BgpPipeline* pl = speaker_.pipeline()) {
    std::map<PeerId, IpAddr> addresses;
    for (const auto& [addr, p] : speaker_.peers()) addresses.emplace(p->id(), addr);
    for (const BgpPipeline::DampedRoute& d : pl->damped_routes()) {
      if (*prefix && d.entry.prefix != **prefix) continue;
      if (request.suppressed_only() && !d.entry.suppressed) continue;
      auto it = addresses.find(d.peer);
      DampedRouteToProto(it == addresses.end() ? IpAddr() : it->second, d.entry, out.add_routes());
    }
  }
  reply(std::move(out));
}

void BgpService::ClearDamping(const v1::ClearDampingRequest& request,
                              ipc::Responder<v1::ClearDampingReply> reply) {
  auto prefix = OptionalPrefix(request.prefix());
  if (!prefix.ok()) return reply.Fail(prefix.status());
  auto peer = OptionalAddrFromProto(request.peer(), "peer");
  if (!peer.ok()) return reply.Fail(peer.status());
  std::optional<PeerId> id;
  if (*peer) {
    const BgpPeer* p = speaker_.peer(**peer);
    if (p == nullptr) return reply.Fail(NotFound("no such peer " + (*peer)->ToString()));
    id = p->id();
  }
  v1::ClearDampingReply out;
  if (BgpPipeline* pl = speaker_.pipeline()) out.set_cleared(pl->clear_damping(*prefix, id));
  reply(std::move(out));
}

}  // namespace strata::bgp
