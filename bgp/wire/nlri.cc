#include "bgp/wire/nlri.h"

#include <array>
#include <string>

#include "bgp/wire/byte_reader.h"

namespace strata::bgp {

void EncodePrefix(const IpPrefix& p, ByteWriter& w) {
  w.U8(static_cast<uint8_t>(p.len()));
  w.Bytes(p.addr().bytes().first(PrefixWireSize(p) - 1));
}

Status DecodePrefixes(std::span<const uint8_t> bytes, Family family, std::vector<IpPrefix>& out) {
  ByteReader r(bytes);
  const int max_len = family == Family::kIpv4 ? 32 : 128;
  while (!r.empty()) {
    uint8_t len = 0;
    if (!r.U8(len)) return InvalidArgument("truncated prefix");
    if (len > max_len) return InvalidArgument("prefix length " + std::to_string(len));
    std::span<const uint8_t> addr_bytes;
    if (!r.Bytes((len + 7u) / 8, addr_bytes)) return InvalidArgument("prefix runs past the end");
    std::array<uint8_t, 16> raw{};
    std::copy(addr_bytes.begin(), addr_bytes.end(), raw.begin());
    const IpAddr addr = family == Family::kIpv4
                            ? IpAddr::V4((uint32_t{raw[0]} << 24) | (uint32_t{raw[1]} << 16) |
                                         (uint32_t{raw[2]} << 8) | raw[3])
                            : IpAddr::V6(raw);
    out.emplace_back(addr, len);
  }
  return Status::Ok();
}

}  // namespace strata::bgp
