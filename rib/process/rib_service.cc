#include "rib/process/rib_service.h"

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "common/profiler.h"
#include "rib/process/proto_convert.h"

namespace strata::rib {
namespace {
ProfilePoint& profile_in = Profiler::Get().Point(kProfileRibIn);
}  // namespace

RibService::RibService(ipc::Router& router, Parts parts,
                       std::function<void(const std::string&)> watch, std::function<void()> changed)
    : router_(router),
      parts_(std::move(parts)),
      rib_(*parts_.rib),
      watch_(std::move(watch)),
      changed_(std::move(changed)),
      journal_(std::make_unique<RouteJournal>(router.io(), RouteJournal::Journal::Options())) {
  rib_.set_route_observer(
      [journal = journal_.get()](FeaOp op, const RouteRef& r) { journal->Observe(op, r); });
}

RibService::~RibService() {
  rib_.set_route_observer(nullptr);
  *alive_ = false;
  for (const auto& [id, out] : redist_) (void)rib_.redist_unsubscribe(id);
}

void RibService::notify_changed() {
  if (changed_) changed_();
}

void RibService::instance_event(const std::string& instance, bool alive) {
  if (alive) return;
  for (auto it = redist_.begin(); it != redist_.end();) {
    if (it->second->client() == instance) {
      (void)rib_.redist_unsubscribe(it->first);
      it = redist_.erase(it);
    } else {
      ++it;
    }
  }
}

StatusOr<const OriginTable*> RibService::writable_table(const std::string& protocol) const {
  const OriginTable* t = rib_.table(protocol);
  if (!t || !parts_.owners->enabled(protocol)) {
    return NotFound("no origin table for protocol '" + protocol + "'");
  }
  return t;
}

void RibService::AddOriginTable(const v1::AddOriginTableRequest& request,
                                ipc::Responder<v1::AddOriginTableReply> reply) {
  const std::string& protocol = request.protocol();
  auto kind = KindFromProto(request.kind());
  if (!kind.ok()) return reply.Fail(kind.status());
  std::optional<uint32_t> distance;
  if (request.has_admin_distance()) {
    distance = request.admin_distance();
  } else if (auto d = parts_.default_distances.find(protocol);
             d != parts_.default_distances.end()) {
    distance = d->second;
  }
  if (distance && *distance > kMaxAdminDistance) {
    return reply.Fail(InvalidArgument("admin distance " + std::to_string(*distance) + " exceeds " +
                                      std::to_string(kMaxAdminDistance)));
  }
  if (const OriginTable* t = rib_.table(protocol)) {
    // Registering again (a restarted protocol) is allowed if the kind agrees.
    if (t->kind() != *kind) {
      return reply.Fail(AlreadyExists("protocol " + protocol + " exists as " +
                                      std::string(ProtocolKindName(t->kind()))));
    }
    if (distance && *distance != t->admin_distance()) {
      if (Status s = rib_.set_admin_distance(protocol, *distance); !s.ok()) return reply.Fail(s);
    }
  } else if (Status s = rib_.add_protocol(protocol, *kind, distance); !s.ok()) {
    return reply.Fail(s);
  }
  parts_.owners->set(protocol, request.owner(), request.graceful_restart(),
                     std::chrono::seconds(request.restart_time_s()),
                     std::chrono::seconds(request.selection_deferral_s()));
  if (parts_.readiness != nullptr && request.selection_deferral_s() > 0 &&
      !request.owner().empty()) {
    // A restarting owner defers its selection that long, then sends its table: the table waits
    // for it as long (and the time to send it, its restart time).
    const auto* e = parts_.owners->find(protocol);
    parts_.readiness->OwnerDefers(
        request.owner(),
        std::chrono::seconds(request.selection_deferral_s()) + parts_.owners->restart_time(*e),
        std::chrono::steady_clock::now());
  }
  notify_changed();
  v1::AddOriginTableReply out;
  out.set_admin_distance(rib_.table(protocol)->admin_distance());
  reply(out);
}

void RibService::DeleteOriginTable(const v1::DeleteOriginTableRequest& request,
                                   ipc::Responder<v1::DeleteOriginTableReply> reply) {
  if (!rib_.table(request.protocol())) {
    return reply.Fail(NotFound("no origin table for protocol '" + request.protocol() + "'"));
  }
  if (IsBuiltInProtocol(request.protocol())) {
    // The pipeline is built on these: the table stays, emptied and refusing routes.
    if (Status s = parts_.owners->disable(request.protocol()); !s.ok()) return reply.Fail(s);
  } else {
    // Withdrawn in the background, then unplumbed; the name may be registered again at once.
    if (Status s = rib_.remove_protocol(request.protocol()); !s.ok()) return reply.Fail(s);
    parts_.owners->forget(request.protocol());
  }
  notify_changed();
  reply(v1::DeleteOriginTableReply());
}

void RibService::SetAdminDistance(const v1::SetAdminDistanceRequest& request,
                                  ipc::Responder<v1::SetAdminDistanceReply> reply) {
  auto t = writable_table(request.protocol());
  if (!t.ok()) return reply.Fail(t.status());
  if (Status s = rib_.set_admin_distance(request.protocol(), request.admin_distance()); !s.ok()) {
    return reply.Fail(s);
  }
  notify_changed();
  reply(v1::SetAdminDistanceReply());
}

void RibService::GracefulRestartDone(const v1::GracefulRestartDoneRequest& request,
                                     ipc::Responder<v1::GracefulRestartDoneReply> reply) {
  auto swept = parts_.owners->restart_done(request.protocol());
  if (!swept.ok()) return reply.Fail(swept.status());
  note_resent(request.protocol());
  notify_changed();
  v1::GracefulRestartDoneReply out;
  out.set_swept(*swept);
  reply(out);
}

StatusOr<uint32_t> RibService::apply_routes(
    Op op, const std::string& protocol,
    const google::protobuf::RepeatedPtrField<v1::RouteEntry>& routes) {
  auto t = writable_table(protocol);
  if (!t.ok()) return t.status();
  std::vector<RibRoute> parsed;
  parsed.reserve(static_cast<size_t>(routes.size()));
  // Check the whole batch first: prefixes this batch already touched are tracked here.
  absl::flat_hash_map<IpPrefix, bool, std::hash<IpPrefix>> present;
  present.reserve(static_cast<size_t>(routes.size()));
  for (int i = 0; i < routes.size(); ++i) {
    auto r = RouteFromProto(routes.Get(i));
    if (!r.ok()) {
      return Status(r.status().code(), "routes." + std::to_string(i) + ": " + r.status().message());
    }
    auto [it, fresh] = present.try_emplace(r->prefix, false);
    if (fresh) {
      // A stale route (graceful restart) may be announced again by add.
      it->second = op == Op::kAdd ? (*t)->find(r->prefix) && !(*t)->is_stale(r->prefix)
                                  : (*t)->find(r->prefix) != nullptr;
    }
    if (op == Op::kAdd && it->second) {
      return AlreadyExists("routes." + std::to_string(i) + ": " + protocol +
                           " already has a route for " + r->prefix.ToString());
    }
    if (op == Op::kReplace && !it->second) {
      return NotFound("routes." + std::to_string(i) + ": " + protocol + " has no route for " +
                      r->prefix.ToString() + " to replace");
    }
    it->second = true;
    parsed.push_back(std::move(*r));
  }
  for (RibRoute& r : parsed) {
    if (profile_in.enabled()) profile_in.Record("add " + r.prefix.ToString());
    Status s = op == Op::kAdd ? rib_.add_route(protocol, std::move(r))
                              : rib_.replace_route(protocol, std::move(r));
    if (!s.ok()) return Internal("batch checked but not applied: " + s.message());
  }
  notify_changed();
  return static_cast<uint32_t>(parsed.size());
}

StatusOr<uint32_t> RibService::delete_routes(
    const std::string& protocol,
    const google::protobuf::RepeatedPtrField<common::v1::IpPrefix>& prefixes) {
  auto t = writable_table(protocol);
  if (!t.ok()) return t.status();
  std::vector<IpPrefix> parsed;
  parsed.reserve(static_cast<size_t>(prefixes.size()));
  absl::flat_hash_set<IpPrefix, std::hash<IpPrefix>> seen;
  seen.reserve(static_cast<size_t>(prefixes.size()));
  for (int i = 0; i < prefixes.size(); ++i) {
    const std::string field = "prefixes." + std::to_string(i);
    auto p = ipc::PrefixFromProto(prefixes.Get(i), field);
    if (!p.ok()) return p.status();
    if (!(*t)->find(*p) || !seen.insert(*p).second) {
      return NotFound(field + ": " + protocol + " has no route for " + p->ToString());
    }
    parsed.push_back(*p);
  }
  for (const IpPrefix& p : parsed) {
    if (profile_in.enabled()) profile_in.Record("delete " + p.ToString());
    if (Status s = rib_.delete_route(protocol, p); !s.ok()) {
      return Internal("batch checked but not applied: " + s.message());
    }
  }
  notify_changed();
  return static_cast<uint32_t>(parsed.size());
}

void RibService::AddRoutes(const v1::AddRoutesRequest& request,
                           ipc::Responder<v1::AddRoutesReply> reply) {
  auto n = apply_routes(Op::kAdd, request.protocol(), request.routes());
  if (!n.ok()) return reply.Fail(n.status());
  v1::AddRoutesReply out;
  out.set_applied(*n);
  reply(out);
}

void RibService::ReplaceRoutes(const v1::ReplaceRoutesRequest& request,
                               ipc::Responder<v1::ReplaceRoutesReply> reply) {
  auto n = apply_routes(Op::kReplace, request.protocol(), request.routes());
  if (!n.ok()) return reply.Fail(n.status());
  v1::ReplaceRoutesReply out;
  out.set_applied(*n);
  reply(out);
}

void RibService::DeleteRoutes(const v1::DeleteRoutesRequest& request,
                              ipc::Responder<v1::DeleteRoutesReply> reply) {
  auto n = delete_routes(request.protocol(), request.prefixes());
  if (!n.ok()) return reply.Fail(n.status());
  v1::DeleteRoutesReply out;
  out.set_applied(*n);
  reply(out);
}

void RibService::LookupRoute(const v1::LookupRouteRequest& request,
                             ipc::Responder<v1::LookupRouteReply> reply) {
  if (!request.has_addr()) return reply.Fail(InvalidArgument("addr is missing"));
  auto addr = ipc::AddrFromProto(request.addr(), "addr");
  if (!addr.ok()) return reply.Fail(addr.status());
  v1::LookupRouteReply out;
  if (RouteRef r = rib_.lookup_best(*addr)) {
    out.set_found(true);
    RouteToProto(*r, out.mutable_route());
    out.mutable_route()->set_best(true);
    set_not_installed(r->prefix, out.mutable_route());
  }
  reply(out);
}

void RibService::LookupPrefix(const v1::LookupPrefixRequest& request,
                              ipc::Responder<v1::LookupPrefixReply> reply) {
  if (!request.has_prefix()) return reply.Fail(InvalidArgument("prefix is missing"));
  auto prefix = ipc::PrefixFromProto(request.prefix(), "prefix");
  if (!prefix.ok()) return reply.Fail(prefix.status());
  v1::LookupPrefixReply out;
  if (RouteRef r = rib_.lookup_route(*prefix)) {
    out.set_found(true);
    RouteToProto(*r, out.mutable_route());
    out.mutable_route()->set_best(true);
    set_not_installed(r->prefix, out.mutable_route());
  }
  reply(out);
}

void RibService::RegisterInterest(const v1::RegisterInterestRequest& request,
                                  ipc::Responder<v1::RegisterInterestReply> reply) {
  if (request.client().empty()) return reply.Fail(InvalidArgument("client is empty"));
  if (!request.has_addr()) return reply.Fail(InvalidArgument("addr is missing"));
  auto addr = ipc::AddrFromProto(request.addr(), "addr");
  if (!addr.ok()) return reply.Fail(addr.status());
  if (parts_.readiness != nullptr && parts_.readiness->hold_answers()) {
    // Recovering without the connected or static routes yet: the answer would be wrong.
    held_interests_.push_back(HeldInterest{request, std::move(reply)});
    return;
  }
  const RouteRange range = rib_.register_interest(request.client(), *addr);
  v1::RegisterInterestReply out;
  if (range.route) {
    out.set_resolves(true);
    RouteToProto(*range.route, out.mutable_route());
    out.mutable_route()->set_best(true);
  }
  ipc::PrefixToProto(range.valid, out.mutable_valid());
  reply(out);
}

void RibService::DeregisterInterest(const v1::DeregisterInterestRequest& request,
                                    ipc::Responder<v1::DeregisterInterestReply> reply) {
  if (!request.has_valid()) return reply.Fail(InvalidArgument("valid is missing"));
  auto valid = ipc::PrefixFromProto(request.valid(), "valid");
  if (!valid.ok()) return reply.Fail(valid.status());
  if (Status s = rib_.deregister_interest(request.client(), *valid); !s.ok()) {
    return reply.Fail(s);
  }
  reply(v1::DeregisterInterestReply());
}

void RibService::EnableRedist(const v1::EnableRedistRequest& request,
                              ipc::Responder<v1::EnableRedistReply> reply) {
  if (request.client().empty()) return reply.Fail(InvalidArgument("client is empty"));
  RedistFilter filter;
  for (const std::string& p : request.protocols()) {
    if (!rib_.table(p)) return reply.Fail(NotFound("no origin table for protocol '" + p + "'"));
    filter.protocols.insert(p);
  }
  if (request.has_within()) {
    auto within = ipc::PrefixFromProto(request.within(), "within");
    if (!within.ok()) return reply.Fail(within.status());
    filter.within = *within;
  }
  if (request.has_tag()) filter.tag = request.tag();
  auto out = std::make_unique<RemoteRedistOutput>(router_, request.client());
  const uint64_t id = rib_.redist_subscribe(std::move(filter), out.get());
  out->set_id(id);
  redist_.emplace(id, std::move(out));
  if (watch_) watch_(request.client());
  v1::EnableRedistReply rep;
  rep.set_id(id);
  reply(rep);
}

void RibService::DisableRedist(const v1::DisableRedistRequest& request,
                               ipc::Responder<v1::DisableRedistReply> reply) {
  if (Status s = rib_.redist_unsubscribe(request.id()); !s.ok()) return reply.Fail(s);
  redist_.erase(request.id());
  reply(v1::DisableRedistReply());
}

}  // namespace strata::rib
