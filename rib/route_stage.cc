#include "rib/route_stage.h"

namespace strata::rib {

void RouteStage::send_change(const RouteRef& old_winner, const RouteRef& new_winner) {
  if (old_winner == new_winner) return;
  if (old_winner) send_delete(old_winner);
  if (new_winner) send_add(new_winner);
}

RouteRef CombineBest(const RouteRef& a, const RouteRef& b) {
  if (!a) return b;
  if (!b) return a;
  if (a->prefix.len() != b->prefix.len()) return a->prefix.len() > b->prefix.len() ? a : b;
  return PickBetter(a, b);
}

RouteRef CombineNext(const RouteRef& a, const RouteRef& b) {
  if (!a) return b;
  if (!b) return a;
  if (a->prefix != b->prefix) return a->prefix < b->prefix ? a : b;
  return PickBetter(a, b);
}

RouteRange CombineRanges(const RouteRange& a, const RouteRange& b) {
  // Both valid subnets contain the address, so they nest; the answer holds on the inner one.
  return RouteRange{CombineBest(a.route, b.route),
                    a.valid.len() >= b.valid.len() ? a.valid : b.valid};
}

}  // namespace strata::rib
