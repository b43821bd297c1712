// FakeFea: a test double for the FEA (fea/1.0), served on a Router of its own in tests.
// Keeps each VR's routes as the RIB's batches leave them (begin/end resync included), records
// every call, answers watch_interfaces by sending the interfaces it was given as events, and
// list_interfaces with them (filtered by VR). add_vr answers with the routes it holds for the
// VR (held_routes); wait_config is answered at once unless `config_complete` is false, then when
// complete_config() or config_complete is called (not recorded in `calls`).
// With refuse_unreachable it refuses entries like the real FEA (fea/vr_table.h): a next hop
// whose interface is not one of the VR's, or whose address is in no subnet of the VR's
// interfaces, makes the whole batch fail (nothing applied) and is named: in
// ApplyRoutesReply.refused with report_refused, else as INVALID_ARGUMENT "changes[N]: ...".
// Methods the RIB does not use answer UNIMPLEMENTED. Threading: the io_context thread.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/ip_prefix.h"
#include "libipc/interfaces/fea.strata.h"
#include "libipc/interfaces/fea_client.strata.h"
#include "libipc/router.h"

namespace strata::rib {

class FakeFea : public fea::v1::FeaHandler {
 public:
  explicit FakeFea(ipc::Router& router) : router_(router) {}

  // Interfaces reported to watchers (at watch time and by send_interface()).
  void set_interface(const fea::v1::Interface& ifc) { interfaces_[ifc.name()] = ifc; }
  // Forgets an interface without telling anyone (it went while no watcher listened).
  void remove_interface(const std::string& name) { interfaces_.erase(name); }
  // Sends one event to every watcher.
  void send_interface(const fea::v1::Interface& ifc, bool removed = false);

  void AddVr(const fea::v1::AddVrRequest& r, ipc::Responder<fea::v1::AddVrReply> reply) override;
  void DeleteVr(const fea::v1::DeleteVrRequest&,
                ipc::Responder<fea::v1::DeleteVrReply> reply) override;
  void ListVrs(const fea::v1::ListVrsRequest&,
               ipc::Responder<fea::v1::ListVrsReply> reply) override;
  void SetVrTable(const fea::v1::SetVrTableRequest&,
                  ipc::Responder<fea::v1::SetVrTableReply> reply) override;
  void ListInterfaces(const fea::v1::ListInterfacesRequest&,
                      ipc::Responder<fea::v1::ListInterfacesReply> reply) override;
  void BindInterface(const fea::v1::BindInterfaceRequest&,
                     ipc::Responder<fea::v1::BindInterfaceReply> reply) override;
  void UnbindInterface(const fea::v1::UnbindInterfaceRequest&,
                       ipc::Responder<fea::v1::UnbindInterfaceReply> reply) override;
  void WatchInterfaces(const fea::v1::WatchInterfacesRequest& r,
                       ipc::Responder<fea::v1::WatchInterfacesReply> reply) override;
  void UnwatchInterfaces(const fea::v1::WatchInterfacesRequest&,
                         ipc::Responder<fea::v1::WatchInterfacesReply> reply) override;
  void ApplyRoutes(const fea::v1::ApplyRoutesRequest& r,
                   ipc::Responder<fea::v1::ApplyRoutesReply> reply) override;
  void BeginResync(const fea::v1::BeginResyncRequest& r,
                   ipc::Responder<fea::v1::BeginResyncReply> reply) override;
  void EndResync(const fea::v1::EndResyncRequest& r,
                 ipc::Responder<fea::v1::EndResyncReply> reply) override;
  void Lookup(const fea::v1::LookupRequest&, ipc::Responder<fea::v1::LookupReply> reply) override;
  void ListRoutes(const fea::v1::ListRoutesRequest&,
                  ipc::Responder<fea::v1::ListRoutesReply> reply) override;
  void GetStats(const fea::v1::GetStatsRequest&,
                ipc::Responder<fea::v1::GetStatsReply> reply) override;
  void ConfigComplete(const fea::v1::ConfigCompleteRequest&,
                      ipc::Responder<fea::v1::ConfigCompleteReply> reply) override;
  void WaitConfig(const fea::v1::WaitConfigRequest&,
                  ipc::Responder<fea::v1::WaitConfigReply> reply) override;
  // Answers the held wait_config calls.
  void complete_config();

  std::vector<std::string> add_vrs;
  std::vector<std::string> calls;  // add_vr, apply_routes, begin_resync, end_resync, in order
  size_t apply_calls = 0;
  size_t changes = 0;
  size_t begin_resyncs = 0;
  size_t end_resyncs = 0;
  size_t list_interfaces_calls = 0;
  size_t bad_changes = 0;  // deletes of absent prefixes, adds of present ones
  bool refuse_unreachable = false;
  size_t refused_batches = 0;
  std::vector<IpPrefix> refused;  // every entry refused, in order
  std::map<std::string, std::map<IpPrefix, fea::v1::RouteChange>> routes;  // vr -> table
  bool config_complete = true;
  std::vector<uint32_t> begin_resync_holds;  // hold_ms of every begin_resync, in order

 private:
  // Why the real FEA would refuse `c` in `vr`; empty when it would take it.
  std::string refusal(const std::string& vr, const fea::v1::RouteChange& c) const;

  ipc::Router& router_;
  std::vector<ipc::Responder<fea::v1::WaitConfigReply>> config_waiters_;
  std::map<std::string, fea::v1::Interface> interfaces_;
  std::vector<std::pair<std::string, std::string>> watchers_;  // target, vr
  std::map<std::string, std::map<IpPrefix, fea::v1::RouteChange>> resync_;
};

}  // namespace strata::rib
