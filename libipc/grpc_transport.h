// The gRPC families ("grpc-unix", "grpc-tcp"): the same targets and methods served as plain gRPC
// unary calls (`/strata.test.v1.Test/Echo`), so tools in any language with gRPC can call
// Strata components. The lean families are faster (strata-xrl-bench: docs/benchmarks.md) and are
// what Strata's own processes prefer; gRPC is offered beside them for scripting and other
// languages.
//
// A call carries the instance it is for in metadata `strata-target` and the Finder's method key
// in `strata-key-bin`. The server uses one completion-queue thread that only moves bytes: each
// request is posted to the process's io_context, where the target handles it like any other
// call. The client's completions are posted back to the io_context the same way.
#pragma once

#include <grpcpp/generic/async_generic_service.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "common/asio.h"
#include "common/status.h"
#include "libipc/ipc_limits.h"
#include "libipc/responder.h"

namespace strata::ipc {

// Routes one serialized gRPC call to a target: (instance, grpc method, key, payload, sink).
using GrpcDispatch = std::function<void(const std::string& instance, const std::string& method,
                                        const std::string& key, std::string payload,
                                        std::unique_ptr<ReplySink> sink)>;

class GrpcServer {
 public:
  // protocol "grpc-unix" (address: socket path, made 0600) or "grpc-tcp" (host:port, port 0
  // picks one). `limits` bound the messages and memory a client may make the server take.
  static StatusOr<std::unique_ptr<GrpcServer>> Open(boost::asio::io_context& io,
                                                    const std::string& protocol,
                                                    const std::string& address,
                                                    const IpcLimits& limits, GrpcDispatch dispatch);
  ~GrpcServer();
  const std::string& protocol() const { return protocol_; }
  const std::string& address() const { return address_; }
  void Close();

 private:
  class CallData;
  GrpcServer(boost::asio::io_context& io, std::string protocol, GrpcDispatch dispatch);
  void Loop();

  boost::asio::io_context& io_;
  std::string protocol_;
  std::string address_;
  GrpcDispatch dispatch_;
  grpc::AsyncGenericService service_;
  std::unique_ptr<grpc::ServerCompletionQueue> cq_;
  std::unique_ptr<grpc::Server> server_;
  std::thread thread_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

// A client connection to one gRPC endpoint. Thread-compatible; callbacks run on `io`.
class GrpcConnection {
 public:
  GrpcConnection(boost::asio::io_context& io, const std::string& protocol,
                 const std::string& address, uint32_t max_reply_bytes);
  void Call(const std::string& instance, const std::string& grpc_method, const std::string& key,
            const std::string& payload, std::chrono::milliseconds timeout,
            std::function<void(const Status&, std::string_view)> cb);

 private:
  boost::asio::io_context& io_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<grpc::GenericStub> stub_;
};

}  // namespace strata::ipc
