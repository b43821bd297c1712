#include "libipc/router.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "common/private_dir.h"
#include "libipc/channel_reply_sink.h"
#include "libipc/grpc_transport.h"
#include "libipc/interfaces/finder.pb.h"
#include "libipc/interfaces/finder_client.strata.h"
#include "libipc/listener.h"
#include "libipc/log_service.h"
#include "libipc/signature.h"
#include "libipc/socket_files.h"

namespace strata::ipc {

namespace asio = boost::asio;
namespace fpb = strata::finder::v1;
namespace fcpb = strata::finder_client::v1;

std::string DefaultRunDir() {
  if (const char* d = std::getenv("STRATA_RUN_DIR"); d != nullptr && *d != '\0') return d;
  if (::geteuid() == 0) return "/run/strata";
  return "/tmp/strata-" + std::to_string(::geteuid());
}

std::string DefaultFinderPath() {
  if (const char* p = std::getenv("STRATA_FINDER"); p != nullptr && *p != '\0') return p;
  return DefaultRunDir() + "/finder.sock";
}

namespace {

// Answers the Finder's pushes: lifetime events and invalidations.
class FinderClientService : public fcpb::FinderClientHandler {
 public:
  FinderClientService(std::function<void(const fcpb::LifetimeEventRequest&)> on_event,
                      std::function<void(const std::string&)> on_invalidate)
      : on_event_(std::move(on_event)), on_invalidate_(std::move(on_invalidate)) {}
  void LifetimeEvent(const fcpb::LifetimeEventRequest& request,
                     Responder<fcpb::LifetimeEventReply> reply) override {
    on_event_(request);
    reply(fcpb::LifetimeEventReply());
  }
  void Invalidate(const fcpb::InvalidateRequest& request,
                  Responder<fcpb::InvalidateReply> reply) override {
    on_invalidate_(request.target());
    reply(fcpb::InvalidateReply());
  }

 private:
  std::function<void(const fcpb::LifetimeEventRequest&)> on_event_;
  std::function<void(const std::string&)> on_invalidate_;
};

// Answers an in-process raw call with the serialized reply, as a remote target would.
class SerializingReplySink : public ReplySink {
 public:
  explicit SerializingReplySink(RawReplyCallback cb) : cb_(std::move(cb)) {}
  void Reply(const Status& status, const google::protobuf::Message* reply) override {
    std::string bytes;
    if (reply != nullptr) reply->AppendToString(&bytes);
    cb_(status, bytes);
  }

