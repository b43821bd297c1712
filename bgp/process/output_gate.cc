#include "bgp/process/output_gate.h"

#include <unordered_map>

namespace strata::bgp {

bool OutputGate::Hold(const UpdateBatch& batch) {
  if (!closed_) return false;
  ++counters_.held_batches;
  counters_.held_changes += batch.withdrawals.size();
  for (const IpPrefix& p : batch.withdrawals) table_.erase(p);
  for (const AnnouncementGroup& g : batch.announcements) {
    counters_.held_changes += g.prefixes.size();
    for (const IpPrefix& p : g.prefixes) table_[p] = g.attrs;
  }
  return true;
}

std::vector<AnnouncementGroup> OutputGate::Open() {
  if (!closed_) return {};
  closed_ = false;
  ++counters_.releases;
  counters_.released_prefixes += table_.size();
  std::vector<AnnouncementGroup> out = Groups();
  table_.clear();
  return out;
}

std::vector<AnnouncementGroup> OutputGate::Groups() const {
  std::vector<AnnouncementGroup> out;
  // By value, per family, as PeerOut groups its batches.
  std::unordered_map<AttributeSetPtr, size_t, AttributeSetPtrHash, AttributeSetPtrEq> index[2];
  for (const auto& [prefix, attrs] : table_) {
    auto [it, fresh] = index[prefix.is_v4() ? 0 : 1].try_emplace(attrs, out.size());
    if (fresh) out.push_back(AnnouncementGroup{attrs, prefix.family(), {}});
    out[it->second].prefixes.push_back(prefix);
  }
  return out;
}

}  // namespace strata::bgp
