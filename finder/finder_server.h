// FinderServer: strata-finder's I/O around the FinderRegistry.
//
// Listens on the Finder's Unix socket (and optionally TCP), serves the Finder interface on
// every connection without keys (the Finder is where keys come from), and pushes lifetime
// events and invalidations to components down the connection they registered on. A component
// whose connection closes, including one killed with SIGKILL, is declared dead at once: the
// kernel closes its socket and the read fails.
// Threading: the io_context thread.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/log.h"
#include "finder/finder_registry.h"
#include "libipc/channel.h"
#include "libipc/interfaces/finder.strata.h"
#include "libipc/listener.h"
#include "libipc/target.h"

namespace strata::finder {

struct FinderOptions {
  std::string socket_path;
  std::string tcp_address;  // empty: no TCP listener
  std::string admin_secret;
  bool strict = false;
};

class FinderServer : public v1::FinderHandler {
 public:
  FinderServer(boost::asio::io_context& io, FinderOptions options);
  ~FinderServer() override;

  Status Start();
  void Stop();
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

 private:
  void Accept(std::shared_ptr<ipc::Channel> ch);
  void OnCall(const std::shared_ptr<ipc::Channel>& ch, const ipc::CallFrame& call);
  void Send(std::vector<Notice> notices);
  template <typename Rep>
  static ConnId ConnOf(const ipc::Responder<Rep>& r) {
    return r.context().channel ? r.context().channel->tag : 0;
  }

  boost::asio::io_context& io_;
  FinderOptions options_;
  std::shared_ptr<spdlog::logger> log_;
  FinderRegistry registry_;
  ipc::Target target_;
  std::vector<std::unique_ptr<ipc::Listener>> listeners_;
  std::map<ConnId, std::shared_ptr<ipc::Channel>> conns_;
  ConnId next_conn_ = 1;
};

}  // namespace strata::finder
