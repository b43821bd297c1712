#include "rtrmgr/router_manager.h"

#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "common/log.h"
#include "libipc/interfaces/common_iface.pb.h"
#include "libipc/interfaces/fea.pb.h"
#include "libipc/interfaces/finder.pb.h"
#include "libipc/interfaces/rib.pb.h"
#include "libipc/socket_files.h"
#include "rtrmgr/config/config_compare.h"
#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/config_planner.h"
#include "rtrmgr/proc_info.h"
#include "rtrmgr/rtrmgr_service.h"

namespace strata::rtrmgr {
namespace {
std::shared_ptr<spdlog::logger> Log() {
  static auto log = MakeLogger("rtrmgr");
  return log;
}

// Whether two live processes run the same program (by file name: a binary replaced since
// reads "strata-rtrmgr (deleted)").
bool SameProgram(pid_t a, pid_t b) {
  auto name = [](pid_t p) {
    std::string exe = ProcExe(p);
    exe = exe.substr(exe.rfind('/') + 1);
    if (const auto d = exe.find(" (deleted)"); d != std::string::npos) exe.resize(d);
    return exe;
  };
  const std::string na = name(a);
  return !na.empty() && na == name(b);
}
}  // namespace

RouterManager::RouterManager(boost::asio::io_context& io, const TemplateTree& templates,
                             Options options)
    : io_(io),
      templates_(templates),
      options_(options),
      catalog_(options.catalog),
      supervisor_(io, options.supervisor),
      history_(options.state_dir),
      confirmer_(io, options.state_dir, [this](const PendingConfirm& p) { RollBack(p); }),
      log_levels_(options.log_levels.value_or(LogLevels())) {
  supervisor_.set_on_started([this](const std::string& instance) {
    SaveState();
    if (instance == "finder") return;  // its state comes back from the processes themselves
    registered_.erase(instance);
    if (const ProcessSpec* s = supervisor_.spec(instance);
        s != nullptr && (s->process == "fea" || s->process == "rib")) {
      config_due_.insert(instance);
    }
    for (const auto& p : supervisor_.List()) {
      if (p.instance == instance && p.restarts > 0) needs_replay_.insert(instance);
    }
  });
  supervisor_.set_on_exit([this](const std::string& instance, const std::string&) {
    registered_.erase(instance);
    if (liveness_) liveness_->Unwatch(instance);
    SaveState();
    if (instance == "finder" && !shutting_down_) {
      // Like any process: restarted with backoff. The others keep running on the resolutions
      // they hold and register again with the new Finder (libipc), which hears their rights
      // from us again when our Router reconnects (RegivePermissions).
      Log()->warn("the Finder died; restarting it, the other processes keep running");
    }
  });
  supervisor_.set_on_give_up([this](const std::string& instance) {
    SaveState();
    if (instance == "finder") {
      Log()->error(
          "the Finder is given up on: the processes keep forwarding with the routes they hold, "
          "but nothing can be resolved or configured until the rtrmgr is restarted");
      return;
    }
    Log()->error("{} is given up on; the rest of the router keeps running", instance);
  });
  if (!options_.graceful_stop) {
    supervisor_.set_before_stop([this](const std::string& instance, std::function<void()> proceed) {
      BeforeStop(instance, std::move(proceed));
    });
  }
}

RouterManager::~RouterManager() { *alive_ = false; }

Status RouterManager::LoadHistory() { return history_.Load(); }

void RouterManager::Start(BootPlan boot, std::optional<PendingConfirm> pending,
                          std::function<void(const Status&)> done) {
  if (pending) {
    // Its window goes on only when the boot keeps the unconfirmed commit (--boot commit); a
    // rollback or a file replaces it, and a record older than the last commit is stale (a
    // confirming commit was written, the router stopped before the record was removed).
    if (!boot.record && pending->revision == history_.last_revision()) {
      confirmer_.Resume(*pending);
    } else {
      PendingConfirm::Clear(options_.state_dir);
    }
  }
  const std::string run_dir = ipc::DefaultRunDir();
  ::mkdir(run_dir.c_str(), 0700);
  if (const size_t n = ipc::RemoveStaleSocketFiles(run_dir); n > 0) {
    Log()->info("removed {} socket files of processes that are gone", n);
  }
  // The router of an earlier rtrmgr still runs: take it over rather than start another.
  if (auto st = RtrmgrState::Load(RtrmgrState::PathIn(run_dir)); st.ok()) {
    if (st->rtrmgr_pid != ::getpid() && SameProgram(st->rtrmgr_pid, ::getpid())) {
      done(FailedPrecondition("strata-rtrmgr (pid " + std::to_string(st->rtrmgr_pid) +
                              ") runs this router already (" + RtrmgrState::PathIn(run_dir) + ")"));
      return;
    }
    if (!Alive(*st).empty()) {
      Adopt(std::move(*st), std::move(boot), std::move(done));
      return;
    }
    Log()->info("the processes of the last run are gone: starting afresh");
    RemoveState();
  } else if (st.status().code() != StatusCode::kNotFound) {
    Log()->warn("ignoring the state file: {}", st.status().ToString());
    RemoveState();
  }
  // A Finder socket left by an earlier run would make us talk to nobody.
  ::unlink(ipc::DefaultFinderPath().c_str());
  if (Status s = supervisor_.Start(catalog_.Finder()); !s.ok()) {
    done(s);
    return;
  }
  WaitForFinder(200, [this, boot = std::move(boot), done](const Status& s) mutable {
    if (!s.ok()) {
      done(s);
      return;
    }
    StartRouter(std::move(boot), std::move(done));
  });
}

void RouterManager::RollBack(const PendingConfirm& p) {
  if (engine_ == nullptr || shutting_down_) return;
  auto rec = history_.FindRevision(p.rollback_to);
  StatusOr<ConfigNode> tree =
      rec.ok() ? ConfigParser::Parse(rec->config, "revision " + std::to_string(p.rollback_to))
               : StatusOr<ConfigNode>(rec.status());
  if (!tree.ok()) {
    Log()->error("cannot roll back to revision {}: {}; commit {} stays", p.rollback_to,
                 tree.status().ToString(), p.revision);
    confirmer_.Committed(engine_->revision(), engine_->revision(), 0);
    return;
  }
  CommitRequest req;
  req.candidate = std::move(*tree);
  req.base_revision = engine_->revision();
  req.user = "rtrmgr";
  req.comment = "automatic rollback to revision " + std::to_string(p.rollback_to) + ": commit " +
                std::to_string(p.revision) + " was not confirmed";
  engine_->Commit(std::move(req), [this, p, alive = alive_](StatusOr<CommitResult> r) {
    if (!*alive) return;
    if (r.ok()) {
      Log()->warn("rolled back to revision {} as revision {}", p.rollback_to, r->revision);
      return;
    }
    if (r.status().code() == StatusCode::kUnavailable ||
        r.status().code() == StatusCode::kAborted) {
      // Another commit is being applied: try again once it is done.
      auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::seconds(1));
      timer->async_wait([this, timer, p, alive](const boost::system::error_code&) {
        if (*alive) RollBack(p);
      });
      return;
    }
    Log()->error("rolling back to revision {} failed: {}", p.rollback_to, r.status().ToString());
  });
}

