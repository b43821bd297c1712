// ReferenceDoc: renders the configuration reference (docs/config-reference.md) from the
// templates, so the document cannot drift from what the router accepts: every node with its
// syntax, type, default, whether mandatory, what it must refer to, its process and its XRLs.
// Stateless.
#pragma once

#include <string>

#include "rtrmgr/config/template_tree.h"

namespace strata::rtrmgr {

class ReferenceDoc {
 public:
  static std::string Render(const TemplateTree& templates);
};

}  // namespace strata::rtrmgr
