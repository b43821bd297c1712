#include "rtrmgr/commit_engine.h"

#include "common/log.h"
#include "rtrmgr/config/config_planner.h"
#include "rtrmgr/config/config_printer.h"
#include "rtrmgr/config/config_validator.h"
#include "rtrmgr/policy_compiler.h"

namespace strata::rtrmgr {
namespace {
std::shared_ptr<spdlog::logger> Log() {
  static auto log = MakeLogger("rtrmgr");
  return log;
}
}  // namespace

// One commit or replay in progress.
struct CommitEngine::Run {
  std::vector<PlanAction> actions;
  size_t next = 0;
  ConfigNode candidate;
  CommitRequest request;
  bool replay = false;
  Status failure;
  std::vector<std::string> warnings;
  std::function<void(StatusOr<CommitResult>)> done;
};

CommitEngine::CommitEngine(const TemplateTree& templates, XrlExecutor& executor,
                           CommitHistory& history)
    : templates_(templates), executor_(executor), history_(history) {
  revision_ = history_.last_revision();
}

StatusOr<std::vector<PlanAction>> CommitEngine::Plan(const ConfigNode& from,
                                                     const ConfigNode& to) const {
  ConfigPlanner planner(templates_);
  auto plan = planner.Plan(from, to);
  if (!plan.ok()) return plan.status();
  const ProcessDef* bgp = templates_.FindProcess("bgp");
  auto policy = PolicyCompiler::Diff(from, to, bgp != nullptr ? bgp->rank : 30);
  if (!policy.ok()) return policy.status();
  return PolicyCompiler::Merge(std::move(*plan), std::move(*policy));
}

void CommitEngine::Commit(CommitRequest request, std::function<void(StatusOr<CommitResult>)> done) {
  if (busy_) {
    done(Unavailable("another commit is in progress"));
    return;
  }
  if (request.base_revision != revision_) {
    done(Status(StatusCode::kAborted,
                "the configuration changed since you started editing (revision " +
                    std::to_string(request.base_revision) + ", now " + std::to_string(revision_) +
                    "); reload it and apply your changes again"));
    return;
  }
  const ValidationReport report = ConfigValidator(templates_).Examine(request.candidate);
  if (!report.ok()) {
    done(report.ToStatus());
    return;
  }
  auto plan = Plan(running_, request.candidate);
  if (!plan.ok()) {
    done(plan.status());
    return;
  }
  auto run = std::make_shared<Run>();
  for (const auto& w : report.warnings) run->warnings.push_back(w.ToString());
  run->actions = std::move(*plan);
  run->candidate = request.candidate;
  run->request = std::move(request);
  run->done = std::move(done);
  busy_ = true;
  auto start = [this, run, alive = alive_](const Status& s) {
    if (!*alive) return;
    if (!s.ok()) {
      busy_ = false;
      if (finished_) finished_(running_);
      run->done(s);
      return;
    }
    Step(run);
  };
  if (prepare_) {
    prepare_(run->candidate, start);
  } else {
    start(Status());
  }
}

void CommitEngine::Replay(const std::string& instance, Done done) {
  auto plan = Plan(ConfigNode(), running_);
  if (!plan.ok()) {
    done(plan.status());
    return;
  }
  auto run = std::make_shared<Run>();
  for (auto& a : *plan) {
    if (a.instance == instance) run->actions.push_back(std::move(a));
  }
  run->replay = true;
  run->done = [done = std::move(done)](StatusOr<CommitResult> r) { done(r.status()); };
  Log()->info("replaying {} XRLs to {}", run->actions.size(), instance);
  Step(run);
}

void CommitEngine::Step(std::shared_ptr<Run> run) {
  if (run->next == run->actions.size()) {
    CommitResult result{revision_, run->actions.size(), run->warnings};
    if (!run->replay) {
      const uint64_t previous = revision_;
      running_ = std::move(run->candidate);
      if (run->request.record) {
        CommitRecord rec{revision_ + 1, CommitHistory::NowUtc(), run->request.user,
                         run->request.comment, ConfigPrinter::Print(running_)};
        revision_ = rec.revision;
        if (Status s = history_.Add(std::move(rec)); !s.ok()) {
          Log()->error("commit {} applied but not saved: {}", revision_, s.ToString());
        }
        Log()->info("commit {} applied ({} XRLs)", revision_, result.actions);
      } else {
        Log()->info("revision {} applied ({} XRLs)", revision_, result.actions);
      }
      result.revision = revision_;
      busy_ = false;
      if (committed_) committed_(run->request, previous, result);
      if (finished_) finished_(running_);
    }
    run->done(result);
    return;
  }
  const PlanAction& a = run->actions[run->next];
  Log()->debug("applying {}", a.ToString());
  executor_.Execute(a.xrl, [this, run, alive = alive_](const Status& s) {
    if (!*alive) return;
    const PlanAction& a = run->actions[run->next];
    if (!s.ok()) {
      // The operator gets the place and the process's reason; the XRL is for the log.
      const std::string place = a.pos.line > 0 ? a.pos.ToString() + ": " : "";
      run->failure = Status(s.code(), place + a.path + ": " + a.instance + ": " + s.message());
      Log()->warn("{} failed: {}", a.xrl.ToString(), run->failure.ToString());
      if (run->replay) {
        // A replay goes on: the rest of the config still belongs on the process.
        ++run->next;
        Step(run);
        return;
      }
      Undo(run, run->next);
      return;
    }
    ++run->next;
    Step(run);
  });
}

// Undoes actions [0, index) in reverse, then reports the failure.
void CommitEngine::Undo(std::shared_ptr<Run> run, size_t index) {
  while (index > 0 && !run->actions[index - 1].undo) --index;
  if (index == 0) {
    busy_ = false;
    if (finished_) finished_(running_);
    run->done(run->failure);
    return;
  }
  const PlanAction& a = run->actions[index - 1];
  executor_.Execute(*a.undo, [this, run, index, alive = alive_](const Status& s) {
    if (!*alive) return;
    if (!s.ok()) {
      Log()->error("undo of {} failed: {}", run->actions[index - 1].path, s.ToString());
    }
    Undo(run, index - 1);
  });
}

}  // namespace strata::rtrmgr
