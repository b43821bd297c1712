#include "rib/process/remote_redist_output.h"

#include "rib/process/proto_convert.h"

namespace strata::rib {

namespace rcpb = strata::rib_client::v1;

RemoteRedistOutput::RemoteRedistOutput(ipc::Router& router, std::string client, size_t max_batch)
    : router_(router), client_(router, std::move(client)), max_batch_(max_batch ? max_batch : 1) {}

RemoteRedistOutput::~RemoteRedistOutput() { send(); }

void RemoteRedistOutput::redist_add(const RouteRef& route) { queue(Kind::kAdd, route); }

void RemoteRedistOutput::redist_delete(const RouteRef& route) { queue(Kind::kDelete, route); }

void RemoteRedistOutput::redist_dump_done() {
  send();
  rcpb::RedistDumpDoneRequest req;
  req.set_id(id_);
  client_.RedistDumpDone(req,
                         [failed = failed_](const Status& s, const rcpb::RedistDumpDoneReply&) {
                           if (!s.ok()) ++*failed;
                         });
}

void RemoteRedistOutput::queue(Kind kind, const RouteRef& route) {
  if (kind_ != kind) send();
  kind_ = kind;
  pending_.push_back(route);
  if (pending_.size() >= max_batch_) {
    send();
  } else {
    schedule_send();
  }
}

void RemoteRedistOutput::schedule_send() {
  if (send_posted_) return;
  send_posted_ = true;
  boost::asio::post(router_.io(), [this, alive = std::weak_ptr<bool>(alive_)] {
    if (alive.expired()) return;
    send_posted_ = false;
    send();
  });
}

void RemoteRedistOutput::send() {
  if (pending_.empty()) return;
  routes_sent_ += pending_.size();
  auto fill = [this](google::protobuf::RepeatedPtrField<rib::v1::Route>* routes) {
    routes->Reserve(static_cast<int>(pending_.size()));
    for (const RouteRef& r : pending_) RouteToProto(*r, routes->Add());
  };
  if (kind_ == Kind::kAdd) {
    rcpb::RedistAddRequest req;
    req.set_id(id_);
    fill(req.mutable_routes());
    client_.RedistAdd(req, [failed = failed_](const Status& s, const rcpb::RedistAddReply&) {
      if (!s.ok()) ++*failed;
    });
  } else {
    rcpb::RedistDeleteRequest req;
    req.set_id(id_);
    fill(req.mutable_routes());
    client_.RedistDelete(req, [failed = failed_](const Status& s, const rcpb::RedistDeleteReply&) {
      if (!s.ok()) ++*failed;
    });
  }
  pending_.clear();
  kind_ = Kind::kNone;
}

}  // namespace strata::rib
