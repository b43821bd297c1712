#include "bgp/session/peer_counters.h"

namespace strata::bgp {

std::chrono::seconds PeerCounters::Uptime(std::chrono::steady_clock::time_point now) const {
  if (!established_since) return std::chrono::seconds(0);
  return std::chrono::duration_cast<std::chrono::seconds>(now - *established_since);
}

std::string PeerCounters::ToString(std::chrono::steady_clock::time_point now) const {
  static constexpr std::array<const char*, kNumTypes> kNames = {
      "", "open", "update", "notification", "keepalive", "route-refresh"};
  std::string s = "messages in/out:";
  for (size_t t = 1; t < kNumTypes; ++t) {
    s += std::string(" ") + kNames[t] + " " + std::to_string(messages_in[t]) + "/" +
         std::to_string(messages_out[t]);
  }
  s += "\nupdate outcomes:";
  for (size_t a = 0; a < kNumErrorActions; ++a) {
    s += " " + std::string(ErrorActionName(static_cast<ErrorAction>(a))) + " " +
         std::to_string(update_outcomes[a]);
  }
  s += "\nend-of-rib in/out: " + std::to_string(end_of_rib_in) + "/" +
       std::to_string(end_of_rib_out);
  s += "\nuptime " + std::to_string(Uptime(now).count()) + "s, established " +
       std::to_string(established_count) + ", flaps " + std::to_string(flaps) + ", transitions " +
       std::to_string(state_transitions) + ", connect attempts " +
       std::to_string(connect_attempts) + ", collisions " + std::to_string(collisions_resolved);
  if (last_notification_sent) s += "\nlast error sent: " + last_notification_sent->ToString();
  if (last_notification_received) {
    s += "\nlast error received: " + last_notification_received->ToString();
  }
  if (!last_down_reason.empty()) s += "\nlast down reason: " + last_down_reason;
  return s;
}

}  // namespace strata::bgp
