// SessionState: the six states of the BGP finite state machine (RFC 4271 8.2.2), as shown by
// `show bgp neighbor`. Value type.
#pragma once

#include <cstdint>
#include <string_view>

namespace strata::bgp {

enum class SessionState : uint8_t {
  kIdle,
  kConnect,  // an outgoing connection is being set up
  kActive,   // waiting for a connection (passive, or after a failed attempt)
  kOpenSent,
  kOpenConfirm,
  kEstablished,
};

inline std::string_view SessionStateName(SessionState s) {
  switch (s) {
    case SessionState::kIdle:
      return "Idle";
    case SessionState::kConnect:
      return "Connect";
    case SessionState::kActive:
      return "Active";
    case SessionState::kOpenSent:
      return "OpenSent";
    case SessionState::kOpenConfirm:
      return "OpenConfirm";
    case SessionState::kEstablished:
      return "Established";
  }
  return "Unknown";
}

}  // namespace strata::bgp
