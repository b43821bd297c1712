// Router: a process's IPC runtime (XORP's XrlRouter). It serves the process's targets on the
// lean families, registers them with the Finder, and sends calls to other targets.
//
// Sending: a call names a target (instance or class) and a method path. The first call to a
// target asks the Finder to resolve it (endpoints and per-method keys) and queues the calls that
// follow until the answer comes; the resolution is then cached until the Finder says the target
// died or re-registered, or the connection to it breaks. Calls from this process to one target
// travel on one connection, so they arrive in the order they were sent, with any number in
// flight. Targets in this process are called directly, without serialization (the in-process
// family). Every call's callback runs exactly once with the reply or an error:
//   NOT_FOUND no such target, UNIMPLEMENTED no such method, INVALID_ARGUMENT bad arguments,
//   PERMISSION_DENIED not allowed / bad key, UNAVAILABLE target died or unreachable,
//   DEADLINE_EXCEEDED timeout.
//
// The Finder may restart (the rtrmgr restarts it like any process): the Router then keeps
// serving its targets and using the resolutions it holds (the new Finder adopts the keys they
// carry), reconnects with backoff to the same socket, registers its targets again (same names,
// same keys), re-establishes its lifetime watches and, once the others had `finder_settle` to
// come back, refreshes its resolutions. Watchers hear no death or birth of a component that
// lived on through the restart (see lifetime_watches.h). Calls that need the Finder meanwhile
// (a first resolution) fail UNAVAILABLE.
//
// Threading: every method and every callback runs on the io_context thread given at
// construction. The Router must outlive the io_context's run().
#pragma once

#include <google/protobuf/message.h>
#include <sys/types.h>

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/asio.h"
#include "common/log.h"
#include "common/status.h"
#include "libipc/channel.h"
#include "libipc/ipc_limits.h"
#include "libipc/lifetime_watches.h"
#include "libipc/method_naming.h"
#include "libipc/target.h"

namespace strata::ipc {

class Listener;
class GrpcServer;
class GrpcConnection;

struct RouterOptions {
  // The Finder's Unix socket; empty: DefaultFinderPath().
  std::string finder_path;
  // Families this process serves on, offered to the Finder in this order of preference:
  // "sunix", "stcp" (lean frames), "grpc-unix", "grpc-tcp" (plain gRPC, for other languages).
  std::vector<std::string> listen_families = {"sunix", "grpc-unix"};
  // Family used for outgoing calls; empty: the first the target offers that we speak.
  std::string preferred_family;
  // Address for "stcp" and "grpc-tcp" listeners (port 0: any free port).
  std::string tcp_listen_address = "127.0.0.1:0";
  // The secret the rtrmgr gave this process (STRATA_SECRET by default).
  std::string secret;
  std::chrono::milliseconds default_timeout{30000};
  // After losing the Finder: reconnect (first try after `finder_retry_initial`, doubling up to
  // `finder_retry_max`) and register again; false: the loss is final.
  bool reconnect_finder = true;
  std::chrono::milliseconds finder_retry_initial{50};
  std::chrono::milliseconds finder_retry_max{1000};
  // After reconnecting: how long the other components have to register again before watched
  // members that did not are reported dead. Well above finder_retry_max.
  std::chrono::milliseconds finder_settle{10000};
  // At Start, a Finder that is not there yet: true (daemons) tries again with the same backoff
  // until it appears, then registers; false (tools): Start fails UNAVAILABLE at once.
  bool wait_for_finder = false;
  // What a peer may make this process spend on IPC (libipc/ipc_limits.h), for every family.
  IpcLimits limits = IpcLimits::FromEnvironment();
};

struct CallOptions {
  std::chrono::milliseconds timeout{0};  // 0: the router's default
};

// Runtime directory for sockets: $STRATA_RUN_DIR, else /run/strata as root, else /tmp/strata-UID.
std::string DefaultRunDir();
std::string DefaultFinderPath();

using RawReplyCallback = std::function<void(const Status&, std::string_view payload)>;

class Router {
 public:
  Router(boost::asio::io_context& io, RouterOptions options = {});
  ~Router();
  Router(const Router&) = delete;
  Router& operator=(const Router&) = delete;

  boost::asio::io_context& io() { return io_; }
  const RouterOptions& options() const { return options_; }