 private:
  RawReplyCallback cb_;
};

}  // namespace

Router::Router(asio::io_context& io, RouterOptions options)
    : io_(io), options_(std::move(options)), log_(MakeLogger("ipc")) {
  if (options_.finder_path.empty()) options_.finder_path = DefaultFinderPath();
  if (options_.secret.empty()) {
    if (const char* s = std::getenv("STRATA_SECRET")) options_.secret = s;
  }
  // Started by the rtrmgr (it gives every process a secret in STRATA_SECRET): calls that
  // change state from anyone but it and its children are logged (AuditIncomingCall).
  if (std::getenv("STRATA_SECRET") != nullptr) supervisor_pid_ = ::getppid();
  if (options_.preferred_family.empty()) {
    if (const char* f = std::getenv("STRATA_IPC_FAMILY")) options_.preferred_family = f;
  }
  std::random_device rd;
  char inc[32];
  std::snprintf(inc, sizeof inc, "%d-%08x%08x", static_cast<int>(::getpid()), rd(), rd());
  incarnation_ = inc;
  ServeFinderClient();
}

Router::~Router() { Stop(); }

Target& Router::AddTarget(std::string class_name, std::string instance_name, bool sole_instance) {
  auto t = std::make_unique<Target>(std::move(class_name), instance_name, sole_instance);
  Target& ref = *t;
  ref.Serve(LogService::ForProcess());  // every process answers log/1.0 (show log, levels)
  targets_[instance_name] = std::move(t);
  return ref;
}

void Router::ServeFinderClient() {
  finder_client_target_ = std::make_unique<Target>("finder_client", "finder_client", false);
  finder_client_target_->set_require_keys(false);
  auto service = std::make_unique<FinderClientService>(
      [this](const fcpb::LifetimeEventRequest& e) {
        DeliverLifetime(e.class_name(), e.instance_name(), e.incarnation(),
                        e.event() == fcpb::LIFETIME_BIRTH);
      },
      [this](const std::string& target) { DropResolutions(target); });
  finder_client_target_->Serve(*service);
  finder_client_service_ = std::move(service);
}

Clock::duration Router::TimeoutOf(const CallOptions& o) const {
  return o.timeout.count() > 0 ? o.timeout : options_.default_timeout;
}

void Router::OpenListeners() {
  for (const auto& family : options_.listen_families) {
    std::string address;
    const std::string name = targets_.empty() ? "proc" : targets_.begin()->first;
    if (family == "sunix") {
      address = SocketFilePath(DefaultRunDir(), name, ::getpid(), false);
    } else if (family == "stcp" || family == "grpc-tcp") {
      address = options_.tcp_listen_address;
    } else if (family == "grpc-unix") {
      address = SocketFilePath(DefaultRunDir(), name, ::getpid(), true);
    } else {
      log_->warn("cannot listen on unknown family '{}'", family);
      continue;
    }
    if (family == "grpc-unix" || family == "grpc-tcp") {
      std::weak_ptr<bool> alive = alive_;
      auto g =
          GrpcServer::Open(io_, family, address, options_.limits,
                           [this, alive](const std::string& instance, const std::string& method,
                                         const std::string& key, std::string payload,
                                         std::unique_ptr<ReplySink> sink) {
                             if (alive.expired()) {
                               sink->Reply(Unavailable("router stopped"), nullptr);
                               return;
                             }
                             OnGrpcCall(instance, method, key, std::move(payload), std::move(sink));
                           });
      if (!g.ok()) {
        log_->error("{}", g.status().ToString());
        continue;
      }
      grpc_servers_.push_back(std::move(*g));
      continue;
    }
    auto l = Listener::Open(
        io_, family, address,
        [this](std::shared_ptr<Channel> ch) {
          std::weak_ptr<bool> alive = alive_;
          std::erase_if(accepted_, [](const std::weak_ptr<Channel>& c) { return c.expired(); });
          accepted_.push_back(ch);
          ch->Start(
              [this, alive](const std::shared_ptr<Channel>& c, const CallFrame& call) {
                if (!alive.expired()) OnIncomingCall(c, call);
              },
              [this, alive](Channel& c, const Status&) {
                if (!alive.expired()) audited_.erase(&c);
              });
        },
        options_.limits);
    if (!l.ok()) {
      log_->error("{}", l.status().ToString());
      continue;
    }
    listeners_.push_back(std::move(*l));
  }
}

std::vector<std::pair<std::string, std::string>> Router::endpoints() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& l : listeners_) out.emplace_back(l->protocol(), l->address());
  for (const auto& g : grpc_servers_) out.emplace_back(g->protocol(), g->address());
  return out;
}

void Router::Start(std::function<void(const Status&)> done) {
  // The Finder's socket is trusted only in a directory no other user could have planted it in;
  // our own sockets go in a directory that is ours alone.
  Status dirs = CheckTrustedDir(std::filesystem::path(options_.finder_path).parent_path().string(),
                                "Finder's directory");
  const bool unix_sockets =
      std::any_of(options_.listen_families.begin(), options_.listen_families.end(),
                  [](const std::string& f) { return f == "sunix" || f == "grpc-unix"; });
  if (dirs.ok() && unix_sockets) dirs = EnsurePrivateDir(DefaultRunDir(), "run directory");
  if (!dirs.ok()) {
    log_->error("{}", dirs.message());
    asio::post(io_, [done = std::move(done), dirs] { done(dirs); });
    return;
  }
  OpenListeners();
  finder_backoff_ = options_.finder_retry_initial;
  ConnectFirst(std::move(done), 1);
}

