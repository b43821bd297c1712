#include "rtrmgr/rtrmgr_service.h"

#include <memory>

#include "rtrmgr/config/config_origins.h"
#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/config_printer.h"
#include "rtrmgr/config/config_validator.h"
#include "rtrmgr/router_manager.h"

namespace strata::rtrmgr {

void RtrmgrService::GetConfig(const v1::GetConfigRequest&,
                              ipc::Responder<v1::GetConfigReply> reply) {
  v1::GetConfigReply r;
  r.set_config(ConfigPrinter::Print(manager_.engine().running()));
  r.set_revision(manager_.engine().revision());
  reply(r);
}

namespace {

// The candidate of a request, with the places the operator's files gave its nodes (or none:
// errors then name paths, not lines of the text strata-sh made).
StatusOr<ConfigNode> Candidate(const v1::CommitRequest& request) {
  auto tree = ConfigParser::Parse(request.config(), "candidate");
  if (!tree.ok()) return tree.status();
  ConfigOrigins origins;
  origins.files.assign(request.origin_files().begin(), request.origin_files().end());
  origins.numbers.assign(request.origins().begin(), request.origins().end());
  if (origins.numbers.empty()) {
    ConfigOrigins::Clear(*tree);
  } else {
    (void)origins.Apply(*tree);  // a mismatch leaves no places: paths still name the nodes
  }
  return tree;
}

}  // namespace

void RtrmgrService::Commit(const v1::CommitRequest& request,
                           ipc::Responder<v1::CommitReply> reply) {
  auto tree = Candidate(request);
  if (!tree.ok()) {
    reply.Fail(tree.status());
    return;
  }
  CommitRequest req;
  req.candidate = std::move(*tree);
  req.base_revision = request.base_revision();
  req.user = request.user();
  req.comment = request.comment();
  req.confirm_minutes = request.confirm_minutes();
  auto shared = std::make_shared<ipc::Responder<v1::CommitReply>>(std::move(reply));
  manager_.engine().Commit(std::move(req), [this, shared](StatusOr<CommitResult> r) {
    if (!r.ok()) {
      shared->Fail(r.status());
      return;
    }
    v1::CommitReply out;
    out.set_revision(r->revision);
    out.set_actions(static_cast<uint32_t>(r->actions));
    for (const auto& w : r->warnings) out.add_warnings(w);
    if (const auto& p = manager_.confirmer().pending(); p && p->revision == r->revision) {
      out.set_rollback_revision(p->rollback_to);
      out.set_rollback_at_unix(p->deadline_unix);
    }
    (*shared)(out);
  });
}

void RtrmgrService::CheckConfig(const v1::CommitRequest& request,
                                ipc::Responder<v1::CheckConfigReply> reply) {
  auto tree = Candidate(request);
  if (!tree.ok()) {
    reply.Fail(tree.status());
    return;
  }
  const ValidationReport report = ConfigValidator(templates_).Examine(*tree);
  if (!report.ok()) {
    reply.Fail(report.ToStatus());
    return;
  }
  auto plan = manager_.engine().Plan(manager_.engine().running(), *tree);
  if (!plan.ok()) {
    reply.Fail(plan.status());
    return;
  }
  v1::CheckConfigReply r;
  for (const auto& a : *plan) r.add_actions(a.ToString());
  for (const auto& w : report.warnings) r.add_warnings(w.ToString());
  reply(r);
}

void RtrmgrService::GetRollback(const v1::GetRollbackRequest& request,
                                ipc::Responder<v1::GetConfigReply> reply) {
  auto rec = manager_.history().Get(request.index());
  if (!rec.ok()) {
    reply.Fail(rec.status());
    return;
  }
  v1::GetConfigReply r;
  r.set_config(rec->config);
  r.set_revision(rec->revision);
  reply(r);
}

void RtrmgrService::ListCommits(const v1::ListCommitsRequest&,
                                ipc::Responder<v1::ListCommitsReply> reply) {
  v1::ListCommitsReply r;
  uint32_t i = 0;
  for (const auto& e : manager_.history().entries()) {
    auto* c = r.add_commits();
    c->set_index(i++);
    c->set_revision(e.revision);
    c->set_time(e.time);
    c->set_user(e.user);
    c->set_comment(e.comment);
  }
  if (const auto& p = manager_.confirmer().pending()) {
    r.set_unconfirmed_revision(p->revision);
    r.set_rollback_revision(p->rollback_to);
    r.set_rollback_at_unix(p->deadline_unix);
  }
  reply(r);
}

void RtrmgrService::ListProcesses(const v1::ListProcessesRequest&,
                                  ipc::Responder<v1::ListProcessesReply> reply) {
  v1::ListProcessesReply r;
  const auto now = std::chrono::steady_clock::now();
  for (const auto& p : manager_.supervisor().List()) {
    auto* out = r.add_processes();
    out->set_instance(p.instance);
    out->set_process(p.process);
    out->set_pid(p.pid);
    out->set_state(std::string(ProcessStateName(p.state)));
    out->set_restarts(p.restarts);
    out->set_last_exit(p.last_exit);
    out->set_last_restart_reason(p.last_restart_reason);
    out->set_rss_kb(p.rss_kb);
    out->set_adopted(p.adopted);
    if (p.state == ProcessState::kRunning) {
      out->set_uptime_s(static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::seconds>(now - p.started).count()));
    }
  }
  reply(r);
}

}  // namespace strata::rtrmgr
