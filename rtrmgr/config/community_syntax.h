// Syntax checks of the community value types of templates (%type community, large-community,
// ext-community), so that a bad community in the policy configuration is rejected at its
// file:line:column rather than by the BGP speaker at commit. They follow the text forms of
// bgp/policy/policy_community.h (patterns included: a standard or large community field may be
// "*"); the speaker still decides where a pattern is allowed. Stateless.
#pragma once

#include <string>
#include <string_view>

namespace strata::rtrmgr {

// "" when `value` is well formed, else why not.
std::string CheckCommunity(std::string_view value);
std::string CheckLargeCommunity(std::string_view value);
std::string CheckExtCommunity(std::string_view value);

}  // namespace strata::rtrmgr