void Router::RegisterTarget(Target& target, std::function<void(const Status&)> done) {
  fpb::RegisterTargetRequest req;
  req.set_class_name(target.class_name());
  req.set_instance_name(target.instance_name());
  req.set_sole_instance(target.sole_instance());
  req.set_secret(options_.secret);
  req.set_incarnation(incarnation_);
  if (target.registered()) {
    // Registering again with a new Finder: keep the keys callers already hold.
    for (const auto& [path, m] : target.methods()) {
      if (m.key.empty()) continue;
      auto* k = req.add_keys();
      k->set_path(path);
      k->set_key(m.key);
    }
  }
  for (const auto& [protocol, address] : endpoints()) {
    auto* ep = req.add_endpoints();
    ep->set_protocol(protocol);
    ep->set_address(address);
  }
  for (const auto& [path, m] : target.methods()) {
    auto* sig = req.add_methods();
    sig->set_path(path);
    sig->set_grpc_method(GrpcMethodName(m.descriptor));
    sig->set_args(MessageSignature(m.descriptor->input_type()));
    sig->set_returns(MessageSignature(m.descriptor->output_type()));
  }
  Target* t = &target;
  SendFinder("register_target", req,
             [t, done = std::move(done)](const Status& s, std::string_view bytes) {
               if (!s.ok()) {
                 done(s);
                 return;
               }
               fpb::RegisterTargetReply reply;
               if (!reply.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
                 done(Internal("unreadable registration reply"));
                 return;
               }
               std::vector<std::pair<std::string, std::string>> keys;
               for (const auto& k : reply.keys()) keys.emplace_back(k.path(), k.key());
               t->SetKeys(keys);
               done(Status());
             });
}

void Router::Stop() {
  if (!*alive_) return;
  *alive_ = false;
  alive_ = std::make_shared<bool>(true);  // fresh token: old callbacks see theirs expired
  for (auto& l : listeners_) l->Close();
  listeners_.clear();
  for (auto& g : grpc_servers_) g->Close();
  grpc_servers_.clear();
  grpc_conns_.clear();
  auto accepted = std::move(accepted_);
  accepted_.clear();
  for (auto& weak : accepted) {
    if (auto ch = weak.lock()) ch->Close(Unavailable("router stopped"));
  }
  auto resolutions = std::move(resolutions_);
  resolutions_.clear();
  for (auto& [name, r] : resolutions) {
    auto waiting = std::move(r->waiting);
    for (auto& w : waiting) w(Unavailable("router stopped"), nullptr);
  }
  auto channels = std::move(channels_);
  channels_.clear();
  for (auto& [key, pc] : channels) {
    if (pc.channel) pc.channel->Close(Unavailable("router stopped"));
  }
  if (finder_) {
    auto f = std::move(finder_);
    f->Close(Unavailable("router stopped"));
  }
}

void Router::SendFinder(const std::string& method, const google::protobuf::Message& req,
                        RawReplyCallback cb) {
  if (!finder_ || finder_->closed()) {
    asio::post(io_, [cb = std::move(cb)] { cb(Unavailable("not connected to the Finder"), {}); });
    return;
  }
  finder_->SendCall(
      "finder/finder/1.0/" + method, "", [&req](std::string& out) { req.AppendToString(&out); },
      std::move(cb), options_.default_timeout);
}

void Router::SendRaw(const std::string& target, const std::string& path, std::string payload,
                     RawReplyCallback cb, CallOptions opts) {
  if (target == "finder") {
    if (!finder_ || finder_->closed()) {
      asio::post(io_, [cb = std::move(cb)] { cb(Unavailable("not connected to the Finder"), {}); });
      return;
    }
    finder_->SendCall(
        "finder/" + path, "", [&payload](std::string& out) { out.append(payload); }, std::move(cb),
        TimeoutOf(opts));
    return;
  }
  Resolve(target, [this, path, payload = std::move(payload), cb = std::move(cb), opts](
                      const Status& s, const std::shared_ptr<Resolution>& r) mutable {
    if (!s.ok()) {
      cb(s, {});
      return;
    }
    SendOnResolution(r, path, std::move(payload), std::move(cb), opts);
  });
}

void Router::SendOnResolution(const std::shared_ptr<Resolution>& r, const std::string& path,
                              std::string payload, RawReplyCallback cb, CallOptions opts) {
  auto k = r->keys.find(path);
  if (k == r->keys.end()) {
    cb(Status(StatusCode::kUnimplemented, "no such method '" + path + "' on " + r->instance), {});
    return;
  }
  if (k->second.empty()) {
    cb(PermissionDenied("this process may not call " + path + " on " + r->instance), {});
    return;
  }
  if (r->local != nullptr) {
    Target* t = r->local;
    asio::post(io_, [t, path, payload = std::move(payload), key = k->second,
                     cb = std::move(cb)]() mutable {
      t->DispatchSerialized(path, key, payload,
                            std::make_unique<SerializingReplySink>(std::move(cb)));
    });
    return;
  }
  if (r->grpc) {
    r->grpc->Call(r->instance, r->grpc_methods[path], k->second, payload,
                  std::chrono::duration_cast<std::chrono::milliseconds>(TimeoutOf(opts)),
                  std::move(cb));
    return;
  }
  r->channel->SendCall(
      r->instance + "/" + path, k->second, [&payload](std::string& out) { out.append(payload); },
      std::move(cb), TimeoutOf(opts));
}

