// RouterManager and the configuration's `system` node, which no process serves: log levels
// (applied here and sent to every process by log/1.0/set_levels) and process options (given
// at a process's start, ProcessCatalog::OptionArgs).
#include "common/log.h"
#include "libipc/interfaces/log.pb.h"
#include "rtrmgr/router_manager.h"

namespace strata::rtrmgr {
namespace {

std::shared_ptr<spdlog::logger> Log() {
  static auto log = MakeLogger("rtrmgr");
  return log;
}

// `system log` as LogLevels (the validator checked the level names).
LogLevels LevelsOf(const ConfigNode& config) {
  LogLevels out;
  const ConfigNode* system = config.FindChild("system");
  const ConfigNode* log = system != nullptr ? system->FindChild("log") : nullptr;
  if (log == nullptr) return out;
  if (const ConfigNode* l = log->FindChild("level")) {
    if (auto v = LogLevels::ParseLevel(l->first_arg()); v.ok()) out.fallback = *v;
  }
  for (const ConfigNode& c : log->children()) {
    const ConfigNode* l = c.keyword() == "component" ? c.FindChild("level") : nullptr;
    if (l == nullptr) continue;
    if (auto v = LogLevels::ParseLevel(l->first_arg()); v.ok()) {
      out.components.emplace_back(c.first_arg(), *v);
    }
  }
  return out;
}

}  // namespace

void RouterManager::ApplyLogLevels(const ConfigNode& running) {
  const LogLevels wanted = options_.log_levels ? *options_.log_levels : LevelsOf(running);
  if (wanted == log_levels_) return;
  log_levels_ = wanted;
  SetLogLevels(wanted);
  catalog_.set_log_levels(wanted.ToString());  // processes started from now on
  Log()->info("log levels: {}", wanted.ToString());
  for (const std::string& instance : registered_) SendLogLevels(instance);
}

void RouterManager::SendLogLevels(const std::string& instance) {
  if (router_ == nullptr || instance == "finder") return;
  log::v1::SetLevelsRequest req;
  req.set_levels(log_levels_.ToString());
  router_->Call<log::v1::SetLevelsRequest, log::v1::SetLevelsReply>(
      instance, "log/1.0/set_levels", req,
      [instance](const Status& s, const log::v1::SetLevelsReply&) {
        if (!s.ok()) Log()->warn("log levels for {}: {}", instance, s.ToString());
      });
}

void RouterManager::NoteProcessOptions(const ConfigNode& running,
                                       std::vector<std::string>& warnings) const {
  for (const auto& p : supervisor_.List()) {
    auto it = started_options_.find(p.instance);
    if (it == started_options_.end() || p.state == ProcessState::kStopped) continue;
    if (it->second == ProcessCatalog::OptionArgs(running, p.process)) continue;
    warnings.push_back("system processes " + p.process + ": " + p.instance +
                       " runs with its old options until it next starts");
  }
}

}  // namespace strata::rtrmgr
