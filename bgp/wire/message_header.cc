#include "bgp/wire/message_header.h"

#include <algorithm>

namespace strata::bgp {

size_t MinMessageLength(MessageType type) {
  switch (type) {
    case MessageType::kOpen:
      return 29;
    case MessageType::kUpdate:
      return 23;
    case MessageType::kNotification:
      return 21;
    case MessageType::kKeepalive:
      return 19;
    case MessageType::kRouteRefresh:
      return 19;  // RFC 7313: a wrong ROUTE-REFRESH length has its own error
  }
  return kHeaderSize;
}

WireResult<MessageHeader> DecodeHeader(std::span<const uint8_t> bytes, size_t max_message_size) {
  auto bad_length = [](uint16_t len) {
    return MakeNotification(ErrorCode::kMessageHeader, HeaderError::kBadMessageLength,
                            {static_cast<uint8_t>(len >> 8), static_cast<uint8_t>(len)});
  };
  if (bytes.size() < kHeaderSize) return bad_length(static_cast<uint16_t>(bytes.size()));
  if (!std::all_of(bytes.begin(), bytes.begin() + kMarkerSize,
                   [](uint8_t b) { return b == 0xff; })) {
    return MakeNotification(ErrorCode::kMessageHeader, HeaderError::kConnectionNotSynchronized);
  }
  const uint16_t length = static_cast<uint16_t>((bytes[16] << 8) | bytes[17]);
  const uint8_t raw_type = bytes[18];
  if (raw_type < 1 || raw_type > 5) {
    return MakeNotification(ErrorCode::kMessageHeader, HeaderError::kBadMessageType, {raw_type});
  }
  const auto type = static_cast<MessageType>(raw_type);
  size_t max = max_message_size;
  if (type == MessageType::kOpen || type == MessageType::kKeepalive) {
    max = std::min(max, kMaxMessageSize);
  }
  if (length < MinMessageLength(type) || length > max) return bad_length(length);
  if (type == MessageType::kKeepalive && length != kHeaderSize) return bad_length(length);
  return MessageHeader{length, type};
}

void BeginMessage(ByteWriter& w, MessageType type) {
  for (size_t i = 0; i < kMarkerSize; ++i) w.U8(0xff);
  w.U16(0);
  w.U8(static_cast<uint8_t>(type));
}

void FinishMessage(ByteWriter& w, size_t start) {
  w.PatchU16(start + kMarkerSize, static_cast<uint16_t>(w.size() - start));
}

std::vector<uint8_t> EncodeKeepalive() {
  ByteWriter w;
  BeginMessage(w, MessageType::kKeepalive);
  FinishMessage(w);
  return w.Take();
}

}  // namespace strata::bgp
