// RouterManager: strata-rtrmgr's core. It owns the supervisor, the Router, the commit engine and
// the service strata-sh talks to, and runs the router's life:
//
//   Start: the boot configuration BootConfig chose (the last commit, or the -c file) ->
//   strata-finder (with a fresh admin secret) -> wait for its socket -> register target
//   "rtrmgr" -> commit the boot config: the engine's prepare step starts the processes the
//   config needs (ProcessCatalog), in rank order, each with its own STRATA_SECRET whose rights
//   are first given to the Finder, and waits for each to register (Finder lifetime watch) ->
//   the XRLs run.
//   A process that dies is restarted by the supervisor; when it registers again the engine
//   replays its part of the running config. One given up on stays "failed" (show processes).
//   After each commit, processes the running config no longer needs are stopped.
//   The Finder that dies is restarted like the others; nothing else is: each process's Router
//   reconnects and registers again, and ours gives the new Finder every process's rights.
//   SIGHUP: ReloadFile, a commit of the -c file. `commit confirmed`: CommitConfirmer, which
//   commits the last confirmed revision again when the window ends (RollBack).
//   Restarts (docs/restart.md): after the boot commit, a commit that started them or a replay,
//   the FEA and each RIB are told their configuration is complete (config_complete; a RIB with
//   the owners of its tables); every registered process is pinged (ProcessLiveness) and one that
//   does not answer is killed as hung and restarted. The processes outlive the rtrmgr: the state
//   file (RtrmgrState) is kept current, and a new rtrmgr that finds them alive adopts them
//   (router_manager_adopt.cc) instead of starting a router.
//   Shutdown: every process in reverse rank order (the Finder last), SIGKILL after a grace. A
//   clean stop (the default) first asks each one to remove its forwarding state
//   (common/1.0/shutdown: the FEA's kernel routes, BGP's sessions with a Cease); with
//   graceful_stop the kernel keeps the routes for the next start to adopt.
// Threading: the io_context thread.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/log_levels.h"
#include "libipc/router.h"
#include "rtrmgr/boot_config.h"
#include "rtrmgr/commit_confirmer.h"
#include "rtrmgr/commit_engine.h"
#include "rtrmgr/commit_history.h"
#include "rtrmgr/config/template_tree.h"
#include "rtrmgr/liveness_tracker.h"
#include "rtrmgr/process_catalog.h"
#include "rtrmgr/process_liveness.h"
#include "rtrmgr/process_supervisor.h"
#include "rtrmgr/router_xrl_executor.h"
#include "rtrmgr/rtrmgr_state.h"

namespace strata::rtrmgr {

class RtrmgrService;

class RouterManager {
 public:
  struct Options {
    ProcessCatalog::Options catalog;
    std::string state_dir;  // "" keeps no history on disk
    ProcessSupervisor::Options supervisor;
    std::chrono::milliseconds register_timeout{15000};
    // --log-level: overrides the configuration's `system log` levels.
    std::optional<LogLevels> log_levels;
    std::chrono::milliseconds xrl_timeout{10000};
    // Stop leaves the kernel routes and BGP's peers helping, for a planned restart.
    bool graceful_stop = false;
    LivenessTracker::Options liveness;
  };
  RouterManager(boost::asio::io_context& io, const TemplateTree& templates, Options options);
  ~RouterManager();

  // The commits kept in the state directory, for BootConfig before Start.
  Status LoadHistory();
  // Starts everything and applies the chosen boot configuration; `pending` is the unconfirmed
  // commit found in the state directory, if any. `done` reports the outcome (on failure the
  // caller shuts down).
  void Start(BootPlan boot, std::optional<PendingConfirm> pending,
             std::function<void(const Status&)> done);
  // SIGHUP: the file validated and applied as a commit (refused whole on any error; nothing to
  // do when it equals the running configuration). `done` gets the outcome.
  void ReloadFile(const std::string& file, std::function<void(const Status&)> done);
  void Shutdown(std::function<void()> done);

