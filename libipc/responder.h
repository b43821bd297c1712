// Responder<Reply>: how a method handler answers one call, now or later.
//
// A handler receives the request and a Responder; it calls `reply(message)` or
// `reply.Fail(status)` exactly once, synchronously or from a later event on the same thread. A
// Responder dropped without an answer answers INTERNAL ("handler dropped the call"), so a caller
// never waits forever on a buggy handler. Move-only. Threading: the process's io_context thread.
#pragma once

#include <google/protobuf/message.h>

#include <memory>
#include <string>
#include <utility>

#include "common/status.h"

namespace strata::ipc {

class Channel;

// Where a call came from, for handlers that care (the Finder records who registered what).
struct CallContext {
  std::shared_ptr<Channel> channel;  // null for in-process and gRPC calls
  std::string target;                // the instance called
};

// Delivers one answer: over a channel, to an in-process caller, or to gRPC.
class ReplySink {
 public:
  virtual ~ReplySink() = default;
  // `reply` is null when `status` is not OK.
  virtual void Reply(const Status& status, const google::protobuf::Message* reply) = 0;
  CallContext context;
};

template <typename ReplyT>
class Responder {
 public:
  explicit Responder(std::unique_ptr<ReplySink> sink) : sink_(std::move(sink)) {}
  Responder(Responder&&) noexcept = default;
  Responder& operator=(Responder&&) noexcept = default;
  ~Responder() {
    if (sink_) sink_->Reply(Status(StatusCode::kInternal, "handler dropped the call"), nullptr);
  }

  void operator()(const ReplyT& reply) {
    auto sink = std::move(sink_);
    if (sink) sink->Reply(Status(), &reply);
  }
  void Fail(const Status& status) {
    auto sink = std::move(sink_);
    if (sink) sink->Reply(status.ok() ? Status(StatusCode::kUnknown, "") : status, nullptr);
  }
  // Answers with `status` if it is an error, else with `reply`.
  void Finish(const Status& status, const ReplyT& reply) {
    if (status.ok()) {
      (*this)(reply);
    } else {
      Fail(status);
    }
  }
  bool answered() const { return sink_ == nullptr; }
  // REQUIRES: !answered().
  const CallContext& context() const { return sink_->context; }

 private:
  std::unique_ptr<ReplySink> sink_;
};

}  // namespace strata::ipc
