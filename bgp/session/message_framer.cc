#include "bgp/session/message_framer.h"

#include "bgp/wire/message_header.h"

namespace strata::bgp {

void MessageFramer::Append(std::span<const uint8_t> bytes) {
  start_ += pending_pop_;
  pending_pop_ = 0;
  // Compact once the consumed prefix dominates, so the buffer stays about one message long.
  if (start_ > 0 && start_ * 2 >= buffer_.size()) {
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(start_));
    start_ = 0;
  }
  buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
}

MessageFramer::Result MessageFramer::Next(size_t max_message_size,
                                          std::span<const uint8_t>& message) {
  start_ += pending_pop_;
  pending_pop_ = 0;
  if (error_) return Result::kError;
  const std::span<const uint8_t> rest(buffer_.data() + start_, buffer_.size() - start_);
  if (rest.size() < kHeaderSize) return Result::kNeedMore;
  auto header = DecodeHeader(rest.first(kHeaderSize), max_message_size);
  if (!header.ok()) {
    error_ = header.error();
    return Result::kError;
  }
  if (rest.size() < header->length) return Result::kNeedMore;
  pending_pop_ = header->length;
  message = rest.first(header->length);
  return Result::kMessage;
}

}  // namespace strata::bgp
