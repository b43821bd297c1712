// RovState: the route origin validation state of a route (RFC 6811 2), and its text form.
//
// kUnverified: origin validation is not configured (no `rpki` section), so nothing was looked
// up (Junos' "unverified"); the three RFC 6811 states otherwise. Two bits of every BgpRoute.
// Threading: values only.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace strata::bgp {

enum class RovState : uint8_t {
  kUnverified = 0,
  kNotFound = 1,  // no VRP covers the prefix
  kValid = 2,     // a covering VRP matches the origin AS and allows the length
  kInvalid = 3,   // covered, but no covering VRP matches
};

// "unverified", "not-found", "valid", "invalid".
std::string_view RovStateName(RovState s);
// The inverse of RovStateName ("notfound" too, as FRR spells it); nullopt for other text.
std::optional<RovState> ParseRovState(std::string_view text);

}  // namespace strata::bgp
