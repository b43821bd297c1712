// Conversions of define_policy's named sets and of the term fields that use them or the newer
// community, next hop and ORIGIN conditions and actions (bgp.proto PolicyTerm fields 16 on).
// Called by PolicyFromProto (bgp_proto_convert.h); errors name the field, as "terms.0 (t1)
// .community_sets: no community set 'X'". Threading: pure functions.
#pragma once

#include <map>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "bgp/policy/policy.h"
#include "libipc/interfaces/bgp.pb.h"

namespace strata::bgp {

// The named sets of one request, by kind and name, already parsed.
struct PolicySets {
  std::map<std::string, std::vector<PrefixMatch>> prefix_lists;
  std::map<std::string, std::vector<CommunityPattern>> communities;
  std::map<std::string, std::vector<uint64_t>> ext_communities;
  std::map<std::string, std::vector<LargeCommunityPattern>> large_communities;
  std::map<std::string, std::vector<std::shared_ptr<const std::regex>>> as_paths;
};

// Parses every set; a duplicate or empty name, or a bad member, is INVALID_ARGUMENT.
StatusOr<PolicySets> PolicySetsFromProto(const v1::DefinePolicyRequest& r);

// Fills `term` from `t`'s fields 16 on, resolving set names in `sets`; `where` names the term.
Status TermExtrasFromProto(const v1::PolicyTerm& t, const PolicySets& sets,
                           const std::string& where, PolicyTerm& term);

}  // namespace strata::bgp
