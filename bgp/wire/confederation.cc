#include "bgp/wire/confederation.h"

#include <algorithm>

namespace strata::bgp {

bool Confederation::IsMember(uint32_t asn) const {
  return std::find(members.begin(), members.end(), asn) != members.end();
}

std::string_view PeerTypeName(PeerType type) {
  switch (type) {
    case PeerType::kInternal:
      return "internal";
    case PeerType::kConfedExternal:
      return "confed-external";
    case PeerType::kExternal:
      return "external";
  }
  return "unknown";
}

PeerType ClassifyPeer(uint32_t peer_as, uint32_t local_as, const Confederation& confed) {
  if (peer_as == local_as) return PeerType::kInternal;
  if (confed.enabled() && confed.IsMember(peer_as)) return PeerType::kConfedExternal;
  return PeerType::kExternal;
}

uint32_t AsSeenBy(PeerType type, uint32_t local_as, const Confederation& confed) {
  return type == PeerType::kExternal && confed.enabled() ? confed.identifier : local_as;
}

bool IsAsLoop(const AsPath& path, uint32_t local_as, const Confederation& confed, size_t allowed) {
  if (path.Count(local_as) > allowed) return true;
  return confed.enabled() && path.WithoutConfed().Count(confed.identifier) > allowed;
}

bool ConfedFirstAsMatches(const AsPath& path, uint32_t peer_as) {
  const auto& segs = path.segments();
  return !segs.empty() && segs[0].type == AsSegmentType::kConfedSequence && !segs[0].asns.empty() &&
         segs[0].asns[0] == peer_as;
}

}  // namespace strata::bgp
