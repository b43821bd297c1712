#include "bgp/process/policy_proto_convert.h"

#include "libipc/common_convert.h"

namespace strata::bgp {
namespace {

// Parses each of `texts` with `parse` into `out`; errors are prefixed with `field`.
template <typename T, typename Texts, typename Parse>
Status ParseAll(const Texts& texts, const std::string& field, Parse parse, std::vector<T>& out) {
  for (const std::string& text : texts) {
    auto v = parse(text);
    if (!v.ok()) return InvalidArgument(field + ": " + v.status().message());
    out.push_back(*v);
  }
  return Status::Ok();
}

StatusOr<RovState> ParseRpkiState(std::string_view text) {
  if (auto s = ParseRovState(text)) return *s;
  return InvalidArgument("\"" + std::string(text) +
                         "\" is not an RPKI state (valid, invalid, not-found, unverified)");
}

// Adds set `s` to `sets` under its name after parsing its members with `parse`.
template <typename T, typename Set, typename Parse>
Status AddSet(const Set& s, const std::string& field, Parse parse,
              std::map<std::string, std::vector<T>>& sets) {
  if (s.name().empty()) return InvalidArgument(field + ".name: a set needs a name");
  const std::string where = field + " (" + s.name() + ")";
  if (sets.contains(s.name())) return InvalidArgument(where + ": defined twice");
  std::vector<T> members;
  if (Status st = ParseAll(s.members(), where + ".members", parse, members); !st.ok()) return st;
  sets.emplace(s.name(), std::move(members));
  return Status::Ok();
}

// Appends the members of the sets named by `names` to `out`.
template <typename T, typename Names>
Status Resolve(const Names& names, const std::map<std::string, std::vector<T>>& sets,
               const std::string& field, const char* kind, std::vector<T>& out) {
  for (const std::string& name : names) {
    auto it = sets.find(name);
    if (it == sets.end()) {
      return InvalidArgument(field + ": no " + std::string(kind) + " '" + name + "'");
    }
    out.insert(out.end(), it->second.begin(), it->second.end());
  }
  return Status::Ok();
}

StatusOr<PrefixMatch> PrefixMatchFromProto(const v1::PrefixMatch& m, const std::string& field) {
  auto prefix = ipc::PrefixFromProto(m.prefix(), field + ".prefix");
  if (!prefix.ok()) return prefix.status();
  PrefixMatch pm{*prefix, m.ge(), m.le()};
  if (Status s = pm.Validate(); !s.ok()) return InvalidArgument(field + ": " + s.message());
  return pm;
}

// A prefix, or an address as a host prefix.
StatusOr<IpPrefix> NextHopPrefix(const std::string& text) {
  if (text.find('/') != std::string::npos) return IpPrefix::Parse(text);
  auto a = IpAddr::Parse(text);
  if (!a.ok()) return InvalidArgument("'" + text + "' is neither an address nor a prefix");
  return IpPrefix(*a, a->bit_length());
}

StatusOr<uint32_t> Community(const std::string& text) { return ParseCommunity(text); }

}  // namespace

StatusOr<PolicySets> PolicySetsFromProto(const v1::DefinePolicyRequest& r) {
  PolicySets sets;
  int i = 0;
  for (const v1::PolicyPrefixList& l : r.prefix_lists()) {
    const std::string field = "prefix_lists." + std::to_string(i++);
    if (l.name().empty()) return InvalidArgument(field + ".name: a set needs a name");
    const std::string where = field + " (" + l.name() + ")";
    if (sets.prefix_lists.contains(l.name())) return InvalidArgument(where + ": defined twice");
    std::vector<PrefixMatch> members;
    for (const v1::PrefixMatch& m : l.prefixes()) {
      auto pm = PrefixMatchFromProto(m, where + ".prefixes");
      if (!pm.ok()) return pm.status();
      members.push_back(*pm);
    }
    sets.prefix_lists.emplace(l.name(), std::move(members));
  }
  const auto each = [&](const auto& list, const char* name, auto parse, auto& out) -> Status {
    int n = 0;
    for (const v1::PolicyCommunitySet& s : list) {
      Status st = AddSet(s, std::string(name) + "." + std::to_string(n++), parse, out);
      if (!st.ok()) return st;
    }
    return Status::Ok();
  };
  if (Status s =
          each(r.community_sets(), "community_sets", ParseCommunityPattern, sets.communities);
      !s.ok()) {
    return s;
  }
  if (Status s = each(r.ext_community_sets(), "ext_community_sets", ParseExtCommunity,
                      sets.ext_communities);
      !s.ok()) {
    return s;
  }
  if (Status s = each(r.large_community_sets(), "large_community_sets", ParseLargeCommunityPattern,
                      sets.large_communities);
      !s.ok()) {
    return s;
  }
  i = 0;
  for (const v1::PolicyAsPathSet& a : r.as_path_sets()) {
    const std::string field = "as_path_sets." + std::to_string(i++);
    if (a.name().empty()) return InvalidArgument(field + ".name: a set needs a name");
    const std::string where = field + " (" + a.name() + ")";
    if (sets.as_paths.contains(a.name())) return InvalidArgument(where + ": defined twice");
    std::vector<std::shared_ptr<const std::regex>> res;
    Status st = ParseAll(a.regexes(), where + ".regexes", CompileAsPathRegex, res);
    if (!st.ok()) return st;
    sets.as_paths.emplace(a.name(), std::move(res));
  }
  return sets;
}

Status TermExtrasFromProto(const v1::PolicyTerm& t, const PolicySets& sets,
                           const std::string& where, PolicyTerm& term) {
  const auto f = [&](const char* field) { return where + "." + field; };
  Status s =
      Resolve(t.prefix_lists(), sets.prefix_lists, f("prefix_lists"), "prefix list", term.prefixes);
  if (s.ok()) {
    s = Resolve(t.community_sets(), sets.communities, f("community_sets"), "community set",
                term.community_patterns);
  }
  if (s.ok()) {
    s = Resolve(t.ext_community_sets(), sets.ext_communities, f("ext_community_sets"),
                "extended community set", term.ext_communities);
  }
  if (s.ok()) {
    s = Resolve(t.large_community_sets(), sets.large_communities, f("large_community_sets"),
                "large community set", term.large_communities);
  }
  if (s.ok()) {
    s = Resolve(t.as_path_sets(), sets.as_paths, f("as_path_sets"), "AS path set",
                term.as_path_res);
  }
  if (s.ok()) s = ParseAll(t.nexthops(), f("nexthops"), NextHopPrefix, term.nexthops);
  if (s.ok()) s = ParseAll(t.origins(), f("origins"), ParseOrigin, term.origins);
  if (s.ok()) s = ParseAll(t.rpki(), f("rpki"), ParseRpkiState, term.rpki);
  if (s.ok()) {
    s = ParseAll(t.ext_communities(), f("ext_communities"), ParseExtCommunity,
                 term.ext_communities);
  }
  if (s.ok()) {
    s = ParseAll(t.large_communities(), f("large_communities"), ParseLargeCommunityPattern,
                 term.large_communities);
  }
  if (s.ok() && !t.set_origin().empty()) {
    auto o = ParseOrigin(t.set_origin());
    if (!o.ok()) return InvalidArgument(f("set_origin") + ": " + o.status().message());
    term.set_origin = *o;
  }
  if (s.ok() && t.replace_communities()) {
    std::vector<uint32_t> exact;
    s = ParseAll(t.set_communities(), f("set_communities"), Community, exact);
    term.replace_communities = std::move(exact);
  } else if (s.ok() && !t.set_communities().empty()) {
    return InvalidArgument(f("set_communities") + ": given without replace_communities");
  }
  if (s.ok()) {
    s = ParseAll(t.delete_communities(), f("delete_communities"), ParseCommunityPattern,
                 term.delete_communities);
  }
  if (s.ok()) {
    s = Resolve(t.delete_community_sets(), sets.communities, f("delete_community_sets"),
                "community set", term.delete_communities);
  }
  if (s.ok() && t.replace_large_communities()) {
    std::vector<LargeCommunity> exact;
    s = ParseAll(t.set_large_communities(), f("set_large_communities"), ParseLargeCommunity, exact);
    term.replace_large_communities = std::move(exact);
  } else if (s.ok() && !t.set_large_communities().empty()) {
    return InvalidArgument(f("set_large_communities") +
                           ": given without replace_large_communities");
  }
  if (s.ok()) {
    s = ParseAll(t.delete_large_communities(), f("delete_large_communities"),
                 ParseLargeCommunityPattern, term.delete_large_communities);
  }
  if (s.ok()) {
    s = Resolve(t.delete_large_community_sets(), sets.large_communities,
                f("delete_large_community_sets"), "large community set",
                term.delete_large_communities);
  }
  if (s.ok()) {
    s = ParseAll(t.add_large_communities(), f("add_large_communities"), ParseLargeCommunity,
                 term.add_large_communities);
  }
  if (s.ok() && t.replace_ext_communities()) {
    std::vector<uint64_t> exact;
    s = ParseAll(t.set_ext_communities(), f("set_ext_communities"), ParseExtCommunity, exact);
    term.replace_ext_communities = std::move(exact);
  } else if (s.ok() && !t.set_ext_communities().empty()) {
    return InvalidArgument(f("set_ext_communities") + ": given without replace_ext_communities");
  }
  if (s.ok()) {
    s = ParseAll(t.add_ext_communities(), f("add_ext_communities"), ParseExtCommunity,
                 term.add_ext_communities);
  }
  if (s.ok()) {
    s = ParseAll(t.delete_ext_communities(), f("delete_ext_communities"), ParseExtCommunity,
                 term.delete_ext_communities);
  }
  if (s.ok()) {
    s = Resolve(t.delete_ext_community_sets(), sets.ext_communities, f("delete_ext_community_sets"),
                "extended community set", term.delete_ext_communities);
  }
  return s;
}

}  // namespace strata::bgp
