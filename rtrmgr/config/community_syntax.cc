#include "rtrmgr/config/community_syntax.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/ip_addr.h"

namespace strata::rtrmgr {
namespace {

std::vector<std::string_view> Split(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t colon; (colon = text.find(':', start)) != std::string_view::npos; start = colon + 1) {
    out.push_back(text.substr(start, colon - start));
  }
  out.push_back(text.substr(start));
  return out;
}

bool Number(std::string_view s, uint64_t max) {
  if (s.empty() || s.size() > 10) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  return v <= max;
}

bool Field(std::string_view s, uint64_t max) { return s == "*" || Number(s, max); }

std::string Bad(std::string_view value, const char* type, const char* form) {
  return "'" + std::string(value) + "' is not a valid " + type + " (" + form + ")";
}

}  // namespace

std::string CheckCommunity(std::string_view value) {
  if (value == "no-export" || value == "no-advertise" || value == "no-export-subconfed") return "";
  const auto parts = Split(value);
  if (parts.size() == 1 && Number(parts[0], UINT32_MAX)) return "";
  if (parts.size() == 2 && Field(parts[0], 0xFFFF) && Field(parts[1], 0xFFFF)) return "";
  return Bad(value, "community", "ASN:VALUE, 0-65535 or * each");
}

std::string CheckLargeCommunity(std::string_view value) {
  const auto parts = Split(value);
  if (parts.size() == 3 && std::all_of(parts.begin(), parts.end(),
                                       [](std::string_view p) { return Field(p, UINT32_MAX); })) {
    return "";
  }
  return Bad(value, "large-community", "GLOBAL:LOCAL1:LOCAL2, 32-bit numbers or *");
}

std::string CheckExtCommunity(std::string_view value) {
  const std::string bad =
      Bad(value, "ext-community", "rt|soo:ASN:N, rt|soo:IPV4:N or 0x and 16 hex digits");
  if (value.starts_with("0x")) {
    const bool hex =
        value.size() == 18 && std::all_of(value.begin() + 2, value.end(), [](char c) {
          return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        });
    return hex ? "" : bad;
  }
  const auto parts = Split(value);
  if (parts.size() != 3 || (parts[0] != "rt" && parts[0] != "soo")) return bad;
  if (auto ip = IpAddr::Parse(parts[1]); ip.ok()) {
    return ip->is_v4() && Number(parts[2], 0xFFFF) ? "" : bad;
  }
  if (Number(parts[1], 0xFFFF)) return Number(parts[2], UINT32_MAX) ? "" : bad;
  return Number(parts[1], UINT32_MAX) && Number(parts[2], 0xFFFF) ? "" : bad;
}

}  // namespace strata::rtrmgr
