#include "libipc/grpc_transport.h"

#include <grpcpp/resource_quota.h>
#include <grpcpp/support/byte_buffer.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "libipc/socket_files.h"

namespace strata::ipc {

namespace {

std::string ToString(const grpc::ByteBuffer& buf) {
  std::vector<grpc::Slice> slices;
  std::string out;
  if (!buf.Dump(&slices).ok()) return out;
  for (const auto& s : slices) out.append(reinterpret_cast<const char*>(s.begin()), s.size());
  return out;
}

grpc::ByteBuffer ToBuffer(const std::string& s) {
  grpc::Slice slice(s);
  return grpc::ByteBuffer(&slice, 1);
}

std::string Metadata(const grpc::GenericServerContext& ctx, const std::string& key) {
  auto it = ctx.client_metadata().find(key);
  if (it == ctx.client_metadata().end()) return {};
  return std::string(it->second.data(), it->second.size());
}

std::string GrpcTarget(const std::string& protocol, const std::string& address) {
  return protocol == "grpc-unix" ? "unix:" + address : address;
}

}  // namespace

// One server-side call: requested, read, handled on the io_context, answered.
class GrpcServer::CallData {
 public:
  explicit CallData(GrpcServer* server) : server_(server), stream_(&ctx_) {
    server_->service_.RequestCall(&ctx_, &stream_, server_->cq_.get(), server_->cq_.get(), this);
  }

  // Runs on the completion-queue thread.
  void Proceed(bool ok) {
    switch (state_) {
      case State::kRequested:
        if (!ok) {
          delete this;
          return;
        }
        new CallData(server_);  // wait for the next call
        state_ = State::kReading;
        stream_.Read(&request_, this);
        return;
      case State::kReading:
        if (!ok) {
          state_ = State::kDone;
          stream_.Finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "no request"), this);
          return;
        }
        state_ = State::kHandling;
        Dispatch();
        return;
      case State::kHandling:
        return;  // not reached: Reply moves the state on
      case State::kDone:
        delete this;
        return;
    }
  }

 private:
  enum class State { kRequested, kReading, kHandling, kDone };

  class Sink : public ReplySink {
   public:
    explicit Sink(CallData* call) : call_(call) {}
    void Reply(const Status& status, const google::protobuf::Message* reply) override {
      call_->state_ = State::kDone;
      if (!status.ok()) {
        call_->stream_.Finish(
            grpc::Status(static_cast<grpc::StatusCode>(status.code()), status.message()), call_);
        return;
      }
      call_->response_ = ToBuffer(reply != nullptr ? reply->SerializeAsString() : "");
      call_->stream_.WriteAndFinish(call_->response_, grpc::WriteOptions(), grpc::Status::OK,
                                    call_);
    }

   private:
    CallData* call_;
  };

  void Dispatch() {
    auto payload = ToString(request_);
    auto instance = Metadata(ctx_, "strata-target");
    auto key = Metadata(ctx_, "strata-key-bin");
    auto method = ctx_.method();
    std::weak_ptr<bool> alive = server_->alive_;
    GrpcServer* server = server_;
    boost::asio::post(server_->io_, [this, alive, server, payload = std::move(payload),
                                     instance = std::move(instance), key = std::move(key),
                                     method = std::move(method)]() mutable {
      if (alive.expired()) return;
      server->dispatch_(instance, method, key, std::move(payload), std::make_unique<Sink>(this));
    });
  }

  GrpcServer* server_;
  grpc::GenericServerContext ctx_;
  grpc::GenericServerAsyncReaderWriter stream_;
  grpc::ByteBuffer request_;
  grpc::ByteBuffer response_;
  State state_ = State::kRequested;
};

GrpcServer::GrpcServer(boost::asio::io_context& io, std::string protocol, GrpcDispatch dispatch)
    : io_(io), protocol_(std::move(protocol)), dispatch_(std::move(dispatch)) {}

