#include "bgp/policy/policy.h"

#include <algorithm>
#include <charconv>
#include <type_traits>

namespace strata::bgp {

bool PrefixMatch::Matches(const IpPrefix& p) const {
  if (p.family() != prefix.family()) return false;
  if (ge == 0 && le == 0) return p == prefix;
  if (!prefix.Contains(p)) return false;
  const uint32_t lo = ge ? ge : static_cast<uint32_t>(prefix.len());
  const uint32_t hi = le ? le : static_cast<uint32_t>(prefix.max_len());
  const auto len = static_cast<uint32_t>(p.len());
  return lo <= len && len <= hi;
}

Status PrefixMatch::Validate() const {
  const auto width = static_cast<uint32_t>(prefix.max_len());
  const auto len = static_cast<uint32_t>(prefix.len());
  const std::string what = prefix.ToString();
  if (ge > width || le > width) {
    return InvalidArgument("prefix match " + what + ": ge/le beyond " + std::to_string(width));
  }
  if (ge != 0 && ge < len) {
    return InvalidArgument("prefix match " + what + ": ge " + std::to_string(ge) +
                           " is shorter than the prefix");
  }
  if (le != 0 && le < std::max(len, ge)) {
    return InvalidArgument("prefix match " + what + ": le " + std::to_string(le) +
                           " is below ge or the prefix length");
  }
  return Status::Ok();
}

namespace {

template <typename Values, typename Pred>
bool AnyOf(const Values& values, Pred pred) {
  return std::any_of(values.begin(), values.end(), pred);
}

bool CommunitiesMatch(const PolicyTerm& t, const PathAttributes& a) {
  if (!t.communities.empty() || !t.community_patterns.empty()) {
    const bool found = AnyOf(a.communities, [&](uint32_t c) {
      return AnyOf(t.communities, [&](uint32_t v) { return v == c; }) ||
             AnyOf(t.community_patterns, [&](const CommunityPattern& p) { return p.Matches(c); });
    });
    if (!found) return false;
  }
  if (!t.ext_communities.empty() && !AnyOf(a.ext_communities(), [&](uint64_t c) {
        return AnyOf(t.ext_communities, [&](uint64_t v) { return v == c; });
      })) {
    return false;
  }
  if (!t.large_communities.empty() && !AnyOf(a.large_communities(), [&](const LargeCommunity& c) {
        return AnyOf(t.large_communities,
                     [&](const LargeCommunityPattern& p) { return p.Matches(c); });
      })) {
    return false;
  }
  return true;
}

// Replace, then delete, then add (kept sorted and without duplicates).
template <typename T, typename Pattern>
void EditList(std::vector<T>& list, const std::optional<std::vector<T>>& replace,
              const std::vector<Pattern>& remove, const std::vector<T>& add) {
  if (!replace && remove.empty() && add.empty()) return;
  if (replace) list = *replace;
  std::erase_if(list, [&](const T& v) {
    return AnyOf(remove, [&](const Pattern& p) {
      if constexpr (std::is_same_v<T, Pattern>) {
        return p == v;
      } else {
        return p.Matches(v);
      }
    });
  });
  list.insert(list.end(), add.begin(), add.end());
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
}

bool TermMatches(const PolicyTerm& t, const PolicySubject& s, const PathAttributes& a) {
  if (!t.prefixes.empty() &&
      std::none_of(t.prefixes.begin(), t.prefixes.end(),
                   [&](const PrefixMatch& m) { return m.Matches(s.prefix); })) {
    return false;
  }
  if (!t.protocols.empty() &&
      std::find(t.protocols.begin(), t.protocols.end(), s.protocol) == t.protocols.end()) {
    return false;
  }
  if (!CommunitiesMatch(t, a)) return false;
  if (t.as_path_re || !t.as_path_res.empty()) {
    const std::string text = a.as_path ? a.as_path->ToString() : std::string();
    const auto found = [&](const auto& re) { return re && std::regex_search(text, *re); };
    if (!found(t.as_path_re) && std::none_of(t.as_path_res.begin(), t.as_path_res.end(), found)) {
      return false;
    }
  }
  if (!t.nexthops.empty() &&
      (!a.next_hop || std::none_of(t.nexthops.begin(), t.nexthops.end(), [&](const IpPrefix& p) {
        return p.family() == a.next_hop->family() && p.Contains(*a.next_hop);
      }))) {
    return false;
  }
  if (!t.origins.empty() && std::find(t.origins.begin(), t.origins.end(),
                                      a.origin.value_or(Origin::kIncomplete)) == t.origins.end()) {
    return false;
  }
  if (!t.rpki.empty() && std::find(t.rpki.begin(), t.rpki.end(), s.rpki) == t.rpki.end()) {
    return false;
  }
  if (!t.neighbors.empty() && (!s.neighbor || std::find(t.neighbors.begin(), t.neighbors.end(),
                                                        *s.neighbor) == t.neighbors.end())) {
    return false;
  }
  return true;
}

void ApplyActions(const PolicyTerm& t, const PolicySubject& s, PathAttributes& a) {
  if (t.set_local_pref) a.local_pref = *t.set_local_pref;
  if (t.set_med) a.med = *t.set_med;
  if (t.set_nexthop && t.set_nexthop->family() == s.prefix.family()) {
    a.next_hop = *t.set_nexthop;
    a.link_local_next_hop().reset();
  }
  if (t.set_origin) a.origin = *t.set_origin;
  EditList(a.communities, t.replace_communities, t.delete_communities, t.add_communities);
  EditList(a.large_communities(), t.replace_large_communities, t.delete_large_communities,
           t.add_large_communities);
  EditList(a.ext_communities(), t.replace_ext_communities, t.delete_ext_communities,
           t.add_ext_communities);
  if (t.prepend_count > 0) {
    AsPath path = a.as_path.value_or(AsPath());
    const uint32_t asn = t.prepend_as != 0 ? t.prepend_as : s.local_as;
    for (uint32_t i = 0; i < t.prepend_count; ++i) path = path.Prepend(asn);
    a.as_path = std::move(path);
  }
}

bool HasActions(const PolicyTerm& t) {
  return t.set_local_pref || t.set_med || t.set_nexthop || t.set_origin || t.prepend_count > 0 ||
         !t.add_communities.empty() || t.replace_communities || !t.delete_communities.empty() ||
         !t.add_large_communities.empty() || t.replace_large_communities ||
         !t.delete_large_communities.empty() || !t.add_ext_communities.empty() ||
         t.replace_ext_communities || !t.delete_ext_communities.empty();
}

}  // namespace

bool EvaluatePolicy(const Policy& policy, const PolicySubject& subject, const PathAttributes& in,
                    std::optional<PathAttributes>& changed, const PolicyTerm** deciding_term) {
  changed.reset();
  if (deciding_term != nullptr) *deciding_term = nullptr;
  for (const PolicyTerm& t : policy.terms) {
    if (!TermMatches(t, subject, changed ? *changed : in)) continue;
    if (HasActions(t)) {
      if (!changed) changed.emplace(in);
      ApplyActions(t, subject, *changed);
    }
    if (t.action == PolicyAction::kNextTerm) continue;
    if (deciding_term != nullptr) *deciding_term = &t;
    return t.action == PolicyAction::kAccept;
  }
  return policy.default_action == PolicyAction::kAccept;
}

bool EvaluatePolicy(const Policy& policy, const PolicySubject& subject, PathAttributes& attrs) {
  for (const PolicyTerm& t : policy.terms) {
    if (!TermMatches(t, subject, attrs)) continue;
    ApplyActions(t, subject, attrs);
    if (t.action == PolicyAction::kAccept) return true;
    if (t.action == PolicyAction::kReject) return false;
  }
  return policy.default_action == PolicyAction::kAccept;
}

StatusOr<uint32_t> ParseCommunity(std::string_view text) {
  auto number = [](std::string_view s, uint64_t max) -> std::optional<uint64_t> {
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty() || v > max) {
      return std::nullopt;
    }
    return v;
  };
  if (text == "no-export") return 0xFFFFFF01u;
  if (text == "no-advertise") return 0xFFFFFF02u;
  if (text == "no-export-subconfed") return 0xFFFFFF03u;
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    if (auto v = number(text, 0xFFFFFFFFu)) return static_cast<uint32_t>(*v);
  } else {
    auto hi = number(text.substr(0, colon), 0xFFFF);
    auto lo = number(text.substr(colon + 1), 0xFFFF);
    if (hi && lo) return static_cast<uint32_t>((*hi << 16) | *lo);
  }
  return InvalidArgument("community '" + std::string(text) + "' is not ASN:VALUE (0-65535 each)");
}

std::string CommunityToString(uint32_t c) {
  return std::to_string(c >> 16) + ":" + std::to_string(c & 0xFFFF);
}

StatusOr<std::shared_ptr<const std::regex>> CompileAsPathRegex(const std::string& text) {
  try {
    return std::make_shared<const std::regex>(text, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return InvalidArgument("as_path_regex '" + text + "': " + e.what());
  }
}

Status ValidatePolicy(const Policy& policy) {
  if (policy.name.empty()) return InvalidArgument("policy name is empty");
  for (const PolicyTerm& t : policy.terms) {
    for (const PrefixMatch& m : t.prefixes) {
      if (Status s = m.Validate(); !s.ok()) {
        return InvalidArgument("term '" + t.name + "': " + s.message());
      }
    }
    if (t.as_path_regex && !t.as_path_re) {
      return InvalidArgument("term '" + t.name + "': as_path_regex is not compiled");
    }
    if (t.set_nexthop && t.set_nexthop->is_zero()) {
      return InvalidArgument("term '" + t.name + "': set_nexthop is the zero address");
    }
  }
  return Status::Ok();
}

}  // namespace strata::bgp
