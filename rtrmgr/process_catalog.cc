#include "rtrmgr/process_catalog.h"

#include <fstream>

namespace strata::rtrmgr {

std::string ProcessCatalog::NewSecret() {
  std::ifstream r("/dev/urandom", std::ios::binary);
  unsigned char buf[16] = {};
  r.read(reinterpret_cast<char*>(buf), sizeof buf);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : buf) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::string ProcessCatalog::VrOf(const std::string& instance) {
  const auto dot = instance.find('.');
  return dot == std::string::npos ? "" : instance.substr(dot + 1);
}

std::string ProcessCatalog::Binary(const std::string& process) const {
  return options_.bin_dir + "/strata-" + process;
}

std::string ProcessCatalog::LogFile(const std::string& instance) const {
  if (!options_.log_dir.empty()) return options_.log_dir + "/" + instance + ".log";
  return options_.log_file;
}

std::vector<std::string> ProcessCatalog::LogEnv(const std::string& instance) const {
  std::vector<std::string> env = {"STRATA_LOG_INSTANCE=" + instance};
  if (!options_.log_levels.empty()) env.push_back("STRATA_LOG_LEVEL=" + options_.log_levels);
  if (const std::string file = LogFile(instance); !file.empty()) {
    env.push_back("STRATA_LOG_FILE=" + file);
  } else if (options_.log_syslog) {
    env.push_back("STRATA_LOG_SYSLOG=1");
  }
  return env;
}

std::vector<std::string> ProcessCatalog::OptionArgs(const ConfigNode& config,
                                                    const std::string& process) {
  std::vector<std::string> out;
  const ConfigNode* system = config.FindChild("system");
  const ConfigNode* procs = system != nullptr ? system->FindChild("processes") : nullptr;
  const ConfigNode* mine = procs != nullptr ? procs->FindChild(process) : nullptr;
  if (mine == nullptr) return out;
  for (const ConfigNode& leaf : mine->children()) {
    if (!leaf.args().empty()) out.push_back("--" + leaf.keyword() + "=" + leaf.first_arg());
  }
  return out;
}

ProcessSpec ProcessCatalog::Finder() const {
  ProcessSpec s;
  s.instance = "finder";
  s.process = "finder";
  s.rank = 0;
  s.argv = {Binary("finder")};
  if (options_.finder_strict) {
    s.argv.insert(s.argv.end(), {"--strict", "--config-group", options_.config_group,
                                 "--show-group", options_.show_group});
  }
  if (options_.finder_await_permissions_ms > 0) {
    s.argv.insert(s.argv.end(),
                  {"--await-permissions", std::to_string(options_.finder_await_permissions_ms)});
  }
  s.env = LogEnv("finder");
  s.env.push_back("STRATA_FINDER_ADMIN_SECRET=" + options_.admin_secret);
  if (!options_.glibc_tunables.empty())
    s.env.push_back("GLIBC_TUNABLES=" + options_.glibc_tunables);
  s.log_file = LogFile("finder");
  return s;
}

ProcessSpec ProcessCatalog::For(const ProcessInstance& p,
                                finder::v1::SetPermissionsRequest* rights) const {
  ProcessSpec s;
  s.instance = p.instance;
  s.process = p.process;
  s.rank = p.rank;
  if (auto it = options_.nice.find(p.process); it != options_.nice.end()) s.nice = it->second;
  s.argv = {Binary(p.process)};
  const std::string vr = VrOf(p.instance);
  if (!vr.empty()) s.argv.insert(s.argv.end(), {"--vr", vr});
  s.argv.insert(s.argv.end(), p.args.begin(), p.args.end());
  std::vector<std::string> targets;
  if (p.process == "fea") {
    if (options_.fea_no_kernel) s.argv.push_back("--no-kernel");
    if (!options_.fea_nexthop_objects) s.argv.push_back("--no-nexthop-objects");
    if (options_.await_config_ms > 0) {
      s.argv.insert(s.argv.end(), {"--await-config-ms", std::to_string(options_.await_config_ms)});
    }
    s.argv.insert(s.argv.end(), options_.fea_args.begin(), options_.fea_args.end());
    targets = {"rib", "bgp"};
  } else if (p.process == "rib") {
    if (options_.await_config_ms > 0) s.argv.push_back("--await-config");
    targets = {"fea", "bgp." + vr};
  } else if (p.process == "bgp") {
    targets = {"fea", "rib." + vr, "bfd"};
  } else if (p.process == "bfd") {
    targets = {"bgp", "rib"};  // session events go to the holders
  } else {
    targets = {"*"};
  }
  const std::string secret = NewSecret();
  s.env = LogEnv(p.instance);
  s.env.push_back("STRATA_SECRET=" + secret);
  if (!options_.glibc_tunables.empty())
    s.env.push_back("GLIBC_TUNABLES=" + options_.glibc_tunables);
  s.log_file = LogFile(p.instance);
  if (rights != nullptr) {
    rights->Clear();
    rights->set_admin_secret(options_.admin_secret);
    rights->set_secret(secret);
    for (const auto& t : targets) rights->add_allowed_targets(t);
    rights->add_owned_names(p.instance);  // nobody else may take the name, even between runs
    rights->add_allowed_methods("*");
  }
  return s;
}

}  // namespace strata::rtrmgr
