// ChannelReplySink: answers a call that arrived on a Channel by writing a reply frame to it.
// If the channel closed meanwhile the answer is dropped (the caller has already been told).
#pragma once

#include <memory>

#include "libipc/channel.h"
#include "libipc/responder.h"

namespace strata::ipc {

class ChannelReplySink : public ReplySink {
 public:
  ChannelReplySink(const std::shared_ptr<Channel>& channel, uint64_t id) : id_(id) {
    context.channel = channel;
  }
  void Reply(const Status& status, const google::protobuf::Message* reply) override {
    auto& ch = context.channel;
    if (!ch || ch->closed()) return;
    ch->SendReply(id_, status, [reply](std::string& out) {
      if (reply != nullptr) reply->AppendToString(&out);
    });
  }

 private:
  uint64_t id_;
};

}  // namespace strata::ipc