void RouterManager::ReloadFile(const std::string& file, std::function<void(const Status&)> done) {
  if (engine_ == nullptr) {
    done(Unavailable("the router is still starting"));
    return;
  }
  auto tree = ConfigParser::ParseFile(file);
  if (!tree.ok()) {
    done(tree.status());
    return;
  }
  if (ConfigCompare::Compare(engine_->running(), *tree, templates_).empty()) {
    done(Status());
    Log()->info("reload: {} is the running configuration (revision {}); nothing to do", file,
                engine_->revision());
    return;
  }
  CommitRequest req;
  req.candidate = std::move(*tree);
  req.base_revision = engine_->revision();
  req.user = "rtrmgr";
  req.comment = "reload of " + file + " (SIGHUP)";
  engine_->Commit(std::move(req), [done = std::move(done)](StatusOr<CommitResult> r) {
    if (r.ok()) {
      for (const auto& w : r->warnings) Log()->warn("{}", w);
      Log()->info("reload applied as revision {}", r->revision);
    }
    done(r.status());
  });
}

// The Finder has no one to tell it is up: its socket accepting a connection is the sign (the
// file exists a moment before the Finder listens on it).
static bool FinderAccepts() {
  const std::string path = ipc::DefaultFinderPath();
  sockaddr_un addr{};
  if (path.size() >= sizeof(addr.sun_path)) return false;
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const bool ok = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return ok;
}

