#include "bgp/wire/as_path_options.h"

#include <vector>

namespace strata::bgp {

bool IsPrivateAs(uint32_t asn) { return (asn >= 64512 && asn <= 65535) || asn >= 4200000000u; }

bool AllPrivate(const AsPath& path) {
  bool any = false;
  for (const AsSegmentView s : path.segments()) {
    for (uint32_t asn : s.asns) {
      if (!IsPrivateAs(asn)) return false;
      any = true;
    }
  }
  return any;
}

AsPath RemovePrivateAses(const AsPath& path, RemovePrivateAs mode, bool replace_as,
                         uint32_t local_as, uint32_t peer_as) {
  if (mode == RemovePrivateAs::kOff) return path;
  if (mode == RemovePrivateAs::kIfAllPrivate && !AllPrivate(path)) return path;
  std::vector<AsSegment> out;
  for (const AsSegmentView s : path.segments()) {
    AsSegment seg{s.type, {}};
    for (uint32_t asn : s.asns) {
      if (!IsPrivateAs(asn) || asn == peer_as) {
        seg.asns.push_back(asn);
      } else if (replace_as) {
        seg.asns.push_back(local_as);
      }
    }
    if (seg.asns.empty()) continue;
    if (!out.empty() && out.back().type == seg.type &&
        (seg.type == AsSegmentType::kSequence || seg.type == AsSegmentType::kConfedSequence)) {
      out.back().asns.insert(out.back().asns.end(), seg.asns.begin(), seg.asns.end());
    } else {
      out.push_back(std::move(seg));
    }
  }
  return AsPath(out);
}

AsPath PrependOwnAs(const AsPath& path, uint32_t local_as, const AsPathOptions& options) {
  if (options.local_as == 0) return path.Prepend(local_as);
  if (options.local_as_replace_as) return path.Prepend(options.local_as);
  return path.Prepend(local_as).Prepend(options.local_as);
}

}  // namespace strata::bgp
