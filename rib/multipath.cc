#include "rib/multipath.h"

#include <algorithm>

#include "absl/hash/hash.h"

namespace strata::rib {

bool SameMultipath(const MultipathRef& a, const MultipathRef& b) {
  if (a == b) return true;
  const bool ea = !a || a->empty();
  const bool eb = !b || b->empty();
  if (ea || eb) return ea && eb;
  return *a == *b;
}

size_t HashMultipath(const MultipathRef& m) {
  if (!m) return 0;
  size_t h = m->size();
  for (const MultipathHop& hop : *m) {
    // Resolutions hash by value (equality compares them so).
    const IpAddr via = hop.resolution ? hop.resolution->nexthop : IpAddr();
    h = absl::HashOf(h, hop.nexthop.hi64(), hop.nexthop.lo64(), via.hi64(), via.lo64(),
                     hop.ifname.id(), hop.weight);
  }
  return h;
}

Status ValidateMultipath(const IpAddr& first, const MultipathRef& m) {
  if (!m) return Status::Ok();
  if (m->size() + 1 > kMaxNextHops) {
    return InvalidArgument(std::to_string(m->size() + 1) + " next hops, more than " +
                           std::to_string(kMaxNextHops));
  }
  for (size_t i = 0; i < m->size(); ++i) {
    const IpAddr& a = (*m)[i].nexthop;
    if (a.family() != first.family()) {
      return InvalidArgument("multipath next hop " + a.ToString() + " is not in the family of " +
                             first.ToString());
    }
    const bool repeated =
        a == first || std::any_of(m->begin(), m->begin() + static_cast<ptrdiff_t>(i),
                                  [&](const MultipathHop& h) { return h.nexthop == a; });
    if (repeated) return InvalidArgument("multipath next hop " + a.ToString() + " given twice");
    if ((*m)[i].weight < 1 || (*m)[i].weight > kMaxWeight) {
      return InvalidArgument("multipath next hop " + a.ToString() + " has weight " +
                             std::to_string((*m)[i].weight) + ", not 1..256");
    }
  }
  return Status::Ok();
}

std::string MultipathToString(const MultipathRef& m) {
  if (!m || m->empty()) return "";
  std::string s = " multipath";
  for (const MultipathHop& h : *m) {
    s += " " + h.nexthop.ToString();
    if (h.weight != 1) s += " weight " + std::to_string(h.weight);
  }
  return s;
}

}  // namespace strata::rib
