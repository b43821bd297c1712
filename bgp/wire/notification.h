// NotificationMessage: the BGP NOTIFICATION message (RFC 4271 4.5) and the names of its codes.
//
// Decoders report every protocol error as the NOTIFICATION the speaker should send, so the error
// value and the wire message are one type. Also covers the shutdown communication carried by
// Cease/Administrative Shutdown and Reset (RFC 8203, lengthened to 255 bytes by RFC 9003).
// Thread-compatible value type.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bgp/wire/bgp_types.h"

namespace strata::bgp {

struct NotificationMessage {
  uint8_t code = 0;
  uint8_t subcode = 0;
  std::vector<uint8_t> data;

  // "UPDATE Message Error / Malformed AS_PATH (data 3 bytes)".
  std::string ToString() const;
  friend bool operator==(const NotificationMessage&, const NotificationMessage&) = default;
};

template <typename Subcode>
NotificationMessage MakeNotification(ErrorCode code, Subcode subcode,
                                     std::vector<uint8_t> data = {}) {
  return NotificationMessage{static_cast<uint8_t>(code), static_cast<uint8_t>(subcode),
                             std::move(data)};
}

// "UPDATE Message Error"; "error code N" when unknown.
std::string ErrorCodeName(uint8_t code);
// "Malformed AS_PATH"; "subcode N" when unknown.
std::string ErrorSubcodeName(uint8_t code, uint8_t subcode);

// The whole message, header included.
std::vector<uint8_t> EncodeNotification(const NotificationMessage& n);
// Decodes the body (after the 19-byte header). Never fails: a body shorter than two bytes is
// reported as nullopt, since a broken NOTIFICATION is answered by closing, not by another one.
std::optional<NotificationMessage> DecodeNotificationBody(std::span<const uint8_t> body);

// The longest shutdown communication (RFC 9003).
inline constexpr size_t kMaxShutdownCommunication = 255;
// Cease with subcode Administrative Shutdown or Reset and a communication; text longer than
// 255 bytes is cut at a UTF-8 character boundary.
NotificationMessage MakeShutdownNotification(CeaseSubcode subcode, std::string_view text);
// The communication of a Cease/Administrative Shutdown or Reset, or nullopt when there is none or
// its length byte disagrees with the data.
std::optional<std::string> ShutdownCommunication(const NotificationMessage& n);

}  // namespace strata::bgp
