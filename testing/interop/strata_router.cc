#include "testing/interop/strata_router.h"

#include <fstream>
#include <sstream>

namespace strata::interop {

Status StrataRouter::Start(const std::string& config, const std::vector<std::string>& extra) {
  const std::string conf = dir_ + "/router.conf";
  std::ofstream(conf) << config;
  std::vector<std::string> argv = {"env",
                                   "STRATA_RUN_DIR=" + dir_,
                                   bin_dir_ + "/strata-rtrmgr",
                                   "-c",
                                   conf,
                                   "--bin-dir",
                                   bin_dir_,
                                   "--state-dir",
                                   dir_ + "/state",
                                   "--log-dir",
                                   dir_ + "/logs",
                                   "--log-level",
                                   "debug"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return rtrmgr_.Start(ns_.Wrap(argv), dir_ + "/rtrmgr.log");
}

CommandResult StrataRouter::Exec(std::vector<std::string> argv,
                                 std::chrono::milliseconds limit) const {
  if (!argv.empty() && argv[0].find('/') == std::string::npos) argv[0] = bin_dir_ + "/" + argv[0];
  argv.insert(argv.begin(), {"env", "STRATA_RUN_DIR=" + dir_});
  return ns_.Exec(argv, limit);
}

nlohmann::json StrataRouter::Call(const std::string& xrl) const {
  const CommandResult r = Exec({"strata-call", "--json", xrl});
  if (!r.ok()) return nullptr;
  return nlohmann::json::parse(r.output, nullptr, false);
}

std::string StrataRouter::Logs(const std::string& vr) const {
  std::string s;
  for (const std::string& f : {std::string("rtrmgr.log"), "logs/bgp." + vr + ".log",
                               "logs/rib." + vr + ".log", std::string("logs/fea.log")}) {
    std::ifstream in(dir_ + "/" + f);
    std::ostringstream b;
    b << in.rdbuf();
    std::string t = b.str();
    if (t.size() > 12000) t = t.substr(t.size() - 12000);
    s += "--- " + f + "\n" + t + "\n";
  }
  return s;
}

}  // namespace strata::interop
