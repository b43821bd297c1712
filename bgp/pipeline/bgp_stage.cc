#include "bgp/pipeline/bgp_stage.h"

namespace strata::bgp {

void PlumbAfter(BgpStage* parent, BgpStage* stage) {
  BgpStage* child = parent->next();
  stage->set_next(child);
  stage->replace_parent(nullptr, parent);
  if (child) child->replace_parent(parent, stage);
  parent->set_next(stage);
}

void Unplumb(BgpStage* parent, BgpStage* stage) {
  BgpStage* child = stage->next();
  parent->set_next(child);
  if (child) child->replace_parent(stage, parent);
  stage->set_next(nullptr);
}

}  // namespace strata::bgp
