#include "bgp/process/output_gate.h"

#include <unordered_map>

namespace strata::bgp {

bool OutputGate::Hold(const UpdateBatch& batch) {
  if (!closed_) return false;
  ++counters_.held_batches;
  counters_.held_changes += batch.withdrawals.size();
  Withdrawn(batch.withdrawals);
  for (const AnnouncementGroup& g : batch.announcements) {
    counters_.held_changes += g.prefixes.size();
    Announced(g);
  }
  return true;
}

void OutputGate::Announced(const AnnouncementGroup& group) {
  for (const IpPrefix& p : group.prefixes) table_[p] = group.attrs;
}

void OutputGate::Withdrawn(std::span<const IpPrefix> prefixes) {
  for (const IpPrefix& p : prefixes) table_.erase(p);
}

std::vector<AnnouncementGroup> OutputGate::Open() {
  if (!closed_) return {};
  closed_ = false;
  ++counters_.releases;
  counters_.released_prefixes += table_.size();
  return Groups();
}

std::vector<AnnouncementGroup> OutputGate::Groups(std::optional<AfiSafi> family) const {
  std::vector<AnnouncementGroup> out;
  // By value, per family, as PeerOut groups its batches.
  std::unordered_map<AttributeSetPtr, size_t, AttributeSetPtrHash, AttributeSetPtrEq> index[2];
  for (const auto& [prefix, attrs] : table_) {
    if (family && UnicastOf(prefix.family()) != *family) continue;
    auto [it, fresh] = index[prefix.is_v4() ? 0 : 1].try_emplace(attrs, out.size());
    if (fresh) out.push_back(AnnouncementGroup{attrs, prefix.family(), {}});
    out[it->second].prefixes.push_back(prefix);
  }
  return out;
}

}  // namespace strata::bgp
