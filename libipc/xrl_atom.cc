#include "libipc/xrl_atom.h"

#include <array>
#include <cassert>
#include <charconv>
#include <type_traits>
#include <utility>

namespace strata::ipc {
namespace {

constexpr std::array<std::string_view, 12> kTypeNames = {"i32",     "u32",     "i64",  "u64",
                                                         "bool",    "txt",     "ipv4", "ipv6",
                                                         "ipv4net", "ipv6net", "mac",  "binary"};

constexpr char kUpperHex[] = "0123456789ABCDEF";
constexpr char kLowerHex[] = "0123456789abcdef";

// Every parse error reads "position N: expected WHAT".
Status ErrorAt(size_t pos, std::string_view what) {
  return InvalidArgument("position " + std::to_string(pos) + ": expected " + std::string(what));
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool IsUnreserved(char c) { return IsAlnum(c) || c == '-' || c == '_' || c == '.' || c == '~'; }
bool IsReserved(char c) {
  return c == '&' || c == '=' || c == ',' || c == '?' || c == '#' || c == '%';
}
bool IsNameChar(char c) { return IsAlnum(c) || c == '_' || c == '-' || c == '.'; }
bool IsTypeChar(char c) { return IsAlnum(c) || c == '<' || c == '>'; }
bool IsAddrChar(char c) { return HexValue(c) >= 0 || c == ':' || c == '.'; }

template <typename T>
StatusOr<AtomValue> ParseInt(AtomType type, std::string_view text, size_t offset) {
  const std::string what = "a decimal " + std::string(AtomTypeName(type));
  if (text.empty()) return ErrorAt(offset, what + " (empty value)");
  if (text.front() == '+') return ErrorAt(offset, what + " (no '+' sign)");
  T v{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec == std::errc::result_out_of_range) return ErrorAt(offset, what + " (value overflows)");
  if (ec != std::errc()) return ErrorAt(offset, what);
  if (ptr != end) return ErrorAt(offset + static_cast<size_t>(ptr - text.data()), what);
  return AtomValue(std::in_place_type<T>, v);
}

StatusOr<IpAddr> ParseAddr(Family family, std::string_view text, size_t offset) {
  const std::string what =
      family == Family::kIpv4 ? "an ipv4 address (dotted quad)" : "an ipv6 address (RFC 4291 text)";
  if (text.empty()) return ErrorAt(offset, what + " (empty value)");
  // Checked here as well: IpAddr::Parse hands the text to inet_pton, which stops at a NUL.
  for (size_t i = 0; i < text.size(); ++i) {
    if (!IsAddrChar(text[i])) return ErrorAt(offset + i, what);
  }
  auto addr = IpAddr::Parse(text);
  if (!addr.ok()) return ErrorAt(offset, what);
  if (addr->family() != family) {
    return ErrorAt(offset,
                   what + " (got an " + std::string(FamilyName(addr->family())) + " address)");
  }
  return addr;
}

StatusOr<IpPrefix> ParsePrefix(Family family, std::string_view text, size_t offset) {
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) {
    return ErrorAt(offset + text.size(), "'/' and a prefix length (ADDRESS/LEN)");
  }
  auto addr = ParseAddr(family, text.substr(0, slash), offset);
  if (!addr.ok()) return addr.status();
  const std::string_view len_text = text.substr(slash + 1);
  const size_t len_pos = offset + slash + 1;
  const std::string range = "a prefix length 0-" + std::to_string(addr->bit_length());
  for (size_t i = 0; i < len_text.size(); ++i) {
    if (len_text[i] < '0' || len_text[i] > '9') return ErrorAt(len_pos + i, range);
  }
  int len = -1;
  const auto [ptr, ec] = std::from_chars(len_text.data(), len_text.data() + len_text.size(), len);
  if (len_text.empty() || ec != std::errc() || len > addr->bit_length()) {
    return ErrorAt(len_pos, range);
  }
  auto prefix = IpPrefix::MakeStrict(*addr, len);
  if (!prefix.ok()) {
    return ErrorAt(offset, "a network address with no host bits set (" +
                               IpPrefix(*addr, len).ToString() + ", not " + addr->ToString() + "/" +
                               std::to_string(len) + ")");
  }
  return prefix;
}

StatusOr<AtomValue> ParseMac(std::string_view text, size_t offset) {
  constexpr std::string_view kWhat = "a MAC address (aa:bb:cc:dd:ee:ff)";
  for (size_t i = 0; i < 17; ++i) {
    if (i >= text.size()) return ErrorAt(offset + i, kWhat);
    const bool ok = i % 3 == 2 ? text[i] == ':' : HexValue(text[i]) >= 0;
    if (!ok) return ErrorAt(offset + i, kWhat);
  }
  if (text.size() != 17) return ErrorAt(offset + 17, "the end of the MAC address");
  auto mac = MacAddr::Parse(text);
  if (!mac.ok()) return ErrorAt(offset, kWhat);
  return AtomValue(*mac);
}

StatusOr<AtomValue> ParseBinary(std::string_view text, size_t offset) {
  std::vector<uint8_t> bytes;
  bytes.reserve(text.size() / 2);
  for (size_t i = 0; i < text.size(); ++i) {
    if (HexValue(text[i]) < 0) return ErrorAt(offset + i, "a hex digit");
  }
  if (text.size() % 2 != 0) {
    return ErrorAt(offset + text.size(), "a hex digit (binary has two hex digits a byte)");
  }
  for (size_t i = 0; i < text.size(); i += 2) {
    bytes.push_back(static_cast<uint8_t>(HexValue(text[i]) * 16 + HexValue(text[i + 1])));
  }
  return AtomValue(std::move(bytes));
}

// Elements separated by ','; an empty value is an empty list.
StatusOr<std::vector<AtomValue>> ParseList(AtomType elem, std::string_view text, size_t offset) {
  std::vector<AtomValue> out;
  if (text.empty()) return out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const size_t end = comma == std::string_view::npos ? text.size() : comma;
    auto v = XrlAtom::ParseValue(elem, text.substr(start, end - start), offset + start);
    if (!v.ok()) return v.status();
    out.push_back(std::move(*v));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

struct ParsedType {
  AtomType type;
  bool is_list;
};

// `token` starts at position `pos`.
StatusOr<ParsedType> ParseTypeToken(std::string_view token, size_t pos) {
  constexpr std::string_view kListOpen = "list<";
  if (!token.starts_with(kListOpen)) {
    auto t = ParseAtomType(token);
    if (!t) return ErrorAt(pos, "an atom type (unknown type '" + std::string(token) + "')");
    return ParsedType{*t, false};
  }
  const std::string_view rest = token.substr(kListOpen.size());
  const size_t inner_pos = pos + kListOpen.size();
  if (rest.starts_with("list")) {
    return ErrorAt(inner_pos, "a scalar element type (lists do not nest)");
  }
  const size_t close = rest.find('>');
  if (close == std::string_view::npos) return ErrorAt(pos + token.size(), "'>' closing list<");
  if (close + 1 != rest.size()) return ErrorAt(inner_pos + close + 1, "'=' after the type");
  const std::string_view inner = rest.substr(0, close);
  auto t = ParseAtomType(inner);
  if (!t) return ErrorAt(inner_pos, "an element type (unknown type '" + std::string(inner) + "')");
  return ParsedType{*t, true};
}

}  // namespace

std::string_view AtomTypeName(AtomType t) {
  const auto i = static_cast<size_t>(t);
  return i < kTypeNames.size() ? kTypeNames[i] : "unknown";
}

std::optional<AtomType> ParseAtomType(std::string_view name) {
  for (size_t i = 0; i < kTypeNames.size(); ++i) {
    if (kTypeNames[i] == name) return static_cast<AtomType>(i);
  }
  return std::nullopt;
}

bool ValueHoldsType(AtomType type, const AtomValue& value) {
  switch (type) {
    case AtomType::kI32:
      return std::holds_alternative<int32_t>(value);
    case AtomType::kU32:
      return std::holds_alternative<uint32_t>(value);
    case AtomType::kI64:
      return std::holds_alternative<int64_t>(value);
    case AtomType::kU64:
      return std::holds_alternative<uint64_t>(value);
    case AtomType::kBool:
      return std::holds_alternative<bool>(value);
    case AtomType::kTxt:
      return std::holds_alternative<std::string>(value);
    case AtomType::kIpv4:
    case AtomType::kIpv6: {
      const auto* a = std::get_if<IpAddr>(&value);
      return a != nullptr && a->is_v4() == (type == AtomType::kIpv4);
    }
    case AtomType::kIpv4Net:
    case AtomType::kIpv6Net: {
      const auto* p = std::get_if<IpPrefix>(&value);
      return p != nullptr && p->is_v4() == (type == AtomType::kIpv4Net);
    }
    case AtomType::kMac:
      return std::holds_alternative<MacAddr>(value);
    case AtomType::kBinary:
      return std::holds_alternative<std::vector<uint8_t>>(value);
  }
  return false;
}

std::string PercentEncode(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (const char c : raw) {
    if (IsUnreserved(c)) {
      out += c;
    } else {
      const auto b = static_cast<unsigned char>(c);
      out += '%';
      out += kUpperHex[b >> 4];
      out += kUpperHex[b & 0xF];
    }
  }
  return out;
}

StatusOr<std::string> PercentDecode(std::string_view text, size_t offset) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      const int hi = i + 1 < text.size() ? HexValue(text[i + 1]) : -1;
      const int lo = i + 2 < text.size() ? HexValue(text[i + 2]) : -1;
      if (hi < 0 || lo < 0) return ErrorAt(offset + i, "two hex digits after '%'");
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (IsReserved(c)) {
      return ErrorAt(offset + i, std::string("'%XX' in place of reserved character '") + c + "'");
    } else {
      out += c;
    }
  }
  return out;
}