  // Adds a target this process serves. Register it (or Start) to make it callable. Every
  // target also answers log/1.0 (LogService: the process's log levels and last lines).
  Target& AddTarget(std::string class_name, std::string instance_name, bool sole_instance);

  // Connects to the Finder, opens the listeners and registers every target added so far.
  void Start(std::function<void(const Status&)> done);
  // Registers one target (added after Start).
  void RegisterTarget(Target& target, std::function<void(const Status&)> done);
  // Withdraws every target, closes listeners and connections. Pending calls fail UNAVAILABLE.
  void Stop();

  // Called when the connection to the Finder is lost. Unless the callback stops the Router (or
  // reconnect_finder is off), the Router then reconnects.
  void set_on_finder_lost(std::function<void(const Status&)> cb) {
    on_finder_lost_ = std::move(cb);
  }
  // Called when a new connection to the Finder is up, before the targets register again on it
  // (the rtrmgr gives the new Finder the processes' permissions here).
  void set_on_finder_reconnected(std::function<void()> cb) {
    on_finder_reconnected_ = std::move(cb);
  }

  // Sends a call with a serialized request.
  void SendRaw(const std::string& target, const std::string& path, std::string payload,
               RawReplyCallback cb, CallOptions opts = {});
  // Sends a typed call; in-process targets get the message itself.
  template <typename Req, typename Rep>
  void Call(const std::string& target, const std::string& path, const Req& request,
            std::function<void(const Status&, const Rep&)> cb, CallOptions opts = {});

  // Lifetime events for a class or an instance; `cb` hears the current members at once, then
  // every birth and death. The watcher is this process's first target.
  void WatchClass(const std::string& class_name, LifetimeCallback cb);
  void WatchInstance(const std::string& instance_name, LifetimeCallback cb);

  // The endpoints this process listens on ("sunix" path, "stcp" host:port).
  std::vector<std::pair<std::string, std::string>> endpoints() const;
  size_t cached_resolutions() const { return resolutions_.size(); }
  bool finder_connected() const { return finder_ && !finder_->closed(); }
  uint64_t finder_reconnects() const { return finder_reconnects_; }

 private:
  struct Resolution;
  // A call waiting for its target's resolution; runs with the resolution or an error.
  using Waiter = std::function<void(const Status&, const std::shared_ptr<Resolution>&)>;
  struct Resolution {
    std::string name;                                           // what callers asked for
    std::string instance;                                       // what the Finder resolved it to
    Target* local = nullptr;                                    // set for a target in this process
    std::shared_ptr<Channel> channel;                           // lean families
    std::shared_ptr<GrpcConnection> grpc;                       // gRPC families
    std::unordered_map<std::string, std::string> grpc_methods;  // path -> "/pkg.Svc/Method"
    std::string channel_key;                                    // "proto://address"
    std::unordered_map<std::string, std::string> keys;          // method path -> key ("" = denied)
    bool ready = false;
    std::deque<Waiter> waiting;
  };

  void Resolve(const std::string& target, Waiter w);
  void FinishResolution(const std::shared_ptr<Resolution>& r, const Status& status);
  void GetChannel(const std::string& protocol, const std::string& address,
                  std::function<void(StatusOr<std::shared_ptr<Channel>>)> done);
  void OnIncomingCall(const std::shared_ptr<Channel>& ch, const CallFrame& call);
  void OnGrpcCall(const std::string& instance, const std::string& method, const std::string& key,
                  std::string payload, std::unique_ptr<ReplySink> sink);
  void OnChannelClosed(Channel& ch);
  // Under a supervisor (the rtrmgr): logs a state-changing call from a process that is neither
  // the supervisor nor one of its children, with the caller's uid and pid, once per method and
  // connection (router_audit.cc).
  void AuditIncomingCall(const Channel& ch, std::string_view instance, std::string_view path);
  void DropResolutions(const std::string& target_or_instance);
  void SendFinder(const std::string& method, const google::protobuf::Message& req,
                  RawReplyCallback cb);
  void OpenListeners();
  void ServeFinderClient();
  void DeliverLifetime(const std::string& class_name, const std::string& instance,
                       const std::string& incarnation, bool alive);
  // Finder connection life (router_finder_link.cc).
  void AttachFinder(std::shared_ptr<Channel> ch);
  void RegisterAll(bool only_registered, std::function<void(const Status&)> done);
  void OnFinderLost(const Status& why);
  void ScheduleFinderReconnect();
  // Start's first connection; with wait_for_finder, retried with backoff until it succeeds.
  void ConnectFirst(std::function<void(const Status&)> done, uint64_t attempt);
  void OnFinderReconnected(std::shared_ptr<Channel> ch);
  // Registers `target` with the Finder on `finder` again, retrying a name that is taken.
  static constexpr int kRegisterAgainTries = 30;
  void RegisterAgain(Target& target, std::shared_ptr<Channel> finder, int attempt);
  void FinderSettled();
  void RefreshResolutions();
  void SendWatch(bool is_class, const std::string& name);
  Clock::duration TimeoutOf(const CallOptions& o) const;
  void SendOnResolution(const std::shared_ptr<Resolution>& r, const std::string& path,
                        std::string payload, RawReplyCallback cb, CallOptions opts);

