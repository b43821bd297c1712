#include "bgp/wire/notification.h"

#include <array>
#include <utility>

#include "bgp/wire/byte_writer.h"
#include "bgp/wire/message_header.h"
#include "common/printable.h"

namespace strata::bgp {
namespace {

struct SubcodeName {
  uint8_t code;
  uint8_t subcode;
  const char* name;
};

constexpr std::array<const char*, 8> kCodeNames = {
    nullptr,
    "Message Header Error",
    "OPEN Message Error",
    "UPDATE Message Error",
    "Hold Timer Expired",
    "Finite State Machine Error",
    "Cease",
    "ROUTE-REFRESH Message Error",
};

constexpr SubcodeName kSubcodeNames[] = {
    {1, 1, "Connection Not Synchronized"},
    {1, 2, "Bad Message Length"},
    {1, 3, "Bad Message Type"},
    {2, 0, "Unspecific"},
    {2, 1, "Unsupported Version Number"},
    {2, 2, "Bad Peer AS"},
    {2, 3, "Bad BGP Identifier"},
    {2, 4, "Unsupported Optional Parameter"},
    {2, 6, "Unacceptable Hold Time"},
    {2, 7, "Unsupported Capability"},
    {2, 11, "Role Mismatch"},
    {3, 1, "Malformed Attribute List"},
    {3, 2, "Unrecognized Well-known Attribute"},
    {3, 3, "Missing Well-known Attribute"},
    {3, 4, "Attribute Flags Error"},
    {3, 5, "Attribute Length Error"},
    {3, 6, "Invalid ORIGIN Attribute"},
    {3, 8, "Invalid NEXT_HOP Attribute"},
    {3, 9, "Optional Attribute Error"},
    {3, 10, "Invalid Network Field"},
    {3, 11, "Malformed AS_PATH"},
    {5, 0, "Unspecified Error"},
    {5, 1, "Receive Unexpected Message in OpenSent State"},
    {5, 2, "Receive Unexpected Message in OpenConfirm State"},
    {5, 3, "Receive Unexpected Message in Established State"},
    {6, 1, "Maximum Number of Prefixes Reached"},
    {6, 2, "Administrative Shutdown"},
    {6, 3, "Peer De-configured"},
    {6, 4, "Administrative Reset"},
    {6, 5, "Connection Rejected"},
    {6, 6, "Other Configuration Change"},
    {6, 7, "Connection Collision Resolution"},
    {6, 8, "Out of Resources"},
    {6, 9, "Hard Reset"},
    {6, 10, "BFD Down"},
    {7, 1, "Invalid Message Length"},
};

bool CarriesShutdownCommunication(const NotificationMessage& n) {
  return n.code == static_cast<uint8_t>(ErrorCode::kCease) &&
         (n.subcode == static_cast<uint8_t>(CeaseSubcode::kAdministrativeShutdown) ||
          n.subcode == static_cast<uint8_t>(CeaseSubcode::kAdministrativeReset));
}

}  // namespace

std::string ErrorCodeName(uint8_t code) {
  if (code < kCodeNames.size() && kCodeNames[code] != nullptr) return kCodeNames[code];
  return "error code " + std::to_string(code);
}

std::string ErrorSubcodeName(uint8_t code, uint8_t subcode) {
  for (const auto& s : kSubcodeNames) {
    if (s.code == code && s.subcode == subcode) return s.name;
  }
  return "subcode " + std::to_string(subcode);
}

std::string NotificationMessage::ToString() const {
  std::string s = ErrorCodeName(code) + " / " + ErrorSubcodeName(code, subcode);
  if (auto text = ShutdownCommunication(*this); text && !text->empty()) {
    s += " \"" + Printable(*text) + "\"";  // a peer's words: no control characters
  } else if (!data.empty()) {
    s += " (data " + std::to_string(data.size()) + " bytes)";
  }
  return s;
}

std::vector<uint8_t> EncodeNotification(const NotificationMessage& n) {
  ByteWriter w;
  BeginMessage(w, MessageType::kNotification);
  w.U8(n.code);
  w.U8(n.subcode);
  // Data that would overflow even an extended message is cut; it is diagnostic only.
  const size_t room = kMaxExtendedMessageSize - w.size();
  w.Bytes(std::span<const uint8_t>(n.data).first(std::min(room, n.data.size())));
  FinishMessage(w);
  return w.Take();
}

std::optional<NotificationMessage> DecodeNotificationBody(std::span<const uint8_t> body) {
  if (body.size() < 2) return std::nullopt;
  return NotificationMessage{body[0], body[1], std::vector<uint8_t>(body.begin() + 2, body.end())};
}

NotificationMessage MakeShutdownNotification(CeaseSubcode subcode, std::string_view text) {
  size_t len = std::min(text.size(), kMaxShutdownCommunication);
  // Back up over UTF-8 continuation bytes so that a character is never split.
  if (len < text.size()) {
    while (len > 0 && (static_cast<uint8_t>(text[len]) & 0xc0) == 0x80) --len;
  }
  std::vector<uint8_t> data;
  data.push_back(static_cast<uint8_t>(len));
  data.insert(data.end(), text.begin(), text.begin() + static_cast<std::ptrdiff_t>(len));
  return MakeNotification(ErrorCode::kCease, subcode, std::move(data));
}

std::optional<std::string> ShutdownCommunication(const NotificationMessage& n) {
  if (!CarriesShutdownCommunication(n) || n.data.empty()) return std::nullopt;
  const size_t len = n.data[0];
  if (len + 1 > n.data.size()) return std::nullopt;
  return std::string(n.data.begin() + 1, n.data.begin() + 1 + static_cast<std::ptrdiff_t>(len));
}

}  // namespace strata::bgp
