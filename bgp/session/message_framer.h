// MessageFramer: cuts the TCP byte stream of one connection into whole BGP messages.
//
// Bytes are appended as they arrive; Next() returns each complete message once its header
// (checked by DecodeHeader: marker, length, type) says it is all there. A bad header yields the
// NOTIFICATION to send, after which the stream is unusable and the framer stays failed. Every
// byte is untrusted: nothing is read past what was appended. Thread-compatible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "bgp/wire/wire_result.h"

namespace strata::bgp {

class MessageFramer {
 public:
  void Append(std::span<const uint8_t> bytes);

  enum class Result : uint8_t { kNeedMore, kMessage, kError };
  // kMessage: `message` is the next whole message (header included), valid until the next
  // call of Append or Next. kError: error() is the NOTIFICATION to send; the error is sticky.
  Result Next(size_t max_message_size, std::span<const uint8_t>& message);
  // REQUIRES: failed().
  const NotificationMessage& error() const { return *error_; }

  size_t buffered() const { return buffer_.size() - start_; }
  bool failed() const { return error_.has_value(); }

 private:
  std::vector<uint8_t> buffer_;
  size_t start_ = 0;        // first byte not yet returned
  size_t pending_pop_ = 0;  // length of the message returned by the last Next()
  std::optional<NotificationMessage> error_;
};

}  // namespace strata::bgp
