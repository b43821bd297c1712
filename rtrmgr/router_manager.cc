#include "rtrmgr/router_manager.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "common/log.h"
#include "libipc/interfaces/finder.pb.h"
#include "rtrmgr/config/config_compare.h"
#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/config_planner.h"
#include "rtrmgr/rtrmgr_service.h"

namespace strata::rtrmgr {
namespace {
std::shared_ptr<spdlog::logger> Log() {
  static auto log = MakeLogger("rtrmgr");
  return log;
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
    if (instance == "finder") return;  // its state comes back from the processes themselves
    registered_.erase(instance);
    if (supervisor_.List().empty()) return;
    for (const auto& p : supervisor_.List()) {
      if (p.instance == instance && p.restarts > 0) needs_replay_.insert(instance);
    }
  });
  supervisor_.set_on_exit([this](const std::string& instance, const std::string&) {
    registered_.erase(instance);
    if (instance == "finder" && !shutting_down_) {
      // Like any process: restarted with backoff. The others keep running on the resolutions
      // they hold and register again with the new Finder (libipc), which hears their rights
      // from us again when our Router reconnects (RegivePermissions).
      Log()->warn("the Finder died; restarting it, the other processes keep running");
    }
  });
  supervisor_.set_on_give_up([](const std::string& instance) {
    if (instance == "finder") {
      Log()->error(
          "the Finder is given up on: the processes keep forwarding with the routes they hold, "
          "but nothing can be resolved or configured until the rtrmgr is restarted");
      return;
    }
    Log()->error("{} is given up on; the rest of the router keeps running", instance);
  });
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
  engine_->set_finished([this](const ConfigNode& running) { StopUnneeded(running); });
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
  router_->set_on_finder_reconnected([this] { RegivePermissions(); });
  router_->Start([this, boot = std::move(boot), done](const Status& s) mutable {
    if (!s.ok()) {
      done(s);
      return;
    }
    DeclarePermissionsComplete();  // no process runs yet: nobody has rights to wait for
    for (const auto& [name, def] : templates_.processes()) {
      router_->WatchClass(name, [this](const std::string&, const std::string& instance,
                                       bool alive) { OnLifetime(instance, alive); });
    }
    Log()->info("registered as rtrmgr; applying {}", boot.source);
    CommitRequest req;
    req.candidate = std::move(boot.config);
    req.base_revision = engine_->revision();
    req.user = "rtrmgr";
    req.comment = boot.comment;
    req.record = boot.record;
    engine_->Commit(std::move(req), [done](StatusOr<CommitResult> r) { done(r.status()); });
  });
}

void RouterManager::OnLifetime(const std::string& instance, bool alive) {
  if (!alive) {
    registered_.erase(instance);
    return;
  }
  registered_.insert(instance);
  SendLogLevels(instance);
  if (auto it = waiting_.find(instance); it != waiting_.end()) {
    auto waiters = std::move(it->second);
    waiting_.erase(it);
    for (auto& w : waiters) w(Status());
  }
  if (needs_replay_.erase(instance) != 0 && engine_ != nullptr) {
    engine_->Replay(instance, [instance](const Status& s) {
      if (s.ok()) {
        Log()->info("{} is back with its configuration", instance);
      } else {
        Log()->error("replaying {}'s configuration: {}", instance, s.ToString());
      }
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
  Log()->info("stopping every process");
  supervisor_.StopAll([this, done = std::move(done)] {
    if (router_) router_->Stop();
    done();
  });
}

}  // namespace strata::rtrmgr
