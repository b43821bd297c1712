// FeaService: the `fea/1.0` interface (libipc/interfaces/fea.proto) over the FEA core. The only
// code that sees protobuf types: each handler converts the request to core values, calls the
// InterfaceTable / VrTable / KernelRoutes, and converts the answer back.
//
// Interface watchers: WatchInterfaces records the caller's target and VR filter, sends it the
// current interfaces as INTERFACE_CHANGE_UPDATED events, then one event per change (a binding
// change goes to watchers of the old and of the new VR). A watcher is dropped on Unwatch, when
// the Finder reports its death, or when an event fails with UNAVAILABLE or NOT_FOUND. Events to
// one watcher arrive in order (the Router keeps calls to one target in order).
// VRF devices (VrfDevices, when set): add_vr and set_vr_table give the VR its device on its
// table, delete_vr removes it, interface changes enslave and release, config_complete cleans up
// what a previous run left; a VR whose device cannot be had is refused (add_vr fails and the
// VR is not added).
// When a bound interface comes administratively up, its VR's kernel table is reconciled (the
// kernel flushed the routes through it when it went down).
// Restarts (docs/restart.md): VrRecovery says whether the rtrmgr's configuration is in
// (WaitConfig calls wait for it, ConfigComplete ends the wait) and how long each VR's stale
// routes wait: adopted from the kernel at AddVr (the grace), or held by a RIB's BeginResync (its
// hold); when a window closes unended the FEA ends the resync itself. One timer serves them all.
// Threading: the io_context thread.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>

#include "common/log.h"
#include "fea/interface_table.h"
#include "fea/kernel_routes.h"
#include "fea/vr_recovery.h"
#include "fea/vr_table.h"
#include "fea/vrf_devices.h"
#include "libipc/interfaces/fea.strata.h"
#include "libipc/interfaces/fea_client.strata.h"
#include "libipc/router.h"

namespace strata::fea {

class FeaService : public strata::fea::v1::FeaHandler {
 public:
  // `router` sends interface events; all references must outlive this object.
  FeaService(boost::asio::io_context& io, ipc::Router& router, InterfaceTable& interfaces,
             VrTable& vrs, KernelRoutes& kernel, VrRecovery::Options recovery = {});
  ~FeaService() override;

  void AddVr(const v1::AddVrRequest& req, ipc::Responder<v1::AddVrReply> reply) override;
  void DeleteVr(const v1::DeleteVrRequest& req, ipc::Responder<v1::DeleteVrReply> reply) override;
  void ListVrs(const v1::ListVrsRequest& req, ipc::Responder<v1::ListVrsReply> reply) override;
  void SetVrTable(const v1::SetVrTableRequest& req,
                  ipc::Responder<v1::SetVrTableReply> reply) override;
  void ListInterfaces(const v1::ListInterfacesRequest& req,
                      ipc::Responder<v1::ListInterfacesReply> reply) override;
  void BindInterface(const v1::BindInterfaceRequest& req,
                     ipc::Responder<v1::BindInterfaceReply> reply) override;
  void UnbindInterface(const v1::UnbindInterfaceRequest& req,
                       ipc::Responder<v1::UnbindInterfaceReply> reply) override;
  void WatchInterfaces(const v1::WatchInterfacesRequest& req,
                       ipc::Responder<v1::WatchInterfacesReply> reply) override;
  void UnwatchInterfaces(const v1::WatchInterfacesRequest& req,
                         ipc::Responder<v1::WatchInterfacesReply> reply) override;
  void ApplyRoutes(const v1::ApplyRoutesRequest& req,
                   ipc::Responder<v1::ApplyRoutesReply> reply) override;
  void BeginResync(const v1::BeginResyncRequest& req,
                   ipc::Responder<v1::BeginResyncReply> reply) override;
  void EndResync(const v1::EndResyncRequest& req,
                 ipc::Responder<v1::EndResyncReply> reply) override;
  void Lookup(const v1::LookupRequest& req, ipc::Responder<v1::LookupReply> reply) override;
  void ListRoutes(const v1::ListRoutesRequest& req,
                  ipc::Responder<v1::ListRoutesReply> reply) override;
  void GetStats(const v1::GetStatsRequest& req, ipc::Responder<v1::GetStatsReply> reply) override;
  void ConfigComplete(const v1::ConfigCompleteRequest& req,
                      ipc::Responder<v1::ConfigCompleteReply> reply) override;
  void WaitConfig(const v1::WaitConfigRequest& req,
                  ipc::Responder<v1::WaitConfigReply> reply) override;

  // The VRs' VRF devices (none when not set: tests without links).
  void set_vrf_devices(VrfDevices* vrf) { vrf_ = vrf; }

  size_t watchers() const { return watchers_.size(); }
  uint64_t watchers_dropped() const { return watchers_dropped_; }

 private:
  // Gives VR `name` kernel table `table_id` and its VRF device, moving Strata's routes there
  // (no-op if it has them). `vrf_device` "": the device it has, or the VR's name.
  Status MoveVr(const std::string& name, uint32_t table_id, const std::string& vrf_device);
  void OnInterfaceChange(const InterfaceChange& change);
  void SendEvent(const std::string& watcher, const Interface& iface, bool removed);
  void DropWatcher(const std::string& watcher, const std::string& why);
  // Ends the resync of `vr` (removing what was not re-sent) and its kernel grace; returns how
  // many routes went.
  size_t EndStale(const std::string& vr);
  // Answers the WaitConfig calls held; `timed_out` when the wait ended by time.
  void ReleaseConfigWaiters(bool timed_out);
  // Closes the windows due and ends the configuration wait if its time came; re-arms the timer.
  void OnRecoveryTimer();
  void ArmRecoveryTimer();

  boost::asio::io_context& io_;
  ipc::Router& router_;
  InterfaceTable& interfaces_;
  VrTable& vrs_;
  KernelRoutes& kernel_;
  VrfDevices* vrf_ = nullptr;
  std::shared_ptr<spdlog::logger> log_;
  std::map<std::string, std::string> watchers_;  // target -> VR filter ("" = all)
  std::set<std::string> lifetime_watched_;       // targets whose death the Router reports
  uint64_t batches_applied_ = 0;
  uint64_t batches_rejected_ = 0;
  uint64_t watchers_dropped_ = 0;
  VrRecovery recovery_;
  boost::asio::steady_timer recovery_timer_;
  std::vector<ipc::Responder<v1::WaitConfigReply>> config_waiters_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::fea
