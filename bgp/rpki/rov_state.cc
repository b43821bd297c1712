#include "bgp/rpki/rov_state.h"

namespace strata::bgp {

std::string_view RovStateName(RovState s) {
  switch (s) {
    case RovState::kUnverified:
      return "unverified";
    case RovState::kNotFound:
      return "not-found";
    case RovState::kValid:
      return "valid";
    case RovState::kInvalid:
      return "invalid";
  }
  return "unverified";
}

std::optional<RovState> ParseRovState(std::string_view text) {
  if (text == "valid") return RovState::kValid;
  if (text == "invalid") return RovState::kInvalid;
  if (text == "not-found" || text == "notfound") return RovState::kNotFound;
  if (text == "unverified") return RovState::kUnverified;
  return std::nullopt;
}

}  // namespace strata::bgp
