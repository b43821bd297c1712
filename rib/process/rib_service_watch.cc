// RibService's watch_routes: the long poll of `monitor route` on the RouteJournal. The request
// is parked and answered from the io_context when changes come or the timeout passes; the
// handler returns at once.
#include <memory>
#include <optional>

#include "libipc/common_convert.h"
#include "rib/process/proto_convert.h"
#include "rib/process/rib_service.h"

namespace strata::rib {
namespace {

v1::RouteChange ChangeToProto(RouteEvent::Change c) {
  switch (c) {
    case RouteEvent::Change::kAdd:
      return v1::ROUTE_CHANGE_ADD;
    case RouteEvent::Change::kReplace:
      return v1::ROUTE_CHANGE_REPLACE;
    case RouteEvent::Change::kDelete:
      return v1::ROUTE_CHANGE_DELETE;
  }
  return v1::ROUTE_CHANGE_UNSPECIFIED;
}

}  // namespace

void RibService::WatchRoutes(const v1::WatchRoutesRequest& request,
                             ipc::Responder<v1::WatchRoutesReply> reply) {
  std::optional<IpPrefix> within;
  if (request.has_within()) {
    auto w = ipc::PrefixFromProto(request.within(), "within");
    if (!w.ok()) return reply.Fail(w.status());
    within = *w;
  }
  const size_t max = request.max() == 0 ? 1000 : request.max();
  // Shared: the journal keeps its answers in std::function, which copies.
  auto parked = std::make_shared<ipc::Responder<v1::WatchRoutesReply>>(std::move(reply));
  journal_->Watch(
      request.has_after_seq() ? std::optional<uint64_t>(request.after_seq()) : std::nullopt, max,
      std::chrono::milliseconds(request.timeout_ms()),
      [this, within, parked,
       alive = std::weak_ptr<bool>(alive_)](RouteJournal::Journal::Page page) {
        v1::WatchRoutesReply out;
        out.set_next_seq(page.next);
        out.set_lost(page.lost);
        for (const auto& [seq, e] : page.entries) {
          if (within && !within->Contains(e.route->prefix)) continue;
          v1::RouteEvent* ev = out.add_events();
          ev->set_seq(seq);
          ev->set_unix_ms(e.unix_ms);
          ev->set_change(ChangeToProto(e.change));
          RouteToProto(*e.route, ev->mutable_route());
          ev->mutable_route()->set_best(e.change != RouteEvent::Change::kDelete);
          if (!alive.expired() && e.change != RouteEvent::Change::kDelete) {
            set_not_installed(e.route->prefix, ev->mutable_route());
          }
        }
        (*parked)(out);
      });
}

}  // namespace strata::rib
