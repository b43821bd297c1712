#include "bgp/wire/mp_attributes.h"

#include <array>

#include "bgp/wire/byte_reader.h"
#include "bgp/wire/nlri.h"

namespace strata::bgp {
namespace {

bool SupportedFamily(AfiSafi f) { return f == kIpv4Unicast || f == kIpv6Unicast; }

size_t NextHopLength(const MpReach& reach) {
  return reach.next_hop.byte_length() + (reach.link_local_next_hop ? 16 : 0);
}

}  // namespace

size_t MpReachFixedSize(const MpReach& reach) { return 3 + 1 + NextHopLength(reach) + 1; }

Status DecodeMpReach(std::span<const uint8_t> value, AttrDecodeContext& ctx) {
  ByteReader r(value);
  AfiSafi family;
  if (!r.U16(family.afi) || !r.U8(family.safi)) return InvalidArgument("truncated AFI/SAFI");
  ctx.mp_family = family;
  if (!SupportedFamily(family)) {
    ctx.ignored = true;
    return Status::Ok();
  }
  uint8_t nh_len = 0;
  std::span<const uint8_t> nh;
  uint8_t reserved = 0;
  if (!r.U8(nh_len) || !r.Bytes(nh_len, nh) || !r.U8(reserved)) {
    return InvalidArgument("truncated next hop");
  }
  MpReach reach;
  reach.afi_safi = family;
  if (family.afi == kAfiIpv4) {
    if (nh_len != 4) return InvalidArgument("IPv4 next hop length " + std::to_string(nh_len));
    reach.next_hop = *IpAddr::FromBytes(nh);
  } else {
    if (nh_len != 16 && nh_len != 32) {
      return InvalidArgument("IPv6 next hop length " + std::to_string(nh_len));
    }
    reach.next_hop = *IpAddr::FromBytes(nh.first(16));
    if (nh_len == 32) reach.link_local_next_hop = *IpAddr::FromBytes(nh.subspan(16));
  }
  Status s = DecodePrefixes(r.rest(), *family.IpFamily(), reach.nlri);
  if (!s.ok()) return s;
  ctx.mp_reach = std::move(reach);
  return Status::Ok();
}

Status DecodeMpUnreach(std::span<const uint8_t> value, AttrDecodeContext& ctx) {
  ByteReader r(value);
  AfiSafi family;
  if (!r.U16(family.afi) || !r.U8(family.safi)) return InvalidArgument("truncated AFI/SAFI");
  ctx.mp_family = family;
  if (!SupportedFamily(family)) {
    ctx.ignored = true;
    return Status::Ok();
  }
  MpUnreach unreach;
  unreach.afi_safi = family;
  Status s = DecodePrefixes(r.rest(), *family.IpFamily(), unreach.withdrawn);
  if (!s.ok()) return s;
  ctx.mp_unreach = std::move(unreach);
  return Status::Ok();
}

bool EncodeMpReach(const AttrEncodeInput& in, ByteWriter& w) {
  if (in.mp_reach == nullptr) return false;
  const MpReach& reach = *in.mp_reach;
  w.U16(reach.afi_safi.afi);
  w.U8(reach.afi_safi.safi);
  w.U8(static_cast<uint8_t>(NextHopLength(reach)));
  w.Bytes(reach.next_hop.bytes());
  if (reach.link_local_next_hop) {
    const auto ll = reach.link_local_next_hop->bytes();
    std::array<uint8_t, 16> bytes{};
    std::copy(ll.begin(), ll.end(), bytes.begin());
    w.Bytes(bytes);
  }
  w.U8(0);  // reserved
  for (const auto& p : reach.nlri) EncodePrefix(p, w);
  return true;
}

bool EncodeMpUnreach(const AttrEncodeInput& in, ByteWriter& w) {
  if (in.mp_unreach == nullptr) return false;
  w.U16(in.mp_unreach->afi_safi.afi);
  w.U8(in.mp_unreach->afi_safi.safi);
  for (const auto& p : in.mp_unreach->withdrawn) EncodePrefix(p, w);
  return true;
}

}  // namespace strata::bgp
