#include "common/ip_prefix.h"

#include <charconv>

#include "common/parse_error.h"

namespace strata {

IpPrefix::IpPrefix(const IpAddr& addr, int len)
    : addr_(addr.Masked(len)), len_(static_cast<uint8_t>(len)) {}

StatusOr<IpPrefix> IpPrefix::Make(const IpAddr& addr, int len) {
  if (len < 0 || len > addr.bit_length()) {
    return InvalidArgument("prefix length " + std::to_string(len) + " is out of range for " +
                           std::string(FamilyName(addr.family())) + " (0-" +
                           std::to_string(addr.bit_length()) + ")");
  }
  return IpPrefix(addr, len);
}

StatusOr<IpPrefix> IpPrefix::MakeStrict(const IpAddr& addr, int len) {
  auto p = Make(addr, len);
  if (!p.ok()) return p;
  if (p->addr() != addr) {
    return InvalidArgument(addr.ToString() + "/" + std::to_string(len) +
                           " has host bits set (did you mean " + p->ToString() + "?)");
  }
  return p;
}

StatusOr<IpPrefix> IpPrefix::Parse(std::string_view text, bool allow_host_bits) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) {
    return InvalidValue(text, "is not a prefix: expected ADDRESS/LENGTH");
  }
  auto addr = IpAddr::Parse(text.substr(0, slash));
  if (!addr.ok()) return addr.status();
  const auto len_text = text.substr(slash + 1);
  int len = -1;
  auto [ptr, ec] = std::from_chars(len_text.data(), len_text.data() + len_text.size(), len);
  if (len_text.empty() || ec != std::errc() || ptr != len_text.data() + len_text.size() ||
      len_text.size() > 3) {
    return InvalidValue(len_text, "is not a prefix length");
  }
  return allow_host_bits ? Make(*addr, len) : MakeStrict(*addr, len);
}

bool IpPrefix::Contains(const IpAddr& a) const {
  return a.family() == family() && a.Masked(len_) == addr_;
}

bool IpPrefix::Contains(const IpPrefix& p) const {
  return p.family() == family() && p.len_ >= len_ && p.addr_.Masked(len_) == addr_;
}

IpAddr IpPrefix::Last() const {
  IpAddr a = addr_;
  for (int i = len_; i < max_len(); ++i) a = a.WithBit(i, true);
  return a;
}

std::string IpPrefix::ToString() const { return addr_.ToString() + "/" + std::to_string(len_); }

}  // namespace strata
