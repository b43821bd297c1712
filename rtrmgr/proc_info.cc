#include "rtrmgr/proc_info.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace strata::rtrmgr {

std::optional<uint64_t> ProcStartTime(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(f, line)) return std::nullopt;
  // The command name (field 2) is in parentheses and may hold spaces or ')': fields count from
  // the last ')'. Field 3 (state) is the first after it; the start time is field 22.
  const auto close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(line.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22; ++i) {
    if (!(rest >> field)) return std::nullopt;
    if (i == 3 && field == "Z") return std::nullopt;  // a zombie: gone but for its parent
  }
  try {
    return std::stoull(field);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::chrono::steady_clock::time_point> ProcStartedAt(pid_t pid) {
  const auto ticks = ProcStartTime(pid);
  std::ifstream f("/proc/uptime");
  double uptime = 0;
  const long hz = ::sysconf(_SC_CLK_TCK);
  if (!ticks || !(f >> uptime) || hz <= 0) return std::nullopt;
  const double age = uptime - static_cast<double>(*ticks) / static_cast<double>(hz);
  return std::chrono::steady_clock::now() -
         std::chrono::milliseconds(static_cast<int64_t>(std::max(0.0, age) * 1000));
}

std::string ProcExe(pid_t pid) {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/exe", ec);
  return ec ? std::string() : p.string();
}

std::optional<uint64_t> ProcRssKb(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(f, line)) {
    if (!line.starts_with("VmRSS:")) continue;
    std::istringstream in(line.substr(6));
    uint64_t kb = 0;
    if (in >> kb) return kb;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace strata::rtrmgr
