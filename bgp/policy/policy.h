// Policy: a named routing policy statement (terms of match conditions and actions) and its
// evaluation on one route's attributes, as BIRD filters or Junos policy-statements do.
//
// Terms are tried in order. A term matches when every condition it gives holds (a list holds when
// any element matches; an empty list is no condition). A matching term applies its actions to the
// attributes (later terms see the changes), then its verdict ends the evaluation, unless it is
// kNextTerm. When no term gives a verdict, the default action decides (kNextTerm there rejects).
// Conditions: prefix (exact, or within a prefix with a length range), protocol of the route
// ("bgp" for every route in the BGP speaker), standard communities (values or patterns), regular
// expressions searched in the AS path's text ("65001 65002 {65003}"), the neighbor the route came
// from, the next hop (within a prefix), ORIGIN, extended and large communities, the RPKI origin
// validation state (RFC 6811: valid, invalid, not-found; unverified without RPKI).
// Actions: set LOCAL_PREF, set MED, set the next hop (routes of its family only), set ORIGIN;
// for standard, large and extended communities: replace, then delete, then add; prepend the local
// AS (or any AS, prepend_as) a number of times. Named sets (prefix lists, community sets, AS path
// sets) exist only in the configuration and the define_policy message: they are resolved into the
// terms' lists when a policy is built. Policies are immutable once built (shared by every peer
// using them). Threading: any.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "bgp/policy/policy_community.h"
#include "bgp/rpki/rov_state.h"
#include "bgp/wire/path_attributes.h"
#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "common/status.h"

namespace strata::bgp {

enum class PolicyAction : uint8_t { kNextTerm, kAccept, kReject };

// `prefix` itself when ge and le are 0; else any prefix inside it whose length is in [ge, le]
// (a bound of 0 means the prefix length, resp. the address width).
struct PrefixMatch {
  IpPrefix prefix;
  uint32_t ge = 0;
  uint32_t le = 0;
  bool Matches(const IpPrefix& p) const;
  // Checks the bounds against the prefix and its family.
  Status Validate() const;
};

struct PolicyTerm {
  std::string name;
  // Conditions.
  std::vector<PrefixMatch> prefixes;
  std::vector<std::string> protocols;
  std::vector<uint32_t> communities;
  std::optional<std::string> as_path_regex;  // the text; compiled into `as_path_re`
  std::shared_ptr<const std::regex> as_path_re;
  std::vector<IpAddr> neighbors;
  // With `communities`, one condition: the route carries a community one of these matches.
  std::vector<CommunityPattern> community_patterns;
  // With `as_path_re`, one condition: one of the expressions is found in the AS path.
  std::vector<std::shared_ptr<const std::regex>> as_path_res;
  std::vector<IpPrefix> nexthops;  // the next hop lies within one (an address: /32 or /128)
  std::vector<Origin> origins;
  std::vector<uint64_t> ext_communities;                 // carries one of these
  std::vector<LargeCommunityPattern> large_communities;  // carries one matching one of these
  std::vector<RovState> rpki;  // the route's origin validation state is one of these
  // Actions.
  PolicyAction action = PolicyAction::kNextTerm;
  std::optional<uint32_t> set_local_pref;
  std::optional<uint32_t> set_med;
  std::optional<IpAddr> set_nexthop;
  std::vector<uint32_t> add_communities;
  uint32_t prepend_count = 0;
  uint32_t prepend_as = 0;  // the AS prepend_count prepends (any AS); 0: ours
  std::optional<Origin> set_origin;
  std::optional<std::vector<uint32_t>> replace_communities;  // the exact set (empty: none)
  std::vector<CommunityPattern> delete_communities;
  std::optional<std::vector<LargeCommunity>> replace_large_communities;
  std::vector<LargeCommunityPattern> delete_large_communities;
  std::vector<LargeCommunity> add_large_communities;
  std::optional<std::vector<uint64_t>> replace_ext_communities;  // the exact set (empty: none)
  std::vector<uint64_t> delete_ext_communities;
  std::vector<uint64_t> add_ext_communities;
};

struct Policy {
  std::string name;
  std::vector<PolicyTerm> terms;
  PolicyAction default_action = PolicyAction::kReject;
};
using PolicyRef = std::shared_ptr<const Policy>;

// What a policy looks at besides the attributes.
struct PolicySubject {
  IpPrefix prefix;
  std::string_view protocol = "bgp";
  std::optional<IpAddr> neighbor;         // the peer the route came from; unset for our own routes
  uint32_t local_as = 0;                  // prepended by prepend actions
  RovState rpki = RovState::kUnverified;  // RFC 6811 state (BgpRoute::rov)
};

// Runs `policy` on `attrs` (changed in place by the actions of matching terms). True: accepted.
bool EvaluatePolicy(const Policy& policy, const PolicySubject& subject, PathAttributes& attrs);
// The same on `in` without copying it unless a matching term has actions: then `changed` holds
// the copy with every action applied (later terms match on it), else it stays empty and `in`
// is the outcome. Accept-only policies, the common case, so cost no copy per route.
// With `deciding_term`: the term whose verdict ended the evaluation, or null when the default
// action did (operators' views: which term rejected a route).
bool EvaluatePolicy(const Policy& policy, const PolicySubject& subject, const PathAttributes& in,
                    std::optional<PathAttributes>& changed,
                    const PolicyTerm** deciding_term = nullptr);

// "65001:100" (or a plain 32-bit number) to a community value.
StatusOr<uint32_t> ParseCommunity(std::string_view text);
std::string CommunityToString(uint32_t c);
// Compiles an AS path regular expression (ECMAScript syntax); the error names the term.
StatusOr<std::shared_ptr<const std::regex>> CompileAsPathRegex(const std::string& text);
// Checks every term (prefix bounds, compiled regex present when text given).
Status ValidatePolicy(const Policy& policy);

}  // namespace strata::bgp
