#include "rtrmgr/rtrmgr_state.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/json.h"

namespace strata::rtrmgr {
namespace {

using nlohmann::json;

json SpecToJson(const ProcessSpec& s) {
  return json{{"instance", s.instance}, {"process", s.process}, {"rank", s.rank},
              {"argv", s.argv},         {"env", s.env},         {"log_file", s.log_file},
              {"nice", s.nice}};
}

ProcessSpec SpecFromJson(const json& j) {
  ProcessSpec s;
  s.instance = j.at("instance").get<std::string>();
  s.process = j.at("process").get<std::string>();
  s.rank = j.value("rank", 0u);
  s.argv = j.at("argv").get<std::vector<std::string>>();
  s.env = j.value("env", std::vector<std::string>{});
  s.log_file = j.value("log_file", std::string());
  s.nice = j.value("nice", 0);
  return s;
}

}  // namespace

StatusOr<RtrmgrState> RtrmgrState::Load(const std::string& path) {
  std::ifstream f(path);
  if (!f) return NotFound(path + ": " + std::strerror(errno));
  std::stringstream text;
  text << f.rdbuf();
  const json j = json::parse(text.str(), nullptr, false);
  if (!j.is_object()) return InvalidArgument(path + ": not a JSON object");
  try {
    RtrmgrState st;
    st.rtrmgr_pid = j.value("rtrmgr_pid", 0);
    st.admin_secret = j.at("admin_secret").get<std::string>();
    st.revision = j.value("revision", uint64_t{0});
    st.running_config = j.value("running_config", std::string());
    for (const json& p : j.value("processes", json::array())) {
      StateProcess sp;
      sp.spec = SpecFromJson(p.at("spec"));
      sp.pid = p.value("pid", 0);
      sp.start_time = p.value("start_time", uint64_t{0});
      sp.restarts = p.value("restarts", 0u);
      sp.last_restart_reason = p.value("last_restart_reason", std::string());
      sp.allowed_targets = p.value("allowed_targets", std::vector<std::string>{});
      sp.allowed_methods = p.value("allowed_methods", std::vector<std::string>{});
      if (sp.spec.instance.empty() || sp.spec.argv.empty()) {
        return InvalidArgument(path + ": a process without instance or argv");
      }
      st.processes.push_back(std::move(sp));
    }
    return st;
  } catch (const json::exception& e) {
    return InvalidArgument(path + ": " + e.what());
  }
}

Status RtrmgrState::Save(const std::string& path) const {
  json procs = json::array();
  for (const StateProcess& p : processes) {
    procs.push_back(json{{"spec", SpecToJson(p.spec)},
                         {"pid", p.pid},
                         {"start_time", p.start_time},
                         {"restarts", p.restarts},
                         {"last_restart_reason", p.last_restart_reason},
                         {"allowed_targets", p.allowed_targets},
                         {"allowed_methods", p.allowed_methods}});
  }
  const json j{{"rtrmgr_pid", rtrmgr_pid},
               {"admin_secret", admin_secret},
               {"revision", revision},
               {"running_config", running_config},
               {"processes", procs}};
  const std::string text = j.dump(1) + "\n";
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Unavailable(tmp + ": " + std::strerror(errno));
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const Status s = Unavailable(tmp + ": " + std::strerror(errno));
      ::close(fd);
      ::unlink(tmp.c_str());
      return s;
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const Status s = Unavailable(path + ": " + std::strerror(errno));
    ::unlink(tmp.c_str());
    return s;
  }
  return Status();
}

}  // namespace strata::rtrmgr
