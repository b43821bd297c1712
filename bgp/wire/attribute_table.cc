#include "bgp/wire/attribute_table.h"

#include <array>
#include <cstdio>

#include "bgp/wire/byte_reader.h"
#include "bgp/wire/mp_attributes.h"

namespace strata::bgp {
namespace {

using attr_flag::kOptional;
using attr_flag::kTransitive;
constexpr ErrorAction kWithdraw = ErrorAction::kTreatAsWithdraw;
constexpr ErrorAction kDiscard = ErrorAction::kAttributeDiscard;

Status BadLength(std::span<const uint8_t> v) {
  return InvalidArgument("bad length " + std::to_string(v.size()));
}

uint32_t ReadU32(std::span<const uint8_t> v) {
  return (uint32_t{v[0]} << 24) | (uint32_t{v[1]} << 16) | (uint32_t{v[2]} << 8) | v[3];
}

IpAddr ReadV4(std::span<const uint8_t> v) { return IpAddr::V4(ReadU32(v)); }

// Reads a non-empty list of fixed-size items (communities and the like).
template <typename T, typename ReadFn>
Status DecodeList(std::span<const uint8_t> v, size_t item, std::vector<T>& out, ReadFn read) {
  if (v.empty() || v.size() % item != 0) return BadLength(v);
  std::vector<T> items;
  for (size_t i = 0; i < v.size(); i += item) items.push_back(read(v.subspan(i, item)));
  out = std::move(items);
  return Status::Ok();
}

std::string Hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// ORIGIN (RFC 4271 5.1.1; RFC 7606 7.1)
Status DecodeOrigin(std::span<const uint8_t> v, AttrDecodeContext& ctx) {
  if (v.size() != 1) return BadLength(v);
  if (v[0] > 2) return InvalidArgument("undefined ORIGIN " + std::to_string(v[0]));
  ctx.attrs.origin = static_cast<Origin>(v[0]);
  return Status::Ok();
}
bool EncodeOrigin(const AttrEncodeInput& in, ByteWriter& w) {
  if (!in.attrs.origin) return false;
  w.U8(static_cast<uint8_t>(*in.attrs.origin));
  return true;
}
std::string FormatOrigin(const PathAttributes& a) {
  static constexpr const char* kNames[] = {"igp", "egp", "incomplete"};
  return a.origin ? std::string("origin ") + kNames[static_cast<size_t>(*a.origin)] : "";
}

// AS_PATH (RFC 4271 5.1.2; RFC 7606 7.2; RFC 5065 for confederation segments)
Status DecodeAsPath(std::span<const uint8_t> v, AttrDecodeContext& ctx) {
  auto path = AsPath::Decode(v, ctx.options.four_octet_as);
  if (!path.ok()) return path.status();
  if (ctx.options.peer_type == PeerType::kExternal && path->HasConfedSegments()) {
    return InvalidArgument("confederation segment from an external peer");
  }
  if (path->HasTrailingConfedSegment()) {
    return InvalidArgument("confederation segment after an AS_SEQUENCE or AS_SET");
  }
  ctx.attrs.as_path = std::move(path).value();
  return Status::Ok();
}
bool EncodeAsPath(const AttrEncodeInput& in, ByteWriter& w) {
  if (!in.attrs.as_path) return false;
  in.attrs.as_path->Encode(w, in.options.four_octet_as);
  return true;
}
std::string FormatAsPath(const PathAttributes& a) {
  return a.as_path ? "as-path " + a.as_path->ToString() : "";
}

// NEXT_HOP (RFC 4271 5.1.3; RFC 7606 7.3). An IPv6 next hop travels in MP_REACH_NLRI.
Status DecodeNextHop(std::span<const uint8_t> v, AttrDecodeContext& ctx) {
  if (v.size() != 4) return BadLength(v);
  ctx.attrs.next_hop = ReadV4(v);
  return Status::Ok();
}
bool EncodeNextHop(const AttrEncodeInput& in, ByteWriter& w) {
  if (!in.attrs.next_hop || !in.attrs.next_hop->is_v4()) return false;
  w.U32(in.attrs.next_hop->v4_host_order());
  return true;
}
std::string FormatNextHop(const PathAttributes& a) {
  std::string s = a.next_hop ? "next-hop " + a.next_hop->ToString() : "";
  if (a.link_local_next_hop()) s += " link-local " + a.link_local_next_hop()->ToString();
  return s;
}

// MULTI_EXIT_DISC (RFC 4271 5.1.4; RFC 7606 7.4) and LOCAL_PREF (5.1.5; RFC 7606 7.5)
Status DecodeMed(std::span<const uint8_t> v, AttrDecodeContext& ctx) {
  if (v.size() != 4) return BadLength(v);
  ctx.attrs.med = ReadU32(v);
  return Status::Ok();
}
bool EncodeMed(const AttrEncodeInput& in, ByteWriter& w) {
  if (!in.attrs.med) return false;
  w.U32(*in.attrs.med);
  return true;
}
std::string FormatMed(const PathAttributes& a) {
  return a.med ? "med " + std::to_string(*a.med) : "";
}
Status DecodeLocalPref(std::span<const uint8_t> v, AttrDecodeContext& ctx) {
  if (v.size() != 4) return BadLength(v);
  ctx.attrs.local_pref = ReadU32(v);
  return Status::Ok();
}
bool EncodeLocalPref(const AttrEncodeInput& in, ByteWriter& w) {
  // RFC 4271 5.1.5: never sent to external peers.
  if (!in.attrs.local_pref || in.options.peer_type == PeerType::kExternal) return false;
  w.U32(*in.attrs.local_pref);
  return true;
}
std::string FormatLocalPref(const PathAttributes& a) {
  return a.local_pref ? "local-pref " + std::to_string(*a.local_pref) : "";
}

// ATOMIC_AGGREGATE (RFC 4271 5.1.6; RFC 7606 7.6)
Status DecodeAtomicAggregate(std::span<const uint8_t> v, AttrDecodeContext& ctx) {
  if (!v.empty()) return BadLength(v);
  ctx.attrs.atomic_aggregate = true;
  return Status::Ok();
}
bool EncodeAtomicAggregate(const AttrEncodeInput& in, ByteWriter&) {
  return in.attrs.atomic_aggregate;
}
std::string FormatAtomicAggregate(const PathAttributes& a) {
  return a.atomic_aggregate ? "atomic-aggregate" : "";
}

// AGGREGATOR (RFC 4271 5.1.7; RFC 7606 7.7; 2 or 4 octet AS per RFC 6793)
Status DecodeAggregator(std::span<const uint8_t> v, AttrDecodeContext& ctx) {
  const bool four = ctx.options.four_octet_as;
  if (v.size() != (four ? 8u : 6u)) return BadLength(v);
  const uint32_t asn = four ? ReadU32(v) : (uint32_t{v[0]} << 8 | v[1]);
  ctx.attrs.aggregator() = Aggregator{asn, ReadV4(v.subspan(four ? 4 : 2))};
  return Status::Ok();
}
bool EncodeAggregator(const AttrEncodeInput& in, ByteWriter& w) {
  if (!in.attrs.aggregator()) return false;
  const auto& agg = *in.attrs.aggregator();
  if (in.options.four_octet_as) {
    w.U32(agg.asn);
  } else {
    w.U16(agg.asn > 0xffff ? kAsTrans : static_cast<uint16_t>(agg.asn));
  }
  w.U32(agg.address.is_v4() ? agg.address.v4_host_order() : 0);
  return true;
}
std::string FormatAggregator(const PathAttributes& a) {
  if (!a.aggregator()) return "";
  return "aggregator " + std::to_string(a.aggregator()->asn) + " " +
         a.aggregator()->address.ToString();
}

// COMMUNITIES (RFC 1997; RFC 7606 7.8)
Status DecodeCommunities(std::span<const uint8_t> v, AttrDecodeContext& ctx) {
  return DecodeList(v, 4, ctx.attrs.communities, ReadU32);
}
bool EncodeCommunities(const AttrEncodeInput& in, ByteWriter& w) {
  for (uint32_t c : in.attrs.communities) w.U32(c);
  return !in.attrs.communities.empty();
}
std::string FormatCommunities(const PathAttributes& a) {
  if (a.communities.empty()) return "";
  std::string s = "communities";
  for (uint32_t c : a.communities) {
    s += " " + std::to_string(c >> 16) + ":" + std::to_string(c & 0xffff);
  }
  return s;
}

// ORIGINATOR_ID and CLUSTER_LIST (RFC 4456; RFC 7606 7.9, 7.10)
Status DecodeOriginatorId(std::span<const uint8_t> v, AttrDecodeContext& ctx) {
  if (v.size() != 4) return BadLength(v);
  ctx.attrs.originator_id() = ReadV4(v);
  return Status::Ok();
}
bool EncodeOriginatorId(const AttrEncodeInput& in, ByteWriter& w) {
  if (!in.attrs.originator_id() || !in.attrs.originator_id()->is_v4()) return false;
  w.U32(in.attrs.originator_id()->v4_host_order());
  return true;
}
std::string FormatOriginatorId(const PathAttributes& a) {
  return a.originator_id() ? "originator-id " + a.originator_id()->ToString() : "";
}
Status DecodeClusterList(std::span<const uint8_t> v, AttrDecodeContext& ctx) {
  return DecodeList(v, 4, ctx.attrs.cluster_list(), ReadU32);
}
bool EncodeClusterList(const AttrEncodeInput& in, ByteWriter& w) {
  for (uint32_t c : in.attrs.cluster_list()) w.U32(c);
  return !in.attrs.cluster_list().empty();
}
std::string FormatClusterList(const PathAttributes& a) {
  if (a.cluster_list().empty()) return "";
  std::string s = "cluster-list";
  for (uint32_t c : a.cluster_list()) s += " " + IpAddr::V4(c).ToString();
  return s;
}

// EXTENDED_COMMUNITIES (RFC 4360; RFC 7606 7.14)
Status DecodeExtCommunities(std::span<const uint8_t> v, AttrDecodeContext& ctx) {
  return DecodeList(v, 8, ctx.attrs.ext_communities(), [](std::span<const uint8_t> item) {
    return (uint64_t{ReadU32(item)} << 32) | ReadU32(item.subspan(4));
  });
}
bool EncodeExtCommunities(const AttrEncodeInput& in, ByteWriter& w) {
  for (uint64_t c : in.attrs.ext_communities()) w.U64(c);
  return !in.attrs.ext_communities().empty();
}
std::string FormatExtCommunities(const PathAttributes& a) {
  if (a.ext_communities().empty()) return "";
  std::string s = "ext-communities";
  for (uint64_t c : a.ext_communities()) s += " " + Hex(c);
  return s;
}

// AS4_PATH and AS4_AGGREGATOR (RFC 6793 3, 6): only between a 4-octet speaker and a 2-octet one.
// From a 4-octet peer they are ignored; malformed ones are discarded.
Status DecodeAs4Path(std::span<const uint8_t> v, AttrDecodeContext& ctx) {
  auto path = AsPath::Decode(v, /*four_octet=*/true);
  if (!path.ok()) return path.status();
  if (path->HasConfedSegments()) return InvalidArgument("confederation segment in AS4_PATH");
  if (ctx.options.four_octet_as) {
    ctx.ignored = true;
  } else {
    ctx.as4_path = std::move(path).value();
  }
  return Status::Ok();
}
bool EncodeAs4Path(const AttrEncodeInput& in, ByteWriter& w) {
  if (in.options.four_octet_as || !in.attrs.as_path || !in.attrs.as_path->NeedsAs4()) {
    return false;
  }
  in.attrs.as_path->WithoutConfed().Encode(w, /*four_octet=*/true);
  return true;
}
Status DecodeAs4Aggregator(std::span<const uint8_t> v, AttrDecodeContext& ctx) {
  if (v.size() != 8) return BadLength(v);
  if (ctx.options.four_octet_as) {
    ctx.ignored = true;
  } else {
    ctx.as4_aggregator = Aggregator{ReadU32(v), ReadV4(v.subspan(4))};
  }
  return Status::Ok();
}
bool EncodeAs4Aggregator(const AttrEncodeInput& in, ByteWriter& w) {
  if (in.options.four_octet_as || !in.attrs.aggregator() || in.attrs.aggregator()->asn <= 0xffff) {
    return false;
  }
  w.U32(in.attrs.aggregator()->asn);
  w.U32(in.attrs.aggregator()->address.is_v4() ? in.attrs.aggregator()->address.v4_host_order()
                                               : 0);
  return true;
}
std::string FormatNothing(const PathAttributes&) { return ""; }

// LARGE_COMMUNITY (RFC 8092 5, 6)
Status DecodeLargeCommunities(std::span<const uint8_t> v, AttrDecodeContext& ctx) {
  return DecodeList(v, 12, ctx.attrs.large_communities(), [](std::span<const uint8_t> item) {
    return LargeCommunity{ReadU32(item), ReadU32(item.subspan(4)), ReadU32(item.subspan(8))};
  });
}
bool EncodeLargeCommunities(const AttrEncodeInput& in, ByteWriter& w) {
  for (const auto& c : in.attrs.large_communities()) {
    w.U32(c.global_admin);
    w.U32(c.local1);
    w.U32(c.local2);
  }
  return !in.attrs.large_communities().empty();
}
std::string FormatLargeCommunities(const PathAttributes& a) {
  if (a.large_communities().empty()) return "";
  std::string s = "large-communities";
  for (const auto& c : a.large_communities()) {
    s += " " + std::to_string(c.global_admin) + ":" + std::to_string(c.local1) + ":" +
         std::to_string(c.local2);
  }
  return s;
}

constexpr uint8_t kWellKnown = kTransitive;
constexpr uint8_t kOptTrans = kOptional | kTransitive;
constexpr uint8_t kOptNonTrans = kOptional;
constexpr ErrorAction kDisable = ErrorAction::kAfiSafiDisable;
using UE = UpdateError;

// clang-format off
constexpr AttributeHandler kHandlers[] = {
  {AttrCode::kOrigin, "ORIGIN", kWellKnown, kWithdraw, kWithdraw, UE::kInvalidOrigin, false,
   DecodeOrigin, EncodeOrigin, FormatOrigin},
  {AttrCode::kAsPath, "AS_PATH", kWellKnown, kWithdraw, kWithdraw, UE::kMalformedAsPath, false,
   DecodeAsPath, EncodeAsPath, FormatAsPath},
  {AttrCode::kNextHop, "NEXT_HOP", kWellKnown, kWithdraw, kWithdraw, UE::kInvalidNextHop, false,
   DecodeNextHop, EncodeNextHop, FormatNextHop},
  {AttrCode::kMed, "MULTI_EXIT_DISC", kOptNonTrans, kWithdraw, kWithdraw,
   UE::kOptionalAttributeError, false, DecodeMed, EncodeMed, FormatMed},
  {AttrCode::kLocalPref, "LOCAL_PREF", kWellKnown, kWithdraw, kWithdraw,
   UE::kAttributeLengthError, true, DecodeLocalPref, EncodeLocalPref, FormatLocalPref},
  {AttrCode::kAtomicAggregate, "ATOMIC_AGGREGATE", kWellKnown, kDiscard, kWithdraw,
   UE::kAttributeLengthError, false, DecodeAtomicAggregate, EncodeAtomicAggregate,
   FormatAtomicAggregate},
  {AttrCode::kAggregator, "AGGREGATOR", kOptTrans, kDiscard, kWithdraw,
   UE::kOptionalAttributeError, false, DecodeAggregator, EncodeAggregator, FormatAggregator},
  {AttrCode::kCommunities, "COMMUNITIES", kOptTrans, kWithdraw, kWithdraw,
   UE::kOptionalAttributeError, false, DecodeCommunities, EncodeCommunities, FormatCommunities},
  {AttrCode::kOriginatorId, "ORIGINATOR_ID", kOptNonTrans, kWithdraw, kWithdraw,
   UE::kOptionalAttributeError, true, DecodeOriginatorId, EncodeOriginatorId,
   FormatOriginatorId},
  {AttrCode::kClusterList, "CLUSTER_LIST", kOptNonTrans, kWithdraw, kWithdraw,
   UE::kOptionalAttributeError, true, DecodeClusterList, EncodeClusterList, FormatClusterList},
  {AttrCode::kMpReachNlri, "MP_REACH_NLRI", kOptNonTrans, kDisable, kDisable,
   UE::kOptionalAttributeError, false, DecodeMpReach, EncodeMpReach, nullptr},
  {AttrCode::kMpUnreachNlri, "MP_UNREACH_NLRI", kOptNonTrans, kDisable, kDisable,
   UE::kOptionalAttributeError, false, DecodeMpUnreach, EncodeMpUnreach, nullptr},
  {AttrCode::kExtendedCommunities, "EXTENDED_COMMUNITIES", kOptTrans, kWithdraw, kWithdraw,
   UE::kOptionalAttributeError, false, DecodeExtCommunities, EncodeExtCommunities,
   FormatExtCommunities},
  {AttrCode::kAs4Path, "AS4_PATH", kOptTrans, kDiscard, kDiscard, UE::kOptionalAttributeError,
   false, DecodeAs4Path, EncodeAs4Path, FormatNothing},
  {AttrCode::kAs4Aggregator, "AS4_AGGREGATOR", kOptTrans, kDiscard, kDiscard,
   UE::kOptionalAttributeError, false, DecodeAs4Aggregator, EncodeAs4Aggregator, FormatNothing},
  {AttrCode::kLargeCommunities, "LARGE_COMMUNITY", kOptTrans, kWithdraw, kWithdraw,
   UE::kOptionalAttributeError, false, DecodeLargeCommunities, EncodeLargeCommunities,
   FormatLargeCommunities},
};
// clang-format on

constexpr std::array<int8_t, 256> BuildIndex() {
  std::array<int8_t, 256> index{};
  for (auto& i : index) i = -1;
  for (size_t i = 0; i < std::size(kHandlers); ++i) {
    index[static_cast<uint8_t>(kHandlers[i].code)] = static_cast<int8_t>(i);
  }
  return index;
}
constexpr std::array<int8_t, 256> kIndex = BuildIndex();

}  // namespace

const AttributeHandler* FindAttributeHandler(uint8_t code) {
  return kIndex[code] < 0 ? nullptr : &kHandlers[static_cast<size_t>(kIndex[code])];
}

std::span<const AttributeHandler> AttributeHandlers() { return kHandlers; }

void WriteAttribute(ByteWriter& w, uint8_t flags, uint8_t code, std::span<const uint8_t> value) {
  const bool extended = value.size() > 255;
  flags = static_cast<uint8_t>((flags & ~attr_flag::kExtendedLength & 0xf0) |
                               (extended ? attr_flag::kExtendedLength : 0));
  w.U8(flags);
  w.U8(code);
  if (extended) {
    w.U16(static_cast<uint16_t>(value.size()));
  } else {
    w.U8(static_cast<uint8_t>(value.size()));
  }
  w.Bytes(value);
}

}  // namespace strata::bgp
