#include "bgp/process/bfd_link.h"

#include <google/protobuf/util/message_differencer.h>

#include "libipc/common_convert.h"
#include "libipc/interfaces/bfd.strata.h"

namespace strata::bgp {

namespace {

constexpr char kBfdTarget[] = "bfd";
constexpr char kWaiting[] = "waiting for strata-bfd";

std::string StateText(bfd::v1::SessionState s, const std::string& diag) {
  switch (s) {
    case bfd::v1::SESSION_STATE_UP:
      return "up";
    case bfd::v1::SESSION_STATE_INIT:
      return "init";
    case bfd::v1::SESSION_STATE_ADMIN_DOWN:
      return "admin down";
    default:
      return diag.empty() || diag == "none" ? "down" : "down (" + diag + ")";
  }
}

}  // namespace

BfdLink::BfdLink(ipc::Router& router, std::string client, Device vrf_device, OnDown on_down)
    : router_(router),
      client_(std::move(client)),
      vrf_device_(std::move(vrf_device)),
      on_down_(std::move(on_down)),
      log_(MakeLogger("bgp.bfd")) {}

BfdLink::~BfdLink() { *alive_ = false; }

void BfdLink::Started() {
  router_.WatchInstance(
      kBfdTarget, [this, alive = alive_](const std::string&, const std::string&, bool is_alive) {
        if (!*alive) return;
        for (auto& [peer, want] : wants_) {
          if (is_alive) {
            Register(peer);
          } else {
            want.state = kWaiting;
          }
        }
      });
}

void BfdLink::Set(const IpAddr& peer, const IpAddr& local, bool multihop,
                  const BfdSettings& settings) {
  bfd::v1::SessionKey key;
  key.set_vr(vrf_device_());
  ipc::AddrToProto(peer, key.mutable_peer());
  if (!local.is_zero()) ipc::AddrToProto(local, key.mutable_local());
  key.set_multihop(multihop);
  auto it = wants_.find(peer);
  if (it != wants_.end()) {
    const bool same_key = google::protobuf::util::MessageDifferencer::Equals(it->second.key, key);
    if (same_key && it->second.settings == settings) return;
    if (!same_key) Unregister(it->second.key);
  }
  Want& w = wants_[peer];
  w.key = key;
  w.settings = settings;
  w.state = kWaiting;
  Register(peer);
}

bool BfdLink::Clear(const IpAddr& peer) {
  auto it = wants_.find(peer);
  if (it == wants_.end()) return false;
  Unregister(it->second.key);
  wants_.erase(it);
  return true;
}

std::string BfdLink::State(const IpAddr& peer) const {
  auto it = wants_.find(peer);
  return it == wants_.end() ? "" : it->second.state;
}

void BfdLink::Register(const IpAddr& peer) {
  const Want& w = wants_.at(peer);
  bfd::v1::AddSessionRequest req;
  *req.mutable_key() = w.key;
  req.set_client(client_);
  req.mutable_settings()->set_min_tx_ms(w.settings.min_tx_ms);
  req.mutable_settings()->set_min_rx_ms(w.settings.min_rx_ms);
  req.mutable_settings()->set_multiplier(w.settings.multiplier);
  bfd::v1::BfdClient stub(router_, kBfdTarget);
  stub.AddSession(
      req, [this, peer, alive = alive_](const Status& s, const bfd::v1::AddSessionReply&) {
        if (!*alive || s.ok()) return;
        // Not there yet: the birth watch registers it when strata-bfd comes.
        if (s.code() == StatusCode::kNotFound || s.code() == StatusCode::kUnavailable) return;
        log_->warn("BFD for {}: strata-bfd refused the session: {}", peer.ToString(), s.ToString());
        auto it = wants_.find(peer);
        if (it != wants_.end()) it->second.state = "refused: " + s.message();
      });
}

void BfdLink::Unregister(const bfd::v1::SessionKey& key) {
  bfd::v1::RemoveSessionRequest req;
  *req.mutable_key() = key;
  req.set_client(client_);
  bfd::v1::BfdClient stub(router_, kBfdTarget);
  stub.RemoveSession(req, [](const Status&, const bfd::v1::RemoveSessionReply&) {});
}

void BfdLink::SessionEvent(const bfd_client::v1::SessionEventRequest& request,
                           ipc::Responder<bfd_client::v1::SessionEventReply> reply) {
  auto peer = ipc::AddrFromProto(request.key().peer(), "key.peer");
  if (!peer.ok()) return reply.Fail(peer.status());
  reply(bfd_client::v1::SessionEventReply());
  auto it = wants_.find(*peer);
  if (it == wants_.end() || it->second.key.multihop() != request.key().multihop()) return;
  it->second.state = StateText(request.state(), request.diag());
  if (request.went_down()) {
    log_->warn("BFD session to {} down ({}): taking the BGP session down", peer->ToString(),
               request.diag());
    on_down_(*peer, request.diag());
  }
}

}  // namespace strata::bgp
