// RibService: the rib/1.0 interface (libipc/interfaces/rib.proto) over one Rib.
//
// The IPC boundary of strata-rib: handlers check and convert arguments into core types and call
// the Rib on the io_context thread; every bad argument gets an error reply and changes nothing
// (a batch of routes is checked whole before any of it applies). Origin-table owners and
// graceful restart are ProtocolOwners'; interest invalidations go out through the Rib's
// InterestListener; each redistribution subscription gets a RemoteRedistOutput, dropped when
// disabled or when its client's target dies. `changed` runs after every call that may have
// changed routes (the process flushes the FEA queue once per burst).
// Restarts (rib_service_restart.cc, docs/restart.md): config_complete, graceful_restart_done and
// registrations with a selection deferral feed the TableReadiness; get_restart_state is held
// while the readiness cannot tell whether the RIB recovers (at most kRestartStateWait), and
// register_interest while it holds answers (TableReadiness::hold_answers); readiness_changed()
// answers what may be answered.
// Threading: the io_context thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "libipc/interfaces/rib.strata.h"
#include "libipc/router.h"
#include "rib/process/connected_routes.h"
#include "rib/process/fea_client_consumer.h"
#include "rib/process/protocol_owners.h"
#include "rib/process/remote_interest_listener.h"
#include "rib/process/remote_redist_output.h"
#include "rib/process/route_journal.h"
#include "rib/process/table_readiness.h"
#include "rib/rib.h"

namespace strata::rib {

class RibService : public v1::RibHandler {
 public:
  struct Parts {
    Rib* rib = nullptr;
    ProtocolOwners* owners = nullptr;
    // Optional, for statistics.
    const FeaClientConsumer* fea = nullptr;
    const RemoteInterestListener* interest = nullptr;
    const ConnectedRoutes* connected = nullptr;
    // The table's completeness after a start; null: always complete, never recovering.
    TableReadiness* readiness = nullptr;
    // Admin distances for tables registered without one (overrides DefaultAdminDistance).
    std::map<std::string, uint32_t> default_distances;
  };
  // `watch` asks for lifetime events of an instance (redistribution clients).
  RibService(ipc::Router& router, Parts parts, std::function<void(const std::string&)> watch,
             std::function<void()> changed);
  ~RibService() override;

  // A birth or death of a watched instance: a dead client's subscriptions are dropped.
  void instance_event(const std::string& instance, bool alive);
  // The readiness changed: held get_restart_state and register_interest calls are answered if
  // they may be now.
  void readiness_changed();
  static constexpr std::chrono::milliseconds kRestartStateWait{5000};

  void AddOriginTable(const v1::AddOriginTableRequest& request,
                      ipc::Responder<v1::AddOriginTableReply> reply) override;
  void DeleteOriginTable(const v1::DeleteOriginTableRequest& request,
                         ipc::Responder<v1::DeleteOriginTableReply> reply) override;
  void SetAdminDistance(const v1::SetAdminDistanceRequest& request,
                        ipc::Responder<v1::SetAdminDistanceReply> reply) override;
  void GracefulRestartDone(const v1::GracefulRestartDoneRequest& request,
                           ipc::Responder<v1::GracefulRestartDoneReply> reply) override;
  void AddRoutes(const v1::AddRoutesRequest& request,
                 ipc::Responder<v1::AddRoutesReply> reply) override;
  void ReplaceRoutes(const v1::ReplaceRoutesRequest& request,
                     ipc::Responder<v1::ReplaceRoutesReply> reply) override;
  void DeleteRoutes(const v1::DeleteRoutesRequest& request,
                    ipc::Responder<v1::DeleteRoutesReply> reply) override;
  void LookupRoute(const v1::LookupRouteRequest& request,
                   ipc::Responder<v1::LookupRouteReply> reply) override;
  void LookupPrefix(const v1::LookupPrefixRequest& request,
                    ipc::Responder<v1::LookupPrefixReply> reply) override;
  void RegisterInterest(const v1::RegisterInterestRequest& request,
                        ipc::Responder<v1::RegisterInterestReply> reply) override;
  void DeregisterInterest(const v1::DeregisterInterestRequest& request,
                          ipc::Responder<v1::DeregisterInterestReply> reply) override;
  void EnableRedist(const v1::EnableRedistRequest& request,
                    ipc::Responder<v1::EnableRedistReply> reply) override;
  void DisableRedist(const v1::DisableRedistRequest& request,
                     ipc::Responder<v1::DisableRedistReply> reply) override;
  void ListRoutes(const v1::ListRoutesRequest& request,
                  ipc::Responder<v1::ListRoutesReply> reply) override;
  void GetStats(const v1::GetStatsRequest& request,
                ipc::Responder<v1::GetStatsReply> reply) override;
  // `monitor route` (rib_service_watch.cc): a long poll of the winners' changes.
  void WatchRoutes(const v1::WatchRoutesRequest& request,
                   ipc::Responder<v1::WatchRoutesReply> reply) override;
  const RouteJournal& route_journal() const { return *journal_; }
  void ConfigComplete(const v1::ConfigCompleteRequest& request,
                      ipc::Responder<v1::ConfigCompleteReply> reply) override;
  void GetRestartState(const v1::GetRestartStateRequest& request,
                       ipc::Responder<v1::GetRestartStateReply> reply) override;

 private:
  enum class Op : uint8_t { kAdd, kReplace, kDelete };
  // The table a protocol's routes go to, if it exists and is enabled.
  StatusOr<const OriginTable*> writable_table(const std::string& protocol) const;
  // Checks a batch against the table (and itself), then applies it; the number applied.
  StatusOr<uint32_t> apply_routes(Op op, const std::string& protocol,
                                  const google::protobuf::RepeatedPtrField<v1::RouteEntry>& routes);
  StatusOr<uint32_t> delete_routes(
      const std::string& protocol,
      const google::protobuf::RepeatedPtrField<common::v1::IpPrefix>& prefixes);
  // The FEA's reason when it refused the winner for `prefix` (Route.not_installed).
  void set_not_installed(const IpPrefix& prefix, v1::Route* out) const;
  void list_table(const OriginTable& t, const std::optional<IpPrefix>& within, uint32_t limit,
                  v1::ListRoutesReply& out) const;
  void list_winners(const std::optional<IpPrefix>& within, uint32_t limit,
                    v1::ListRoutesReply& out) const;
  void notify_changed();
  v1::GetRestartStateReply restart_state(const v1::GetRestartStateRequest& request) const;
  // After graceful_restart_done of `protocol`: its owner is done once all its tables are.
  void note_resent(const std::string& protocol);
  void fill_readiness(v1::GetStatsReply& out) const;

  ipc::Router& router_;
  Parts parts_;
  Rib& rib_;
  std::function<void(const std::string&)> watch_;
  std::function<void()> changed_;
  std::map<uint64_t, std::unique_ptr<RemoteRedistOutput>> redist_;
  struct HeldRestartState {
    v1::GetRestartStateRequest request;
    ipc::Responder<v1::GetRestartStateReply> reply;
  };
  std::vector<HeldRestartState> held_restart_states_;
  struct HeldInterest {
    v1::RegisterInterestRequest request;
    ipc::Responder<v1::RegisterInterestReply> reply;
  };
  std::vector<HeldInterest> held_interests_;
  void answer_restart_states();
  std::unique_ptr<boost::asio::steady_timer> restart_state_timer_;
  std::unique_ptr<RouteJournal> journal_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::rib
