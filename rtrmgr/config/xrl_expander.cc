#include "rtrmgr/config/xrl_expander.h"

#include "libipc/xrl_atom.h"

namespace strata::rtrmgr {
namespace {

std::string ValueOf(const ConfigNode& node, const TemplateNode& tmpl) {
  if (node.args().empty() && tmpl.bare_value) return tmpl.value.Canonical(*tmpl.bare_value);
  std::string out;
  for (const auto& a : node.args()) {
    if (!out.empty()) out += ',';
    out += tmpl.value.Canonical(a.text);
  }
  return out;
}

using Encoder = std::string (*)(std::string_view);

std::string Identity(std::string_view s) { return std::string(s); }
std::string EncodeTxt(std::string_view s) { return ipc::PercentEncode(s); }
std::string EncodeTxtList(std::string_view s) {
  std::string out;
  size_t start = 0;
  while (true) {
    size_t comma = s.find(',', start);
    out += ipc::PercentEncode(s.substr(start, comma - start));
    if (comma == std::string_view::npos) return out;
    out += ',';
    start = comma + 1;
  }
}

StatusOr<std::string> Substitute(std::string_view text, const XrlExpander::Chain& chain,
                                 Encoder encode) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    size_t open = text.find("$(", i);
    if (open == std::string_view::npos) {
      out += text.substr(i);
      break;
    }
    out += text.substr(i, open - i);
    size_t close = text.find(')', open);
    if (close == std::string_view::npos) {
      return InvalidArgument("unterminated $( in template '" + std::string(text) + "'");
    }
    std::string_view name = text.substr(open + 2, close - open - 2);
    auto value = XrlExpander::Lookup(chain, name);
    if (!value) {
      return InvalidArgument("$(" + std::string(name) + ") is not set for '" +
                             XrlExpander::PathOf(chain) + "'");
    }
    out += encode(*value);
    i = close + 1;
  }
  return out;
}

// $(KEYWORD) and $(KEYWORD/LEAF) for keyed children of the node itself: their keys, or each
// one's LEAF (its default when absent, "" without one), joined by ','; nullopt when the node has
// no such child, or KEYWORD is not a keyed child.
std::optional<std::string> KeyedChildren(const XrlExpander::Level& self, std::string_view name) {
  const size_t slash = name.find('/');
  const std::string keyword(name.substr(0, slash));
  const TemplateNode* ct = self.tmpl->Find(keyword);
  if (ct == nullptr || ct->kind != NodeKind::kKeyed) return std::nullopt;
  const TemplateNode* leaf = nullptr;
  if (slash != std::string_view::npos) {
    leaf = ct->Find(std::string(name.substr(slash + 1)));
    if (leaf == nullptr || leaf->kind != NodeKind::kLeaf) return std::nullopt;
  }
  std::optional<std::string> out;
  for (const auto& child : self.node->children()) {
    if (child.keyword() != keyword) continue;
    out = out ? *out + "," : "";
    if (leaf == nullptr) {
      *out += ValueOf(child, *ct);
    } else if (const ConfigNode* v = child.FindChild(leaf->name)) {
      *out += ValueOf(*v, *leaf);
    } else if (leaf->default_value) {
      *out += leaf->value.Canonical(*leaf->default_value);
    }
  }
  return out;
}

}  // namespace

std::optional<std::string> XrlExpander::Lookup(const Chain& chain, std::string_view name) {
  if (chain.empty()) return std::nullopt;
  if (name == "@") {
    const Level& self = chain.back();
    if (self.tmpl->kind == NodeKind::kContainer) return std::nullopt;
    return ValueOf(*self.node, *self.tmpl);
  }
  if (const TemplateNode* ct = chain.back().tmpl->Find(std::string(name.substr(0, name.find('/'))));
      ct != nullptr && ct->kind == NodeKind::kKeyed) {
    return KeyedChildren(chain.back(), name);
  }
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (it->tmpl->name == name && it->tmpl->kind != NodeKind::kContainer) {
      return ValueOf(*it->node, *it->tmpl);
    }
    const TemplateNode* ct = it->tmpl->Find(name);
    if (ct == nullptr || ct->kind != NodeKind::kLeaf) continue;
    if (const ConfigNode* child = it->node->FindChild(name)) return ValueOf(*child, *ct);
    if (ct->default_value) return ct->value.Canonical(*ct->default_value);
    return std::nullopt;
  }
  return std::nullopt;
}

StatusOr<std::string> XrlExpander::ExpandText(std::string_view text, const Chain& chain) {
  return Substitute(text, chain, Identity);
}

StatusOr<ipc::Xrl> XrlExpander::Expand(std::string_view xrl_template, const Chain& chain) {
  size_t q = xrl_template.find('?');
  auto base = Substitute(xrl_template.substr(0, q), chain, Identity);
  if (!base.ok()) return base.status();
  std::string text = *base;
  if (q != std::string_view::npos) {
    std::string_view query = xrl_template.substr(q + 1);
    char sep = '?';
    size_t start = 0;
    while (start <= query.size()) {
      size_t amp = query.find('&', start);
      std::string_view atom = query.substr(start, amp - start);
      start = amp == std::string_view::npos ? query.size() + 1 : amp + 1;
      size_t colon = atom.find(':');
      size_t eq = atom.find('=');
      if (colon == std::string_view::npos || eq == std::string_view::npos || eq < colon) {
        return InvalidArgument("bad argument '" + std::string(atom) + "' in template");
      }
      std::string type(atom.substr(colon + 1, eq - colon - 1));
      std::string_view value_tmpl = atom.substr(eq + 1);
      if (value_tmpl.size() > 3 && value_tmpl.substr(0, 2) == "$(" && value_tmpl.back() == ')' &&
          value_tmpl.find("$(", 2) == std::string_view::npos &&
          !Lookup(chain, value_tmpl.substr(2, value_tmpl.size() - 3))) {
        continue;  // an optional leaf that is not set
      }
      Encoder enc = type == "txt" ? EncodeTxt : type == "list<txt>" ? EncodeTxtList : Identity;
      auto value = Substitute(value_tmpl, chain, enc);
      if (!value.ok()) return value.status();
      const bool v6 = value->find(':') != std::string::npos;
      if (type == "ipaddr") type = v6 ? "ipv6" : "ipv4";
      if (type == "ipnet") type = v6 ? "ipv6net" : "ipv4net";
      if (type == "list<ipaddr>") type = v6 ? "list<ipv6>" : "list<ipv4>";
      if (type == "list<ipnet>") type = v6 ? "list<ipv6net>" : "list<ipv4net>";
      text += sep;
      sep = '&';
      text += std::string(atom.substr(0, colon)) + ":" + type + "=" + *value;
    }
  }
  auto xrl = ipc::Xrl::Parse(text);
  if (!xrl.ok()) {
    return InvalidArgument("XRL for '" + PathOf(chain) + "' (" + text +
                           "): " + xrl.status().message());
  }
  return std::move(*xrl);
}

std::string XrlExpander::PathOf(const Chain& chain) {
  std::string out;
  for (const auto& level : chain) {
    if (!out.empty()) out += ' ';
    out += level.node->keyword();
    if (level.tmpl->kind == NodeKind::kKeyed) out += " " + level.node->first_arg();
  }
  return out;
}

}  // namespace strata::rtrmgr
