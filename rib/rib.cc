#include "rib/rib.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace strata::rib {

std::optional<uint32_t> DefaultAdminDistance(const std::string& protocol) {
  static const std::map<std::string, uint32_t, std::less<>> kDefaults = {
      {"connected", 0}, {"static", 1}, {"ebgp", 20},  {"ospf", 110},
      {"isis", 115},    {"rip", 120},  {"ibgp", 200},
  };
  auto it = kDefaults.find(protocol);
  if (it == kDefaults.end()) return std::nullopt;
  return it->second;
}

bool IsBuiltInProtocol(const std::string& protocol) {
  return protocol == kConnectedProtocol || protocol == "static" || protocol == "ebgp" ||
         protocol == "ibgp";
}

Rib::Rib(TaskScheduler& scheduler, FeaConsumer& fea, InterestListener* listener, Options options)
    : scheduler_(scheduler), options_(options) {
  auto make = [&](const char* name, ProtocolKind kind) {
    auto t = std::make_unique<OriginTable>(name, kind, *DefaultAdminDistance(name), scheduler_,
                                           options_.slice_routes);
    OriginTable* raw = t.get();
    tables_.emplace(name, std::move(t));
    return raw;
  };
  OriginTable* connected = make("connected", ProtocolKind::kIgp);
  OriginTable* stat = make("static", ProtocolKind::kIgp);
  OriginTable* ebgp = make("ebgp", ProtocolKind::kEgp);
  OriginTable* ibgp = make("ibgp", ProtocolKind::kEgp);
  auto igp = std::make_unique<MergeStage>("merge:static", connected, stat);
  auto egp = std::make_unique<MergeStage>("merge:ibgp", ebgp, ibgp);
  ext_int_ = std::make_unique<ExtIntStage>(egp.get(), igp.get());
  redist_ = std::make_unique<RedistStage>(ext_int_.get(), scheduler_, options_.slice_routes);
  register_ = std::make_unique<RegisterStage>(redist_.get(), listener);
  fea_ = std::make_unique<FeaStage>(register_.get(), fea, scheduler_, options_.fea);

  connected->set_next(igp.get());
  stat->set_next(igp.get());
  ebgp->set_next(egp.get());
  ibgp->set_next(egp.get());
  igp->set_next(ext_int_.get());
  egp->set_next(ext_int_.get());
  ext_int_->set_next(redist_.get());
  redist_->set_next(register_.get());
  register_->set_next(fea_.get());
  merges_.push_back(std::move(igp));
  merges_.push_back(std::move(egp));
}

Rib::~Rib() = default;

Status Rib::add_protocol(const std::string& protocol, ProtocolKind kind,
                         std::optional<uint32_t> admin_distance) {
  if (protocol.empty()) return InvalidArgument("protocol name is empty");
  if (tables_.contains(protocol)) return AlreadyExists("protocol " + protocol + " exists");
  if (!admin_distance) admin_distance = DefaultAdminDistance(protocol);
  if (!admin_distance) {
    return InvalidArgument("protocol " + protocol + " has no default admin distance; give one");
  }
  if (*admin_distance > kMaxAdminDistance) {
    return InvalidArgument("admin distance " + std::to_string(*admin_distance) + " exceeds " +
                           std::to_string(kMaxAdminDistance));
  }
  auto table = std::make_unique<OriginTable>(protocol, kind, *admin_distance, scheduler_,
                                             options_.slice_routes);
  // The new table is empty, so a merge of it with the side's current last stage is consistent
  // with everything that side already sent downstream.
  RouteStage* side = kind == ProtocolKind::kIgp ? ext_int_->int_parent() : ext_int_->ext_parent();
  auto merge = std::make_unique<MergeStage>("merge:" + protocol, side, table.get());
  side->set_next(merge.get());
  table->set_next(merge.get());
  merge->set_next(ext_int_.get());
  ext_int_->replace_parent(side, merge.get());
  merges_.push_back(std::move(merge));
  tables_.emplace(protocol, std::move(table));
  return Status::Ok();
}