  boost::asio::io_context& io_;
  RouterOptions options_;
  std::shared_ptr<spdlog::logger> log_;
  std::map<std::string, std::unique_ptr<Target>> targets_;
  std::vector<std::unique_ptr<Listener>> listeners_;
  std::vector<std::weak_ptr<Channel>> accepted_;  // connections callers opened to us
  pid_t supervisor_pid_ = 0;                      // the rtrmgr, when it started us
  std::unordered_map<const Channel*, std::vector<std::string>> audited_;  // methods logged
  std::vector<std::unique_ptr<GrpcServer>> grpc_servers_;
  std::unordered_map<std::string, std::shared_ptr<GrpcConnection>> grpc_conns_;
  std::shared_ptr<Channel> finder_;
  std::function<void(const Status&)> on_finder_lost_;
  std::unordered_map<std::string, std::shared_ptr<Resolution>> resolutions_;
  struct PendingChannel {
    std::shared_ptr<Channel> channel;
    std::vector<std::function<void(StatusOr<std::shared_ptr<Channel>>)>> waiting;
  };
  std::unordered_map<std::string, PendingChannel> channels_;
  LifetimeWatches watches_;
  std::function<void()> on_finder_reconnected_;
  std::unique_ptr<boost::asio::steady_timer> finder_timer_;  // reconnect backoff, then settle
  std::chrono::milliseconds finder_backoff_{0};
  uint64_t finder_reconnects_ = 0;
  std::string incarnation_;  // random, sent with every registration
  std::unique_ptr<Target> finder_client_target_;
  std::unique_ptr<Service> finder_client_service_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

// A sink that hands the reply message to a typed in-process caller.
template <typename Rep>
class InprocReplySink : public ReplySink {
 public:
  explicit InprocReplySink(std::function<void(const Status&, const Rep&)> cb)
      : cb_(std::move(cb)) {}
  void Reply(const Status& status, const google::protobuf::Message* reply) override {
    if (reply != nullptr) {
      // The handler's reply type is Rep by construction of the generated code.
      cb_(status, static_cast<const Rep&>(*reply));
    } else {
      cb_(status, Rep::default_instance());
    }
  }

 private:
  std::function<void(const Status&, const Rep&)> cb_;
};

template <typename Req, typename Rep>
void Router::Call(const std::string& target, const std::string& path, const Req& request,
                  std::function<void(const Status&, const Rep&)> cb, CallOptions opts) {
  // Fast path: a target of this process, by instance name.
  auto local = targets_.find(target);
  if (local != targets_.end()) {
    Target* t = local->second.get();
    boost::asio::post(io_, [t, path, request, cb = std::move(cb)]() mutable {
      t->DispatchMessage(path, request, std::make_unique<InprocReplySink<Rep>>(std::move(cb)));
    });
    return;
  }
  std::string payload;
  request.AppendToString(&payload);
  SendRaw(
      target, path, std::move(payload),
      [cb = std::move(cb)](const Status& status, std::string_view bytes) {
        Rep reply;
        if (status.ok() && !reply.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
          cb(Status(StatusCode::kInternal,
                    "reply does not parse as " + Rep::descriptor()->full_name()),
             Rep::default_instance());
          return;
        }
        cb(status, reply);
      },
      opts);
}

}  // namespace strata::ipc
