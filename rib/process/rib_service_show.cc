// RibService's read-only methods for `show`: route listings and statistics.
#include <set>

#include "rib/process/proto_convert.h"
#include "rib/process/rib_service.h"

namespace strata::rib {

void RibService::set_not_installed(const IpPrefix& prefix, v1::Route* out) const {
  if (const std::string* why = rib_.fea().refusal(prefix)) out->set_not_installed(*why);
}

void RibService::list_table(const OriginTable& t, const std::optional<IpPrefix>& within,
                            uint32_t limit, v1::ListRoutesReply& out) const {
  t.for_each(within, [&](const RouteRef& r, bool stale) {
    if (within && !within->Contains(r->prefix)) return !(*within < r->prefix);
    if (limit != 0 && static_cast<uint32_t>(out.routes_size()) >= limit) {
      out.set_truncated(true);
      return false;
    }
    v1::Route* pr = out.add_routes();
    RouteToProto(*r, pr);
    pr->set_stale(stale);
    const RouteRef best = rib_.lookup_route(r->prefix);
    pr->set_best(best && best->protocol() == r->protocol());
    if (pr->best()) set_not_installed(r->prefix, pr);
    return true;
  });
}

void RibService::list_winners(const std::optional<IpPrefix>& within, uint32_t limit,
                              v1::ListRoutesReply& out) const {
  // Winners are not stored apart: gather the prefixes of every table, then ask the pipeline.
  std::set<IpPrefix> prefixes;
  for (const std::string& protocol : rib_.protocols()) {
    rib_.table(protocol)->for_each(within, [&](const RouteRef& r, bool) {
      if (within && !within->Contains(r->prefix)) return !(*within < r->prefix);
      prefixes.insert(r->prefix);
      return true;
    });
  }
  for (const IpPrefix& p : prefixes) {
    const RouteRef best = rib_.lookup_route(p);
    if (!best) continue;  // e.g. an EGP route whose nexthop does not resolve
    if (limit != 0 && static_cast<uint32_t>(out.routes_size()) >= limit) {
      out.set_truncated(true);
      return;
    }
    v1::Route* pr = out.add_routes();
    RouteToProto(*best, pr);
    const OriginTable* t = rib_.table(best->protocol());
    pr->set_stale(t && t->is_stale(p));
    pr->set_best(true);
    set_not_installed(p, pr);
  }
}

void RibService::ListRoutes(const v1::ListRoutesRequest& request,
                            ipc::Responder<v1::ListRoutesReply> reply) {
  std::optional<IpPrefix> within;
  if (request.has_within()) {
    auto w = ipc::PrefixFromProto(request.within(), "within");
    if (!w.ok()) return reply.Fail(w.status());
    within = *w;
  }
  v1::ListRoutesReply out;
  if (request.protocol().empty()) {
    list_winners(within, request.limit(), out);
  } else {
    const OriginTable* t = rib_.table(request.protocol());
    if (!t) {
      return reply.Fail(NotFound("no origin table for protocol '" + request.protocol() + "'"));
    }
    list_table(*t, within, request.limit(), out);
  }
  reply(out);
}

void RibService::GetStats(const v1::GetStatsRequest&, ipc::Responder<v1::GetStatsReply> reply) {
  v1::GetStatsReply out;
  for (const std::string& protocol : rib_.protocols()) {
    const OriginTable* t = rib_.table(protocol);
    v1::TableStats* ts = out.add_tables();
    ts->set_protocol(protocol);
    ts->set_kind(KindToProto(t->kind()));
    ts->set_admin_distance(t->admin_distance());
    ts->set_routes(t->size());
    ts->set_stale(t->stale_count());
    ts->set_enabled(parts_.owners->enabled(protocol));
    if (const ProtocolOwners::Entry* e = parts_.owners->find(protocol)) {
      ts->set_owner(e->owner);
      ts->set_graceful_restart(e->graceful_restart);
      ts->set_restart_time_s(static_cast<uint32_t>(
          std::chrono::duration_cast<std::chrono::seconds>(parts_.owners->restart_time(*e))
              .count()));
      ts->set_restarting(e->restarting);
      if (e->restarting) {
        const auto left = parts_.owners->restart_remaining(*e);
        ts->set_restart_remaining_s(static_cast<uint32_t>((left.count() + 999) / 1000));
      }
    }
  }
  const FeaStage& fea = rib_.fea();
  out.set_fea_routes(fea.routes());
  out.set_fea_queued(fea.queued());
  out.set_fea_batches_sent(fea.batches_sent());
  out.set_fea_resyncs(fea.resyncs());
  out.set_fea_routes_refused(fea.routes_refused());
  out.set_fea_refused_waiting(fea.refused());
  if (parts_.fea) {
    out.set_fea_connected(parts_.fea->ready());
    out.set_fea_calls_failed(parts_.fea->calls_failed());
  }
  out.set_interest_registrations(rib_.register_stage().registered_subnets());
  if (parts_.interest) out.set_invalidations_sent(parts_.interest->sent());
  out.set_redist_subscriptions(redist_.size());
  if (parts_.connected) out.set_connected_routes(parts_.connected->routes());
  fill_readiness(out);
  reply(out);
}

}  // namespace strata::rib
