// BgpSpeaker: the VR's import and export policies (vr_policy.h). Peers keep their own policy
// apart and inherit the VR's where they have none; a VR policy change re-filters, in the
// background (the pipeline's PolicyRefilter), only the peers that inherit it, so they see only
// the differences. The export policies attached anywhere decide which protocols the RIB
// redistributes into BGP (Hooks::export_protocols_changed). That is settled before the peers'
// policies change, so routes of protocols no longer wanted are withdrawn before the re-filter
// walk starts (the walk also handles withdrawals queued while it runs,
// BgpPipeline::set_export_policy; this keeps it to the common case).
#include "bgp/process/bgp_speaker.h"

namespace strata::bgp {

namespace {
const char* DirectionName(PolicyDirection d) {
  return d == PolicyDirection::kImport ? "import" : "export";
}
}  // namespace

Status BgpSpeaker::SetVrPolicy(PolicyDirection direction, const std::string& name) {
  if (name.empty()) return InvalidArgument("policy name is empty");
  auto ref = policy_or_null(name);
  if (!ref.ok()) return ref.status();
  if (direction == PolicyDirection::kExport) update_export_protocols(name);
  PolicyBinding& vr = vr_policies_.at(direction);
  vr = PolicyBinding{name, *ref};
  for (auto& [addr, p] : peers_) p->SetVrPolicy(direction, vr);
  log_->info("VR {} policy: {}", DirectionName(direction), name);
  return Status::Ok();
}

Status BgpSpeaker::ClearVrPolicy(PolicyDirection direction) {
  PolicyBinding& vr = vr_policies_.at(direction);
  if (vr.empty()) return Status::Ok();
  if (direction == PolicyDirection::kExport) update_export_protocols(std::string());
  vr = PolicyBinding{};
  for (auto& [addr, p] : peers_) p->SetVrPolicy(direction, vr);
  log_->info("VR {} policy cleared", DirectionName(direction));
  return Status::Ok();
}

void BgpSpeaker::update_export_protocols(std::optional<std::string> vr_export,
                                         std::optional<std::pair<IpAddr, std::string>> peer) {
  auto ref = [&](const std::string& name) -> PolicyRef {
    auto it = policies_.find(name);
    return it == policies_.end() ? nullptr : it->second;
  };
  std::vector<PolicyRef> in_use{ref(vr_export.value_or(vr_policies_.export_policy.name))};
  for (const auto& [addr, p] : peers_) {
    in_use.push_back(ref(peer && peer->first == addr ? peer->second : p->settings().export_policy));
  }
  std::vector<std::string> protocols = ExportProtocols(in_use);
  if (protocols == export_protocols_) return;
  export_protocols_ = std::move(protocols);
  log_->info("export policies match protocols [{}]", fmt::join(export_protocols_, ","));
  if (hooks_.export_protocols_changed) hooks_.export_protocols_changed(export_protocols_);
}

}  // namespace strata::bgp
