// ErrorAction: the outcomes RFC 7606 assigns to a malformed UPDATE, weakest first.
//
// A decoder reports the strongest outcome found in a message; each attribute handler names the
// outcome its RFC defines (see README.md for the table).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace strata::bgp {

enum class ErrorAction : uint8_t {
  kNone = 0,
  kAttributeDiscard = 1,  // drop the attribute, use the rest (RFC 7606 2)
  kTreatAsWithdraw = 2,   // every prefix the UPDATE announces is withdrawn instead
  kAfiSafiDisable = 3,    // stop using the address family on this session (RFC 4760 7)
  kSessionReset = 4,      // send a NOTIFICATION and close
};
inline constexpr size_t kNumErrorActions = 5;

inline std::string_view ErrorActionName(ErrorAction a) {
  constexpr std::array<std::string_view, kNumErrorActions> kNames = {
      "none", "attribute-discard", "treat-as-withdraw", "afi-safi-disable", "session-reset"};
  return kNames[static_cast<size_t>(a)];
}

inline ErrorAction Stronger(ErrorAction a, ErrorAction b) { return a > b ? a : b; }

}  // namespace strata::bgp
