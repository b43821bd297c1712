#include "bgp/pipeline/llgr_community.h"

#include <algorithm>

namespace strata::bgp {

bool HasCommunity(const PathAttributes& attrs, uint32_t community) {
  return std::find(attrs.communities.begin(), attrs.communities.end(), community) !=
         attrs.communities.end();
}

AttributeSetPtr WithLlgrStale(const AttributeSetPtr& attrs) {
  if (HasCommunity(attrs->attrs(), kLlgrStaleCommunity)) return attrs;
  PathAttributes marked = attrs->attrs();
  marked.communities.push_back(kLlgrStaleCommunity);
  return AttributeSet::Make(std::move(marked));
}

}  // namespace strata::bgp
