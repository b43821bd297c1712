#include "bgp/wire/message_codec.h"

namespace strata::bgp {

WireResult<Message> DecodeMessage(std::span<const uint8_t> message, const CodecOptions& options) {
  auto header = DecodeHeader(message, options.max_message_size());
  if (!header.ok()) return header.error();
  if (header->length != message.size()) {
    const auto len = static_cast<uint16_t>(header->length);
    return MakeNotification(ErrorCode::kMessageHeader, HeaderError::kBadMessageLength,
                            {static_cast<uint8_t>(len >> 8), static_cast<uint8_t>(len)});
  }
  const auto body = message.subspan(kHeaderSize);
  switch (header->type) {
    case MessageType::kOpen: {
      auto open = DecodeOpenBody(body);
      if (!open.ok()) return open.error();
      return Message(std::move(open).value());
    }
    case MessageType::kUpdate:
      return Message(DecodeUpdateBody(body, options));
    case MessageType::kNotification: {
      auto n = DecodeNotificationBody(body);
      return Message(ReceivedNotification{
          n.value_or(NotificationMessage{static_cast<uint8_t>(ErrorCode::kCease), 0, {}})});
    }
    case MessageType::kKeepalive:
      return Message(KeepaliveMessage{});
    case MessageType::kRouteRefresh: {
      auto rr = DecodeRouteRefresh(message);
      if (!rr.ok()) return rr.error();
      return Message(rr.value());
    }
  }
  return MakeNotification(ErrorCode::kMessageHeader, HeaderError::kBadMessageType);
}

}  // namespace strata::bgp
