// ShSession's `show log [LOGGER] [last N]`: every process keeps its last lines (log/1.0);
// merged by time, the last N of them.
#include <algorithm>

#include "libipc/call/atoms_json.h"
#include "rtrmgr/sh/sh_session.h"
#include "rtrmgr/sh/show_format.h"

namespace strata::rtrmgr::sh {

int ShSession::ShowLog(const CommandMatch& m, bool json) {
  uint32_t last = 50;
  if (m.has("last")) {
    const std::string n = m.get("last");
    if (n.empty() || n.size() > 6 || n.find_first_not_of("0123456789") != std::string::npos) {
      return Fail(InvalidArgument("show log ... last N: N lines, a number"));
    }
    last = static_cast<uint32_t>(std::stoul(n));
  }
  const std::string prefix = m.get("logger");
  auto r = CallXrl(*ipc::Xrl::Parse("finder://finder/finder/1.0/list_targets"));
  if (!r.status.ok()) return Fail(r.status);
  std::vector<std::string> instances;
  for (const auto& a : r.atoms) {
    if (a.name() != "instances" || !a.is_list()) continue;
    for (const auto& e : a.elements()) instances.push_back(std::get<std::string>(e));
  }
  // Loggers are named after their process instance: ask only the processes that may have some
  // under the prefix.
  auto may_hold = [&](const std::string& i) {
    return prefix.empty() || prefix == i || prefix.rfind(i + ".", 0) == 0 ||
           i.rfind(prefix + ".", 0) == 0;
  };
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& instance : instances) {
    if (!may_hold(instance)) continue;
    auto xrl = ipc::Xrl::Parse("finder://" + instance + "/log/1.0/get_lines?max:u32=" +
                               std::to_string(last) + "&prefix:txt=" + ipc::PercentEncode(prefix));
    if (!xrl.ok()) return Fail(xrl.status());
    auto got = CallXrl(*xrl);
    if (interrupted_) return 1;
    if (!got.status.ok()) continue;  // a process that does not keep lines (the Finder)
    nlohmann::json j = ipc::AtomsToJson(got.atoms);
    if (j.contains("lines")) {
      for (auto& l : j["lines"]) lines.push_back(std::move(l));
    }
  }
  std::stable_sort(lines.begin(), lines.end(),
                   [](const nlohmann::json& a, const nlohmann::json& b) {
                     return a.value("unix_ns", int64_t{0}) < b.value("unix_ns", int64_t{0});
                   });
  if (lines.size() > last) lines.erase(lines.begin(), lines.end() - last);
  Print(json ? nlohmann::json{{"lines", lines}}.dump(2) + "\n" : ShowFormat::LogLines(lines));
  return 0;
}

}  // namespace strata::rtrmgr::sh
