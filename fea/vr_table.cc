#include "fea/vr_table.h"

#include <algorithm>
#include <set>

namespace strata::fea {
namespace {

constexpr uint32_t kMaxWeight = 256;
constexpr size_t kMaxNextHops = 64;

std::string Entry(size_t i) { return "changes[" + std::to_string(i) + "]: "; }

// Every next hop of the route (an ECMP group when several); a route that drops (blackhole,
// unreachable, prohibit: no next hop) gets one next hop with the zero address and no interface.
std::vector<fib::NextHop> FibNextHops(const FeaRoute& r) {
  std::vector<fib::NextHop> out;
  for (const ResolvedNextHop& h : r.nexthops) {
    fib::NextHop nh;
    nh.addr = h.address ? *h.address : IpAddr::Zero(r.prefix.family());
    nh.ifindex = h.ifindex;
    nh.weight = std::max<uint32_t>(h.weight, 1);
    out.push_back(nh);
  }
  if (out.empty()) out.push_back(fib::NextHop{IpAddr::Zero(r.prefix.family()), 0, 1});
  return out;
}

}  // namespace

VrTable::VrTable(const InterfaceTable& interfaces)
    : interfaces_(interfaces),
      slot4_(std::make_unique<fib::Fib4::ReaderSlot>(fib4_)),
      slot6_(std::make_unique<fib::Fib6::ReaderSlot>(fib6_)) {}

VrTable::~VrTable() = default;

Status VrTable::AddVr(const std::string& name, uint32_t table_id) {
  if (name.empty()) return InvalidArgument("empty VR name");
  auto it = vrs_.find(name);
  if (it != vrs_.end()) {
    if (it->second->table_id == table_id) return Status();
    return AlreadyExists("VR '" + name + "' exists with table " +
                         std::to_string(it->second->table_id));
  }
  for (const auto& [n, vr] : vrs_) {
    if (table_id != 0 && vr->table_id == table_id) {
      return AlreadyExists("table " + std::to_string(table_id) + " belongs to VR '" + n + "'");
    }
  }
  fib::VrId id;
  if (!free_ids_.empty()) {
    id = free_ids_.back();
    free_ids_.pop_back();
  } else if (next_id_ < fib::FibOptions::kMaxVrs) {
    id = next_id_++;
  } else {
    return ResourceExhausted("too many VRs");
  }
  if (Status s = fib4_.AddVr(id); !s.ok()) return s;
  if (Status s = fib6_.AddVr(id); !s.ok()) {
    (void)fib4_.RemoveVr(id);
    return s;
  }
  auto vr = std::make_unique<Vr>();
  vr->name = name;
  vr->id = id;
  vr->table_id = table_id;
  vrs_.emplace(name, std::move(vr));
  return Status();
}

Status VrTable::SetTable(const std::string& name, uint32_t table_id) {
  auto it = vrs_.find(name);
  if (it == vrs_.end()) return NotFound("no VR '" + name + "'");
  for (const auto& [n, vr] : vrs_) {
    if (table_id != 0 && n != name && vr->table_id == table_id) {
      return AlreadyExists("table " + std::to_string(table_id) + " belongs to VR '" + n + "'");
    }
  }
  it->second->table_id = table_id;
  return Status();
}

Status VrTable::DeleteVr(const std::string& name) {
  auto it = vrs_.find(name);
  if (it == vrs_.end()) return NotFound("no VR '" + name + "'");
  const fib::VrId id = it->second->id;
  Status s4 = fib4_.RemoveVr(id);
  Status s6 = fib6_.RemoveVr(id);
  vrs_.erase(it);
  free_ids_.push_back(id);
  return s4.ok() ? s6 : s4;
}

const Vr* VrTable::Find(const std::string& name) const {
  auto it = vrs_.find(name);
  return it == vrs_.end() ? nullptr : it->second.get();
}

std::vector<const Vr*> VrTable::List() const {
  std::vector<const Vr*> out;
  for (const auto& [name, vr] : vrs_) out.push_back(vr.get());
  return out;
}

StatusOr<FeaRoute> VrTable::Validate(const Vr& vr, const RouteChange& c) const {
  if (c.op == RouteOp::kUnspecified) return InvalidArgument("no op");
  if (!c.prefix_addr) return InvalidArgument("no prefix");
  auto prefix = IpPrefix::MakeStrict(*c.prefix_addr, c.prefix_len);
  if (!prefix.ok()) return InvalidArgument(prefix.status().message());
  FeaRoute r;
  r.prefix = *prefix;
  r.metric = c.metric;
  r.protocol = c.protocol;
  r.admin_distance = c.admin_distance;
  if (c.op == RouteOp::kDelete) return r;
  // No type and no next hop: a blackhole (the form older clients send).
  r.type = c.type.value_or(c.nexthops.empty() ? RouteType::kBlackhole : RouteType::kUnicast);
  if (r.type != RouteType::kUnicast) {
    if (!c.nexthops.empty()) {
      const std::string_view name = RouteTypeName(r.type);
      return InvalidArgument((name[0] == 'u' ? "an " : "a ") + std::string(name) +
                             " route has no next hops");
    }
    return r;
  }
  if (c.nexthops.empty()) return InvalidArgument("a unicast route needs a next hop");
  if (c.nexthops.size() > kMaxNextHops) return InvalidArgument("too many next hops");
  std::set<std::pair<std::optional<IpAddr>, uint32_t>> seen;
  for (size_t i = 0; i < c.nexthops.size(); ++i) {
    const NextHopSpec& spec = c.nexthops[i];
    const std::string where = "next hop " + std::to_string(i) + ": ";
    if (spec.weight > kMaxWeight) return InvalidArgument(where + "weight above 256");
    ResolvedNextHop nh;
    nh.address = spec.address;
    nh.weight = spec.weight == 0 ? 1 : spec.weight;
    if (spec.address && spec.address->family() != r.prefix.family()) {
      return InvalidArgument(where + spec.address->ToString() + " is not of the prefix's family");
    }
    const Interface* iface = nullptr;
    if (!spec.interface.empty()) {
      iface = interfaces_.Find(spec.interface);
      if (iface == nullptr) return InvalidArgument(where + "no interface '" + spec.interface + "'");
      if (iface->vr != vr.name) {
        return InvalidArgument(where + "interface '" + spec.interface + "' is not in VR '" +
                               vr.name + "'");
      }
    } else if (spec.address) {
      iface = interfaces_.ConnectedTo(vr.name, *spec.address);
      if (iface == nullptr) {
        return InvalidArgument(where + spec.address->ToString() + " is on no interface of VR '" +
                               vr.name + "'");
      }
    } else {
      return InvalidArgument(where + "neither an address nor an interface");
    }
    nh.ifindex = iface->link.ifindex;
    nh.interface = iface->link.name;
    if (!seen.insert({nh.address, nh.ifindex}).second) {
      return InvalidArgument(where + "duplicate next hop");
    }
    r.nexthops.push_back(std::move(nh));
  }
  return r;
}

Status VrTable::Install(Vr& vr, FeaRoute route) {
  const std::vector<fib::NextHop> hops = FibNextHops(route);
  Status s = route.prefix.is_v4() ? fib4_.AddRoute(vr.id, route.prefix, hops)
                                  : fib6_.AddRoute(vr.id, route.prefix, hops);
  if (!s.ok()) return s;
  if (vr.resyncing) vr.fresh.insert(route.prefix);
  const IpPrefix p = route.prefix;
  vr.routes.insert_or_assign(p, std::move(route));
  return Status();
}

void VrTable::Remove(Vr& vr, const IpPrefix& prefix) {
  if (vr.routes.erase(prefix) == 0) return;
  // The FIB held the route (Install added it there first), so this cannot fail.
  (void)(prefix.is_v4() ? fib4_.DeleteRoute(vr.id, prefix) : fib6_.DeleteRoute(vr.id, prefix));
}

StatusOr<std::vector<IpPrefix>> VrTable::Apply(const std::string& name,
                                               std::span<const RouteChange> changes,
                                               std::vector<Refusal>* refused) {
  auto it = vrs_.find(name);
  if (it == vrs_.end()) return NotFound("no VR '" + name + "'");
  Vr& vr = *it->second;
  std::vector<FeaRoute> valid;
  valid.reserve(changes.size());
  Status first;
  for (size_t i = 0; i < changes.size(); ++i) {
    auto r = Validate(vr, changes[i]);
    if (r.ok()) {
      valid.push_back(std::move(*r));
      continue;
    }
    if (first.ok()) first = Status(r.status().code(), Entry(i) + r.status().message());
    if (refused == nullptr) return first;
    refused->push_back(Refusal{i, r.status()});
  }
  if (!first.ok()) return first;
  std::vector<IpPrefix> changed;
  absl::flat_hash_set<IpPrefix, std::hash<IpPrefix>> seen;
  seen.reserve(changes.size());
  for (size_t i = 0; i < changes.size(); ++i) {
    const IpPrefix p = valid[i].prefix;
    if (changes[i].op == RouteOp::kDelete) {
      if (!vr.routes.contains(p)) continue;
      Remove(vr, p);
    } else if (Status s = Install(vr, std::move(valid[i])); !s.ok()) {
      // Only the FIB's own limits (e.g. next-hop ids exhausted) get here; earlier entries
      // of the batch stay applied and the caller hears which entry failed.
      return Status(s.code(), Entry(i) + s.message());
    }
    if (seen.insert(p).second) changed.push_back(p);
  }
  return changed;
}

Status VrTable::BeginResync(const std::string& name) {
  auto it = vrs_.find(name);
  if (it == vrs_.end()) return NotFound("no VR '" + name + "'");
  it->second->resyncing = true;
  it->second->fresh.clear();
  return Status();
}

StatusOr<std::vector<IpPrefix>> VrTable::EndResync(const std::string& name) {
  auto it = vrs_.find(name);
  if (it == vrs_.end()) return NotFound("no VR '" + name + "'");
  Vr& vr = *it->second;
  std::vector<IpPrefix> removed;
  if (!vr.resyncing) return FailedPrecondition("no resync in progress for VR '" + name + "'");
  for (const auto& [p, r] : vr.routes) {
    if (!vr.fresh.contains(p)) removed.push_back(p);
  }
  for (const auto& p : removed) Remove(vr, p);
  vr.resyncing = false;
  vr.fresh.clear();
  return removed;
}

StatusOr<std::optional<FeaRoute>> VrTable::Lookup(const std::string& name,
                                                  const IpAddr& addr) const {
  const Vr* vr = Find(name);
  if (vr == nullptr) return NotFound("no VR '" + name + "'");
  fib::NextHopId id;
  if (addr.is_v4()) {
    fib::Fib4::ReadSection rs(fib4_, *slot4_);
    id = rs.Lookup(vr->id, addr);
  } else {
    fib::Fib6::ReadSection rs(fib6_, *slot6_);
    id = rs.Lookup(vr->id, addr);
  }
  if (id == fib::kDropNextHop) return std::optional<FeaRoute>();
  // The FIB forwards; the route it came from is the longest match in the VR's table.
  for (int len = addr.bit_length(); len >= 0; --len) {
    auto r = vr->routes.find(IpPrefix(addr, len));
    if (r != vr->routes.end()) return std::optional<FeaRoute>(r->second);
  }
  return Internal("the FIB has a route for " + addr.ToString() + " that the VR table lacks");
}

StatusOr<std::vector<const FeaRoute*>> VrTable::ListRoutes(const std::string& name,
                                                           const std::optional<IpPrefix>& within,
                                                           size_t limit) const {
  const Vr* vr = Find(name);
  if (vr == nullptr) return NotFound("no VR '" + name + "'");
  std::vector<const FeaRoute*> out;
  for (const auto& [p, r] : vr->routes) {
    if (within && !within->Contains(p)) continue;
    out.push_back(&r);
    if (limit != 0 && out.size() >= limit) break;
  }
  return out;
}

}  // namespace strata::fea
