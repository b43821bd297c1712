// RibProcess: everything one strata-rib process runs, wired together on one io_context.
//
// Owns the TaskScheduler (its slices are posted to the io_context while work remains), the Rib,
// the FEA output (FeaClientConsumer), interest and redistribution senders, connected routes,
// origin-table owners and the RibService; serves rib/1.0 and fea_client/1.0 on target
// "rib.<vr>" (class "rib"). Route changes are flushed to the FEA once per burst of events.
// Lifetime events of watched instances (the FEA, table owners, redistribution clients) are
// dispatched here. main.cc and the in-process tests build one of these on a Router.
// After a start the TableReadiness says when the table is complete (docs/restart.md): while it is
// not and the FEA holds routes of the VR, the FEA output is held and the FEA's routes claimed
// (BeginResync with a hold), and the complete table goes in one resync.
// Threading: the io_context thread. REQUIRES: the Router outlives this object.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "common/log.h"
#include "common/task_scheduler.h"
#include "libipc/router.h"
#include "rib/process/connected_routes.h"
#include "rib/process/fea_client_consumer.h"
#include "rib/process/protocol_owners.h"
#include "rib/process/remote_interest_listener.h"
#include "rib/process/rib_service.h"
#include "rib/process/table_readiness.h"
#include "rib/rib.h"

namespace strata::rib {

class RibProcess {
 public:
  struct Options {
    std::string vr = "default";
    uint32_t table_id = 0;  // the VR's kernel table, passed to the FEA's add_vr
    std::string fea_target = "fea";
    std::chrono::milliseconds restart_timeout{120000};
    // Bounds the restart timer a returning graceful-restart owner's selection deferral sets.
    std::chrono::milliseconds max_restart_deferral{3600000};
    size_t fea_max_in_flight = 4;
    // The rtrmgr will say config_complete (naming the table owners to wait for).
    bool await_config = false;
    // The longest a recovering table waits for its configuration and owners (pushed back for an
    // owner that restarts and defers its selection).
    std::chrono::milliseconds recovery_time{120000};
    std::map<std::string, uint32_t> default_distances;
    Rib::Options rib;
  };

  RibProcess(ipc::Router& router, Options options);
  ~RibProcess();
  RibProcess(const RibProcess&) = delete;
  RibProcess& operator=(const RibProcess&) = delete;

  // "rib.<vr>".
  const std::string& instance() const { return instance_; }
  // Adds the target to the router, serving `common` (common/1.0) on it too if given; call
  // before Router::Start.
  void AddTarget(ipc::Service* common = nullptr);
  void AddTarget(ipc::Service& common) { AddTarget(&common); }
  // After registration: watches the FEA.
  void Started();

  Rib& rib() { return *rib_; }
  const FeaClientConsumer& fea() const { return *fea_; }
  const ConnectedRoutes& connected() const { return *connected_; }
  const TableReadiness& readiness() const { return *readiness_; }

 private:
  void watch(const std::string& instance);
  void instance_event(const std::string& instance, bool alive);
  void schedule_flush();
  void run_slice();
  // The FEA answered WaitConfig: resync, or hold the output while recovering.
  void fea_ready();
  void table_complete();
  void arm_readiness_timer();

  ipc::Router& router_;
  Options options_;
  std::string instance_;
  std::shared_ptr<spdlog::logger> log_;
  std::chrono::milliseconds resync_hold_{0};
  TaskScheduler scheduler_;
  std::unique_ptr<FeaClientConsumer> fea_;
  std::unique_ptr<RemoteInterestListener> interest_;
  std::unique_ptr<Rib> rib_;
  std::unique_ptr<ProtocolOwners> owners_;
  std::unique_ptr<ConnectedRoutes> connected_;
  std::unique_ptr<TableReadiness> readiness_;
  std::unique_ptr<boost::asio::steady_timer> readiness_timer_;
  std::unique_ptr<RibService> service_;
  std::set<std::string> watched_;
  bool flush_posted_ = false;
  bool slice_posted_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::rib
