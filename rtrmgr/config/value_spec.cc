#include "rtrmgr/config/value_spec.h"

#include <algorithm>
#include <array>
#include <utility>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "rtrmgr/config/community_syntax.h"

namespace strata::rtrmgr {
namespace {

constexpr std::array<std::pair<ValueType, std::string_view>, 15> kNames = {{
    {ValueType::kText, "text"},
    {ValueType::kIdentifier, "identifier"},
    {ValueType::kU32, "u32"},
    {ValueType::kBool, "bool"},
    {ValueType::kEnum, "enum"},
    {ValueType::kIpv4, "ipv4"},
    {ValueType::kIpv6, "ipv6"},
    {ValueType::kIpAddr, "ipaddr"},
    {ValueType::kIpv4Net, "ipv4net"},
    {ValueType::kIpv6Net, "ipv6net"},
    {ValueType::kPrefix, "prefix"},
    {ValueType::kIfAddr, "ifaddr"},
    {ValueType::kCommunity, "community"},
    {ValueType::kLargeCommunity, "large-community"},
    {ValueType::kExtCommunity, "ext-community"},
}};

bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

std::string Quoted(std::string_view v) { return "'" + std::string(v) + "'"; }

}  // namespace

std::string_view ValueTypeName(ValueType t) {
  for (const auto& [type, name] : kNames) {
    if (type == t) return name;
  }
  return "?";
}

std::optional<ValueType> ParseValueType(std::string_view name) {
  for (const auto& [type, n] : kNames) {
    if (n == name) return type;
  }
  return std::nullopt;
}

std::optional<uint32_t> ValueSpec::ParseU32(std::string_view text) {
  if (text.empty() || text.size() > 10) return std::nullopt;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (v > UINT32_MAX) return std::nullopt;
  return static_cast<uint32_t>(v);
}

std::string ValueSpec::Check(std::string_view value) const {
  const std::string bad = Quoted(value) + " is not a valid " + std::string(ValueTypeName(type));
  switch (type) {
    case ValueType::kText:
      return value.size() <= 1024 ? "" : "text longer than 1024 bytes";
    case ValueType::kIdentifier:
      if (value.empty() || value.size() > 63 ||
          !std::all_of(value.begin(), value.end(), IsIdentChar))
        return bad + " (letters, digits, '_', '.', '-'; at most 63)";
      return "";
    case ValueType::kU32: {
      auto v = ParseU32(value);
      if (!v) return bad;
      if ((min && *v < *min) || (max && *v > *max)) {
        return std::string(value) + " is out of range " + std::to_string(min.value_or(0)) + ".." +
               std::to_string(max.value_or(UINT32_MAX));
      }
      return "";
    }
    case ValueType::kBool:
      return value == "true" || value == "false" ? "" : bad + " (true or false)";
    case ValueType::kEnum: {
      if (std::find(enum_values.begin(), enum_values.end(), value) != enum_values.end()) return "";
      std::string list;
      for (const auto& e : enum_values) list += (list.empty() ? "" : ", ") + e;
      return Quoted(value) + " is not one of " + list;
    }
    case ValueType::kIpv4:
    case ValueType::kIpv6:
    case ValueType::kIpAddr: {
      auto a = IpAddr::Parse(value);
      if (!a.ok() || (type == ValueType::kIpv4 && !a->is_v4()) ||
          (type == ValueType::kIpv6 && !a->is_v6()))
        return bad;
      return "";
    }
    case ValueType::kIpv4Net:
    case ValueType::kIpv6Net:
    case ValueType::kPrefix:
    case ValueType::kIfAddr: {
      auto p = IpPrefix::Parse(value, type == ValueType::kIfAddr);
      if (!p.ok() || (type == ValueType::kIpv4Net && !p->is_v4()) ||
          (type == ValueType::kIpv6Net && p->is_v4()))
        return bad + (type == ValueType::kIfAddr ? "" : " (ADDRESS/LEN without host bits)");
      return "";
    }
    case ValueType::kCommunity:
      return CheckCommunity(value);
    case ValueType::kLargeCommunity:
      return CheckLargeCommunity(value);
    case ValueType::kExtCommunity:
      return CheckExtCommunity(value);
  }
  return bad;
}

std::string ValueSpec::Canonical(std::string_view value) const {
  switch (type) {
    case ValueType::kIpv4:
    case ValueType::kIpv6:
    case ValueType::kIpAddr: {
      auto a = IpAddr::Parse(value);
      return a.ok() ? a->ToString() : std::string(value);
    }
    case ValueType::kIpv4Net:
    case ValueType::kIpv6Net:
    case ValueType::kPrefix: {
      auto p = IpPrefix::Parse(value);
      return p.ok() ? p->ToString() : std::string(value);
    }
    case ValueType::kU32: {
      auto v = ParseU32(value);
      return v ? std::to_string(*v) : std::string(value);
    }
    default:
      return std::string(value);
  }
}

std::string ValueSpec::Describe() const {
  std::string out(ValueTypeName(type));
  if (type == ValueType::kU32 && (min || max)) {
    out += " " + std::to_string(min.value_or(0)) + ".." + std::to_string(max.value_or(UINT32_MAX));
  }
  if (type == ValueType::kEnum) {
    out += " ";
    for (size_t i = 0; i < enum_values.size(); ++i) out += (i ? "|" : "") + enum_values[i];
  }
  return out;
}

}  // namespace strata::rtrmgr
