#include "bgp/policy/policy_community.h"

#include <charconv>
#include <optional>
#include <vector>

#include "bgp/policy/policy.h"
#include "common/ip_addr.h"

namespace strata::bgp {
namespace {

std::optional<uint64_t> Number(std::string_view s, uint64_t max) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v > max) return std::nullopt;
  return v;
}

std::vector<std::string_view> Split(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t colon; (colon = text.find(':', start)) != std::string_view::npos; start = colon + 1) {
    out.push_back(text.substr(start, colon - start));
  }
  out.push_back(text.substr(start));
  return out;
}

// A field of a pattern: nullopt with `wild` set for "*".
std::optional<uint64_t> Field(std::string_view s, uint64_t max, bool& wild) {
  wild = s == "*";
  return wild ? std::optional<uint64_t>(0) : Number(s, max);
}

}  // namespace

bool LargeCommunityPattern::Matches(const LargeCommunity& c) const {
  return (any_global || c.global_admin == value.global_admin) &&
         (any_local1 || c.local1 == value.local1) && (any_local2 || c.local2 == value.local2);
}

StatusOr<CommunityPattern> ParseCommunityPattern(std::string_view text) {
  const auto parts = Split(text);
  if (parts.size() == 2 && (parts[0] == "*" || parts[1] == "*")) {
    bool wild_hi = false;
    bool wild_lo = false;
    auto hi = Field(parts[0], 0xFFFF, wild_hi);
    auto lo = Field(parts[1], 0xFFFF, wild_lo);
    if (hi && lo) {
      return CommunityPattern{static_cast<uint32_t>((*hi << 16) | *lo),
                              (wild_hi ? 0u : 0xFFFF0000u) | (wild_lo ? 0u : 0xFFFFu)};
    }
  }
  auto exact = ParseCommunity(text);
  if (!exact.ok()) {
    return InvalidArgument("community pattern '" + std::string(text) +
                           "' is not ASN:VALUE (0-65535 or * each)");
  }
  return CommunityPattern{*exact, 0xFFFFFFFFu};
}

StatusOr<LargeCommunityPattern> ParseLargeCommunityPattern(std::string_view text) {
  const auto parts = Split(text);
  LargeCommunityPattern p;
  if (parts.size() == 3) {
    auto g = Field(parts[0], 0xFFFFFFFFu, p.any_global);
    auto l1 = Field(parts[1], 0xFFFFFFFFu, p.any_local1);
    auto l2 = Field(parts[2], 0xFFFFFFFFu, p.any_local2);
    if (g && l1 && l2) {
      p.value = {static_cast<uint32_t>(*g), static_cast<uint32_t>(*l1), static_cast<uint32_t>(*l2)};
      return p;
    }
  }
  return InvalidArgument("large community '" + std::string(text) +
                         "' is not GLOBAL:LOCAL1:LOCAL2 (32-bit numbers or *)");
}

StatusOr<LargeCommunity> ParseLargeCommunity(std::string_view text) {
  auto p = ParseLargeCommunityPattern(text);
  if (p.ok() && !p->any_global && !p->any_local1 && !p->any_local2) return p->value;
  return InvalidArgument("large community '" + std::string(text) +
                         "' is not GLOBAL:LOCAL1:LOCAL2 (32-bit numbers)");
}

StatusOr<uint64_t> ParseExtCommunity(std::string_view text) {
  const auto bad = [&] {
    return InvalidArgument("extended community '" + std::string(text) +
                           "' is not rt|soo:ASN:N, rt|soo:IPV4:N or 0x followed by 16 hex digits");
  };
  if (text.starts_with("0x") && text.size() == 18) {
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), v, 16);
    if (ec != std::errc() || end != text.data() + text.size()) return bad();
    return v;
  }
  const auto parts = Split(text);
  if (parts.size() != 3 || (parts[0] != "rt" && parts[0] != "soo")) return bad();
  const uint64_t subtype = parts[0] == "rt" ? 0x02 : 0x03;
  if (auto ip = IpAddr::Parse(parts[1]); ip.ok() && ip->is_v4()) {  // IPv4 address specific
    auto n = Number(parts[2], 0xFFFF);
    if (!n) return bad();
    return (uint64_t{0x01} << 56) | (subtype << 48) | (uint64_t{ip->v4_host_order()} << 16) | *n;
  }
  auto asn = Number(parts[1], 0xFFFFFFFFu);
  if (!asn) return bad();
  if (*asn <= 0xFFFF) {  // two-octet AS specific
    auto n = Number(parts[2], 0xFFFFFFFFu);
    if (!n) return bad();
    return (subtype << 48) | (*asn << 32) | *n;
  }
  auto n = Number(parts[2], 0xFFFF);  // four-octet AS specific (RFC 5668)
  if (!n) return bad();
  return (uint64_t{0x02} << 56) | (subtype << 48) | (*asn << 16) | *n;
}

StatusOr<Origin> ParseOrigin(std::string_view text) {
  if (text == "igp") return Origin::kIgp;
  if (text == "egp") return Origin::kEgp;
  if (text == "incomplete") return Origin::kIncomplete;
  return InvalidArgument("origin '" + std::string(text) + "' is not igp, egp or incomplete");
}

}  // namespace strata::bgp
