#include "rtrmgr/config/config_origins.h"

#include <map>

namespace strata::rtrmgr {
namespace {

void CollectNode(const ConfigNode& node, std::map<std::string, uint32_t>& index,
                 ConfigOrigins& out) {
  const SourcePos& p = node.pos();
  uint32_t file = 0;
  if (p.line > 0) {
    auto [it, fresh] = index.try_emplace(p.file, static_cast<uint32_t>(out.files.size() + 1));
    if (fresh) out.files.push_back(p.file);
    file = it->second;
  }
  out.numbers.push_back(file);
  out.numbers.push_back(file != 0 ? static_cast<uint32_t>(p.line) : 0);
  out.numbers.push_back(file != 0 ? static_cast<uint32_t>(p.column) : 0);
  for (const ConfigArg& a : node.args()) {
    out.numbers.push_back(file != 0 ? static_cast<uint32_t>(a.pos.line) : 0);
    out.numbers.push_back(file != 0 ? static_cast<uint32_t>(a.pos.column) : 0);
  }
  for (const ConfigNode& c : node.children()) CollectNode(c, index, out);
}

class Applier {
 public:
  explicit Applier(const ConfigOrigins& o) : o_(o) {}

  bool Node(ConfigNode& node) {
    if (i_ + 3 + 2 * node.args().size() > o_.numbers.size()) return false;
    const uint32_t file = o_.numbers[i_++];
    if (file > o_.files.size()) return false;
    const std::string name = file == 0 ? std::string() : o_.files[file - 1];
    node.set_pos(Pos(name, file));
    for (ConfigArg& a : node.mutable_args()) a.pos = Pos(name, file);
    for (ConfigNode& c : node.mutable_children()) {
      if (!Node(c)) return false;
    }
    return true;
  }
  bool AllUsed() const { return i_ == o_.numbers.size(); }

 private:
  SourcePos Pos(const std::string& name, uint32_t file) {
    const auto line = static_cast<int>(o_.numbers[i_++]);
    const auto column = static_cast<int>(o_.numbers[i_++]);
    if (file == 0 || line <= 0) return SourcePos{};
    return SourcePos{name, line, column};
  }

  const ConfigOrigins& o_;
  size_t i_ = 0;
};

}  // namespace

ConfigOrigins ConfigOrigins::Collect(const ConfigNode& root) {
  ConfigOrigins out;
  std::map<std::string, uint32_t> index;
  for (const ConfigNode& c : root.children()) CollectNode(c, index, out);
  return out;
}

Status ConfigOrigins::Apply(ConfigNode& root) const {
  Applier a(*this);
  bool ok = true;
  for (ConfigNode& c : root.mutable_children()) {
    if (!(ok = a.Node(c))) break;
  }
  if (ok && a.AllUsed()) return Status::Ok();
  Clear(root);
  return InvalidArgument("the origins do not match the configuration's shape");
}

void ConfigOrigins::Clear(ConfigNode& root) {
  root.set_pos(SourcePos{});
  for (ConfigArg& a : root.mutable_args()) a.pos = SourcePos{};
  for (ConfigNode& c : root.mutable_children()) Clear(c);
}

}  // namespace strata::rtrmgr
