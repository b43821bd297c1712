#include "bgp/process/rib_nexthop_oracle.h"

#include <vector>

#include "bgp/process/rib_redist_client.h"
#include "libipc/common_convert.h"
#include "libipc/interfaces/rib.strata.h"

namespace strata::bgp {

namespace rpb = strata::rib::v1;
namespace rcpb = strata::rib_client::v1;

RibNexthopOracle::RibNexthopOracle(ipc::Router& router, std::string rib_target, std::string client)
    : router_(router),
      rib_target_(std::move(rib_target)),
      client_(std::move(client)),
      log_(MakeLogger(client_ + ".nexthop")) {}

RibNexthopOracle::~RibNexthopOracle() = default;

void RibNexthopOracle::register_interest(const IpAddr& nexthop) {
  if (!wanted_.insert(nexthop).second) return;
  if (rib_up_) send(nexthop);
}

void RibNexthopOracle::send(const IpAddr& nexthop) {
  rpb::RegisterInterestRequest req;
  req.set_client(client_);
  ipc::AddrToProto(nexthop, req.mutable_addr());
  ++counters_.registrations_sent;
  rpb::RibClient(router_, rib_target_)
      .RegisterInterest(
          req, [this, nexthop, gen = generation_, alive = std::weak_ptr<bool>(alive_)](
                   const Status& s, const rpb::RegisterInterestReply& rep) {
            if (alive.expired() || gen != generation_ || !wanted_.contains(nexthop)) return;
            if (!s.ok()) {
              ++counters_.calls_failed;
              log_->warn("register_interest {} failed: {}", nexthop.ToString(), s.ToString());
              schedule_retry();
              return;
            }
            auto valid = ipc::PrefixFromProto(rep.valid(), "valid");
            if (!valid.ok() || !valid->Contains(nexthop)) {
              ++counters_.calls_failed;
              log_->warn("register_interest {}: bad answer subnet", nexthop.ToString());
              schedule_retry();
              return;
            }
            wanted_.erase(nexthop);
            answered_.insert(*valid);
            ++counters_.answers;
            NexthopAnswer answer{*valid, rep.resolves(), rep.resolves() ? rep.route().metric() : 0,
                                 std::nullopt};
            if (rep.resolves()) answer.connected = ConnectedOf(rep.route());
            if (listener_) listener_->nexthop_answer(nexthop, answer);
          });
}

std::optional<NexthopAnswer::Connected> RibNexthopOracle::ConnectedOf(const rpb::Route& route) {
  // The RIB's connected routes: the subnet, with our own address on it as next hop.
  if (route.protocol() != "connected") return std::nullopt;
  auto subnet = ipc::PrefixFromProto(route.prefix(), "prefix");
  auto local = ipc::AddrFromProto(route.nexthop(), "nexthop");
  if (!subnet.ok() || !local.ok()) return std::nullopt;
  return NexthopAnswer::Connected{*subnet, *local};
}

void RibNexthopOracle::schedule_retry() {
  if (retry_pending_) return;
  retry_pending_ = true;
  auto timer = std::make_shared<boost::asio::steady_timer>(router_.io(), std::chrono::seconds(1));
  timer->async_wait(
      [this, timer, alive = std::weak_ptr<bool>(alive_)](const boost::system::error_code&) {
        if (alive.expired()) return;
        retry_pending_ = false;
        if (!rib_up_) return;
        ++generation_;  // replies still in flight are superseded
        for (const IpAddr& nh : wanted_) send(nh);
      });
}

void RibNexthopOracle::deregister_interest(const IpPrefix& covering) {
  if (answered_.erase(covering) == 0) return;
  if (!rib_up_) return;
  rpb::DeregisterInterestRequest req;
  req.set_client(client_);
  ipc::PrefixToProto(covering, req.mutable_valid());
  rpb::RibClient(router_, rib_target_)
      .DeregisterInterest(req, [](const Status&, const rpb::DeregisterInterestReply&) {});
}

void RibNexthopOracle::rib_event(bool alive) {
  if (alive == rib_up_) return;
  rib_up_ = alive;
  ++generation_;
  if (alive) {
    log_->info("{} is up: asking {} next hops", rib_target_, wanted_.size());
    for (const IpAddr& nh : wanted_) send(nh);
    return;
  }
  log_->warn("{} is gone: {} answers invalidated", rib_target_, answered_.size());
  std::vector<IpPrefix> gone(answered_.begin(), answered_.end());
  answered_.clear();
  for (const IpPrefix& p : gone) {
    ++counters_.invalidations;
    if (listener_) listener_->nexthop_invalidated(p);
  }
}

void RibNexthopOracle::reset() {
  wanted_.clear();
  answered_.clear();
  ++generation_;
}

void RibNexthopOracle::InterestInvalidated(const rcpb::InterestInvalidatedRequest& request,
                                           ipc::Responder<rcpb::InterestInvalidatedReply> reply) {
  auto valid = ipc::PrefixFromProto(request.valid(), "valid");
  if (!valid.ok()) return reply.Fail(valid.status());
  reply(rcpb::InterestInvalidatedReply());
  if (answered_.erase(*valid) == 0) return;  // not ours (any more)
  ++counters_.invalidations;
  if (listener_) listener_->nexthop_invalidated(*valid);
}

void RibNexthopOracle::RedistAdd(const rcpb::RedistAddRequest& request,
                                 ipc::Responder<rcpb::RedistAddReply> reply) {
  if (!redist_) return reply.Fail(FailedPrecondition("strata-bgp does not redistribute"));
  Status s = redist_->redist_add(request);
  if (!s.ok()) return reply.Fail(s);
  reply(rcpb::RedistAddReply());
}
void RibNexthopOracle::RedistDelete(const rcpb::RedistDeleteRequest& request,
                                    ipc::Responder<rcpb::RedistDeleteReply> reply) {
  if (!redist_) return reply.Fail(FailedPrecondition("strata-bgp does not redistribute"));
  Status s = redist_->redist_delete(request);
  if (!s.ok()) return reply.Fail(s);
  reply(rcpb::RedistDeleteReply());
}
void RibNexthopOracle::RedistDumpDone(const rcpb::RedistDumpDoneRequest& request,
                                      ipc::Responder<rcpb::RedistDumpDoneReply> reply) {
  if (!redist_) return reply.Fail(FailedPrecondition("strata-bgp does not redistribute"));
  Status s = redist_->redist_dump_done(request);
  if (!s.ok()) return reply.Fail(s);
  reply(rcpb::RedistDumpDoneReply());
}

}  // namespace strata::bgp
