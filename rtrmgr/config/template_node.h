// TemplateNode: the schema of one configuration node, as declared in the templates.
//
// Three kinds: a container (`static { ... }`, no value), a keyed node that may occur many times,
// told apart by its key (`peer 10.0.0.2 { ... }`, `interface veth1;`), and a leaf with one value
// or, if `list`, one or more (`next-hop 10.0.0.2;`). A node may name the XRLs that create,
// change and delete it (with $(...) substituted, see XrlExpander) and the process it belongs to.
// Built by TemplateTree; read-only afterwards.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rtrmgr/config/config_node.h"
#include "rtrmgr/config/value_spec.h"

namespace strata::rtrmgr {

enum class NodeKind { kContainer, kKeyed, kLeaf };

struct TemplateNode {
  std::string name;  // the keyword; "" for the root
  NodeKind kind = NodeKind::kContainer;
  ValueSpec value;  // the key's type (keyed) or the value's type (leaf)
  bool list = false;
  bool mandatory = false;
  std::optional<std::string> default_value;
  std::optional<std::string> bare_value;  // a leaf written without a value has this one
  std::vector<std::string> like;  // %like: the path whose children it copies, then exclusions
  bool copied = false;            // made by a %like (the reference lists it at its origin)
  std::string ref;  // "interfaces interface": the value must be a key defined at that path
  std::string help;
  std::string process;  // effective (inherited) process name; "" for none
  // %uses NAME: another process that must run while this node is configured, though the node's
  // XRLs go to `process` (a BGP neighbour's bfd needs strata-bfd). Not inherited.
  std::string uses;
  std::string create;  // XRL templates; "" when the node has none
  std::string change;
  std::string del;
  SourcePos pos;  // where first declared
  TemplateNode* parent = nullptr;
  std::vector<std::unique_ptr<TemplateNode>> children;
  // Where each directive was set (to report a conflict between two template files).
  std::map<std::string, SourcePos> set_at;

  const TemplateNode* Find(std::string_view keyword) const;
  bool HasActions() const { return !create.empty() || !change.empty() || !del.empty(); }
  // How a config node of this template is matched between two trees and checked for
  // duplicates: the keyword, plus the canonical key for a keyed node.
  std::string Identity(const ConfigNode& node) const;
  // Keywords from the root: "virtual-router static route".
  std::string Path() const;
  // How the node is written: "route <prefix>", "next-hop <ipaddr>", "static".
  std::string Syntax() const;
};

}  // namespace strata::rtrmgr
