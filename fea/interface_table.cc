#include "fea/interface_table.h"

#include <algorithm>
#include <set>

#include "common/ip_prefix.h"

namespace strata::fea {
namespace {

bool AddrLess(const AddrInfo& a, const AddrInfo& b) {
  if (a.address != b.address) return a.address < b.address;
  return a.prefix_len < b.prefix_len;
}

}  // namespace

void InterfaceTable::Report(const Interface& iface, bool removed, const std::string& old_vr,
                            const LinkInfo& was) {
  if (!on_change_) return;
  InterfaceChange c;
  c.iface = &iface;
  c.removed = removed;
  c.old_vr = old_vr;
  c.was_admin_up = was.admin_up;
  c.was_carrier = was.carrier;
  on_change_(c);
}

void InterfaceTable::UpdateLink(const LinkInfo& link) {
  auto it = by_index_.find(link.ifindex);
  if (it == by_index_.end()) {
    Interface iface;
    iface.link = link;
    auto b = bindings_.find(link.name);
    if (b != bindings_.end()) iface.vr = b->second;
    it = by_index_.emplace(link.ifindex, std::move(iface)).first;
    Report(it->second, false, it->second.vr, LinkInfo{});
    return;
  }
  Interface& iface = it->second;
  if (iface.link == link) return;
  const LinkInfo was = iface.link;
  const std::string old_vr = iface.vr;
  if (iface.link.name != link.name) {  // renamed: the binding follows the name
    auto b = bindings_.find(link.name);
    iface.vr = b != bindings_.end() ? b->second : "";
  }
  iface.link = link;
  Report(iface, false, old_vr, was);
}

void InterfaceTable::RemoveLink(uint32_t ifindex) {
  auto it = by_index_.find(ifindex);
  if (it == by_index_.end()) return;
  Interface gone = std::move(it->second);
  by_index_.erase(it);
  Report(gone, true, gone.vr, gone.link);
}

void InterfaceTable::AddAddress(const AddrInfo& addr) {
  auto it = by_index_.find(addr.ifindex);
  if (it == by_index_.end()) return;  // the link message comes first; a snapshot repairs races
  auto& v = it->second.addresses;
  auto pos = std::lower_bound(v.begin(), v.end(), addr, AddrLess);
  if (pos != v.end() && *pos == addr) return;
  v.insert(pos, addr);
  Report(it->second, false, it->second.vr, it->second.link);
}

void InterfaceTable::RemoveAddress(const AddrInfo& addr) {
  auto it = by_index_.find(addr.ifindex);
  if (it == by_index_.end()) return;
  auto& v = it->second.addresses;
  auto pos = std::lower_bound(v.begin(), v.end(), addr, AddrLess);
  if (pos == v.end() || !(*pos == addr)) return;
  v.erase(pos);
  Report(it->second, false, it->second.vr, it->second.link);
}

void InterfaceTable::Sync(const std::vector<LinkInfo>& links, const std::vector<AddrInfo>& addrs) {
  std::set<uint32_t> present;
  for (const auto& l : links) present.insert(l.ifindex);
  std::vector<uint32_t> gone;
  for (const auto& [index, iface] : by_index_) {
    if (!present.contains(index)) gone.push_back(index);
  }
  for (uint32_t index : gone) RemoveLink(index);
  for (const auto& l : links) UpdateLink(l);
  // Addresses: remove those the snapshot lacks, then add the new ones.
  std::set<std::pair<uint32_t, std::pair<IpAddr, int>>> want;
  for (const auto& a : addrs) want.insert({a.ifindex, {a.address, a.prefix_len}});
  for (auto& [index, iface] : by_index_) {
    std::vector<AddrInfo> stale;
    for (const auto& a : iface.addresses) {
      if (!want.contains({index, {a.address, a.prefix_len}})) stale.push_back(a);
    }
    for (const auto& a : stale) RemoveAddress(a);
  }
  for (const auto& a : addrs) AddAddress(a);
}

Status InterfaceTable::Bind(const std::string& name, const std::string& vr) {
  // Moving an interface silently would leave its first VR's configuration naming it while it
  // forwards for another; unbinding it first is explicit (and what a commit does).
  if (auto b = bindings_.find(name); b != bindings_.end() && b->second != vr) {
    return AlreadyExists("interface '" + name + "' is bound to VR '" + b->second +
                         "'; unbind it from there first");
  }
  for (auto& [index, iface] : by_index_) {
    if (iface.link.name != name) continue;
    bindings_[name] = vr;
    if (iface.vr == vr) return Status();
    const std::string old_vr = iface.vr;
    iface.vr = vr;
    Report(iface, false, old_vr, iface.link);
    return Status();
  }
  return NotFound("no interface named '" + name + "'");
}

Status InterfaceTable::Unbind(const std::string& name, const std::string& vr) {
  auto b = bindings_.find(name);
  if (!vr.empty() && (b == bindings_.end() || b->second != vr)) {
    return Status();  // not bound to `vr`: already as asked, and another VR's binding stays
  }
  const bool was_bound = b != bindings_.end();
  if (was_bound) bindings_.erase(b);
  for (auto& [index, iface] : by_index_) {
    if (iface.link.name != name) continue;
    if (iface.vr.empty()) return Status();
    const std::string old_vr = iface.vr;
    iface.vr.clear();
    Report(iface, false, old_vr, iface.link);
    return Status();
  }
  // A bound interface the kernel does not have now loses its binding all the same.
  return was_bound ? Status() : NotFound("no interface named '" + name + "'");
}

void InterfaceTable::UnbindAll(const std::string& vr) {
  std::erase_if(bindings_, [&](const auto& b) { return b.second == vr; });
  for (auto& [index, iface] : by_index_) {
    if (iface.vr != vr) continue;
    iface.vr.clear();
    Report(iface, false, vr, iface.link);
  }
}

const Interface* InterfaceTable::Find(const std::string& name) const {
  for (const auto& [index, iface] : by_index_) {
    if (iface.link.name == name) return &iface;
  }
  return nullptr;
}

const Interface* InterfaceTable::Find(uint32_t ifindex) const {
  auto it = by_index_.find(ifindex);
  return it == by_index_.end() ? nullptr : &it->second;
}

std::vector<const Interface*> InterfaceTable::List(const std::string& vr) const {
  std::vector<const Interface*> out;
  for (const auto& [index, iface] : by_index_) {
    if (vr.empty() || iface.vr == vr) out.push_back(&iface);
  }
  return out;
}

const Interface* InterfaceTable::ConnectedTo(const std::string& vr, const IpAddr& addr) const {
  const Interface* best = nullptr;
  int best_len = -1;
  for (const auto& [index, iface] : by_index_) {
    if (iface.vr != vr || vr.empty()) continue;
    for (const auto& a : iface.addresses) {
      if (a.address.family() != addr.family() || a.prefix_len <= best_len) continue;
      if (IpPrefix(a.address, a.prefix_len).Contains(addr)) {
        best = &iface;
        best_len = a.prefix_len;
      }
    }
  }
  return best;
}

}  // namespace strata::fea
