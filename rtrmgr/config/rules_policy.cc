// ConfigRules: routing policy (every statement and set, used or not: strata-bgp would refuse them
// when a VR names them). The rule ids and reasons are in config_rules.cc.
#include <algorithm>
#include <regex>
#include <string>

#include "rtrmgr/config/rule_context.h"

namespace strata::rtrmgr {
namespace {

// A prefix range: `prefix` with optional ge and le under `node` (prefix-list entry or
// route-filter); mirrors strata-bgp's PrefixMatch::Validate.
void CheckRange(const ConfigNode& node, const std::string& path, RuleContext& ctx) {
  auto prefix = RuleContext::PrefixText(node.first_arg());
  if (!prefix) return;
  const ConfigNode* ge_leaf = node.FindChild("ge");
  const ConfigNode* le_leaf = node.FindChild("le");
  // 0 is "not given" for strata-bgp as well.
  const uint32_t ge = ge_leaf ? RuleContext::U32Text(ge_leaf->first_arg()).value_or(0) : 0;
  const uint32_t le = le_leaf ? RuleContext::U32Text(le_leaf->first_arg()).value_or(0) : 0;
  const auto width = static_cast<uint32_t>(prefix->max_len());
  const auto len = static_cast<uint32_t>(prefix->len());
  const std::string p = prefix->ToString();
  const std::string family = prefix->is_v4() ? "IPv4's " : "IPv6's ";
  auto report = [&](const ConfigNode& at, const std::string& why) {
    ctx.ReportAt("policy-prefix-length", at, path, p + ": " + why);
  };
  if (ge > width) {
    report(*ge_leaf,
           "ge " + std::to_string(ge) + " is beyond " + family + std::to_string(width) + " bits");
  } else if (le > width) {
    report(*le_leaf,
           "le " + std::to_string(le) + " is beyond " + family + std::to_string(width) + " bits");
  } else if (ge != 0 && ge < len) {
    report(*ge_leaf, "ge " + std::to_string(ge) + " is shorter than the prefix's length " +
                         std::to_string(len));
  } else if (le != 0 && le < std::max(len, ge)) {
    report(*le_leaf, "le " + std::to_string(le) + " is below " +
                         (ge > len ? "ge " + std::to_string(ge)
                                   : "the prefix's length " + std::to_string(len)) +
                         ": the range matches nothing");
  }
}

void CheckRegex(const ConfigNode& leaf, size_t i, const std::string& path, RuleContext& ctx) {
  const std::string& text = leaf.args()[i].text;
  try {
    std::regex re(text, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    ctx.Report("policy-as-path-regex", RuleContext::ValuePos(leaf, i), path,
               "AS-path regular expression '" + text + "' does not compile: " + e.what());
  }
}

void CheckExactCommunities(const ConfigNode& leaf, const std::string& path, RuleContext& ctx) {
  for (size_t i = 0; i < leaf.args().size(); ++i) {
    if (leaf.args()[i].text.find('*') == std::string::npos) continue;
    ctx.Report("policy-community-pattern", RuleContext::ValuePos(leaf, i), path,
               "'" + leaf.args()[i].text + "' is a pattern: " + leaf.keyword() +
                   " takes exact communities (patterns go in a set or a delete)");
  }
}

void CheckTerm(const ConfigNode& term, const std::string& path, RuleContext& ctx) {
  if (const ConfigNode* from = term.FindChild("from")) {
    for (const ConfigNode& c : from->children()) {
      const std::string sub = path + " from";
      if (c.keyword() == "route-filter") {
        CheckRange(c, sub + " route-filter " + c.first_arg(), ctx);
      } else if (c.keyword() == "as-path" && !c.args().empty()) {
        CheckRegex(c, 0, sub, ctx);
      } else if (c.keyword() == "community") {
        CheckExactCommunities(c, sub, ctx);
      }
    }
  }
  if (const ConfigNode* then = term.FindChild("then")) {
    for (const ConfigNode& c : then->children()) {
      const std::string sub = path + " then";
      const std::string& k = c.keyword();
      if (k == "community-add" || k == "community-replace" || k == "large-community-add" ||
          k == "large-community-replace") {
        CheckExactCommunities(c, sub, ctx);
      } else if (k == "next-hop") {
        if (auto a = RuleContext::Addr(&c); a && a->is_zero()) {
          ctx.ReportAt("policy-next-hop-zero", c, sub,
                       "next-hop " + a->ToString() + " is not a next hop");
        }
      }
    }
  }
}

}  // namespace

void CheckPolicyRules(const ConfigNode& root, RuleContext& ctx) {
  const ConfigNode* policy = root.FindChild("policy");
  if (policy == nullptr) return;
  for (const ConfigNode& set : policy->children()) {
    const std::string path = "policy " + set.keyword() + " " + set.first_arg();
    if (set.keyword() == "prefix-list") {
      for (const ConfigNode& p : set.children()) {
        if (p.keyword() == "prefix") CheckRange(p, path + " prefix " + p.first_arg(), ctx);
      }
    } else if (set.keyword() == "as-path-set") {
      for (const ConfigNode& r : set.children()) {
        if (r.keyword() != "regex") continue;
        for (size_t i = 0; i < r.args().size(); ++i) CheckRegex(r, i, path, ctx);
      }
    } else if (set.keyword() == "policy-statement") {
      for (const ConfigNode& term : set.children()) {
        if (term.keyword() == "term") CheckTerm(term, path + " term " + term.first_arg(), ctx);
      }
    }
  }
}

}  // namespace strata::rtrmgr
