// BfdService: bfd/1.0 (libipc/interfaces/bfd.proto) over the SessionTable and the sockets; the
// only code of strata-bfd that sees protobuf.
//
// A client's AddSession holds a session and subscribes the client's target to its events: the
// current state at once, then every change, through bfd_client/1.0 SessionEvent. The Finder's
// report of a client's death lets go of every session it held, as does a client target that no
// longer answers an event (NOT_FOUND / UNAVAILABLE). A session's going Down from Up is logged
// with its diagnostic. Threading: the io_context thread.
#pragma once

#include <memory>
#include <set>
#include <string>

#include "bfd/process/bfd_sockets.h"
#include "bfd/session_table.h"
#include "common/clock.h"
#include "common/log.h"
#include "libipc/interfaces/bfd.strata.h"
#include "libipc/router.h"

namespace strata::bfd {

class BfdService : public v1::BfdHandler {
 public:
  BfdService(ipc::Router& router, Clock& clock, BfdSockets& sockets);
  ~BfdService() override;

  void AddSession(const v1::AddSessionRequest& req,
                  ipc::Responder<v1::AddSessionReply> reply) override;
  void RemoveSession(const v1::RemoveSessionRequest& req,
                     ipc::Responder<v1::RemoveSessionReply> reply) override;
  void ListSessions(const v1::ListSessionsRequest& req,
                    ipc::Responder<v1::ListSessionsReply> reply) override;
  void SetAdminDown(const v1::SetAdminDownRequest& req,
                    ipc::Responder<v1::SetAdminDownReply> reply) override;
  void GetStats(const v1::GetStatsRequest& req, ipc::Responder<v1::GetStatsReply> reply) override;

  // A datagram from the sockets.
  void OnPacket(const ReceivedPacket& packet) { table_.Receive(packet); }
  const SessionTable& table() const { return table_; }

 private:
  void OnStateChange(const SessionKey& key, const BfdSession& s, SessionState from);
  void SendEvent(const std::string& client, const SessionKey& key, const BfdSession& s,
                 bool went_down);
  void DropClient(const std::string& client, const std::string& why);

  ipc::Router& router_;
  Clock& clock_;
  BfdSockets& sockets_;
  std::shared_ptr<spdlog::logger> log_;
  SessionTable table_;
  std::set<std::string> watched_;  // clients whose death the Router reports
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::bfd
