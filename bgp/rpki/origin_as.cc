#include "bgp/rpki/origin_as.h"

namespace strata::bgp {

std::optional<uint32_t> OriginAs(const AsPath& path, uint32_t own_as) {
  std::optional<AsSegmentView> last;
  for (AsSegmentView seg : path.segments()) {
    if (seg.type == AsSegmentType::kConfedSequence || seg.type == AsSegmentType::kConfedSet) {
      continue;
    }
    last = seg;
  }
  if (!last) return own_as;
  if (last->type == AsSegmentType::kSet || last->asns.empty()) return std::nullopt;
  return last->asns.back();
}

}  // namespace strata::bgp
