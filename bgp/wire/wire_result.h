// WireResult<T>: a decoded value, or the NOTIFICATION that a malformed message calls for.
//
// The error side is the message to send to the peer before closing (RFC 4271 6), which the
// speaker can also log. Thread-compatible value type.
#pragma once

#include <utility>
#include <variant>

#include "bgp/wire/notification.h"

namespace strata::bgp {

template <typename T>
class [[nodiscard]] WireResult {
 public:
  WireResult(T value) : v_(std::move(value)) {}                    // NOLINT: implicit
  WireResult(NotificationMessage error) : v_(std::move(error)) {}  // NOLINT: implicit

  bool ok() const { return std::holds_alternative<T>(v_); }
  // REQUIRES: ok().
  const T& value() const& { return std::get<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  const T* operator->() const { return &value(); }
  const T& operator*() const& { return value(); }
  // REQUIRES: !ok().
  const NotificationMessage& error() const { return std::get<NotificationMessage>(v_); }

 private:
  std::variant<T, NotificationMessage> v_;
};

}  // namespace strata::bgp