void RouterManager::WaitForFinder(int tries, std::function<void(const Status&)> done) {
  if (FinderAccepts()) {
    done(Status());
    return;
  }
  if (tries == 0 || !supervisor_.IsRunning("finder")) {
    done(Unavailable("strata-finder did not come up (socket " + ipc::DefaultFinderPath() + ")"));
    return;
  }
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::milliseconds(25));
  timer->async_wait([this, timer, tries, done = std::move(done),
                     alive = alive_](const boost::system::error_code&) mutable {
    if (*alive) WaitForFinder(tries - 1, std::move(done));
  });
}

void RouterManager::StartRouter(BootPlan boot, std::function<void(const Status&)> done) {
  ipc::RouterOptions ro;
  ro.listen_families = {"sunix"};
  ro.default_timeout = options_.xrl_timeout;
  router_ = std::make_unique<ipc::Router>(io_, ro);
  executor_ = std::make_unique<RouterXrlExecutor>(*router_, options_.xrl_timeout);
  engine_ = std::make_unique<CommitEngine>(templates_, *executor_, history_);
  engine_->set_prepare(
      [this](const ConfigNode& candidate, CommitEngine::Done d) { Prepare(candidate, d); });
  engine_->set_finished([this](const ConfigNode& running) {
    StopUnneeded(running);
    SendDueConfigCompletes();
    SaveState();
  });
  engine_->set_committed(
      [this](const CommitRequest& request, uint64_t previous, CommitResult& result) {
        if (request.record) {
          confirmer_.Committed(result.revision, previous, request.confirm_minutes);
        }
        NoteProcessOptions(engine_->running(), result.warnings);
        ApplyLogLevels(engine_->running());
      });
  service_ = std::make_unique<RtrmgrService>(*this, templates_);
  router_->AddTarget("rtrmgr", "rtrmgr", true).Serve(*service_);
  router_->set_on_finder_lost([this](const Status& why) {
    if (!shutting_down_) Log()->warn("lost the Finder ({}); waiting for it", why.message());
  });
  router_->set_on_finder_reconnected([this] {
    RegivePermissions();
    if (liveness_) liveness_->Watch("finder");
  });
  liveness_ = std::make_unique<ProcessLiveness>(
      *router_, options_.liveness, [this](const std::string& instance) { OnHung(instance); });
  router_->Start([this, boot = std::move(boot), done](const Status& s) mutable {
    if (!s.ok()) {
      done(s);
      return;
    }
    liveness_->Watch("finder");
    for (const auto& [name, def] : templates_.processes()) {
      router_->WatchClass(name, [this](const std::string&, const std::string& instance,
                                       bool alive) { OnLifetime(instance, alive); });
    }
    CommitBoot(std::move(boot), std::move(done));
  });
}

void RouterManager::CommitBoot(BootPlan boot, std::function<void(const Status&)> done) {
  if (adopting_) {
    FinishAdoption();
  } else {
    DeclarePermissionsComplete();  // no process runs yet: nobody has rights to wait for
  }
  Log()->info("registered as rtrmgr; applying {}", boot.source);
  CommitRequest req;
  req.candidate = std::move(boot.config);
  req.base_revision = engine_->revision();
  req.user = "rtrmgr";
  req.comment = boot.comment;
  req.record = boot.record;
  engine_->Commit(std::move(req), [done](StatusOr<CommitResult> r) { done(r.status()); });
}

void RouterManager::OnLifetime(const std::string& instance, bool alive) {
  if (!alive) {
    registered_.erase(instance);
    if (liveness_) liveness_->Unwatch(instance);
    return;
  }
  registered_.insert(instance);
  SendLogLevels(instance);
  if (liveness_ && supervisor_.IsRunning(instance)) liveness_->Watch(instance);
  if (auto it = waiting_.find(instance); it != waiting_.end()) {
    auto waiters = std::move(it->second);
    waiting_.erase(it);
    for (auto& w : waiters) w(Status());
  }
  if (needs_replay_.erase(instance) != 0 && engine_ != nullptr) {
    engine_->Replay(instance, [this, instance, alive = alive_](const Status& s) {
      if (s.ok()) {
        Log()->info("{} is back with its configuration", instance);
      } else {
        Log()->error("replaying {}'s configuration: {}", instance, s.ToString());
      }
      // As complete as it will get: the FEA and the RIB stop waiting for it.
      if (*alive) SendConfigComplete(instance);
    });
  }
}

