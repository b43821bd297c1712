// XrlAtom: one typed, named argument of an XRL in its text form, `name:type=value`.
//
// Atom types: i32 u32 i64 u64 bool txt ipv4 ipv6 ipv4net ipv6net mac binary, and list<T> of any
// of those (lists do not nest). Text encodings of values:
//   i32 i64     decimal, optional leading '-'          u32 u64   decimal
//   bool        true | false                            txt       percent-encoded UTF-8 bytes
//   ipv4 ipv6   dotted quad / RFC 4291 text             ipv4net ipv6net  ADDRESS/LEN, no host bits
//   mac         aa:bb:cc:dd:ee:ff                       binary    lowercase hex, two digits a byte
//   list<T>     elements separated by ',' (each element in T's encoding; an empty value is an
//               empty list)
// Percent-encoding: every byte outside [A-Za-z0-9-_.~] is written %XX (uppercase hex) when
// printing; parsing accepts any byte except the reserved '&', '=', ',', '?', '#' and '%' unless
// encoded, and any %XX escape (hex digits in either case). Values of the other types are read
// literally (no percent-decoding). Argument names are [A-Za-z0-9_.-]+. One ambiguity is inherent
// in the list form: a list<txt> or list<binary> whose only element is empty prints as an empty
// value and so reads back as an empty list. Thread-compatible value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "common/mac_addr.h"
#include "common/status.h"

namespace strata::ipc {

enum class AtomType : uint8_t {
  kI32,
  kU32,
  kI64,
  kU64,
  kBool,
  kTxt,
  kIpv4,
  kIpv6,
  kIpv4Net,
  kIpv6Net,
  kMac,
  kBinary,
};

// "u32", "ipv4net", ...
std::string_view AtomTypeName(AtomType t);
// The inverse of AtomTypeName; nullopt for an unknown name.
std::optional<AtomType> ParseAtomType(std::string_view name);

// One scalar value. ipv4/ipv6 both hold IpAddr and ipv4net/ipv6net both hold IpPrefix; the
// AtomType says which family is meant and the family of the value always agrees with it.
using AtomValue = std::variant<int32_t, uint32_t, int64_t, uint64_t, bool, std::string, IpAddr,
                               IpPrefix, MacAddr, std::vector<uint8_t>>;

class XrlAtom {
 public:
  // Scalar atom. REQUIRES: ValueHoldsType(type, value); `name` is [A-Za-z0-9_.-]+.
  XrlAtom(std::string name, AtomType type, AtomValue value);
  // List atom of element type `elem`. REQUIRES: every element satisfies ValueHoldsType(elem, e).
  static XrlAtom List(std::string name, AtomType elem, std::vector<AtomValue> elems);

  // Parses `name:type=value` (e.g. "as:u32=65001", "peers:list<ipv4>=10.0.0.1,10.0.0.2").
  // On error the status message names the 0-based character position within `text` plus
  // `offset` and what was expected there: "position 7: expected a decimal u32 (value overflows)".
  static StatusOr<XrlAtom> Parse(std::string_view text, size_t offset = 0);
  // Parses only the value part for a known type (used when a caller already knows the type, as
  // strata-call does for a method whose signature it looked up).
  static StatusOr<AtomValue> ParseValue(AtomType type, std::string_view text, size_t offset = 0);

  const std::string& name() const { return name_; }
  bool is_list() const { return is_list_; }
  // The element type for a list, the type otherwise.
  AtomType type() const { return type_; }
  // "u32" or "list<u32>".
  std::string TypeName() const;

  // REQUIRES: !is_list().
  const AtomValue& value() const { return values_.front(); }
  // REQUIRES: is_list().
  const std::vector<AtomValue>& elements() const { return values_; }

  // `name:type=value`, the exact inverse of Parse.
  std::string ToString() const;
  // Only the value part.
  std::string ValueToString() const;

  friend bool operator==(const XrlAtom&, const XrlAtom&) = default;

 private:
  XrlAtom() = default;
  std::string name_;
  AtomType type_ = AtomType::kU32;
  bool is_list_ = false;
  std::vector<AtomValue> values_;  // one for a scalar
};

// Percent-encoding helpers shared with the XRL parser.
std::string PercentEncode(std::string_view raw);
// On error, names the position (plus `offset`) of the bad escape or reserved character.
StatusOr<std::string> PercentDecode(std::string_view text, size_t offset = 0);
// Prints one scalar value of `type` in its text encoding ("" if `value` does not hold `type`).
std::string ValueToString(AtomType type, const AtomValue& value);
// True if `value` holds the alternative that `type` uses, of the right address family.
bool ValueHoldsType(AtomType type, const AtomValue& value);

}  // namespace strata::ipc
