// XrlExpander: fills a template's XRL (or process instance name) with values from the config.
//
// $(@) is the node's own key or value. $(NAME) is looked up from the node towards the root: at
// each level, a node whose keyword is NAME gives its key or value (so $(virtual-router) is the
// enclosing VR's name and $(peer) the enclosing peer's address); otherwise a leaf child NAME of
// that level gives its value (its %bare value when written without one), or its %default when it
// is absent. A list leaf gives its values
// joined by ','. $(KEYWORD) naming keyed children of the node itself (`next-hop 192.0.2.1 {
// weight 2; }` twice) gives their keys joined by ',', and $(KEYWORD/LEAF) each one's LEAF (its
// %default when absent) in the same order; both are unset when there is no such child. Addresses
// and prefixes are substituted in canonical form. In the argument part of an XRL (after '?'), each
// `name:type=value` is handled alone: values of txt atoms are percent-encoded; the pseudo types
// `ipaddr` and `ipnet` become ipv4/ipv6 and ipv4net/ipv6net by the substituted value's family
// (list<ipaddr> and list<ipnet> likewise); an atom whose value is exactly one $(NAME) that is not
// set is left out (an optional leaf). Any other unset name is an error. Stateless.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "libipc/xrl.h"
#include "rtrmgr/config/config_node.h"
#include "rtrmgr/config/template_node.h"

namespace strata::rtrmgr {

class XrlExpander {
 public:
  struct Level {
    const ConfigNode* node;
    const TemplateNode* tmpl;
  };
  // The nodes from a top-level statement down to the node being expanded (root excluded).
  using Chain = std::vector<Level>;

  static std::optional<std::string> Lookup(const Chain& chain, std::string_view name);
  // Substitutes every $(NAME) in `text`, without encoding.
  static StatusOr<std::string> ExpandText(std::string_view text, const Chain& chain);
  static StatusOr<ipc::Xrl> Expand(std::string_view xrl_template, const Chain& chain);
  // "virtual-router red static route 192.0.2.0/24".
  static std::string PathOf(const Chain& chain);
};

}  // namespace strata::rtrmgr
