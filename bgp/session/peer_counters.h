// PeerCounters: what `show bgp neighbor` reports about one session: messages in and out per
// type, UPDATE outcomes, NOTIFICATIONs with the last one each way, state transitions, flaps and
// the time the session came up. Updated only by SessionFsm. Thread-compatible value type.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "bgp/wire/bgp_types.h"
#include "bgp/wire/error_action.h"
#include "bgp/wire/notification.h"

namespace strata::bgp {

struct PeerCounters {
  static constexpr size_t kNumTypes = 6;  // indexed by MessageType value (1..5)

  std::array<uint64_t, kNumTypes> messages_in{};
  std::array<uint64_t, kNumTypes> messages_out{};
  std::array<uint64_t, kNumErrorActions> update_outcomes{};  // received UPDATEs per outcome
  uint64_t end_of_rib_in = 0;
  uint64_t end_of_rib_out = 0;
  uint64_t state_transitions = 0;
  uint64_t established_count = 0;  // times the session reached Established
  uint64_t flaps = 0;              // times it left Established
  uint64_t connect_attempts = 0;
  uint64_t collisions_resolved = 0;
  std::optional<NotificationMessage> last_notification_sent;
  std::optional<NotificationMessage> last_notification_received;
  std::string last_down_reason;
  std::optional<std::chrono::steady_clock::time_point> established_since;

  uint64_t in(MessageType t) const { return messages_in[static_cast<size_t>(t)]; }
  uint64_t out(MessageType t) const { return messages_out[static_cast<size_t>(t)]; }
  void CountIn(MessageType t) { ++messages_in[static_cast<size_t>(t)]; }
  void CountOut(MessageType t) { ++messages_out[static_cast<size_t>(t)]; }
  // Zero when not Established.
  std::chrono::seconds Uptime(std::chrono::steady_clock::time_point now) const;
  // Multi-line text for `show bgp neighbor`.
  std::string ToString(std::chrono::steady_clock::time_point now) const;
};

}  // namespace strata::bgp
