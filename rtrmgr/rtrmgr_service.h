// RtrmgrService: the rtrmgr/1.0 interface (libipc/interfaces/rtrmgr.proto) strata-sh talks to.
// Thin: converts messages, parses config text and hands the work to the RouterManager's commit
// engine, history and supervisor. Threading: the io_context thread.
#pragma once

#include "libipc/interfaces/rtrmgr.strata.h"
#include "rtrmgr/config/template_tree.h"

namespace strata::rtrmgr {

class RouterManager;

class RtrmgrService : public v1::RtrmgrHandler {
 public:
  RtrmgrService(RouterManager& manager, const TemplateTree& templates)
      : manager_(manager), templates_(templates) {}

  void GetConfig(const v1::GetConfigRequest& request,
                 ipc::Responder<v1::GetConfigReply> reply) override;
  void Commit(const v1::CommitRequest& request, ipc::Responder<v1::CommitReply> reply) override;
  void CheckConfig(const v1::CommitRequest& request,
                   ipc::Responder<v1::CheckConfigReply> reply) override;
  void GetRollback(const v1::GetRollbackRequest& request,
                   ipc::Responder<v1::GetConfigReply> reply) override;
  void ListCommits(const v1::ListCommitsRequest& request,
                   ipc::Responder<v1::ListCommitsReply> reply) override;
  void ListProcesses(const v1::ListProcessesRequest& request,
                     ipc::Responder<v1::ListProcessesReply> reply) override;

 private:
  RouterManager& manager_;
  const TemplateTree& templates_;
};

}  // namespace strata::rtrmgr
