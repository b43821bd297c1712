// RouterManager's takeover of a router whose rtrmgr died, and the state file that makes it
// possible (docs/restart.md). The processes outlive their rtrmgr; the file names them, how they
// were started, their rights, the Finder's admin secret and the running configuration.
#include <signal.h>
#include <unistd.h>

#include <algorithm>

#include "common/log.h"
#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/config_printer.h"
#include "rtrmgr/proc_info.h"
#include "rtrmgr/router_manager.h"

namespace strata::rtrmgr {
namespace {
std::shared_ptr<spdlog::logger> Log() {
  static auto log = MakeLogger("rtrmgr");
  return log;
}

// The secret a process was started with (its STRATA_SECRET).
std::string SecretOf(const ProcessSpec& spec) {
  constexpr std::string_view kVar = "STRATA_SECRET=";
  for (const std::string& e : spec.env) {
    if (e.starts_with(kVar)) return e.substr(kVar.size());
  }
  return "";
}
}  // namespace

std::vector<const StateProcess*> RouterManager::Alive(const RtrmgrState& st) {
  std::vector<const StateProcess*> out;
  for (const StateProcess& p : st.processes) {
    if (p.pid <= 0 || p.start_time == 0) continue;
    // The same process, not another one that got the pid since.
    if (ProcStartTime(p.pid) == p.start_time) out.push_back(&p);
  }
  return out;
}

void RouterManager::Adopt(RtrmgrState st, BootPlan boot, std::function<void(const Status&)> done) {
  Log()->info("the router of strata-rtrmgr pid {} still runs: taking it over", st.rtrmgr_pid);
  catalog_.set_admin_secret(st.admin_secret);
  const std::vector<const StateProcess*> alive = Alive(st);
  for (const StateProcess& p : st.processes) {
    if (p.spec.instance != "finder") {
      finder::v1::SetPermissionsRequest& r = rights_[p.spec.instance];
      r.set_admin_secret(st.admin_secret);
      r.set_secret(SecretOf(p.spec));
      for (const auto& t : p.allowed_targets) r.add_allowed_targets(t);
      for (const auto& m : p.allowed_methods) r.add_allowed_methods(m);
      r.add_owned_names(p.spec.instance);  // as ProcessCatalog::For gave it
    }
    const bool live = std::find(alive.begin(), alive.end(), &p) != alive.end();
    if (live) {
      if (supervisor_.Adopt(p.spec, p.pid, p.restarts, p.last_restart_reason).ok()) continue;
    }
    if (p.spec.instance != "finder") {
      Log()->info("{} of the last run is gone: it is started again", p.spec.instance);
      restart_after_adoption_.push_back(p.spec);
    }
  }
  adopting_ = std::make_unique<RtrmgrState>(std::move(st));
  auto start = [this, boot = std::move(boot), done](const Status& s) mutable {
    if (!s.ok()) {
      done(s);
      return;
    }
    StartRouter(std::move(boot), std::move(done));
  };
  if (supervisor_.IsRunning("finder")) {
    start(Status());
    return;
  }
  // The processes wait for a Finder on the same socket; they register again with this one, and
  // it hears their rights from us (FinishAdoption).
  ::unlink(ipc::DefaultFinderPath().c_str());
  if (Status s = supervisor_.Start(catalog_.Finder()); !s.ok()) {
    done(s);
    return;
  }
  WaitForFinder(200, std::move(start));
}

void RouterManager::FinishAdoption() {
  RegivePermissions();  // ends with permissions_complete
  auto running = ConfigParser::Parse(adopting_->running_config, "running configuration");
  if (running.ok()) {
    engine_->Adopt(std::move(*running), adopting_->revision);
    Log()->info("running configuration of revision {} adopted", adopting_->revision);
  } else {
    Log()->error(
        "cannot read the running configuration of the last run ({}): the boot "
        "configuration is applied as a whole",
        running.status().ToString());
  }
  for (ProcessSpec& spec : restart_after_adoption_) {
    const std::string instance = spec.instance;
    if (Status s = supervisor_.Start(std::move(spec)); !s.ok()) {
      Log()->error("cannot start {}: {}", instance, s.ToString());
      continue;
    }
    needs_replay_.insert(instance);  // its part of the running configuration, once registered
  }
  restart_after_adoption_.clear();
  adopting_.reset();
  SaveState();
}

void RouterManager::SaveState() {
  RtrmgrState st;
  st.rtrmgr_pid = ::getpid();
  st.admin_secret = catalog_.options().admin_secret;
  if (adopting_) {
    st.revision = adopting_->revision;
    st.running_config = adopting_->running_config;
  } else if (engine_) {
    st.revision = engine_->revision();
    st.running_config = ConfigPrinter::Print(engine_->running());
  }
  for (const ProcessStatus& p : supervisor_.List()) {
    if (p.state == ProcessState::kStopped) continue;
    const ProcessSpec* spec = supervisor_.spec(p.instance);
    if (spec == nullptr) continue;
    StateProcess sp;
    sp.spec = *spec;
    sp.pid = p.pid;
    sp.start_time = p.pid > 0 ? ProcStartTime(p.pid).value_or(0) : 0;
    sp.restarts = p.restarts;
    sp.last_restart_reason = p.last_restart_reason;
    if (auto r = rights_.find(p.instance); r != rights_.end()) {
      sp.allowed_targets.assign(r->second.allowed_targets().begin(),
                                r->second.allowed_targets().end());
      sp.allowed_methods.assign(r->second.allowed_methods().begin(),
                                r->second.allowed_methods().end());
    }
    st.processes.push_back(std::move(sp));
  }
  if (Status s = st.Save(RtrmgrState::PathIn(ipc::DefaultRunDir())); !s.ok()) {
    Log()->warn("state file: {}", s.ToString());
  }
}

void RouterManager::RemoveState() { ::unlink(RtrmgrState::PathIn(ipc::DefaultRunDir()).c_str()); }

}  // namespace strata::rtrmgr
