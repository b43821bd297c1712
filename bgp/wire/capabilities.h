// Capabilities: what a speaker advertises in its OPEN (RFC 5492), decoded into fields.
//
// Known capabilities: multiprotocol (1, RFC 4760), route refresh (2, RFC 2918), extended message
// (6, RFC 8654), graceful restart (64, RFC 4724 with the N bit of RFC 8538), 4-octet AS (65,
// RFC 6793), ADD-PATH (69, RFC 7911; advertised only, NLRI path ids are not decoded), enhanced
// route refresh (70, RFC 7313), long-lived graceful restart (71, RFC 9494). Others are kept raw so
// they can be logged, and otherwise ignored as RFC 5492 asks. Thread-compatible value type.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bgp/wire/bgp_types.h"
#include "bgp/wire/byte_writer.h"
#include "bgp/wire/wire_result.h"

namespace strata::bgp {

enum class CapabilityCode : uint8_t {
  kMultiprotocol = 1,
  kRouteRefresh = 2,
  kExtendedMessage = 6,
  kGracefulRestart = 64,
  kFourOctetAs = 65,
  kAddPath = 69,
  kEnhancedRouteRefresh = 70,
  kLongLivedGracefulRestart = 71,
};

struct GracefulRestartCapability {
  struct Family {
    AfiSafi afi_safi;
    bool forwarding_preserved = false;  // F bit
    friend auto operator<=>(const Family&, const Family&) = default;
  };
  bool restarting = false;            // R bit
  bool notification_support = false;  // N bit (RFC 8538)
  uint16_t restart_time = 0;          // seconds, 12 bits
  std::vector<Family> families;
  friend bool operator==(const GracefulRestartCapability&,
                         const GracefulRestartCapability&) = default;
};

// RFC 9494 3.1: per family, the F bit and the long-lived stale time (seconds, 24 bits) the
// sender asks its peer to keep its routes once the graceful restart time is over.
struct LongLivedGracefulRestartCapability {
  struct Family {
    AfiSafi afi_safi;
    bool forwarding_preserved = false;  // F bit
    uint32_t stale_time = 0;            // seconds, 24 bits
    friend auto operator<=>(const Family&, const Family&) = default;
  };
  static constexpr uint32_t kMaxStaleTime = 0xffffff;
  std::vector<Family> families;
  friend bool operator==(const LongLivedGracefulRestartCapability&,
                         const LongLivedGracefulRestartCapability&) = default;
};

struct AddPathFamily {
  AfiSafi afi_safi;
  uint8_t send_receive = 0;  // 1 receive, 2 send, 3 both
  friend auto operator<=>(const AddPathFamily&, const AddPathFamily&) = default;
};

struct RawCapability {
  uint8_t code = 0;
  std::vector<uint8_t> value;
  friend bool operator==(const RawCapability&, const RawCapability&) = default;
};

struct Capabilities {
  std::vector<AfiSafi> multiprotocol;
  bool route_refresh = false;
  bool enhanced_route_refresh = false;
  bool extended_message = false;
  std::optional<uint32_t> four_octet_as;
  std::optional<GracefulRestartCapability> graceful_restart;
  std::vector<AddPathFamily> add_path;
  std::optional<LongLivedGracefulRestartCapability> long_lived_graceful_restart;
  std::vector<RawCapability> unknown;

  bool Supports(AfiSafi f) const;
  // "mp(ipv4-unicast,ipv6-unicast) rr err as4(65551) ext-msg gr(120s) llgr unknown(73)".
  std::string ToString() const;
  friend bool operator==(const Capabilities&, const Capabilities&) = default;
};

// Appends each capability as code, length, value.
void EncodeCapabilities(const Capabilities& caps, ByteWriter& w);
// Decodes a capabilities optional parameter's value into `caps` (several parameters may each
// carry some). A truncated or wrongly sized capability (an LLGR value not a multiple of 7 bytes)
// is an OPEN Message Error (Unspecific).
WireResult<bool> DecodeCapabilities(std::span<const uint8_t> value, Capabilities& caps);

}  // namespace strata::bgp