std::string ValueToString(AtomType type, const AtomValue& value) {
  if (!ValueHoldsType(type, value)) return "";
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_integral_v<T>) {
          return std::to_string(v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return PercentEncode(v);
        } else if constexpr (std::is_same_v<T, std::vector<uint8_t>>) {
          std::string out;
          out.reserve(v.size() * 2);
          for (const uint8_t b : v) {
            out += kLowerHex[b >> 4];
            out += kLowerHex[b & 0xF];
          }
          return out;
        } else {
          return v.ToString();  // IpAddr, IpPrefix, MacAddr
        }
      },
      value);
}

XrlAtom::XrlAtom(std::string name, AtomType type, AtomValue value)
    : name_(std::move(name)), type_(type) {
  assert(ValueHoldsType(type, value));
  values_.push_back(std::move(value));
}

XrlAtom XrlAtom::List(std::string name, AtomType elem, std::vector<AtomValue> elems) {
  XrlAtom a;
  a.name_ = std::move(name);
  a.type_ = elem;
  a.is_list_ = true;
  a.values_ = std::move(elems);
  return a;
}

StatusOr<AtomValue> XrlAtom::ParseValue(AtomType type, std::string_view text, size_t offset) {
  switch (type) {
    case AtomType::kI32:
      return ParseInt<int32_t>(type, text, offset);
    case AtomType::kU32:
      return ParseInt<uint32_t>(type, text, offset);
    case AtomType::kI64:
      return ParseInt<int64_t>(type, text, offset);
    case AtomType::kU64:
      return ParseInt<uint64_t>(type, text, offset);
    case AtomType::kBool:
      if (text == "true") return AtomValue(true);
      if (text == "false") return AtomValue(false);
      return ErrorAt(offset, "true or false");
    case AtomType::kTxt: {
      auto s = PercentDecode(text, offset);
      if (!s.ok()) return s.status();
      return AtomValue(std::move(*s));
    }
    case AtomType::kIpv4:
    case AtomType::kIpv6: {
      auto a = ParseAddr(type == AtomType::kIpv4 ? Family::kIpv4 : Family::kIpv6, text, offset);
      if (!a.ok()) return a.status();
      return AtomValue(*a);
    }
    case AtomType::kIpv4Net:
    case AtomType::kIpv6Net: {
      auto p =
          ParsePrefix(type == AtomType::kIpv4Net ? Family::kIpv4 : Family::kIpv6, text, offset);
      if (!p.ok()) return p.status();
      return AtomValue(*p);
    }
    case AtomType::kMac:
      return ParseMac(text, offset);
    case AtomType::kBinary:
      return ParseBinary(text, offset);
  }
  return ErrorAt(offset, "a known atom type");
}