  // REQUIRES: the router has started (Start's Finder is up).
  CommitEngine& engine() { return *engine_; }
  // The running revision; 0 before the router has started.
  uint64_t revision() const { return engine_ != nullptr ? engine_->revision() : 0; }
  CommitHistory& history() { return history_; }
  CommitConfirmer& confirmer() { return confirmer_; }
  const ProcessSupervisor& supervisor() const { return supervisor_; }

 private:
  void WaitForFinder(int tries, std::function<void(const Status&)> done);
  void StartRouter(BootPlan boot, std::function<void(const Status&)> done);
  // The confirmation window of commit `p.revision` ran out: commit `p.rollback_to` again.
  void RollBack(const PendingConfirm& p);
  // After the router registered: adopts an earlier rtrmgr's configuration (or declares the
  // Finder's permissions complete), then commits `boot`.
  void CommitBoot(BootPlan boot, std::function<void(const Status&)> done);
  // router_manager_adopt.cc: the takeover of a router whose rtrmgr died.
  // The state file's processes that are still alive (pid and start time), or empty.
  static std::vector<const StateProcess*> Alive(const RtrmgrState& st);
  void Adopt(RtrmgrState st, BootPlan boot, std::function<void(const Status&)> done);
  void FinishAdoption();
  void SaveState();
  void RemoveState();
  // Restart protocol: config_complete to a FEA or RIB whose configuration is all sent.
  void SendConfigComplete(const std::string& instance);
  void SendDueConfigCompletes();
  // The instances of processes that register tables in `rib_instance` ("bgp.red" for rib.red).
  std::vector<std::string> TableOwners(const std::string& rib_instance) const;
  void OnHung(const std::string& instance);
  void BeforeStop(const std::string& instance, std::function<void()> proceed);
  void Prepare(const ConfigNode& candidate, CommitEngine::Done done);
  void StartNext(std::vector<ProcessInstance> todo, CommitEngine::Done done);
  void WaitRegistered(const std::string& instance, CommitEngine::Done done);
  void OnLifetime(const std::string& instance, bool alive);
  void StopUnneeded(const ConfigNode& running);
  void RegivePermissions();
  // router_manager_system.cc: the `system` node, which no process serves.
  // The log levels the running configuration (or --log-level) asks for, applied here and sent
  // to every registered process when they change.
  void ApplyLogLevels(const ConfigNode& running);
  void SendLogLevels(const std::string& instance);
  // Warnings for running processes started with other `system processes` options than
  // `running` gives.
  void NoteProcessOptions(const ConfigNode& running, std::vector<std::string>& warnings) const;
  // Tells the Finder it has every running process's rights: it stops holding resolutions.
  void DeclarePermissionsComplete();

  boost::asio::io_context& io_;
  const TemplateTree& templates_;
  Options options_;
  ProcessCatalog catalog_;
  ProcessSupervisor supervisor_;
  CommitHistory history_;
  CommitConfirmer confirmer_;
  std::unique_ptr<ipc::Router> router_;
  std::unique_ptr<RouterXrlExecutor> executor_;
  std::unique_ptr<CommitEngine> engine_;
  std::unique_ptr<RtrmgrService> service_;
  std::set<std::string> registered_;
  std::map<std::string, std::vector<CommitEngine::Done>> waiting_;
  std::set<std::string> needs_replay_;
  // FEA and RIB instances started whose configuration was not declared complete yet.
  std::set<std::string> config_due_;
  std::unique_ptr<ProcessLiveness> liveness_;
  // A router being taken over: the state file read at Start, until the router is registered.
  std::unique_ptr<RtrmgrState> adopting_;
  std::vector<ProcessSpec> restart_after_adoption_;
  // What each started process may call, by instance: given again to a restarted Finder.
  std::map<std::string, finder::v1::SetPermissionsRequest> rights_;
  // The `system processes` options each process was started with, by instance.
  std::map<std::string, std::vector<std::string>> started_options_;
  LogLevels log_levels_;  // in force in every process
  bool shutting_down_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::rtrmgr
