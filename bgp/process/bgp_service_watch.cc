// BgpService's watch_updates: the long poll of `monitor bgp updates` on the speaker's
// UpdateJournal. The request is parked (BgpSpeaker::WatchUpdates) and answered from the
// io_context when events come or the timeout passes; the handler returns at once.
#include <memory>

#include "bgp/process/bgp_proto_convert.h"
#include "bgp/process/bgp_service.h"
#include "libipc/common_convert.h"

namespace strata::bgp {

void BgpService::WatchUpdates(const v1::WatchUpdatesRequest& request,
                              ipc::Responder<v1::WatchUpdatesReply> reply) {
  auto peer = OptionalAddrFromProto(request.peer(), "peer");
  if (!peer.ok()) return reply.Fail(peer.status());
  if (*peer && speaker_.peer(**peer) == nullptr) {
    return reply.Fail(NotFound("no such peer " + (*peer)->ToString()));
  }
  const size_t max = request.max() == 0 ? 1000 : request.max();
  // Shared: the journal keeps its answers in std::function, which copies.
  auto parked = std::make_shared<ipc::Responder<v1::WatchUpdatesReply>>(std::move(reply));
  speaker_.WatchUpdates(
      request.has_after_seq() ? std::optional<uint64_t>(request.after_seq()) : std::nullopt, max,
      std::chrono::milliseconds(request.timeout_ms()),
      [only = *peer, parked](UpdateJournal::Page page) {
        v1::WatchUpdatesReply out;
        out.set_next_seq(page.next);
        out.set_lost(page.lost);
        for (const auto& [seq, e] : page.entries) {
          if (only && e.peer != *only) continue;
          v1::UpdateEvent* ev = out.add_events();
          ev->set_seq(seq);
          ev->set_unix_ms(e.unix_ms);
          ev->set_direction(e.direction == UpdateEvent::Direction::kReceived
                                ? v1::UPDATE_DIRECTION_RECEIVED
                                : v1::UPDATE_DIRECTION_SENT);
          ipc::AddrToProto(e.peer, ev->mutable_peer());
          ev->set_withdraw(e.withdraw);
          v1::BgpRoute* r = ev->mutable_route();
          ipc::PrefixToProto(e.prefix, r->mutable_prefix());
          if (e.attrs) fill_attributes(e.attrs->attrs(), r);
        }
        (*parked)(out);
      });
}

}  // namespace strata::bgp