void RouterManager::WaitRegistered(const std::string& instance, CommitEngine::Done done) {
  if (registered_.contains(instance)) {
    done(Status());
    return;
  }
  auto once = std::make_shared<CommitEngine::Done>(std::move(done));
  auto fire = [once](const Status& s) {
    if (*once) {
      auto d = std::move(*once);
      *once = nullptr;
      d(s);
    }
  };
  waiting_[instance].push_back(fire);
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, options_.register_timeout);
  timer->async_wait([timer, instance, fire, alive = alive_](const boost::system::error_code&) {
    if (*alive) fire(Unavailable(instance + " did not register with the Finder"));
  });
}

void RouterManager::Prepare(const ConfigNode& candidate, CommitEngine::Done done) {
  auto need = ConfigPlanner(templates_).RequiredProcesses(candidate);
  if (!need.ok()) {
    done(need.status());
    return;
  }
  std::vector<ProcessInstance> todo;
  for (auto p : *need) {
    if (supervisor_.IsRunning(p.instance) && registered_.contains(p.instance)) continue;
    const auto options = ProcessCatalog::OptionArgs(candidate, p.process);
    p.args.insert(p.args.end(), options.begin(), options.end());
    started_options_[p.instance] = options;
    todo.push_back(std::move(p));
  }
  std::reverse(todo.begin(), todo.end());  // popped from the back: lowest rank first
  StartNext(std::move(todo), std::move(done));
}

void RouterManager::StartNext(std::vector<ProcessInstance> todo, CommitEngine::Done done) {
  if (todo.empty()) {
    done(Status());
    return;
  }
  const ProcessInstance p = todo.back();
  todo.pop_back();
  auto next = [this, todo = std::move(todo), done, p](const Status& s) mutable {
    if (!s.ok()) {
      done(Status(s.code(), p.instance + ": " + s.message()));
      return;
    }
    StartNext(std::move(todo), std::move(done));
  };
  if (supervisor_.IsRunning(p.instance)) {  // started, not registered yet (or restarting)
    WaitRegistered(p.instance, std::move(next));
    return;
  }
  finder::v1::SetPermissionsRequest rights;
  ProcessSpec spec = catalog_.For(p, &rights);
  rights_[p.instance] = rights;  // the spec's secret is kept across restarts, so are its rights
  router_->Call<finder::v1::SetPermissionsRequest, finder::v1::SetPermissionsReply>(
      "finder", "finder/1.0/set_permissions", rights,
      [this, spec = std::move(spec), next = std::move(next), alive = alive_](
          const Status& s, const finder::v1::SetPermissionsReply&) mutable {
        if (!*alive) return;
        if (!s.ok()) {
          next(s);
          return;
        }
        const std::string instance = spec.instance;
        if (Status st = supervisor_.Start(std::move(spec)); !st.ok()) {
          next(st);
          return;
        }
        WaitRegistered(instance, std::move(next));
      });
}

void RouterManager::RegivePermissions() {
  Log()->info("the Finder is back; giving it the rights of {} processes", rights_.size());
  for (const auto& [instance, rights] : rights_) {
    router_->Call<finder::v1::SetPermissionsRequest, finder::v1::SetPermissionsReply>(
        "finder", "finder/1.0/set_permissions", rights,
        [instance](const Status& s, const finder::v1::SetPermissionsReply&) {
          if (!s.ok()) Log()->error("rights of {} for the new Finder: {}", instance, s.ToString());
        });
  }
  // Calls to the Finder arrive in order: this one after every right above.
  DeclarePermissionsComplete();
}

void RouterManager::DeclarePermissionsComplete() {
  finder::v1::PermissionsCompleteRequest req;
  req.set_admin_secret(catalog_.options().admin_secret);
  router_->Call<finder::v1::PermissionsCompleteRequest, finder::v1::PermissionsCompleteReply>(
      "finder", "finder/1.0/permissions_complete", req,
      [](const Status& s, const finder::v1::PermissionsCompleteReply& r) {
        if (!s.ok()) {
          Log()->error("telling the Finder the permissions are complete: {}", s.ToString());
        } else if (r.released() > 0) {
          Log()->info("the Finder answers {} resolutions it held for the rights", r.released());
        }
      });
}