void Router::Resolve(const std::string& target, Waiter w) {
  auto it = resolutions_.find(target);
  if (it != resolutions_.end()) {
    if (it->second->ready) {
      auto r = it->second;
      w(Status(), r);
    } else {
      it->second->waiting.push_back(std::move(w));
    }
    return;
  }
  auto r = std::make_shared<Resolution>();
  r->name = target;
  r->waiting.push_back(std::move(w));
  resolutions_[target] = r;
  fpb::ResolveTargetRequest req;
  req.set_target(target);
  req.set_secret(options_.secret);
  std::weak_ptr<bool> alive = alive_;
  SendFinder("resolve_target", req, [this, alive, r](const Status& s, std::string_view bytes) {
    if (alive.expired()) return;
    if (!s.ok()) {
      FinishResolution(r, s);
      return;
    }
    fpb::ResolveTargetReply reply;
    if (!reply.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      FinishResolution(r, Internal("unreadable resolution from the Finder"));
      return;
    }
    r->instance = reply.instance_name();
    for (const auto& m : reply.methods()) {
      r->keys[m.path()] = m.key();
      r->grpc_methods[m.path()] = m.grpc_method();
    }
    if (auto local = targets_.find(r->instance); local != targets_.end()) {
      r->local = local->second.get();
      FinishResolution(r, Status());
      return;
    }
    // The preferred family if offered, else lean before gRPC, Unix before TCP.
    auto rank = [this](const std::string& p) {
      if (!options_.preferred_family.empty() && p == options_.preferred_family) return 0;
      if (p == "sunix") return 1;
      if (p == "stcp") return 2;
      if (p == "grpc-unix") return 3;
      if (p == "grpc-tcp") return 4;
      return 99;
    };
    const fpb::Endpoint* chosen = nullptr;
    for (const auto& ep : reply.endpoints()) {
      if (rank(ep.protocol()) == 99) continue;
      if (chosen == nullptr || rank(ep.protocol()) < rank(chosen->protocol())) chosen = &ep;
    }
    if (chosen == nullptr) {
      FinishResolution(r, Unavailable(r->instance + " offers no transport this process speaks"));
      return;
    }
    r->channel_key = chosen->protocol() + "://" + chosen->address();
    if (chosen->protocol() == "grpc-unix" || chosen->protocol() == "grpc-tcp") {
      auto& conn = grpc_conns_[r->channel_key];
      if (!conn)
        conn = std::make_shared<GrpcConnection>(io_, chosen->protocol(), chosen->address(),
                                                options_.limits.max_reply_frame_bytes);
      r->grpc = conn;
      FinishResolution(r, Status());
      return;
    }
    GetChannel(chosen->protocol(), chosen->address(),
               [this, alive, r](StatusOr<std::shared_ptr<Channel>> ch) {
                 if (alive.expired()) return;
                 if (!ch.ok()) {
                   FinishResolution(r, ch.status());
                   return;
                 }
                 r->channel = *ch;
                 FinishResolution(r, Status());
               });
  });
}

void Router::FinishResolution(const std::shared_ptr<Resolution>& r, const Status& status) {
  if (!status.ok()) {
    auto it = resolutions_.find(r->name);
    if (it != resolutions_.end() && it->second == r) resolutions_.erase(it);
  } else {
    r->ready = true;
  }
  // Waiters run in the order the calls were made; new calls on a ready resolution go straight
  // to the channel, after these.
  auto waiting = std::move(r->waiting);
  r->waiting.clear();
  for (auto& w : waiting) w(status, status.ok() ? r : nullptr);
}