Status Rib::remove_protocol(const std::string& protocol) {
  auto it = tables_.find(protocol);
  if (it == tables_.end()) return NotFound("no protocol " + protocol + " in the RIB");
  if (IsBuiltInProtocol(protocol)) {
    return FailedPrecondition("protocol " + protocol + " is built in and cannot be removed");
  }
  OriginTable* table = it->second.get();
  auto removal = removing_.insert(removing_.end(), Removal{std::move(it->second), TaskHandle()});
  tables_.erase(it);
  table->delete_all_routes();
  if (!table->busy()) {
    finish_removal(table);
    return Status::Ok();
  }
  // The watcher costs one O(1) slice per round while the deletion stages do the work; its
  // handle lives in removing_, so it cannot outlive this Rib.
  removal->task = scheduler_.add(
      "remove:" + protocol, [table] { return table->busy(); },
      [this, table] { finish_removal(table); });
  return Status::Ok();
}

void Rib::finish_removal(OriginTable* table) {
  // With the deletion stages gone the table is again directly above the merge that joined it,
  // and sends nothing: the merge passes its other parent through unchanged, so bypassing it
  // changes nothing downstream.
  RouteStage* joined = table->next();
  auto m = std::find_if(merges_.begin(), merges_.end(),
                        [joined](const auto& p) { return p.get() == joined; });
  assert(m != merges_.end());
  MergeStage* merge = m->get();
  assert(merge->parent_a() == table || merge->parent_b() == table);
  RouteStage* other = merge->parent_a() == table ? merge->parent_b() : merge->parent_a();
  RouteStage* child = merge->next();
  other->set_next(child);
  if (child) child->replace_parent(merge, other);
  table->set_next(nullptr);
  merges_.erase(m);
  removing_.remove_if([table](const Removal& r) { return r.table.get() == table; });
}

StatusOr<OriginTable*> Rib::find_table(const std::string& protocol) {
  auto it = tables_.find(protocol);
  if (it == tables_.end()) return NotFound("no protocol " + protocol + " in the RIB");
  return it->second.get();
}

const OriginTable* Rib::table(const std::string& protocol) const {
  auto it = tables_.find(protocol);
  return it == tables_.end() ? nullptr : it->second.get();
}

std::vector<std::string> Rib::protocols() const {
  std::vector<std::string> out;
  for (const auto& [name, t] : tables_) out.push_back(name);
  return out;
}

Status Rib::set_admin_distance(const std::string& protocol, uint32_t admin_distance) {
  if (admin_distance > kMaxAdminDistance) {
    return InvalidArgument("admin distance " + std::to_string(admin_distance) + " exceeds " +
                           std::to_string(kMaxAdminDistance));
  }
  auto t = find_table(protocol);
  if (!t.ok()) return t.status();
  (*t)->set_admin_distance(admin_distance);
  return Status::Ok();
}

Status Rib::add_route(const std::string& protocol, RibRoute route) {
  auto t = find_table(protocol);
  if (!t.ok()) return t.status();
  return (*t)->add(std::move(route));
}

Status Rib::replace_route(const std::string& protocol, RibRoute route) {
  auto t = find_table(protocol);
  if (!t.ok()) return t.status();
  return (*t)->replace(std::move(route));
}

Status Rib::delete_route(const std::string& protocol, const IpPrefix& prefix) {
  auto t = find_table(protocol);
  if (!t.ok()) return t.status();
  return (*t)->remove(prefix);
}

Status Rib::delete_all_routes(const std::string& protocol) {
  auto t = find_table(protocol);
  if (!t.ok()) return t.status();
  (*t)->delete_all_routes();
  return Status::Ok();
}

Status Rib::mark_stale(const std::string& protocol) {
  auto t = find_table(protocol);
  if (!t.ok()) return t.status();
  (*t)->mark_stale();
  return Status::Ok();
}

StatusOr<size_t> Rib::sweep_stale(const std::string& protocol) {
  auto t = find_table(protocol);
  if (!t.ok()) return t.status();
  return (*t)->sweep_stale();
}

RouteRef Rib::lookup_route(const IpPrefix& prefix) const { return fea_->lookup_route(prefix); }

RouteRef Rib::lookup_best(const IpAddr& addr) const { return fea_->lookup_best(addr); }

RouteRange Rib::register_interest(const std::string& client, const IpAddr& addr) {
  return register_->register_interest(client, addr);
}

Status Rib::deregister_interest(const std::string& client, const IpPrefix& valid_subnet) {
  return register_->deregister_interest(client, valid_subnet);
}

uint64_t Rib::redist_subscribe(RedistFilter filter, RedistOutput* output) {
  return redist_->subscribe(std::move(filter), output);
}

Status Rib::redist_unsubscribe(uint64_t id) { return redist_->unsubscribe(id); }

}  // namespace strata::rib
