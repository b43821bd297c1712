#include "bgp/rpki/vrp_table.h"

#include <algorithm>
#include <limits>

namespace strata::bgp {

std::string Vrp::ToString() const {
  return prefix.ToString() + "-" + std::to_string(max_len) + " AS" + std::to_string(asn);
}

bool VrpTable::Add(const Vrp& vrp) {
  auto [entries, fresh] = trie_.try_emplace(vrp.prefix, Entries());
  for (Entry& e : *entries) {
    if (e.asn == vrp.asn && e.max_len == vrp.max_len) {
      if (e.sources < std::numeric_limits<uint16_t>::max()) ++e.sources;
      return false;
    }
  }
  entries->push_back(Entry{vrp.asn, vrp.max_len, 1});
  ++(vrp.prefix.is_v4() ? v4_ : v6_);
  ++serial_;
  return true;
}

bool VrpTable::Remove(const Vrp& vrp) {
  Entries* entries = trie_.find_mutable(vrp.prefix);
  if (!entries) return false;
  auto it = std::find_if(entries->begin(), entries->end(), [&](const Entry& e) {
    return e.asn == vrp.asn && e.max_len == vrp.max_len;
  });
  if (it == entries->end()) return false;
  if (it->sources != std::numeric_limits<uint16_t>::max() && --it->sources > 0) return false;
  entries->erase(it);
  if (entries->empty()) trie_.erase(vrp.prefix);
  --(vrp.prefix.is_v4() ? v4_ : v6_);
  ++serial_;
  return true;
}

void VrpTable::Clear() {
  serial_ += size();
  trie_ = RouteTrie<Entries>();
  v4_ = 0;
  v6_ = 0;
}

RovState VrpTable::Validate(const IpPrefix& prefix, std::optional<uint32_t> origin) const {
  bool covered = false;
  bool valid = false;
  trie_.each_covering(prefix, [&](const IpPrefix& /*at*/, const Entries& entries) {
    covered = true;
    if (valid || !origin || *origin == 0) return;
    for (const Entry& e : entries) {
      if (e.asn == *origin && prefix.len() <= e.max_len) {
        valid = true;
        return;
      }
    }
  });
  if (valid) return RovState::kValid;
  return covered ? RovState::kInvalid : RovState::kNotFound;
}

std::vector<Vrp> VrpTable::Covering(const IpPrefix& prefix) const {
  std::vector<Vrp> out;
  trie_.each_covering(prefix, [&](const IpPrefix& at, const Entries& entries) {
    for (const Entry& e : entries) out.push_back(Vrp{at, e.max_len, e.asn});
  });
  return out;
}

}  // namespace strata::bgp
