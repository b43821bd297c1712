// TemplateTree: the merged schema of every component's template file (rtrmgr/templates/*.tmpl).
//
// Template files use the configuration syntax. A statement names a node; statements inside it
// whose keyword starts with '%' are directives about it, the others are its children:
//
//   %define-process rib { instance "rib.$(virtual-router)"; rank 20; help "..."; }
//   virtual-router {
//       %key identifier;            # keyed node; or `%type T;` for a leaf; neither: container
//       %help "A virtual router.";
//       %process fea;               # inherited by children unless they name their own
//       %create "finder://fea/fea/1.0/add_vr?vr:txt=$(@)&table_id:u32=$(table-id)";
//       %delete "finder://fea/fea/1.0/delete_vr?vr:txt=$(@)";
//       table-id { %type u32; %range 0 4294967295; %default 0; }
//   }
//
// Directives: %key T, %type T, %enum V..., %range MIN MAX, %list, %default V, %mandatory,
// %bare V (a leaf written without a value, `allowas-in;`, has the value V), %like "PATH" NAME...
// (the node also takes a copy of every child of the node at PATH but those named and those it
// declares itself, without their XRLs: a BGP group takes a neighbor's settings),
// %ref "PATH" (value must be a key defined at that keyword path), %help "...", %process NAME,
// %uses NAME (another process that must run while the node is configured),
// %create/%change/%delete "XRL". Several files may declare the same node (fea.tmpl declares
// `virtual-router`, rib.tmpl adds `static` under it); a directive may be set by only one of them.
// Files are read in name order, which fixes the order of children. Read-only once loaded.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "rtrmgr/config/template_node.h"

namespace strata::rtrmgr {

// A process the templates' nodes belong to: `instance` is expanded in the node's context
// ("rib.$(virtual-router)" -> "rib.red"); lower ranks are configured first, deleted last.
struct ProcessDef {
  std::string name;
  std::string instance;
  uint32_t rank = 0;
  std::string help;
  SourcePos pos;
  // Command-line arguments, expanded like `instance` from the config (`arg
  // "--table-id=$(table-id)";`); one whose value is a single $(LEAF) that is not set is left out.
  std::vector<std::string> args;
  // Processes that must run (same chain, so same VR) wherever this one does (`requires rib;`).
  std::vector<std::string> requires_;
};

class TemplateTree {
 public:
  // Where the templates are unless told: $STRATA_TEMPLATE_DIR, else share/strata/templates
  // beside the running program (PREFIX/sbin/.. or PREFIX/bin/.. once installed; the build tree
  // has a copy in build/share/strata/templates), so no path is compiled in.
  static std::string DefaultDirectory();
  // Every *.tmpl file in `dir`. Errors read "file:line:column: reason".
  static StatusOr<TemplateTree> LoadDirectory(const std::string& dir);
  // (file name, text) pairs, in the order given.
  static StatusOr<TemplateTree> LoadTexts(
      const std::vector<std::pair<std::string, std::string>>& files);

  const TemplateNode& root() const { return *root_; }
  const std::map<std::string, ProcessDef>& processes() const { return processes_; }
  const ProcessDef* FindProcess(const std::string& name) const;
  // The node at a keyword path ("virtual-router static route"), or nullptr.
  const TemplateNode* FindPath(const std::string& path) const;
  // The canonical keys of the keyed nodes of `config` at a keyword path ("interfaces
  // interface"), in tree order: what a %ref to that path may name.
  std::vector<std::string> KeysAt(const ConfigNode& config, const std::string& path) const;

 private:
  TemplateTree() = default;
  Status AddFile(const std::string& file, const std::string& text);
  Status ResolveLikes(TemplateNode& node);
  Status Finalize(TemplateNode& node);
  Status CheckRefs(const TemplateNode& node) const;

  std::unique_ptr<TemplateNode> root_;
  std::map<std::string, ProcessDef> processes_;
};

}  // namespace strata::rtrmgr
