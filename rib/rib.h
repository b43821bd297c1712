// Rib: one virtual router's RIB pipeline, owned and plumbed in one place.
//
//   Origin(connected) --+                        Origin(ebgp) --+
//   Origin(static) ---- Merge -- Merge(ospf)...  Origin(ibgp) -- Merge -- Merge(...)...
//                    (IGP side: internal parent)    (EGP side: external parent)
//                                      |               |
//                                      +--> ExtInt <---+
//                                             |
//                                 Redist -> Register -> FEA output
//
// Both address families share the pipeline (every stage handles IpPrefix of either family).
// Protocols registered at run time get an origin table joined to their side by a new Merge stage.
// This is the library the strata-rib process wraps: IPC handlers convert arguments and call these
// methods on the process's io_context thread; every method that takes outside input returns
// Status. Background work (deletions, re-stamps, sweeps, dumps) runs on the TaskScheduler.
// Threading: single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "common/task_scheduler.h"
#include "rib/ext_int_stage.h"
#include "rib/fea_stage.h"
#include "rib/merge_stage.h"
#include "rib/origin_table.h"
#include "rib/redist_stage.h"
#include "rib/register_stage.h"

namespace strata::rib {

// connected 0, static 1, ebgp 20, ospf 110, isis 115, rip 120, ibgp 200; nullopt otherwise.
std::optional<uint32_t> DefaultAdminDistance(const std::string& protocol);
inline constexpr uint32_t kMaxAdminDistance = 255;
// The tables every Rib is built on (connected, static, ebgp, ibgp): they cannot be removed.
bool IsBuiltInProtocol(const std::string& protocol);

class Rib {
 public:
  struct Options {
    size_t slice_routes = 1000;  // routes per background slice
    FeaStage::Options fea;
  };

  // Creates the connected and static (IGP) and ebgp and ibgp (EGP) tables.
  // REQUIRES: scheduler, fea and listener (if any) outlive the Rib.
  Rib(TaskScheduler& scheduler, FeaConsumer& fea, InterestListener* listener, Options options);
  Rib(TaskScheduler& scheduler, FeaConsumer& fea, InterestListener* listener = nullptr)
      : Rib(scheduler, fea, listener, Options()) {}
  ~Rib();
  Rib(const Rib&) = delete;
  Rib& operator=(const Rib&) = delete;

  // A new origin table. Without admin_distance the default for the name is used (an unknown
  // name then is an error). AlreadyExists if registered; InvalidArgument for a bad distance.
  Status add_protocol(const std::string& protocol, ProtocolKind kind,
                      std::optional<uint32_t> admin_distance = std::nullopt);
  // Removes a protocol's origin table (the protocol went away for good, or an operator deleted
  // it): the table leaves the name space at once (the name may be registered again), its routes
  // are withdrawn in the background through a DeletionStage, and then the table and the merge
  // stage that joined it are unplumbed, leaving the pipeline as if the table had never been
  // added. NotFound if unknown; FailedPrecondition for the tables the pipeline is built on
  // (connected, static, ebgp, ibgp: use delete_all_routes).
  Status remove_protocol(const std::string& protocol);
  // Tables removed whose routes are still being withdrawn.
  size_t removals_pending() const { return removing_.size(); }
  size_t merge_count() const { return merges_.size(); }
  // Re-merges the table's routes in the background.
  Status set_admin_distance(const std::string& protocol, uint32_t admin_distance);

  Status add_route(const std::string& protocol, RibRoute route);
  Status replace_route(const std::string& protocol, RibRoute route);
  Status delete_route(const std::string& protocol, const IpPrefix& prefix);
  // The protocol went away: its routes are withdrawn in the background.
  Status delete_all_routes(const std::string& protocol);
  // Graceful restart: mark every route of the protocol stale; later sweep those not re-added.
  Status mark_stale(const std::string& protocol);
  StatusOr<size_t> sweep_stale(const std::string& protocol);

  // The winning route for exactly this prefix / the longest match (as sent to the FEA).
  RouteRef lookup_route(const IpPrefix& prefix) const;
  RouteRef lookup_best(const IpAddr& addr) const;

  RouteRange register_interest(const std::string& client, const IpAddr& addr);
  Status deregister_interest(const std::string& client, const IpPrefix& valid_subnet);

  uint64_t redist_subscribe(RedistFilter filter, RedistOutput* output);
  Status redist_unsubscribe(uint64_t id);

  // Sends queued FEA changes; the process calls this after each burst of work.
  void flush_fea() { fea_->flush(); }
  void fea_reconnected() { fea_->consumer_reconnected(); }
  void fea_drained() { fea_->consumer_drained(); }
  // Offers the FEA again the routes it refused (see FeaStage::reoffer_refused).
  void fea_reoffer_refused() { fea_->reoffer_refused(); }
  // Holds the FEA output back until released (see FeaStage::set_held).
  void fea_hold(bool held) { fea_->set_held(held); }

  const OriginTable* table(const std::string& protocol) const;
  std::vector<std::string> protocols() const;
  // Every winner change, as FeaStage::set_observer tells it (`monitor route`).
  void set_route_observer(FeaStage::Observer observer) { fea_->set_observer(std::move(observer)); }
  const FeaStage& fea() const { return *fea_; }
  const ExtIntStage& ext_int() const { return *ext_int_; }
  const RegisterStage& register_stage() const { return *register_; }

 private:
  StatusOr<OriginTable*> find_table(const std::string& protocol);
  // A removed table is empty and idle: unplumb its merge and destroy both.
  void finish_removal(OriginTable* table);

  struct Removal {
    std::unique_ptr<OriginTable> table;
    TaskHandle task;  // waits for the table's deletion stages to finish
  };

  TaskScheduler& scheduler_;
  Options options_;
  std::map<std::string, std::unique_ptr<OriginTable>> tables_;
  std::vector<std::unique_ptr<MergeStage>> merges_;
  std::list<Removal> removing_;
  std::unique_ptr<ExtIntStage> ext_int_;
  std::unique_ptr<RedistStage> redist_;
  std::unique_ptr<RegisterStage> register_;
  std::unique_ptr<FeaStage> fea_;
};

}  // namespace strata::rib
