// Community values and patterns of the policy language: standard (RFC 1997), extended (RFC 4360)
// and large (RFC 8092) communities as text, and the patterns that community sets and delete
// actions use, plus the ORIGIN names.
//
// Text forms: standard "65001:100" (or a 32-bit number, or no-export, no-advertise,
// no-export-subconfed); large "65001:1:2"; extended "rt:ASN:N", "rt:IPV4:N", "soo:ASN:N",
// "soo:IPV4:N" (an ASN over 65535 takes the 4-octet-AS form, RFC 5668) or the raw 8 octets
// "0x0002fde800000064". A pattern is a value whose fields may be "*" ("65001:*" matches every
// community of AS 65001; "*:*:5" every large community whose second local part is 5).
// Threading: any (values).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "bgp/wire/path_attributes.h"
#include "common/status.h"

namespace strata::bgp {

// A standard community matches when (c & mask) == value.
struct CommunityPattern {
  uint32_t value = 0;
  uint32_t mask = 0xFFFFFFFFu;
  bool Matches(uint32_t c) const { return (c & mask) == value; }
  friend bool operator==(const CommunityPattern&, const CommunityPattern&) = default;
};

// A large community matches when every field not wild is equal.
struct LargeCommunityPattern {
  LargeCommunity value;
  bool any_global = false;
  bool any_local1 = false;
  bool any_local2 = false;
  bool Matches(const LargeCommunity& c) const;
  friend bool operator==(const LargeCommunityPattern&, const LargeCommunityPattern&) = default;
};

StatusOr<CommunityPattern> ParseCommunityPattern(std::string_view text);
StatusOr<LargeCommunity> ParseLargeCommunity(std::string_view text);
StatusOr<LargeCommunityPattern> ParseLargeCommunityPattern(std::string_view text);
StatusOr<uint64_t> ParseExtCommunity(std::string_view text);
// "igp", "egp" or "incomplete".
StatusOr<Origin> ParseOrigin(std::string_view text);

}  // namespace strata::bgp
