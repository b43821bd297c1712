#include "rib/process/rib_process.h"

#include "libipc/profile/profile_service.h"

namespace strata::rib {

RibProcess::RibProcess(ipc::Router& router, Options options)
    : router_(router),
      options_(std::move(options)),
      instance_("rib." + options_.vr),
      log_(MakeLogger("rib." + options_.vr)) {
  FeaClientConsumer::Options fo;
  fo.vr = options_.vr;
  fo.table_id = options_.table_id;
  fo.max_in_flight = options_.fea_max_in_flight;
  fo.target = options_.fea_target;
  resync_hold_ = fo.resync_hold;
  fea_ = std::make_unique<FeaClientConsumer>(router_, fo);
  interest_ = std::make_unique<RemoteInterestListener>(router_, instance_);
  rib_ = std::make_unique<Rib>(scheduler_, *fea_, interest_.get(), options_.rib);
  owners_ = std::make_unique<ProtocolOwners>(
      router_.io(), *rib_, options_.restart_timeout, [this](const std::string& i) { watch(i); },
      [this] { schedule_flush(); }, options_.max_restart_deferral);
  connected_ = std::make_unique<ConnectedRoutes>(router_, *rib_, options_.vr, instance_,
                                                 options_.fea_target, [this] { schedule_flush(); });
  TableReadiness::Options ro;
  ro.await_config = options_.await_config;
  ro.recovery_time = options_.recovery_time;
  ro.max_extension = options_.max_restart_deferral;
  readiness_ = std::make_unique<TableReadiness>(ro, std::chrono::steady_clock::now());
  readiness_->set_on_complete([this] { table_complete(); });
  readiness_->set_on_change([this] {
    if (service_) service_->readiness_changed();
  });
  RibService::Parts parts;
  parts.rib = rib_.get();
  parts.owners = owners_.get();
  parts.fea = fea_.get();
  parts.interest = interest_.get();
  parts.connected = connected_.get();
  parts.readiness = readiness_.get();
  parts.default_distances = options_.default_distances;
  service_ = std::make_unique<RibService>(
      router_, std::move(parts), [this](const std::string& i) { watch(i); },
      [this] { schedule_flush(); });

  scheduler_.set_wakeup([this] {
    if (slice_posted_) return;
    slice_posted_ = true;
    boost::asio::post(router_.io(), [this, alive = std::weak_ptr<bool>(alive_)] {
      if (!alive.expired()) run_slice();
    });
  });
  fea_->set_on_vr_added([this](uint64_t held_routes) {
    readiness_->FeaAnswered(held_routes > 0, std::chrono::steady_clock::now());
    arm_readiness_timer();
  });
  fea_->set_on_ready([this] { fea_ready(); });
  connected_->set_on_synced([this] {
    readiness_->ConnectedSynced(std::chrono::steady_clock::now());
    arm_readiness_timer();
  });
  fea_->set_on_drained([this] {
    rib_->fea_drained();
    schedule_flush();
  });
  // Routes the FEA refused because their next hop was on no interface of the VR (the FEA names
  // them; the rest of their batch went in at once) are offered again whenever the VR gains a
  // connected subnet: an interface joins (after an FEA restart the RIB's own resync can run
  // before the rtrmgr has re-bound the VR's interfaces), a link comes up, an address is added.
  connected_->set_on_subnet_gained([this] {
    rib_->fea_reoffer_refused();
    schedule_flush();
  });
}

RibProcess::~RibProcess() {
  // Stop background work before the stages it refers to go.
  scheduler_.set_wakeup(nullptr);
  readiness_->set_on_complete(nullptr);
  readiness_->set_on_change(nullptr);
  service_.reset();
  connected_.reset();
  owners_.reset();
  rib_.reset();
}

void RibProcess::AddTarget(ipc::Service* common) {
  ipc::Target& target = router_.AddTarget("rib", instance_, false);
  if (common != nullptr) target.Serve(*common);
  target.Serve(*service_);
  target.Serve(*connected_);
  target.Serve(ipc::ProfileService::ForProcess());
}

void RibProcess::Started() {
  watch(options_.fea_target);
  arm_readiness_timer();
}

void RibProcess::fea_ready() {
  if (readiness_->recovering()) {
    // The FEA keeps forwarding with the routes it holds; they are claimed until the table is
    // complete (and its resync sent), and nothing partial goes out meanwhile.
    rib_->fea_hold(true);
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        readiness_->deadline() - std::chrono::steady_clock::now());
    // Until the deadline, and the time the resync then takes.
    fea_->begin_hold(std::max(left, std::chrono::milliseconds(0)) + resync_hold_);
    std::string awaiting;
    for (const std::string& a : readiness_->awaiting())
      awaiting += (awaiting.empty() ? "" : ", ") + a;
    log_->info(
        "the FEA holds routes of VR {} and our table is not complete (awaiting {}): "
        "routes are held back until it is",
        options_.vr, awaiting);
  } else {
    rib_->fea_hold(false);
    rib_->fea_reconnected();
  }
  connected_->watch();
  schedule_flush();
}

void RibProcess::table_complete() {
  log_->info("the table of VR {} is complete: {}", options_.vr, readiness_->completed_how());
  readiness_timer_.reset();
  // Held routes go as one resync (or at the FEA's next ready, if it is away).
  rib_->fea_hold(false);
  schedule_flush();
}

void RibProcess::arm_readiness_timer() {
  if (readiness_->complete()) {
    readiness_timer_.reset();
    return;
  }
  readiness_timer_ =
      std::make_unique<boost::asio::steady_timer>(router_.io(), readiness_->deadline());
  readiness_timer_->async_wait(
      [this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
        if (ec || alive.expired()) return;
        readiness_->Tick(std::chrono::steady_clock::now());
        arm_readiness_timer();
      });
}

void RibProcess::watch(const std::string& instance) {
  if (!watched_.insert(instance).second) return;
  router_.WatchInstance(instance, [this, alive_flag = std::weak_ptr<bool>(alive_)](
                                      const std::string&, const std::string& inst, bool alive) {
    if (!alive_flag.expired()) instance_event(inst, alive);
  });
}

void RibProcess::instance_event(const std::string& instance, bool alive) {
  if (instance == options_.fea_target) fea_->fea_event(alive);
  owners_->owner_event(instance, alive);
  service_->instance_event(instance, alive);
  schedule_flush();
}

void RibProcess::schedule_flush() {
  if (flush_posted_) return;
  flush_posted_ = true;
  boost::asio::post(router_.io(), [this, alive = std::weak_ptr<bool>(alive_)] {
    if (alive.expired()) return;
    flush_posted_ = false;
    rib_->flush_fea();
  });
}

void RibProcess::run_slice() {
  slice_posted_ = false;
  const bool more = scheduler_.run_slice();
  schedule_flush();
  if (more && !slice_posted_) {
    // Re-post behind whatever arrived meanwhile, so calls are answered between slices.
    slice_posted_ = true;
    boost::asio::post(router_.io(), [this, alive = std::weak_ptr<bool>(alive_)] {
      if (!alive.expired()) run_slice();
    });
  }
}

}  // namespace strata::rib
