// FinderServer: strata-finder's I/O around the FinderRegistry.
//
// Listens on the Finder's Unix socket (and optionally TCP), serves the Finder interface on
// every connection without keys (the Finder is where keys come from), and pushes lifetime
// events and invalidations to components down the connection they registered on. A component
// whose connection closes, including one killed with SIGKILL, is declared dead at once: the
// kernel closes its socket and the read fails.
// Held resolutions: with `await_permissions` > 0 the Finder starts holding the resolutions of
// callers whose (non-empty) secret has no rights yet, until the admin gives that secret its rights
// (SetPermissions), declares the table complete (PermissionsComplete), or the bound passes; then
// they are answered by the usual rules. This closes the window after a Finder restart in which
// components have re-registered and call each other before the rtrmgr has re-given their rights.
// Threading: the io_context thread.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/log.h"
#include "finder/finder_registry.h"
#include "finder/operator_rights.h"
#include "libipc/channel.h"
#include "libipc/interfaces/finder.strata.h"
#include "libipc/ipc_limits.h"
#include "libipc/listener.h"
#include "libipc/target.h"

namespace strata::finder {

struct FinderOptions {
  std::string socket_path;
  std::string tcp_address;  // empty: no TCP listener
  std::string admin_secret;
  bool strict = false;
  // 0: answer every resolution at once; else hold as described above, at most this long.
  std::chrono::milliseconds await_permissions{0};
  // Strict mode: the rights of callers without a process secret, by their credentials
  // (operator_rights.h). Empty: no such group.
  std::string config_group;
  std::string show_group;
  // What one connection may cost (frame size, connections per peer and in all, frame timeout).
  ipc::IpcLimits limits = ipc::IpcLimits::FromEnvironment();
};

class FinderServer : public v1::FinderHandler {
 public:
  FinderServer(boost::asio::io_context& io, FinderOptions options);
  ~FinderServer() override;

  Status Start();
  void Stop();
  // Serves another interface on the Finder's own target (common/1.0).
  void Serve(ipc::Service& service);
  const FinderRegistry& registry() const { return registry_; }

  void RegisterTarget(const v1::RegisterTargetRequest& request,
                      ipc::Responder<v1::RegisterTargetReply> reply) override;
  void UnregisterTarget(const v1::UnregisterTargetRequest& request,
                        ipc::Responder<v1::UnregisterTargetReply> reply) override;
  void ResolveTarget(const v1::ResolveTargetRequest& request,
                     ipc::Responder<v1::ResolveTargetReply> reply) override;
  void ListTargets(const v1::ListTargetsRequest& request,
                   ipc::Responder<v1::ListTargetsReply> reply) override;
  void ListMethods(const v1::ListMethodsRequest& request,
                   ipc::Responder<v1::ListMethodsReply> reply) override;
  void WatchClass(const v1::WatchClassRequest& request,
                  ipc::Responder<v1::WatchReply> reply) override;
  void UnwatchClass(const v1::WatchClassRequest& request,
                    ipc::Responder<v1::WatchReply> reply) override;
  void WatchInstance(const v1::WatchInstanceRequest& request,
                     ipc::Responder<v1::WatchReply> reply) override;
  void UnwatchInstance(const v1::WatchInstanceRequest& request,
                       ipc::Responder<v1::WatchReply> reply) override;
  void SetPermissions(const v1::SetPermissionsRequest& request,
                      ipc::Responder<v1::SetPermissionsReply> reply) override;
  void PermissionsComplete(const v1::PermissionsCompleteRequest& request,
                           ipc::Responder<v1::PermissionsCompleteReply> reply) override;

  bool holding() const { return holding_; }
  size_t held() const { return held_.size(); }

 private:
  // Tells the registry the methods of the Finder's own target.
  void PublishOwnMethods();
  void Accept(std::shared_ptr<ipc::Channel> ch);
  void OnCall(const std::shared_ptr<ipc::Channel>& ch, const ipc::CallFrame& call);
  void Send(std::vector<Notice> notices);
  void Answer(ConnId conn, const v1::ResolveTargetRequest& request,
              ipc::Responder<v1::ResolveTargetReply> reply);
  // Answers the held resolutions of `secret` (all of them if null); returns how many.
  size_t Release(const std::string* secret);
  void StopHolding(const char* why, bool timed_out);

  struct Held {
    ConnId conn;
    v1::ResolveTargetRequest request;
    ipc::Responder<v1::ResolveTargetReply> reply;
  };
  template <typename Rep>
  static ConnId ConnOf(const ipc::Responder<Rep>& r) {
    return r.context().channel ? r.context().channel->tag : 0;
  }
  // "uid 1000 pid 4242" of the caller, for logs.
  template <typename Rep>
  static std::string CallerOf(const ipc::Responder<Rep>& r) {
    const auto& ch = r.context().channel;
    if (!ch) return "this process";
    return ch->credentials() ? ch->credentials()->ToString() : ch->peer();
  }

  boost::asio::io_context& io_;
  FinderOptions options_;
  std::shared_ptr<spdlog::logger> log_;
  FinderRegistry registry_;
  ipc::Target target_;
  std::vector<std::unique_ptr<ipc::Listener>> listeners_;
  std::map<ConnId, std::shared_ptr<ipc::Channel>> conns_;
  ConnId next_conn_ = 1;
  bool holding_ = false;
  std::vector<Held> held_;
  std::unique_ptr<boost::asio::steady_timer> hold_timer_;
  OperatorRights operators_;
  std::set<ConnId> operators_logged_;  // connections whose operator rights were logged
};

}  // namespace strata::finder
