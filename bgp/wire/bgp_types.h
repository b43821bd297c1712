// BGP-4 protocol numbers shared by every message codec: message types, attribute type codes and
// flags, address families, NOTIFICATION error codes and subcodes (RFC 4271 section 4 and 6, with
// the later RFCs named beside each value). Names for logs live in notification.h.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "common/ip_addr.h"

namespace strata::bgp {

inline constexpr size_t kHeaderSize = 19;
inline constexpr size_t kMarkerSize = 16;
inline constexpr size_t kMaxMessageSize = 4096;           // RFC 4271
inline constexpr size_t kMaxExtendedMessageSize = 65535;  // RFC 8654
inline constexpr uint8_t kBgpVersion = 4;
inline constexpr uint16_t kAsTrans = 23456;  // RFC 6793

enum class MessageType : uint8_t {
  kOpen = 1,
  kUpdate = 2,
  kNotification = 3,
  kKeepalive = 4,
  kRouteRefresh = 5,  // RFC 2918
};

// Path attribute flag bits (RFC 4271 4.3).
namespace attr_flag {
inline constexpr uint8_t kOptional = 0x80;
inline constexpr uint8_t kTransitive = 0x40;
inline constexpr uint8_t kPartial = 0x20;
inline constexpr uint8_t kExtendedLength = 0x10;
}  // namespace attr_flag

enum class AttrCode : uint8_t {
  kOrigin = 1,
  kAsPath = 2,
  kNextHop = 3,
  kMed = 4,
  kLocalPref = 5,
  kAtomicAggregate = 6,
  kAggregator = 7,
  kCommunities = 8,           // RFC 1997
  kOriginatorId = 9,          // RFC 4456
  kClusterList = 10,          // RFC 4456
  kMpReachNlri = 14,          // RFC 4760
  kMpUnreachNlri = 15,        // RFC 4760
  kExtendedCommunities = 16,  // RFC 4360
  kAs4Path = 17,              // RFC 6793
  kAs4Aggregator = 18,        // RFC 6793
  kLargeCommunities = 32,     // RFC 8092
};

// Address family and subsequent address family (RFC 4760).
struct AfiSafi {
  uint16_t afi = 0;
  uint8_t safi = 0;

  // "ipv4-unicast", "ipv6-unicast" or "afi/safi" numerically.
  std::string ToString() const;
  // The IP family of prefixes of this AFI (1 or 2), or nullopt for other AFIs.
  std::optional<Family> IpFamily() const;
  friend auto operator<=>(const AfiSafi&, const AfiSafi&) = default;
};

inline constexpr uint16_t kAfiIpv4 = 1;
inline constexpr uint16_t kAfiIpv6 = 2;
inline constexpr uint8_t kSafiUnicast = 1;
inline constexpr AfiSafi kIpv4Unicast{kAfiIpv4, kSafiUnicast};
inline constexpr AfiSafi kIpv6Unicast{kAfiIpv6, kSafiUnicast};

// The unicast AFI/SAFI of an IP family.
inline AfiSafi UnicastOf(Family f) { return f == Family::kIpv4 ? kIpv4Unicast : kIpv6Unicast; }

// NOTIFICATION error codes (RFC 4271 4.5).
enum class ErrorCode : uint8_t {
  kMessageHeader = 1,
  kOpenMessage = 2,
  kUpdateMessage = 3,
  kHoldTimerExpired = 4,
  kFsm = 5,
  kCease = 6,
  kRouteRefresh = 7,  // RFC 7313
};

enum class HeaderError : uint8_t {
  kConnectionNotSynchronized = 1,
  kBadMessageLength = 2,
  kBadMessageType = 3,
};

enum class OpenError : uint8_t {
  kUnspecific = 0,
  kUnsupportedVersion = 1,
  kBadPeerAs = 2,
  kBadBgpIdentifier = 3,
  kUnsupportedOptionalParameter = 4,
  kUnacceptableHoldTime = 6,
  kUnsupportedCapability = 7,  // RFC 5492
  kRoleMismatch = 11,          // RFC 9234
};

enum class UpdateError : uint8_t {
  kMalformedAttributeList = 1,
  kUnrecognizedWellKnownAttribute = 2,
  kMissingWellKnownAttribute = 3,
  kAttributeFlagsError = 4,
  kAttributeLengthError = 5,
  kInvalidOrigin = 6,
  kInvalidNextHop = 8,
  kOptionalAttributeError = 9,
  kInvalidNetworkField = 10,
  kMalformedAsPath = 11,
};

enum class FsmError : uint8_t {  // RFC 6608
  kUnspecified = 0,
  kUnexpectedInOpenSent = 1,
  kUnexpectedInOpenConfirm = 2,
  kUnexpectedInEstablished = 3,
};

enum class CeaseSubcode : uint8_t {  // RFC 4486, RFC 8538, RFC 9384
  kMaxPrefixes = 1,
  kAdministrativeShutdown = 2,
  kPeerDeconfigured = 3,
  kAdministrativeReset = 4,
  kConnectionRejected = 5,
  kOtherConfigurationChange = 6,
  kConnectionCollisionResolution = 7,
  kOutOfResources = 8,
  kHardReset = 9,
  kBfdDown = 10,
};

enum class RouteRefreshError : uint8_t {  // RFC 7313
  kInvalidMessageLength = 1,
};

// The relation to the peer, which changes how some attributes are checked (RFC 7606 7.2, 7.5).
enum class PeerType : uint8_t {
  kInternal,        // same AS
  kConfedExternal,  // another member AS of our confederation
  kExternal,        // outside the confederation
};

}  // namespace strata::bgp