StatusOr<std::unique_ptr<GrpcServer>> GrpcServer::Open(boost::asio::io_context& io,
                                                       const std::string& protocol,
                                                       const std::string& address,
                                                       const IpcLimits& limits,
                                                       GrpcDispatch dispatch) {
  if (protocol != "grpc-unix" && protocol != "grpc-tcp") {
    return InvalidArgument("unknown transport family '" + protocol + "'");
  }
  std::unique_ptr<GrpcServer> s(new GrpcServer(io, protocol, std::move(dispatch)));
  if (protocol == "grpc-unix") ::unlink(address.c_str());
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(GrpcTarget(protocol, address), grpc::InsecureServerCredentials(),
                           protocol == "grpc-tcp" ? &port : nullptr);
  builder.RegisterAsyncGenericService(&s->service_);
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::NUM_CQS, 1);
  builder.AddChannelArgument(GRPC_ARG_MINIMAL_STACK, 1);
  // The lean families' limits, in gRPC's terms: the message size, a memory quota for all of
  // the server's buffers (a few messages' worth), streams per connection, metadata size, and
  // the time a connection has to complete its handshake. gRPC 1.51 cannot cap connections;
  // the Unix socket is 0600 (0660 for the operators' group) in a directory closed to others.
  builder.SetMaxReceiveMessageSize(static_cast<int>(limits.LargestCallLimit()));
  grpc::ResourceQuota quota("strata-" + protocol);
  quota.Resize(std::max<size_t>(size_t{4} * limits.LargestCallLimit(), size_t{32} << 20));
  builder.SetResourceQuota(quota);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, 100);
  builder.AddChannelArgument(GRPC_ARG_MAX_METADATA_SIZE, 16 * 1024);
  if (limits.frame_timeout.count() > 0) {
    builder.AddChannelArgument(GRPC_ARG_SERVER_HANDSHAKE_TIMEOUT_MS,
                               static_cast<int>(limits.frame_timeout.count()));
  }
  s->cq_ = builder.AddCompletionQueue();
  s->server_ = builder.BuildAndStart();
  if (!s->server_) return Unavailable("cannot listen on " + protocol + "://" + address);
  if (protocol == "grpc-tcp") {
    const auto colon = address.rfind(':');
    s->address_ = address.substr(0, colon) + ":" + std::to_string(port);
  } else {
    s->address_ = address;
    ::chmod(address.c_str(), SocketFileMode(address));  // gRPC creates it by the umask
  }
  new CallData(s.get());
  s->thread_ = std::thread([srv = s.get()] { srv->Loop(); });
  return s;
}

void GrpcServer::Loop() {
  void* tag = nullptr;
  bool ok = false;
  while (cq_->Next(&tag, &ok)) static_cast<CallData*>(tag)->Proceed(ok);
}

void GrpcServer::Close() {
  if (!server_) return;
  *alive_ = false;
  alive_.reset();
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(200));
  cq_->Shutdown();
  if (thread_.joinable()) thread_.join();
  server_.reset();
  if (protocol_ == "grpc-unix") ::unlink(address_.c_str());
}

GrpcServer::~GrpcServer() { Close(); }

GrpcConnection::GrpcConnection(boost::asio::io_context& io, const std::string& protocol,
                               const std::string& address, uint32_t max_reply_bytes)
    : io_(io) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_MINIMAL_STACK, 1);
  args.SetMaxReceiveMessageSize(static_cast<int>(max_reply_bytes));
  channel_ = grpc::CreateCustomChannel(GrpcTarget(protocol, address),
                                       grpc::InsecureChannelCredentials(), args);
  stub_ = std::make_unique<grpc::GenericStub>(channel_);
}

void GrpcConnection::Call(const std::string& instance, const std::string& grpc_method,
                          const std::string& key, const std::string& payload,
                          std::chrono::milliseconds timeout,
                          std::function<void(const Status&, std::string_view)> cb) {
  struct State {
    grpc::ClientContext ctx;
    grpc::ByteBuffer request;
    grpc::ByteBuffer response;
    std::function<void(const Status&, std::string_view)> cb;
  };
  auto st = std::make_shared<State>();
  st->ctx.AddMetadata("strata-target", instance);
  st->ctx.AddMetadata("strata-key-bin", key);
  st->ctx.set_deadline(std::chrono::system_clock::now() + timeout);
  st->request = ToBuffer(payload);
  st->cb = std::move(cb);
  boost::asio::io_context* io = &io_;
  stub_->UnaryCall(&st->ctx, grpc_method, grpc::StubOptions(), &st->request, &st->response,
                   [st, io](grpc::Status s) mutable {
                     // gRPC's thread: hand the result, and the last reference to the call's
                     // context, over to the io_context. The context must not be destroyed
                     // here, inside gRPC's own completion of the call.
                     boost::asio::post(*io, [st = std::move(st), s] {
                       if (!s.ok()) {
                         auto code = static_cast<StatusCode>(s.error_code());
                         if (s.error_code() == grpc::StatusCode::UNAVAILABLE) {
                           code = StatusCode::kUnavailable;
                         }
                         st->cb(Status(code, s.error_message()), {});
                         return;
                       }
                       st->cb(Status(), ToString(st->response));
                     });
                   });
}

}  // namespace strata::ipc
