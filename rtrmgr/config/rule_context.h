// RuleContext: what a ConfigRules rule uses: reporting a finding by rule id (its severity comes
// from the rule table), and typed reads of a configuration tree that give nothing for a value
// the schema refuses (so rules never act on a bad value) and the template's default for an
// absent leaf. Thread-compatible; lives for one ConfigRules::Check.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "rtrmgr/config/config_node.h"
#include "rtrmgr/config/config_validator.h"
#include "rtrmgr/config/template_tree.h"

namespace strata::rtrmgr {

class RuleContext {
 public:
  RuleContext(const TemplateTree& templates, std::vector<ConfigError>& out)
      : templates_(templates), out_(out) {}

  const TemplateTree& templates() const { return templates_; }
  // Records a finding of rule `id` at `pos`; `path` names the node when `pos` is unknown.
  void Report(std::string_view id, const SourcePos& pos, std::string path, std::string reason);
  // At the value of `leaf` (its first arg), or the node itself.
  void ReportAt(std::string_view id, const ConfigNode& leaf, std::string path, std::string reason);

  // The child leaf `keyword` of `parent` (nullptr when either is absent).
  static const ConfigNode* Leaf(const ConfigNode* parent, std::string_view keyword);
  // Where the value of `node` starts (its i-th arg), else where the node does.
  static SourcePos ValuePos(const ConfigNode& node, size_t i = 0);
  // Of two nodes that clash, the one written last (`b` when neither has a position).
  static const ConfigNode& Later(const ConfigNode& a, const ConfigNode& b);
  // "file:line:column", or "" when `pos` is unknown: for "(first at ...)" notes.
  static std::string At(const SourcePos& pos);

  // The value of leaf `keyword` of `parent`, or the default its template (`tmpl_path`, the
  // parent's keyword path) gives; nullopt when neither is there or the value is malformed.
  std::optional<uint32_t> U32(const ConfigNode* parent, std::string_view tmpl_path,
                              std::string_view keyword) const;
  std::optional<bool> Bool(const ConfigNode* parent, std::string_view tmpl_path,
                           std::string_view keyword) const;
  static std::optional<IpAddr> Addr(const ConfigNode* leaf);
  static std::optional<IpAddr> AddrText(std::string_view text);
  static std::optional<IpPrefix> PrefixText(std::string_view text);
  static std::optional<uint32_t> U32Text(std::string_view text);

 private:
  std::optional<std::string> Value(const ConfigNode* parent, std::string_view tmpl_path,
                                   std::string_view keyword) const;

  const TemplateTree& templates_;
  std::vector<ConfigError>& out_;
};

// False for the zero address, multicast (224.0.0.0/4, ff00::/8) and 255.255.255.255.
bool IsOneHost(const IpAddr& a);

// Each group of rules (rules_*.cc).
void CheckVirtualRouterRules(const ConfigNode& root, RuleContext& ctx);
void CheckBgpRules(const ConfigNode& root, RuleContext& ctx);
void CheckBgpPeerRules(const ConfigNode& root, RuleContext& ctx);
void CheckPolicyRules(const ConfigNode& root, RuleContext& ctx);

}  // namespace strata::rtrmgr
