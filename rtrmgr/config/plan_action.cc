#include "rtrmgr/config/plan_action.h"

namespace strata::rtrmgr {

std::string_view PlanAction::KindName(Kind kind) {
  switch (kind) {
    case Kind::kCreate:
      return "create";
    case Kind::kChange:
      return "change";
    case Kind::kDelete:
      return "delete";
  }
  return "?";
}

std::string PlanAction::ToString() const {
  std::string out =
      std::string(KindName(kind)) + " " + instance + " " + path + ": " + xrl.ToString();
  if (undo) out += " undo " + undo->ToString();
  return out;
}

}  // namespace strata::rtrmgr
