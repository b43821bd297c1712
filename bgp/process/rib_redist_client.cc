#include "bgp/process/rib_redist_client.h"

#include <algorithm>
#include <utility>

#include "libipc/common_convert.h"
#include "libipc/interfaces/rib.strata.h"

namespace strata::bgp {

namespace rpb = strata::rib::v1;
namespace rcpb = strata::rib_client::v1;

RibRedistClient::RibRedistClient(ipc::Router& router, std::string rib_target, std::string client,
                                 BgpSpeaker& speaker, RedistTimers timers)
    : router_(router),
      rib_target_(std::move(rib_target)),
      client_(std::move(client)),
      speaker_(speaker),
      log_(MakeLogger(client_ + ".redist")),
      timers_(timers) {}

RibRedistClient::~RibRedistClient() = default;

namespace {
std::vector<std::string> SortedUnique(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}
}  // namespace

void RibRedistClient::set_protocols(std::vector<std::string> protocols) {
  explicit_ = SortedUnique(std::move(protocols));
  apply();
}

void RibRedistClient::set_policy_protocols(std::vector<std::string> protocols) {
  policy_ = SortedUnique(std::move(protocols));
  apply();
}

void RibRedistClient::apply() {
  std::vector<std::string> all = explicit_;
  all.insert(all.end(), policy_.begin(), policy_.end());
  all = SortedUnique(std::move(all));
  if (all == protocols_) return;
  protocols_ = std::move(all);
  log_->info("redistribution: [{}] (explicit [{}], export policies [{}])",
             fmt::join(protocols_, ","), fmt::join(explicit_, ","), fmt::join(policy_, ","));
  disable();
  if (protocols_.empty()) {
    withdraw_all();
    return;
  }
  // The routes of protocols no longer subscribed go now; the others stay, marked stale, and the
  // new subscription's dump refreshes them (unchanged ones are not announced again): at its end
  // the RIB is live, so what it did not send is swept at once. Peers see only the differences.
  withdraw_unwanted();
  if (!rib_up_) return;  // kept stale (or empty) until a RIB is back
  stale_.mark(given_);
  sweep_at_dump_ = !stale_.empty();
  enable();
}

void RibRedistClient::withdraw_unwanted() {
  const auto& held = speaker_.redistributed();
  for (auto it = given_.begin(); it != given_.end();) {
    auto h = held.find(*it);
    const bool wanted = h != held.end() && std::binary_search(protocols_.begin(), protocols_.end(),
                                                              h->second.protocol);
    if (wanted) {
      ++it;
      continue;
    }
    (void)speaker_.RedistDelete(*it);
    it = given_.erase(it);
  }
}

void RibRedistClient::rib_event(bool alive) {
  if (alive == rib_up_) return;
  rib_up_ = alive;
  ++generation_;
  id_.reset();
  enabling_ = false;
  sweep_at_dump_ = false;
  if (!alive) keep_stale();
  if (alive && !protocols_.empty()) enable();
}

void RibRedistClient::keep_stale() {
  settle_timer_.reset();  // a sweep waits for the next RIB's dump
  stale_.mark(given_);
  if (stale_.empty()) return;
  log_->info("{} went away: keeping {} redistributed route(s), stale, for at most {} ms",
             rib_target_, stale_.size(), timers_.stale_time.count());
  if (!stale_timer_) start_timer(stale_timer_, timers_.stale_time, "stale time passed");
}

void RibRedistClient::start_timer(std::unique_ptr<boost::asio::steady_timer>& timer,
                                  std::chrono::milliseconds after, const char* why) {
  timer = std::make_unique<boost::asio::steady_timer>(router_.io(), after);
  timer->async_wait(
      [this, why, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code& ec) {
        if (ec || alive.expired()) return;
        sweep(why);
      });
}

void RibRedistClient::sweep(const char* why) {
  const std::vector<IpPrefix> gone = stale_.sweep();
  size_t withdrawn = 0;
  for (const IpPrefix& p : gone) {
    if (given_.erase(p) == 0) continue;
    (void)speaker_.RedistDelete(p);
    ++withdrawn;
  }
  log_->info("{}: withdrew {} stale redistributed route(s)", why, withdrawn);
  // Destroying a timer from its own handler is safe: asio has taken the handler off it.
  stale_timer_.reset();
  settle_timer_.reset();
}

void RibRedistClient::enable() {
  rpb::EnableRedistRequest req;
  req.set_client(client_);
  for (const std::string& p : protocols_) req.add_protocols(p);
  enabling_ = true;
  rpb::RibClient(router_, rib_target_)
      .EnableRedist(req, [this, gen = generation_, alive = std::weak_ptr<bool>(alive_)](
                             const Status& s, const rpb::EnableRedistReply& rep) {
        if (alive.expired() || gen != generation_) return;
        enabling_ = false;
        if (!s.ok()) {
          log_->warn("enable_redist on {} failed: {}", rib_target_, s.ToString());
          keep_stale();  // what this attempt's dump gave too
          schedule_retry();
          return;
        }
        id_ = rep.id();
        log_->info("redistributing {} route(s) of {} from {} (id {})", given_.size(),
                   fmt::join(protocols_, ","), rib_target_, *id_);
      });
}

void RibRedistClient::disable() {
  ++generation_;
  enabling_ = false;
  if (!id_) return;
  rpb::DisableRedistRequest req;
  req.set_id(*id_);
  id_.reset();
  if (!rib_up_) return;
  rpb::RibClient(router_, rib_target_)
      .DisableRedist(req, [](const Status&, const rpb::DisableRedistReply&) {});
}

void RibRedistClient::withdraw_all() {
  for (const IpPrefix& p : given_) (void)speaker_.RedistDelete(p);
  given_.clear();
  stale_.clear();
  stale_timer_.reset();
  settle_timer_.reset();
}

void RibRedistClient::schedule_retry() {
  if (retry_) return;
  retry_ = std::make_unique<boost::asio::steady_timer>(router_.io(), std::chrono::seconds(1));
  retry_->async_wait([this, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code&) {
    if (alive.expired()) return;
    retry_.reset();
    if (rib_up_ && !protocols_.empty() && !id_ && !enabling_) enable();
  });
}

Status RibRedistClient::redist_add(const rcpb::RedistAddRequest& request) {
  if (!ours(request.id())) return Status::Ok();  // an old subscription: ignored
  for (const rpb::Route& r : request.routes()) {
    if (std::find(protocols_.begin(), protocols_.end(), r.protocol()) == protocols_.end()) continue;
    auto prefix = ipc::PrefixFromProto(r.prefix(), "prefix");
    if (!prefix.ok()) return prefix.status();
    BgpSpeaker::RedistRoute route{r.protocol(), std::nullopt};
    if (r.has_nexthop()) {
      auto nh = ipc::AddrFromProto(r.nexthop(), "nexthop");
      if (nh.ok()) route.nexthop = *nh;
    }
    stale_.refresh(*prefix);
    // An unchanged route (a stale one sent again) is a no-op in the speaker: peers hear nothing.
    if (Status s = speaker_.RedistAdd(*prefix, std::move(route)); !s.ok()) return s;
    given_.insert(*prefix);
    log_->debug("redistributed {} ({})", prefix->ToString(), r.protocol());
  }
  return Status::Ok();
}

Status RibRedistClient::redist_delete(const rcpb::RedistDeleteRequest& request) {
  if (!ours(request.id())) return Status::Ok();
  for (const rpb::Route& r : request.routes()) {
    auto prefix = ipc::PrefixFromProto(r.prefix(), "prefix");
    if (!prefix.ok()) return prefix.status();
    stale_.refresh(*prefix);
    if (given_.erase(*prefix)) (void)speaker_.RedistDelete(*prefix);
  }
  return Status::Ok();
}

Status RibRedistClient::redist_dump_done(const rcpb::RedistDumpDoneRequest& request) {
  if (!ours(request.id())) return Status::Ok();
  if (std::exchange(sweep_at_dump_, false)) {
    sweep("re-subscription's dump complete");
    return Status::Ok();
  }
  if (stale_.empty()) return Status::Ok();
  log_->info("{}'s dump is complete: {} stale route(s) it did not send go in {} ms", rib_target_,
             stale_.size(), timers_.settle.count());
  if (timers_.settle.count() <= 0) {
    sweep("dump complete");
  } else if (!settle_timer_) {
    start_timer(settle_timer_, timers_.settle, "dump complete and settled");
  }
  return Status::Ok();
}

}  // namespace strata::bgp
