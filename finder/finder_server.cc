#include "finder/finder_server.h"

#include "libipc/channel_reply_sink.h"
#include "libipc/interfaces/finder_client.pb.h"
#include "libipc/method_naming.h"
#include "libipc/signature.h"

namespace strata::finder {

namespace fcpb = strata::finder_client::v1;

FinderServer::FinderServer(boost::asio::io_context& io, FinderOptions options)
    : io_(io),
      options_(std::move(options)),
      log_(MakeLogger("finder")),
      registry_(options_.admin_secret, options_.strict),
      target_("finder", "finder", true),
      operators_(options_.config_group, options_.show_group) {
  target_.set_require_keys(false);
  target_.Serve(*this);
  PublishOwnMethods();
}

void FinderServer::Serve(ipc::Service& service) {
  target_.Serve(service);
  PublishOwnMethods();
}

void FinderServer::PublishOwnMethods() {
  std::vector<v1::MethodSignature> own;
  for (const auto& [path, m] : target_.methods()) {
    v1::MethodSignature sig;
    sig.set_path(path);
    sig.set_grpc_method(ipc::GrpcMethodName(m.descriptor));
    sig.set_args(ipc::MessageSignature(m.descriptor->input_type()));
    sig.set_returns(ipc::MessageSignature(m.descriptor->output_type()));
    own.push_back(std::move(sig));
  }
  registry_.set_own_methods(std::move(own));
}

FinderServer::~FinderServer() { Stop(); }

Status FinderServer::Start() {
  auto unix_listener = ipc::Listener::Open(
      io_, "sunix", options_.socket_path, [this](auto ch) { Accept(std::move(ch)); },
      options_.limits);
  if (!unix_listener.ok()) return unix_listener.status();
  listeners_.push_back(std::move(*unix_listener));
  if (!options_.tcp_address.empty()) {
    auto tcp = ipc::Listener::Open(
        io_, "stcp", options_.tcp_address, [this](auto ch) { Accept(std::move(ch)); },
        options_.limits);
    if (!tcp.ok()) return tcp.status();
    log_->info("listening on tcp {}", (*tcp)->address());
    listeners_.push_back(std::move(*tcp));
  }
  log_->info("listening on {}", options_.socket_path);
  if (options_.strict) {
    log_->info(
        "strict: callers without a process secret get rights by their credentials; "
        "configuration group '{}'{}, show group '{}'{}",
        options_.config_group, operators_.has_config_group() ? "" : " (no such group)",
        options_.show_group, operators_.has_show_group() ? "" : " (no such group)");
  }
  if (options_.await_permissions.count() > 0) {
    holding_ = true;
    hold_timer_ = std::make_unique<boost::asio::steady_timer>(io_, options_.await_permissions);
    hold_timer_->async_wait([this](const boost::system::error_code& ec) {
      if (!ec) StopHolding("the permissions were not declared complete in time", true);
    });
  }
  return Status();
}

void FinderServer::Stop() {
  if (hold_timer_) hold_timer_->cancel();
  held_.clear();  // each dropped Responder answers INTERNAL
  for (auto& l : listeners_) l->Close();
  listeners_.clear();
  auto conns = std::move(conns_);
  conns_.clear();
  for (auto& [id, ch] : conns) ch->Close(Unavailable("finder stopping"));
}

void FinderServer::Accept(std::shared_ptr<ipc::Channel> ch) {
  const ConnId id = next_conn_++;
  ch->tag = id;
  conns_[id] = ch;
  ch->Start([this](const std::shared_ptr<ipc::Channel>& c,
                   const ipc::CallFrame& call) { OnCall(c, call); },
            [this, id](ipc::Channel&, const Status& why) {
              conns_.erase(id);
              operators_logged_.erase(id);
              std::vector<Notice> notices;
              registry_.ConnectionClosed(id, notices);
              if (!notices.empty()) {
                log_->info("connection {} closed ({}): {} notices", id, why.message(),
                           notices.size());
              }
              Send(std::move(notices));
            });
}

void FinderServer::OnCall(const std::shared_ptr<ipc::Channel>& ch, const ipc::CallFrame& call) {
  auto sink = std::make_unique<ipc::ChannelReplySink>(ch, call.id);
  constexpr std::string_view kPrefix = "finder/";
  if (call.method.substr(0, kPrefix.size()) != kPrefix) {
    sink->Reply(
        NotFound("this is the Finder: no such target in '" + std::string(call.method) + "'"),
        nullptr);
    return;
  }
  target_.DispatchSerialized(call.method.substr(kPrefix.size()), call.key, call.payload,
                             std::move(sink));
}

void FinderServer::Send(std::vector<Notice> notices) {
  for (const auto& n : notices) {
    auto it = conns_.find(n.conn);
    if (it == conns_.end()) continue;
    auto& ch = it->second;
    auto ignore = [](const Status&, std::string_view) {};
    if (n.kind == Notice::Kind::kInvalidate) {
      fcpb::InvalidateRequest req;
      req.set_target(n.instance_name);
      ch->SendCall(
          "finder_client/finder_client/1.0/invalidate", "",
          [&req](std::string& out) { req.AppendToString(&out); }, ignore, std::chrono::seconds(10));
      continue;
    }
    fcpb::LifetimeEventRequest req;
    req.set_class_name(n.class_name);
    req.set_instance_name(n.instance_name);
    req.set_event(n.kind == Notice::Kind::kBirth ? fcpb::LIFETIME_BIRTH : fcpb::LIFETIME_DEATH);
    req.set_incarnation(n.incarnation);
    ch->SendCall(
        n.watcher + "/finder_client/1.0/lifetime_event", "",
        [&req](std::string& out) { req.AppendToString(&out); }, ignore, std::chrono::seconds(10));
  }
}

void FinderServer::RegisterTarget(const v1::RegisterTargetRequest& request,
                                  ipc::Responder<v1::RegisterTargetReply> reply) {
  std::vector<Notice> notices;
  auto r = registry_.Register(ConnOf(reply), request, notices);
  if (r.ok()) {
    log_->info("registered {} (class {})", request.instance_name(), request.class_name());
  } else {
    log_->warn("refused {} (from {}): {}", request.instance_name(), CallerOf(reply),
               r.status().message());
  }
  reply.Finish(r.status(), r.ok() ? *r : v1::RegisterTargetReply());
  Send(std::move(notices));
}

void FinderServer::UnregisterTarget(const v1::UnregisterTargetRequest& request,
                                    ipc::Responder<v1::UnregisterTargetReply> reply) {
  std::vector<Notice> notices;
  reply.Finish(registry_.Unregister(ConnOf(reply), request.instance_name(), notices),
               v1::UnregisterTargetReply());
  Send(std::move(notices));
}

void FinderServer::ResolveTarget(const v1::ResolveTargetRequest& request,
                                 ipc::Responder<v1::ResolveTargetReply> reply) {
  const ConnId conn = ConnOf(reply);
  if (holding_ && !request.secret().empty() && !registry_.HasPermissions(request.secret())) {
    held_.push_back(Held{conn, request, std::move(reply)});
    return;
  }
  Answer(conn, request, std::move(reply));
}

void FinderServer::Answer(ConnId conn, const v1::ResolveTargetRequest& request,
                          ipc::Responder<v1::ResolveTargetReply> reply) {
  if (conn != 0 && !conns_.contains(conn)) return;  // the caller went away meanwhile
  CallerRights caller = CallerRights::kNone;
  // Operator tools carry no secret; one that carries a secret the Finder does not know (a
  // guess, or a process the rtrmgr has not given rights yet) gets nothing by its credentials.
  if (options_.strict && request.secret().empty() && reply.context().channel) {
    caller = operators_.Of(reply.context().channel->credentials());
    if (operators_logged_.insert(conn).second) {
      log_->info("{} has {} rights (no process secret; by its credentials)", CallerOf(reply),
                 CallerRightsName(caller));
    }
  }
  auto r = registry_.Resolve(conn, request, caller);
  reply.Finish(r.status(), r.ok() ? *r : v1::ResolveTargetReply());
}

size_t FinderServer::Release(const std::string* secret) {
  std::vector<Held> ready;
  for (auto it = held_.begin(); it != held_.end();) {
    if (secret == nullptr || it->request.secret() == *secret) {
      ready.push_back(std::move(*it));
      it = held_.erase(it);
    } else {
      ++it;
    }
  }
  for (Held& h : ready) Answer(h.conn, h.request, std::move(h.reply));
  return ready.size();
}

void FinderServer::StopHolding(const char* why, bool timed_out) {
  if (!holding_) return;
  holding_ = false;
  if (hold_timer_) hold_timer_->cancel();
  const size_t n = Release(nullptr);
  log_->log(timed_out ? spdlog::level::warn : spdlog::level::info,
            "{}: answered {} held resolutions by the usual rules", why, n);
}

void FinderServer::ListTargets(const v1::ListTargetsRequest&,
                               ipc::Responder<v1::ListTargetsReply> reply) {
  reply(registry_.ListTargets());
}

void FinderServer::ListMethods(const v1::ListMethodsRequest& request,
                               ipc::Responder<v1::ListMethodsReply> reply) {
  auto r = registry_.ListMethods(request.target());
  reply.Finish(r.status(), r.ok() ? *r : v1::ListMethodsReply());
}

void FinderServer::WatchClass(const v1::WatchClassRequest& request,
                              ipc::Responder<v1::WatchReply> reply) {
  std::vector<Notice> notices;
  reply.Finish(
      registry_.WatchClass(ConnOf(reply), request.watcher(), request.class_name(), notices),
      v1::WatchReply());
  Send(std::move(notices));
}

void FinderServer::UnwatchClass(const v1::WatchClassRequest& request,
                                ipc::Responder<v1::WatchReply> reply) {
  reply.Finish(registry_.UnwatchClass(ConnOf(reply), request.watcher(), request.class_name()),
               v1::WatchReply());
}

void FinderServer::WatchInstance(const v1::WatchInstanceRequest& request,
                                 ipc::Responder<v1::WatchReply> reply) {
  std::vector<Notice> notices;
  reply.Finish(
      registry_.WatchInstance(ConnOf(reply), request.watcher(), request.instance_name(), notices),
      v1::WatchReply());
  Send(std::move(notices));
}

void FinderServer::UnwatchInstance(const v1::WatchInstanceRequest& request,
                                   ipc::Responder<v1::WatchReply> reply) {
  reply.Finish(registry_.UnwatchInstance(ConnOf(reply), request.watcher(), request.instance_name()),
               v1::WatchReply());
}

void FinderServer::SetPermissions(const v1::SetPermissionsRequest& request,
                                  ipc::Responder<v1::SetPermissionsReply> reply) {
  std::vector<Notice> notices;
  std::vector<std::string> evicted;
  const Status s = registry_.SetPermissions(request, notices, &evicted);
  for (const auto& name : evicted) {
    log_->warn("'{}' was registered by a process without its owner's secret; dropped", name);
  }
  reply.Finish(s, v1::SetPermissionsReply());
  Send(std::move(notices));
  if (s.ok() && holding_) Release(&request.secret());
}

void FinderServer::PermissionsComplete(const v1::PermissionsCompleteRequest& request,
                                       ipc::Responder<v1::PermissionsCompleteReply> reply) {
  if (Status s = registry_.CheckAdmin(request.admin_secret()); !s.ok()) return reply.Fail(s);
  v1::PermissionsCompleteReply out;
  out.set_released(static_cast<uint32_t>(held_.size()));
  StopHolding("the admin declared the permissions complete", false);
  reply(out);
}

}  // namespace strata::finder
