// CommitEngine: the running configuration and the only way to change it.
//
// Commit(candidate): validates it (ConfigValidator: errors refuse it, warnings go back with the
// result), checks that the caller's base revision is still the running
// one (optimistic locking: two operators editing at once cannot clobber each other; the second
// to commit gets ABORTED and must reload), plans the XRLs (ConfigPlanner plus PolicyCompiler),
// asks the owner to start the processes the candidate needs (`prepare`), then sends the XRLs in
// order. On the first failure (reported as "PLACE: PATH: INSTANCE: reason", PLACE the node's
// file:line:column when known; the XRL goes to the log) the undo XRLs of the steps already done run
// in reverse and the running configuration stays as it was; on success the candidate becomes
// running, gets the next revision and goes into the history. `finished` runs after every commit
// that reached the apply step, with the (new or kept) running config, so the owner can stop
// processes no longer needed. One commit at a time: another one meanwhile gets UNAVAILABLE.
// Replay(instance): re-sends what the running configuration says to one process (after its
// restart). Threading: the io_context thread of the executor.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "rtrmgr/commit_history.h"
#include "rtrmgr/config/config_node.h"
#include "rtrmgr/config/plan_action.h"
#include "rtrmgr/config/template_tree.h"
#include "rtrmgr/xrl_executor.h"

namespace strata::rtrmgr {

struct CommitRequest {
  ConfigNode candidate;
  uint64_t base_revision = 0;
  std::string user;
  std::string comment;
  // false: `candidate` is the history's last commit, applied at a start without a new revision.
  bool record = true;
  // `commit confirmed MINUTES` (0: a plain commit, which also confirms a pending one); the
  // engine only passes it to the committed hook.
  uint32_t confirm_minutes = 0;
};

struct CommitResult {
  uint64_t revision = 0;
  size_t actions = 0;
  std::vector<std::string> warnings;  // the validator's, each "file:line:col: warning: ..."
};

class CommitEngine {
 public:
  using Done = std::function<void(const Status&)>;
  // Starts what `candidate` needs before its XRLs are sent.
  using PrepareHook = std::function<void(const ConfigNode& candidate, Done done)>;
  using FinishedHook = std::function<void(const ConfigNode& running)>;
  // After each commit that became the running configuration, before the caller hears of it:
  // the request, the revision that ran before it and the result (the hook may add warnings).
  using CommittedHook =
      std::function<void(const CommitRequest& request, uint64_t previous, CommitResult& result)>;

  // REQUIRES: templates, executor and history outlive the engine.
  CommitEngine(const TemplateTree& templates, XrlExecutor& executor, CommitHistory& history);

  void set_prepare(PrepareHook hook) { prepare_ = std::move(hook); }
  void set_finished(FinishedHook hook) { finished_ = std::move(hook); }
  void set_committed(CommittedHook hook) { committed_ = std::move(hook); }

  const ConfigNode& running() const { return running_; }
  uint64_t revision() const { return revision_; }
  bool busy() const { return busy_; }

  // The XRLs that turn `from` into `to`, in order.
  StatusOr<std::vector<PlanAction>> Plan(const ConfigNode& from, const ConfigNode& to) const;
  void Commit(CommitRequest request, std::function<void(StatusOr<CommitResult>)> done);
  // Sends `instance` the create XRLs of the running configuration that go to it.
  void Replay(const std::string& instance, Done done);
  // Takes `running` at `revision` as the running configuration without sending anything: the
  // processes already have it (a router taken over from an earlier rtrmgr).
  void Adopt(ConfigNode running, uint64_t revision) {
    running_ = std::move(running);
    revision_ = revision;
  }

 private:
  struct Run;
  void Step(std::shared_ptr<Run> run);
  void Undo(std::shared_ptr<Run> run, size_t index);

  const TemplateTree& templates_;
  XrlExecutor& executor_;
  CommitHistory& history_;
  PrepareHook prepare_;
  FinishedHook finished_;
  CommittedHook committed_;
  ConfigNode running_;
  uint64_t revision_ = 0;
  bool busy_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::rtrmgr
