#include "rtrmgr/config/config_compare.h"

#include <sstream>

#include "rtrmgr/config/config_printer.h"

namespace strata::rtrmgr {
namespace {

class Differ {
 public:
  std::string Take() { return out_; }

  void Children(const ConfigNode& r, const ConfigNode& c, const TemplateNode* t,
                const std::string& path) {
    for (const auto& rc : r.children()) {
      if (Find(c, rc, t) == nullptr) Emit(path, '-', rc);
    }
    for (const auto& cc : c.children()) {
      const ConfigNode* rc = Find(r, cc, t);
      if (rc == nullptr) {
        Emit(path, '+', cc);
        continue;
      }
      const TemplateNode* ct = t == nullptr ? nullptr : t->Find(cc.keyword());
      const bool leaf = ct != nullptr ? ct->kind == NodeKind::kLeaf : cc.children().empty();
      if (leaf) {
        if (rc->args() != cc.args()) {
          Emit(path, '-', *rc);
          Emit(path, '+', cc);
        }
      } else if (!(*rc == cc)) {
        std::string sub = ConfigPrinter::Statement(cc);
        Children(*rc, cc, ct, path.empty() ? sub : path + " " + sub);
      }
    }
  }

 private:
  static std::string Id(const ConfigNode& n, const TemplateNode* t) {
    const TemplateNode* ct = t == nullptr ? nullptr : t->Find(n.keyword());
    if (ct != nullptr) return ct->Identity(n);
    return ConfigPrinter::Statement(n);
  }
  static const ConfigNode* Find(const ConfigNode& parent, const ConfigNode& n,
                                const TemplateNode* t) {
    const std::string id = Id(n, t);
    for (const auto& c : parent.children()) {
      if (c.keyword() == n.keyword() && Id(c, t) == id) return &c;
    }
    return nullptr;
  }
  void Emit(const std::string& path, char sign, const ConfigNode& node) {
    if (path != header_ || out_.empty()) {
      out_ += path.empty() ? "[edit]\n" : "[edit " + path + "]\n";
      header_ = path;
    }
    std::istringstream lines(ConfigPrinter::PrintNode(node, 1));
    std::string line;
    while (std::getline(lines, line)) out_ += sign + line + "\n";
  }

  std::string out_;
  std::string header_;
};

}  // namespace

std::string ConfigCompare::Compare(const ConfigNode& running, const ConfigNode& candidate,
                                   const TemplateTree& templates) {
  Differ d;
  d.Children(running, candidate, &templates.root(), "");
  return d.Take();
}

}  // namespace strata::rtrmgr
