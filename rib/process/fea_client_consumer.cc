#include "rib/process/fea_client_consumer.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "common/profiler.h"
#include "libipc/arena_options.h"
#include "rib/process/proto_convert.h"

namespace strata::rib {

namespace fpb = strata::fea::v1;

namespace {

ProfilePoint& profile_sent = Profiler::Get().Point(kProfileRibFeaSent);

fpb::Op OpToProto(FeaOp op) {
  switch (op) {
    case FeaOp::kAdd:
      return fpb::OP_ADD;
    case FeaOp::kReplace:
      return fpb::OP_REPLACE;
    case FeaOp::kDelete:
      return fpb::OP_DELETE;
  }
  return fpb::OP_UNSPECIFIED;
}

void ChangeToProto(const FeaChange& c, fpb::RouteChange* out) {
  out->set_op(OpToProto(c.op));
  ipc::PrefixToProto(c.prefix, out->mutable_prefix());
  if (!c.route) return;
  const RibRoute& r = *c.route;
  out->set_metric(r.metric());
  out->set_protocol(r.protocol().str());
  out->set_admin_distance(r.admin_distance());
  out->set_type(ipc::RouteTypeToProto(r.attrs().type));
  if (r.attrs().type != RouteType::kUnicast) return;  // drops: no next hop
  fpb::NextHop* nh = out->add_nexthops();
  nh->set_interface(r.ifname().str());
  nh->set_weight(r.attrs().weight);
  // A connected subnet is reached on its interface; its route's nexthop is our own address. An
  // interface route (zero nexthop) has no gateway either.
  if (r.protocol() != kConnectedProtocol && !r.forwarding_nexthop().is_zero())
    ipc::AddrToProto(r.forwarding_nexthop(), nh->mutable_address());
  if (!r.multipath()) return;
  // Multipath: one next hop group, each hop with its weight (1 unless a static route gave one).
  // A resolved route forwards through the hops that resolve (each once: two BGP next hops may
  // resolve to one router); an internal one through its hops as given.
  std::vector<std::pair<IpAddr, Symbol>> sent = {{r.forwarding_nexthop(), r.ifname()}};
  for (const MultipathHop& hop : *r.multipath()) {
    if (r.resolution() && !hop.resolution) continue;
    std::pair<IpAddr, Symbol> to{hop.resolution ? hop.resolution->nexthop : hop.nexthop,
                                 hop.ifname};
    if (std::find(sent.begin(), sent.end(), to) != sent.end()) continue;
    sent.push_back(to);
    fpb::NextHop* more = out->add_nexthops();
    more->set_interface(to.second.str());
    more->set_weight(hop.weight);
    ipc::AddrToProto(to.first, more->mutable_address());
  }
}

}  // namespace

FeaClientConsumer::FeaClientConsumer(ipc::Router& router, Options options)
    : router_(router),
      options_(std::move(options)),
      client_(router, options_.target),
      log_(MakeLogger("rib." + options_.vr + ".fea")) {
  if (options_.max_in_flight == 0) options_.max_in_flight = 1;
}

FeaClientConsumer::~FeaClientConsumer() = default;

void FeaClientConsumer::fea_event(bool alive) {
  ++generation_;  // replies from the previous incarnation are ignored
  in_flight_ = 0;
  ready_ = false;
  resync_after_drain_ = false;
  alive_ = alive;
  applies_.clear();
  end_resync_held_ = false;
  retry_timer_.reset();
  if (alive) {
    log_->info("FEA appeared; adding VR {}", options_.vr);
    send_add_vr();
  } else {
    log_->warn("FEA went away; routes queue until it is back");
  }
}

void FeaClientConsumer::retry_later(std::function<void()> fn) {
  const uint64_t gen = generation_;
  retry_timer_ = std::make_unique<boost::asio::steady_timer>(router_.io(), std::chrono::seconds(1));
  retry_timer_->async_wait([this, gen, fn = std::move(fn), self = std::weak_ptr<bool>(self_)](
                               const boost::system::error_code& ec) {
    if (ec || self.expired() || gen != generation_) return;
    fn();
  });
}

void FeaClientConsumer::send_add_vr() {
  fpb::AddVrRequest req;
  req.set_vr(options_.vr);
  req.set_table_id(options_.table_id);
  const uint64_t gen = generation_;
  client_.AddVr(req, [this, gen, self = std::weak_ptr<bool>(self_)](const Status& s,
                                                                    const fpb::AddVrReply& r) {
    if (self.expired() || gen != generation_) return;
    if (!s.ok() && s.code() != StatusCode::kAlreadyExists) {
      log_->warn("add_vr {} failed: {}; retrying in 1 s", options_.vr, s.ToString());
      retry_later([this] { send_add_vr(); });
      return;
    }
    if (r.held_routes() > 0) {
      log_->info("the FEA holds {} routes of VR {}", r.held_routes(), options_.vr);
    }
    if (on_vr_added_) on_vr_added_(s.ok() ? r.held_routes() : 0);
    send_wait_config();
  });
}

void FeaClientConsumer::send_wait_config() {
  fpb::WaitConfigRequest req;
  req.set_vr(options_.vr);
  const uint64_t gen = generation_;
  // The FEA holds the answer until the rtrmgr's configuration is in (bounded by its own wait).
  ipc::CallOptions opts;
  opts.timeout = std::chrono::minutes(10);
  client_.WaitConfig(
      req,
      [this, gen, self = std::weak_ptr<bool>(self_)](const Status& s,
                                                     const fpb::WaitConfigReply& r) {
        if (self.expired() || gen != generation_) return;
        if (!s.ok() && s.code() != StatusCode::kUnimplemented) {
          log_->warn("wait_config {} failed: {}; retrying in 1 s", options_.vr, s.ToString());
          retry_later([this] { send_wait_config(); });
          return;
        }
        if (r.timed_out()) log_->warn("the FEA did not get its configuration in time");
        ready_ = true;
        log_->info("FEA ready for VR {}", options_.vr);
        if (on_ready_) on_ready_();
      },
      opts);
}

bool FeaClientConsumer::begin_hold(std::chrono::milliseconds hold) {
  if (!ready_) return false;
  fpb::BeginResyncRequest req;
  req.set_vr(options_.vr);
  req.set_hold_ms(static_cast<uint32_t>(std::clamp<int64_t>(hold.count(), 1, UINT32_MAX)));
  client_.BeginResync(req, [done = track("begin_resync")](
                               const Status& s, const fpb::BeginResyncReply&) { done(s); });
  return true;
}

std::function<void(const Status&)> FeaClientConsumer::track(const char* what) {
  ++in_flight_;
  ++calls_sent_;
  const uint64_t gen = generation_;
  return [this, gen, what, self = std::weak_ptr<bool>(self_)](const Status& s) {
    if (self.expired() || gen != generation_) return;
    call_finished(s, what);
  };
}

void FeaClientConsumer::call_finished(const Status& status, const char* what) {
  --in_flight_;
  if (!status.ok()) {
    ++calls_failed_;
    if (status.code() == StatusCode::kUnavailable ||
        status.code() == StatusCode::kDeadlineExceeded) {
      // The batch may be lost: the FEA's copy can no longer be trusted.
      log_->warn("{} to the FEA failed ({}); will resynchronise", what, status.ToString());
      resync_after_drain_ = true;
    } else {
      ++batches_rejected_;
      log_->error("the FEA rejected {}: {}", what, status.ToString());
    }
  }
  if (in_flight_ == 0 && resync_after_drain_ && ready_) {
    resync_after_drain_ = false;
    if (on_ready_) on_ready_();
    return;
  }
  if (on_drained_) on_drained_();
}

Status FeaClientConsumer::push(const FeaBatch& batch) {
  if (!ready_) return Unavailable("the FEA is not reachable");
  if (in_flight_ >= options_.max_in_flight || resync_after_drain_) {
    return ResourceExhausted("FEA calls in flight");
  }
  // A new resync must not begin before the previous one's held EndResync has gone.
  if (batch.resync_start && end_resync_held_) return ResourceExhausted("an EndResync waits");
  if (batch.resync_start) {
    fpb::BeginResyncRequest req;
    req.set_vr(options_.vr);
    req.set_hold_ms(
        static_cast<uint32_t>(std::clamp<int64_t>(options_.resync_hold.count(), 0, UINT32_MAX)));
    client_.BeginResync(req, [done = track("begin_resync")](
                                 const Status& s, const fpb::BeginResyncReply&) { done(s); });
  }
  if (!batch.changes.empty()) {
    ArenaRequest held = NewApply();
    fpb::ApplyRoutesRequest& req = *held.request;
    req.mutable_changes()->Reserve(static_cast<int>(batch.changes.size()));
    for (const FeaChange& c : batch.changes) ChangeToProto(c, req.add_changes());
    if (profile_sent.enabled()) {
      for (const FeaChange& c : batch.changes) {
        profile_sent.Record((c.op == FeaOp::kDelete ? "delete " : "add ") + c.prefix.ToString());
      }
    }
    send_apply(std::move(held), false, false);
  }
  if (batch.resync_end) {
    // Held until every ApplyRoutes sent so far is answered (and re-sent parts too).
    for (PendingApply& a : applies_) a.before_end = true;
    ++in_flight_;
    end_resync_held_ = true;
    maybe_send_end_resync();
  }
  return Status::Ok();
}

FeaClientConsumer::ArenaRequest FeaClientConsumer::NewApply() const {
  ArenaRequest r;
  r.arena = std::make_unique<google::protobuf::Arena>(ipc::BatchArenaOptions());
  r.request = google::protobuf::Arena::CreateMessage<fpb::ApplyRoutesRequest>(r.arena.get());
  r.request->set_vr(options_.vr);
  r.request->set_report_refused(true);
  return r;
}

void FeaClientConsumer::send_apply(ArenaRequest req, bool before_end, bool resend) {
  const uint64_t id = next_apply_id_++;
  ++calls_sent_;
  if (!resend) ++in_flight_;  // a re-sent part keeps the slot of the call it replaces
  applies_.push_back(PendingApply{id, std::move(req), before_end});
  const uint64_t gen = generation_;
  client_.ApplyRoutes(applies_.back().request(),
                      [this, gen, id, self = std::weak_ptr<bool>(self_)](
                          const Status& s, const fpb::ApplyRoutesReply& reply) {
                        if (self.expired() || gen != generation_) return;
                        apply_finished(id, s, reply);
                      });
}

void FeaClientConsumer::apply_finished(uint64_t id, const Status& status,
                                       const fpb::ApplyRoutesReply& reply) {
  auto it = std::find_if(applies_.begin(), applies_.end(),
                         [id](const PendingApply& a) { return a.id == id; });
  if (it == applies_.end()) return;
  PendingApply done = std::move(*it);
  applies_.erase(it);
  if (status.ok() && reply.refused_size() > 0) {
    // Prefixes a later call changes again: that change wins, this one is not re-sent.
    std::set<IpPrefix> later;
    for (const PendingApply& a : applies_) {
      if (a.id < id) continue;
      for (const fpb::RouteChange& c : a.request().changes()) {
        if (auto p = ipc::PrefixFromProto(c.prefix(), "prefix"); p.ok()) later.insert(*p);
      }
    }
    const auto& changes = done.request().changes();
    std::vector<const std::string*> refused(static_cast<size_t>(changes.size()), nullptr);
    for (const fpb::RefusedChange& r : reply.refused()) {
      if (r.index() < refused.size()) refused[r.index()] = &r.reason();
    }
    ArenaRequest rest_held = NewApply();
    fpb::ApplyRoutesRequest& rest = *rest_held.request;
    std::vector<Refusal> refused_prefixes;
    for (int i = 0; i < changes.size(); ++i) {
      auto p = ipc::PrefixFromProto(changes[i].prefix(), "prefix");
      if (!p.ok() || later.contains(*p)) continue;
      if (const std::string* why = refused[static_cast<size_t>(i)]) {
        refused_prefixes.push_back({*p, *why});
      } else {
        *rest.add_changes() = changes[i];
      }
    }
    routes_refused_ += refused_prefixes.size();
    log_->warn("the FEA refused {} of {} routes (first: {}); sending the other {} again",
               reply.refused_size(), changes.size(), reply.refused(0).reason(),
               rest.changes_size());
    report_refused(refused_prefixes);
    if (rest.changes_size() > 0) {
      ++batches_resent_;
      send_apply(std::move(rest_held), done.before_end, true);
      return;
    }
  }
  maybe_send_end_resync();
  call_finished(status, "apply_routes");
}

void FeaClientConsumer::maybe_send_end_resync() {
  if (!end_resync_held_) return;
  for (const PendingApply& a : applies_) {
    if (a.before_end) return;
  }
  end_resync_held_ = false;
  --in_flight_;  // track() counts it again
  fpb::EndResyncRequest req;
  req.set_vr(options_.vr);
  client_.EndResync(
      req, [done = track("end_resync")](const Status& s, const fpb::EndResyncReply&) { done(s); });
}

}  // namespace strata::rib
