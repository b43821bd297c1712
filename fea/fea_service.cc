#include "fea/fea_service.h"

#include "common/profiler.h"
#include "libipc/common_convert.h"

namespace strata::fea {
namespace {

ProfilePoint& profile_in = Profiler::Get().Point(kProfileFeaIn);

namespace cpb = strata::common::v1;
namespace fcpb = strata::fea_client::v1;

StatusOr<IpAddr> AddrFrom(const cpb::IpAddress& a, const std::string& what) {
  const auto& b = a.addr();
  auto r = IpAddr::FromBytes({reinterpret_cast<const uint8_t*>(b.data()), b.size()});
  if (!r.ok()) return InvalidArgument(what + ": " + r.status().message());
  return r;
}

void ToProto(const IpAddr& a, cpb::IpAddress* out) {
  auto b = a.bytes();
  out->set_addr(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
}

void ToProto(const IpPrefix& p, cpb::IpPrefix* out) {
  auto b = p.addr().bytes();
  out->set_addr(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
  out->set_len(static_cast<uint32_t>(p.len()));
}

void ToProto(const Interface& i, v1::Interface* out) {
  out->set_name(i.link.name);
  out->set_ifindex(i.link.ifindex);
  out->set_up(i.up());
  out->set_mtu(i.link.mtu);
  if (i.link.mac) {
    auto b = i.link.mac->bytes();
    out->mutable_mac()->set_addr(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
  }
  out->set_vr(i.vr);
  for (const auto& a : i.addresses) {
    auto* pa = out->add_addresses();
    auto* pp = pa->mutable_prefix();
    auto b = a.address.bytes();
    pp->set_addr(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
    pp->set_len(static_cast<uint32_t>(a.prefix_len));
    ToProto(a.address, pa->mutable_address());
  }
}

void ToProto(const ResolvedNextHop& nh, v1::NextHop* out) {
  if (nh.address) ToProto(*nh.address, out->mutable_address());
  out->set_interface(nh.interface);
  out->set_weight(nh.weight);
}

StatusOr<RouteChange> FromProto(const v1::RouteChange& c, size_t index) {
  const std::string where = "changes[" + std::to_string(index) + "]";
  RouteChange r;
  switch (c.op()) {
    case v1::OP_ADD:
      r.op = RouteOp::kAdd;
      break;
    case v1::OP_REPLACE:
      r.op = RouteOp::kReplace;
      break;
    case v1::OP_DELETE:
      r.op = RouteOp::kDelete;
      break;
    default:
      return InvalidArgument(where + ": unknown op");
  }
  if (c.has_prefix()) {
    cpb::IpAddress a;
    a.set_addr(c.prefix().addr());
    auto addr = AddrFrom(a, where + ".prefix");
    if (!addr.ok()) return addr.status();
    if (c.prefix().len() > 128) return InvalidArgument(where + ".prefix: bad length");
    r.prefix_addr = *addr;
    r.prefix_len = static_cast<int>(c.prefix().len());
  }
  for (int i = 0; i < c.nexthops_size(); ++i) {
    const auto& n = c.nexthops(i);
    NextHopSpec spec;
    if (n.has_address()) {
      auto addr = AddrFrom(n.address(), where + ".nexthops." + std::to_string(i));
      if (!addr.ok()) return addr.status();
      spec.address = *addr;
    }
    spec.interface = n.interface();
    spec.weight = n.weight();
    r.nexthops.push_back(std::move(spec));
  }
  r.metric = c.metric();
  r.protocol = c.protocol();
  r.admin_distance = c.admin_distance();
  auto type = ipc::RouteTypeFromProto(c.type(), where + ".type");
  if (!type.ok()) return type.status();
  r.type = *type;
  return r;
}

}  // namespace

FeaService::FeaService(boost::asio::io_context& io, ipc::Router& router, InterfaceTable& interfaces,
                       VrTable& vrs, KernelRoutes& kernel, VrRecovery::Options recovery)
    : io_(io),
      router_(router),
      interfaces_(interfaces),
      vrs_(vrs),
      kernel_(kernel),
      log_(MakeLogger("fea")),
      recovery_(recovery, std::chrono::steady_clock::now()),
      recovery_timer_(io) {
  interfaces_.set_on_change([this](const InterfaceChange& c) { OnInterfaceChange(c); });
  if (!recovery_.config_complete()) {
    log_->info("VRs wait for the rtrmgr's configuration (config_complete) up to {} ms",
               recovery.await_config.count());
  }
  ArmRecoveryTimer();
}

FeaService::~FeaService() {
  *alive_ = false;
  interfaces_.set_on_change(nullptr);
}

void FeaService::AddVr(const v1::AddVrRequest& req, ipc::Responder<v1::AddVrReply> reply) {
  auto held = [&] {
    v1::AddVrReply out;
    const Vr* vr = vrs_.Find(req.vr());
    out.set_held_routes(
        std::max<uint64_t>(vr ? vr->routes.size() : 0, kernel_.Installed(req.vr())));
    return out;
  };
  if (const Vr* vr = vrs_.Find(req.vr()); vr != nullptr && req.move_table()) {
    if (Status s = MoveVr(req.vr(), req.table_id(), req.vrf_device()); !s.ok()) {
      return reply.Fail(s);
    }
    return reply(held());
  }
  const bool existed = vrs_.Find(req.vr()) != nullptr;
  if (Status s = vrs_.AddVr(req.vr(), req.table_id()); !s.ok()) return reply.Fail(s);
  if (vrf_ != nullptr) {
    if (Status s = vrf_->Ensure(req.vr(), req.table_id(), req.vrf_device()); !s.ok()) {
      if (!existed) (void)vrs_.DeleteVr(req.vr());
      return reply.Fail(s);
    }
  }
  if (!existed) {
    const size_t adopted = kernel_.AddVr(req.vr());
    recovery_.Adopted(req.vr(), adopted, std::chrono::steady_clock::now());
    ArmRecoveryTimer();
    log_->info("VR {} added (table {})", req.vr(), req.table_id());
  }
  reply(held());
}

void FeaService::DeleteVr(const v1::DeleteVrRequest& req, ipc::Responder<v1::DeleteVrReply> reply) {
  if (vrs_.Find(req.vr()) == nullptr) return reply.Fail(NotFound("no VR '" + req.vr() + "'"));
  recovery_.Close(req.vr());
  ArmRecoveryTimer();
  kernel_.RemoveVr(req.vr());
  if (vrf_ != nullptr) vrf_->Remove(req.vr());
  interfaces_.UnbindAll(req.vr());
  reply.Finish(vrs_.DeleteVr(req.vr()), v1::DeleteVrReply());
}

void FeaService::SetVrTable(const v1::SetVrTableRequest& req,
                            ipc::Responder<v1::SetVrTableReply> reply) {
  const Vr* vr = vrs_.Find(req.vr());
  if (vr == nullptr) return reply.Fail(NotFound("no VR '" + req.vr() + "'"));
  v1::SetVrTableReply out;
  out.set_old_table_id(vr->table_id);
  if (Status s = MoveVr(req.vr(), req.table_id(), ""); !s.ok()) return reply.Fail(s);
  reply(out);
}

Status FeaService::MoveVr(const std::string& name, uint32_t table_id,
                          const std::string& vrf_device) {
  const Vr* vr = vrs_.Find(name);
  if (vr == nullptr) return NotFound("no VR '" + name + "'");
  const uint32_t old = vr->table_id;
  if (old == table_id) {
    return vrf_ != nullptr ? vrf_->Ensure(name, table_id, vrf_device) : Status();
  }
  if (Status s = vrs_.SetTable(name, table_id); !s.ok()) return s;
  // The device first: enslaving moves the interfaces' connected routes into the new table
  // before Strata's routes go there.
  if (vrf_ != nullptr) {
    if (Status s = vrf_->Ensure(name, table_id, vrf_device); !s.ok()) {
      (void)vrs_.SetTable(name, old);
      return s;
    }
  }
  kernel_.MoveVr(name);
  // Strata routes the new table held before (an earlier run's) wait like adopted ones.
  if (kernel_.InGrace(name) && !recovery_.stale(name)) {
    recovery_.Adopted(name, kernel_.Installed(name), std::chrono::steady_clock::now());
    ArmRecoveryTimer();
  }
  log_->info("VR {} moved from table {} to table {}", name, old, table_id);
  return Status();
}

void FeaService::ListVrs(const v1::ListVrsRequest&, ipc::Responder<v1::ListVrsReply> reply) {
  v1::ListVrsReply out;
  for (const Vr* vr : vrs_.List()) {
    auto* info = out.add_vrs();
    info->set_vr(vr->name);
    info->set_table_id(vr->table_id);
    for (const Interface* i : interfaces_.List(vr->name)) info->add_interfaces(i->link.name);
    info->set_routes(vr->routes.size());
    info->set_stale(recovery_.stale(vr->name));
    if (auto d = recovery_.deadline(vr->name)) {
      const auto left = *d - std::chrono::steady_clock::now();
      info->set_stale_remaining_ms(static_cast<uint64_t>(
          std::max<int64_t>(0, std::chrono::ceil<std::chrono::milliseconds>(left).count())));
    }
    info->set_kernel_routes(kernel_.Installed(vr->name));
    if (const VrfDevice* dev = vrf_ != nullptr ? vrf_->Find(vr->name) : nullptr) {
      info->set_vrf_device(dev->name);
      info->set_vrf_adopted(dev->adopted);
    }
  }
  reply(out);
}

void FeaService::ListInterfaces(const v1::ListInterfacesRequest& req,
                                ipc::Responder<v1::ListInterfacesReply> reply) {
  v1::ListInterfacesReply out;
  for (const Interface* i : interfaces_.List(req.vr())) ToProto(*i, out.add_interfaces());
  reply(out);
}

void FeaService::BindInterface(const v1::BindInterfaceRequest& req,
                               ipc::Responder<v1::BindInterfaceReply> reply) {
  if (vrs_.Find(req.vr()) == nullptr) return reply.Fail(NotFound("no VR '" + req.vr() + "'"));
  reply.Finish(interfaces_.Bind(req.interface(), req.vr()), v1::BindInterfaceReply());
}

void FeaService::UnbindInterface(const v1::UnbindInterfaceRequest& req,
                                 ipc::Responder<v1::UnbindInterfaceReply> reply) {
  reply.Finish(interfaces_.Unbind(req.interface(), req.vr()), v1::UnbindInterfaceReply());
}

void FeaService::WatchInterfaces(const v1::WatchInterfacesRequest& req,
                                 ipc::Responder<v1::WatchInterfacesReply> reply) {
  if (req.watcher().empty()) return reply.Fail(InvalidArgument("no watcher target"));
  watchers_[req.watcher()] = req.vr();
  if (lifetime_watched_.insert(req.watcher()).second) {
    router_.WatchInstance(
        req.watcher(),
        [this, alive = alive_](const std::string&, const std::string& instance, bool is_alive) {
          if (*alive && !is_alive) DropWatcher(instance, "the Finder reports its death");
        });
  }
  reply(v1::WatchInterfacesReply());
  for (const Interface* i : interfaces_.List(req.vr())) SendEvent(req.watcher(), *i, false);
}

void FeaService::UnwatchInterfaces(const v1::WatchInterfacesRequest& req,
                                   ipc::Responder<v1::WatchInterfacesReply> reply) {
  watchers_.erase(req.watcher());
  reply(v1::WatchInterfacesReply());
}

void FeaService::DropWatcher(const std::string& watcher, const std::string& why) {
  if (watchers_.erase(watcher) == 0) return;
  ++watchers_dropped_;
  log_->info("interface watcher {} dropped: {}", watcher, why);
}

void FeaService::SendEvent(const std::string& watcher, const Interface& iface, bool removed) {
  fcpb::InterfaceEventRequest ev;
  ev.set_change(removed ? fcpb::INTERFACE_CHANGE_REMOVED : fcpb::INTERFACE_CHANGE_UPDATED);
  ToProto(iface, ev.mutable_interface());
  fcpb::FeaClientClient client(router_, watcher);
  client.InterfaceEvent(
      ev, [this, watcher, alive = alive_](const Status& s, const fcpb::InterfaceEventReply&) {
        if (!*alive || s.ok()) return;
        if (s.code() == StatusCode::kUnavailable || s.code() == StatusCode::kNotFound) {
          DropWatcher(watcher, s.ToString());
        } else {
          log_->warn("interface event to {} failed: {}", watcher, s.ToString());
        }
      });
}

void FeaService::OnInterfaceChange(const InterfaceChange& c) {
  if (vrf_ != nullptr) vrf_->OnInterfaceChange(c);
  const Interface& iface = *c.iface;
  for (const auto& [watcher, vr] : watchers_) {
    if (vr.empty() || vr == iface.vr || vr == c.old_vr) SendEvent(watcher, iface, c.removed);
  }
  // The kernel flushes the routes through a link that goes down, and the nexthop objects on a
  // link that loses its carrier with the routes through them (routes that spell their gateway
  // out stay, marked linkdown): reconcile when the link comes up or gets its carrier back.
  const bool came_up =
      iface.link.admin_up && (!c.was_admin_up || (iface.link.carrier && !c.was_carrier));
  if (!c.removed && !iface.vr.empty() && came_up) {
    // Later: the kernel restores the link's connected routes (which our gateways need) around
    // the time it reports the link up.
    auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::milliseconds(200));
    timer->async_wait(
        [this, timer, alive = alive_, vr = iface.vr](const boost::system::error_code& ec) {
          if (!ec && *alive && vrs_.Find(vr) != nullptr) kernel_.Reconcile(vr);
        });
  }
}

void FeaService::ApplyRoutes(const v1::ApplyRoutesRequest& req,
                             ipc::Responder<v1::ApplyRoutesReply> reply) {
  std::vector<RouteChange> changes;
  changes.reserve(static_cast<size_t>(req.changes_size()));
  for (int i = 0; i < req.changes_size(); ++i) {
    auto c = FromProto(req.changes(i), static_cast<size_t>(i));
    if (!c.ok()) {
      ++batches_rejected_;
      return reply.Fail(c.status());
    }
    changes.push_back(std::move(*c));
  }
  if (profile_in.enabled()) {
    for (const RouteChange& c : changes) {
      if (!c.prefix_addr) continue;
      auto p = IpPrefix::Make(*c.prefix_addr, c.prefix_len);
      if (p.ok())
        profile_in.Record((c.op == RouteOp::kDelete ? "delete " : "add ") + p->ToString());
    }
  }
  std::vector<VrTable::Refusal> refused;
  auto changed = vrs_.Apply(req.vr(), changes, req.report_refused() ? &refused : nullptr);
  if (!changed.ok()) {
    ++batches_rejected_;
    if (refused.empty()) return reply.Fail(changed.status());
    // Nothing applied; the caller hears every invalid entry and sends the rest again.
    log_->warn("VR {}: batch of {} refused for {} invalid entries; first: {}", req.vr(),
               changes.size(), refused.size(), changed.status().message());
    v1::ApplyRoutesReply out;
    for (const VrTable::Refusal& r : refused) {
      auto* pr = out.add_refused();
      pr->set_index(static_cast<uint32_t>(r.index));
      *pr->mutable_prefix() = req.changes(static_cast<int>(r.index)).prefix();
      pr->set_reason(r.why.message());
    }
    return reply(out);
  }
  ++batches_applied_;
  kernel_.Sync(req.vr(), *changed);
  v1::ApplyRoutesReply out;
  out.set_applied(static_cast<uint32_t>(changes.size()));
  reply(out);
}

void FeaService::BeginResync(const v1::BeginResyncRequest& req,
                             ipc::Responder<v1::BeginResyncReply> reply) {
  if (Status s = vrs_.BeginResync(req.vr()); !s.ok()) return reply.Fail(s);
  // The RIB takes over: its hold replaces the grace of routes adopted from the kernel.
  recovery_.BeginResync(req.vr(), std::chrono::milliseconds(req.hold_ms()),
                        std::chrono::steady_clock::now());
  ArmRecoveryTimer();
  reply(v1::BeginResyncReply());
}

void FeaService::EndResync(const v1::EndResyncRequest& req,
                           ipc::Responder<v1::EndResyncReply> reply) {
  const Vr* vr = vrs_.Find(req.vr());
  if (vr == nullptr) return reply.Fail(NotFound("no VR '" + req.vr() + "'"));
  if (!vr->resyncing) {
    return reply.Fail(FailedPrecondition("no resync in progress for VR '" + req.vr() + "'"));
  }
  recovery_.Close(req.vr());
  ArmRecoveryTimer();
  v1::EndResyncReply out;
  out.set_removed(static_cast<uint32_t>(EndStale(req.vr())));
  reply(out);
}

size_t FeaService::EndStale(const std::string& vr) {
  size_t removed = 0;
  if (const Vr* v = vrs_.Find(vr); v != nullptr && v->resyncing) {
    auto gone = vrs_.EndResync(vr);
    if (gone.ok()) {
      kernel_.Sync(vr, *gone);
      removed += gone->size();
    }
  }
  return removed + kernel_.EndGrace(vr);
}

void FeaService::ConfigComplete(const v1::ConfigCompleteRequest&,
                                ipc::Responder<v1::ConfigCompleteReply> reply) {
  v1::ConfigCompleteReply out;
  out.set_released(static_cast<uint32_t>(config_waiters_.size()));
  // Every configured VR has its device and its interfaces now: what else is there is stale.
  if (vrf_ != nullptr) vrf_->Cleanup();
  if (recovery_.ConfigComplete()) {
    log_->info("the rtrmgr's configuration is in: VRs are ready");
    ReleaseConfigWaiters(false);
    ArmRecoveryTimer();
  }
  reply(out);
}

void FeaService::WaitConfig(const v1::WaitConfigRequest&,
                            ipc::Responder<v1::WaitConfigReply> reply) {
  if (recovery_.config_complete()) return reply(v1::WaitConfigReply());
  config_waiters_.push_back(std::move(reply));
}

void FeaService::ReleaseConfigWaiters(bool timed_out) {
  auto waiters = std::move(config_waiters_);
  config_waiters_.clear();
  v1::WaitConfigReply out;
  out.set_timed_out(timed_out);
  for (auto& w : waiters) w(out);
}

void FeaService::OnRecoveryTimer() {
  const auto due = recovery_.Expire(std::chrono::steady_clock::now());
  if (due.config_timed_out) {
    log_->warn("no configuration from the rtrmgr in time: VRs are served as they are");
    ReleaseConfigWaiters(true);
  }
  for (const std::string& vr : due.vrs) {
    const size_t removed = EndStale(vr);
    log_->warn("VR {}: stale routes not confirmed in time: {} removed", vr, removed);
  }
  ArmRecoveryTimer();
}

void FeaService::ArmRecoveryTimer() {
  recovery_timer_.cancel();
  const auto next = recovery_.NextDeadline();
  if (!next) return;
  recovery_timer_.expires_at(*next);
  recovery_timer_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
    if (!ec && *alive) OnRecoveryTimer();
  });
}

void FeaService::Lookup(const v1::LookupRequest& req, ipc::Responder<v1::LookupReply> reply) {
  auto addr = AddrFrom(req.address(), "address");
  if (!addr.ok()) return reply.Fail(addr.status());
  auto r = vrs_.Lookup(req.vr(), *addr);
  if (!r.ok()) return reply.Fail(r.status());
  v1::LookupReply out;
  if (r->has_value()) {
    const FeaRoute& route = **r;
    out.set_found(true);
    ToProto(route.prefix, out.mutable_prefix());
    for (const auto& nh : route.nexthops) ToProto(nh, out.add_nexthops());
    out.set_protocol(route.protocol);
    out.set_type(ipc::RouteTypeToProto(route.type));
  }
  reply(out);
}

void FeaService::ListRoutes(const v1::ListRoutesRequest& req,
                            ipc::Responder<v1::ListRoutesReply> reply) {
  std::optional<IpPrefix> within;
  if (req.has_within()) {
    cpb::IpAddress a;
    a.set_addr(req.within().addr());
    auto addr = AddrFrom(a, "within");
    if (!addr.ok()) return reply.Fail(addr.status());
    auto p = IpPrefix::Make(*addr, static_cast<int>(std::min<uint32_t>(req.within().len(), 255)));
    if (!p.ok()) return reply.Fail(InvalidArgument("within: " + p.status().message()));
    within = *p;
  }
  auto routes = vrs_.ListRoutes(req.vr(), within, req.limit());
  if (!routes.ok()) return reply.Fail(routes.status());
  v1::ListRoutesReply out;
  for (const FeaRoute* r : *routes) {
    auto* pr = out.add_routes();
    ToProto(r->prefix, pr->mutable_prefix());
    for (const auto& nh : r->nexthops) ToProto(nh, pr->add_nexthops());
    pr->set_metric(r->metric);
    pr->set_protocol(r->protocol);
    pr->set_in_kernel(kernel_.InKernel(req.vr(), r->prefix));
    pr->set_type(ipc::RouteTypeToProto(r->type));
  }
  if (const Vr* vr = vrs_.Find(req.vr())) out.set_table_id(vr->table_id);
  reply(out);
}

void FeaService::GetStats(const v1::GetStatsRequest&, ipc::Responder<v1::GetStatsReply> reply) {
  v1::GetStatsReply out;
  std::vector<uint64_t> depth;
  for (const fib::FibStats& s : {vrs_.Stats4(), vrs_.Stats6()}) {
    out.set_trie_nodes(out.trie_nodes() + s.trie_nodes);
    out.set_shared_nexthop_entries(out.shared_nexthop_entries() + s.shared_rows);
    out.set_trie_bytes(out.trie_bytes() + s.trie_bytes);
    out.set_nexthop_bytes(out.nexthop_bytes() + s.row_bytes + s.next_hop_bytes);
    out.set_route_bytes(out.route_bytes() + s.master_bytes);
    out.set_rebuilds(out.rebuilds() + s.rebuilds);
    out.set_background_rebuilds_started(out.background_rebuilds_started() +
                                        s.background_rebuilds_started);
    out.set_background_rebuilds_completed(out.background_rebuilds_completed() +
                                          s.background_rebuilds);
    out.set_abandoned_rebuilds(out.abandoned_rebuilds() + s.abandoned_rebuilds);
    out.set_garbage_trie_nodes(out.garbage_trie_nodes() + s.dead_trie_nodes);
    out.set_garbage_rows(out.garbage_rows() + s.dead_rows);
    out.set_garbage_bytes(out.garbage_bytes() + s.dead_bytes);
    if (static_cast<uint64_t>(s.last_rebuild_unix_ms) > out.last_rebuild_unix_ms()) {
      out.set_last_rebuild_unix_ms(static_cast<uint64_t>(s.last_rebuild_unix_ms));
      out.set_last_rebuild_usec(static_cast<uint64_t>(s.last_rebuild_seconds * 1e6));
    }
    if (depth.size() < s.depth_histogram.size()) depth.resize(s.depth_histogram.size());
    for (size_t i = 0; i < s.depth_histogram.size(); ++i) depth[i] += s.depth_histogram[i];
  }
  for (uint64_t d : depth) out.add_depth_histogram(d);
  const KernelStats k = kernel_.stats();
  out.set_kernel_routes_installed(k.installed);
  out.set_kernel_errors(k.errors);
  out.set_kernel_ops(k.ops);
  out.set_batches_applied(batches_applied_);
  out.set_batches_rejected(batches_rejected_);
  out.set_config_complete(recovery_.config_complete());
  reply(out);
}

}  // namespace strata::fea