void RouterManager::StopUnneeded(const ConfigNode& running) {
  auto need = ConfigPlanner(templates_).RequiredProcesses(running);
  if (!need.ok()) return;
  std::set<std::string> keep = {"finder"};
  for (const auto& p : *need) keep.insert(p.instance);
  for (const auto& p : supervisor_.List()) {
    if (keep.contains(p.instance) || p.state == ProcessState::kStopped) continue;
    Log()->info("{} is no longer needed; stopping it", p.instance);
    supervisor_.Stop(p.instance, [] {});
    rights_.erase(p.instance);  // started again, it gets a new secret and new rights
  }
}

void RouterManager::Shutdown(std::function<void()> done) {
  if (shutting_down_) return;
  shutting_down_ = true;
  liveness_.reset();  // a process busy stopping is not hung
  Log()->info("stopping every process ({})",
              options_.graceful_stop ? "graceful: the kernel keeps the routes for the next start"
                                     : "clean: their routes leave the kernel");
  supervisor_.StopAll([this, done = std::move(done)] {
    if (router_) router_->Stop();
    RemoveState();
    done();
  });
}

void RouterManager::BeforeStop(const std::string& instance, std::function<void()> proceed) {
  if (liveness_) liveness_->Unwatch(instance);
  if (!router_ || !registered_.contains(instance)) {
    proceed();
    return;
  }
  // The process removes its forwarding state before it goes (the FEA deletes its kernel routes
  // and nexthop objects, strata-bgp sends its peers a Cease), then exits; SIGTERM follows anyway.
  common_iface::v1::ShutdownRequest req;
  req.set_graceful(false);
  ipc::CallOptions opts;
  opts.timeout = std::chrono::seconds(60);
  router_->Call<common_iface::v1::ShutdownRequest, common_iface::v1::ShutdownReply>(
      instance, "common/1.0/shutdown", req,
      [instance, proceed = std::move(proceed)](const Status& s,
                                               const common_iface::v1::ShutdownReply&) {
        if (!s.ok()) Log()->warn("{}: shutdown: {}", instance, s.ToString());
        proceed();
      },
      opts);
}

void RouterManager::OnHung(const std::string& instance) {
  const auto ms = options_.liveness.timeout.count();
  supervisor_.Kill(instance, "hung: no answer to a liveness ping in " + std::to_string(ms) + " ms");
}

std::vector<std::string> RouterManager::TableOwners(const std::string& rib_instance) const {
  std::vector<std::string> owners;
  auto need = ConfigPlanner(templates_).RequiredProcesses(engine_->running());
  if (!need.ok()) return owners;
  const std::string vr = ProcessCatalog::VrOf(rib_instance);
  for (const auto& p : *need) {
    auto def = templates_.processes().find(p.process);
    if (def == templates_.processes().end() || ProcessCatalog::VrOf(p.instance) != vr) continue;
    const auto& req = def->second.requires_;
    if (std::find(req.begin(), req.end(), "rib") != req.end()) owners.push_back(p.instance);
  }
  return owners;
}

void RouterManager::SendConfigComplete(const std::string& instance) {
  if (!config_due_.contains(instance) || !router_) return;
  const ProcessSpec* spec = supervisor_.spec(instance);
  if (spec == nullptr) return;
  config_due_.erase(instance);
  auto logged = [instance](const Status& s) {
    if (s.ok()) {
      Log()->info("{}: configuration complete", instance);
    } else {
      Log()->warn("{}: config_complete: {}", instance, s.ToString());
    }
  };
  if (spec->process == "fea") {
    router_->Call<fea::v1::ConfigCompleteRequest, fea::v1::ConfigCompleteReply>(
        instance, "fea/1.0/config_complete", fea::v1::ConfigCompleteRequest(),
        [logged](const Status& s, const fea::v1::ConfigCompleteReply&) { logged(s); });
  } else if (spec->process == "rib") {
    rib::v1::ConfigCompleteRequest req;
    for (const std::string& o : TableOwners(instance)) req.add_owners(o);
    router_->Call<rib::v1::ConfigCompleteRequest, rib::v1::ConfigCompleteReply>(
        instance, "rib/1.0/config_complete", req,
        [logged](const Status& s, const rib::v1::ConfigCompleteReply&) { logged(s); });
  }
}

void RouterManager::SendDueConfigCompletes() {
  const std::set<std::string> due = config_due_;
  for (const std::string& instance : due) {
    if (registered_.contains(instance) && !needs_replay_.contains(instance)) {
      SendConfigComplete(instance);
    }
  }
}

}  // namespace strata::rtrmgr