StatusOr<XrlAtom> XrlAtom::Parse(std::string_view text, size_t offset) {
  size_t i = 0;
  while (i < text.size() && IsNameChar(text[i])) ++i;
  if (i == 0) return ErrorAt(offset, "an argument name ([A-Za-z0-9_.-]+)");
  if (i == text.size() || text[i] != ':') {
    return ErrorAt(offset + i, "':' after the argument name");
  }
  const std::string_view name = text.substr(0, i);
  const size_t type_start = ++i;
  while (i < text.size() && IsTypeChar(text[i])) ++i;
  if (i == type_start) return ErrorAt(offset + i, "an atom type");
  const std::string_view token = text.substr(type_start, i - type_start);
  auto parsed = ParseTypeToken(token, offset + type_start);
  if (!parsed.ok()) return parsed.status();
  if (i == text.size() || text[i] != '=') return ErrorAt(offset + i, "'=' after the type");
  const std::string_view value = text.substr(i + 1);
  const size_t value_pos = offset + i + 1;

  XrlAtom atom;
  atom.name_ = std::string(name);
  atom.type_ = parsed->type;
  atom.is_list_ = parsed->is_list;
  if (atom.is_list_) {
    auto elems = ParseList(atom.type_, value, value_pos);
    if (!elems.ok()) return elems.status();
    atom.values_ = std::move(*elems);
  } else {
    auto v = ParseValue(atom.type_, value, value_pos);
    if (!v.ok()) return v.status();
    atom.values_.push_back(std::move(*v));
  }
  return atom;
}

std::string XrlAtom::TypeName() const {
  const std::string name(AtomTypeName(type_));
  return is_list_ ? "list<" + name + ">" : name;
}

std::string XrlAtom::ValueToString() const {
  if (!is_list_) return ipc::ValueToString(type_, value());
  std::string out;
  for (size_t i = 0; i < values_.size(); ++i) {
    if (i > 0) out += ',';
    out += ipc::ValueToString(type_, values_[i]);
  }
  return out;
}

std::string XrlAtom::ToString() const { return name_ + ":" + TypeName() + "=" + ValueToString(); }

}  // namespace strata::ipc
