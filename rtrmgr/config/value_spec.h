// ValueSpec: the type of a key or leaf value in a template, and the checks for it.
//
// Types: text (any string), identifier ([A-Za-z0-9_.-]+, at most 63 bytes; usable in process
// instance names), u32 (decimal, optional range), bool (true|false), enum (one of a listed set),
// ipv4, ipv6, ipaddr (either family), ipv4net, ipv6net, prefix (either family; no host bits),
// ifaddr (an interface address with its subnet length, host bits kept: 10.0.0.1/24).
// Thread-compatible value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::rtrmgr {

enum class ValueType {
  kText,
  kIdentifier,
  kU32,
  kBool,
  kEnum,
  kIpv4,
  kIpv6,
  kIpAddr,
  kIpv4Net,
  kIpv6Net,
  kPrefix,
  kIfAddr,
  kCommunity,  // community_syntax.h
  kLargeCommunity,
  kExtCommunity,
};

// "text", "u32", ...; and the inverse (nullopt for an unknown name).
std::string_view ValueTypeName(ValueType t);
std::optional<ValueType> ParseValueType(std::string_view name);

struct ValueSpec {
  ValueType type = ValueType::kText;
  std::optional<uint32_t> min;  // u32 only
  std::optional<uint32_t> max;
  std::vector<std::string> enum_values;  // enum only

  // "" when `value` is valid, else why not ("'x' is not a valid u32").
  std::string Check(std::string_view value) const;
  // The canonical text of a valid value (addresses and prefixes as their ToString), used to
  // compare keys. REQUIRES: Check(value) is "".
  std::string Canonical(std::string_view value) const;
  // "u32 1..4094", "enum accept|reject", "ipv4".
  std::string Describe() const;
  // Parses a u32 as the configuration writes it (decimal digits only).
  static std::optional<uint32_t> ParseU32(std::string_view text);
};

}  // namespace strata::rtrmgr