void Router::GetChannel(const std::string& protocol, const std::string& address,
                        std::function<void(StatusOr<std::shared_ptr<Channel>>)> done) {
  const std::string key = protocol + "://" + address;
  auto it = channels_.find(key);
  if (it != channels_.end()) {
    if (it->second.channel) {
      done(it->second.channel);
    } else {
      it->second.waiting.push_back(std::move(done));
    }
    return;
  }
  channels_[key].waiting.push_back(std::move(done));
  std::weak_ptr<bool> alive = alive_;
  ConnectChannel(
      io_, protocol, address,
      [this, alive, key](StatusOr<std::shared_ptr<Channel>> ch) {
        if (alive.expired()) return;
        auto it = channels_.find(key);
        if (it == channels_.end()) return;
        auto waiting = std::move(it->second.waiting);
        if (!ch.ok()) {
          channels_.erase(it);
          for (auto& w : waiting) w(ch.status());
          return;
        }
        it->second.channel = *ch;
        (*ch)->Start(
            [this, alive](const std::shared_ptr<Channel>& c, const CallFrame& call) {
              if (!alive.expired()) OnIncomingCall(c, call);
            },
            [this, alive](Channel& c, const Status&) {
              if (!alive.expired()) OnChannelClosed(c);
            });
        for (auto& w : waiting) w(*ch);
      },
      options_.limits);
}

void Router::OnIncomingCall(const std::shared_ptr<Channel>& ch, const CallFrame& call) {
  const auto slash = call.method.find('/');
  auto sink = std::make_unique<ChannelReplySink>(ch, call.id);
  if (slash == std::string_view::npos) {
    sink->Reply(InvalidArgument("malformed method '" + std::string(call.method) + "'"), nullptr);
    return;
  }
  const std::string_view instance = call.method.substr(0, slash);
  const std::string_view path = call.method.substr(slash + 1);
  if (ch == finder_) {
    finder_client_target_->DispatchSerialized(path, call.key, call.payload, std::move(sink));
    return;
  }
  AuditIncomingCall(*ch, instance, path);
  auto it = targets_.find(std::string(instance));
  if (it == targets_.end()) {
    sink->Reply(NotFound("no such target '" + std::string(instance) + "' in this process"),
                nullptr);
    return;
  }
  sink->context.target = it->first;
  it->second->DispatchSerialized(path, call.key, call.payload, std::move(sink));
}

void Router::OnGrpcCall(const std::string& instance, const std::string& method,
                        const std::string& key, std::string payload,
                        std::unique_ptr<ReplySink> sink) {
  auto it = targets_.find(instance);
  if (it == targets_.end()) {
    sink->Reply(NotFound("no such target '" + instance + "' in this process"), nullptr);
    return;
  }
  // "/strata.test.v1.Test/Echo" -> the method's XRL path.
  std::string full = method.size() > 1 ? method.substr(1) : method;
  std::replace(full.begin(), full.end(), '/', '.');
  const auto* md = google::protobuf::DescriptorPool::generated_pool()->FindMethodByName(full);
  if (md == nullptr) {
    sink->Reply(Status(StatusCode::kUnimplemented, "no such method '" + method + "'"), nullptr);
    return;
  }
  sink->context.target = instance;
  it->second->DispatchSerialized(MethodPath(md), key, payload, std::move(sink));
}

void Router::OnChannelClosed(Channel& ch) {
  for (auto it = resolutions_.begin(); it != resolutions_.end();) {
    if (it->second->ready && it->second->channel.get() == &ch) {
      it = resolutions_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto it = channels_.begin(); it != channels_.end();) {
    if (it->second.channel.get() == &ch) {
      it = channels_.erase(it);
    } else {
      ++it;
    }
  }
}

void Router::DropResolutions(const std::string& name) {
  for (auto it = resolutions_.begin(); it != resolutions_.end();) {
    const auto& r = *it->second;
    if (r.ready && (r.name == name || r.instance == name)) {
      it = resolutions_.erase(it);
    } else {
      ++it;
    }
  }
}

void Router::WatchClass(const std::string& class_name, LifetimeCallback cb) {
  watches_.Add(true, class_name, std::move(cb));
  SendWatch(true, class_name);
}

void Router::WatchInstance(const std::string& instance_name, LifetimeCallback cb) {
  watches_.Add(false, instance_name, std::move(cb));
  SendWatch(false, instance_name);
}

void Router::DeliverLifetime(const std::string& class_name, const std::string& instance,
                             const std::string& incarnation, bool alive) {
  // A death, or a birth of a process that replaced one we knew: cached resolutions are stale.
  if (!alive || watches_.Replaces(instance, incarnation)) {
    DropResolutions(instance);
    DropResolutions(class_name);
  }
  watches_.Deliver(class_name, instance, incarnation, alive);
}

}  // namespace strata::ipc
