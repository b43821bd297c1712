#include "bgp/process/rib_redist_client.h"

#include <algorithm>

#include "libipc/interfaces/rib.strata.h"
#include "rib/proto_convert.h"

namespace strata::bgp {

namespace rpb = strata::rib::v1;
namespace rcpb = strata::rib_client::v1;

RibRedistClient::RibRedistClient(ipc::Router& router, std::string rib_target, std::string client,
                                 BgpSpeaker& speaker)
    : router_(router),
      rib_target_(std::move(rib_target)),
      client_(std::move(client)),
      speaker_(speaker),
      log_(MakeLogger(client_ + ".redist")) {}

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
  withdraw_all();
  if (rib_up_ && !protocols_.empty()) enable();
}

void RibRedistClient::rib_event(bool alive) {
  if (alive == rib_up_) return;
  rib_up_ = alive;
  ++generation_;
  id_.reset();
  enabling_ = false;
  withdraw_all();
  if (alive && !protocols_.empty()) enable();
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
          withdraw_all();
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
    auto prefix = rib::PrefixFromProto(r.prefix(), "prefix");
    if (!prefix.ok()) return prefix.status();
    BgpSpeaker::RedistRoute route{r.protocol(), std::nullopt};
    if (r.has_nexthop()) {
      auto nh = rib::AddrFromProto(r.nexthop(), "nexthop");
      if (nh.ok()) route.nexthop = *nh;
    }
    if (Status s = speaker_.RedistAdd(*prefix, std::move(route)); !s.ok()) return s;
    given_.insert(*prefix);
    log_->debug("redistributed {} ({})", prefix->ToString(), r.protocol());
  }
  return Status::Ok();
}

Status RibRedistClient::redist_delete(const rcpb::RedistDeleteRequest& request) {
  if (!ours(request.id())) return Status::Ok();
  for (const rpb::Route& r : request.routes()) {
    auto prefix = rib::PrefixFromProto(r.prefix(), "prefix");
    if (!prefix.ok()) return prefix.status();
    if (given_.erase(*prefix)) (void)speaker_.RedistDelete(*prefix);
  }
  return Status::Ok();
}

}  // namespace strata::bgp
