#include "bgp/wire/update_packer.h"

#include <optional>
#include <string>

#include "bgp/wire/attribute_table.h"
#include "bgp/wire/byte_writer.h"
#include "bgp/wire/message_header.h"
#include "bgp/wire/mp_attributes.h"
#include "bgp/wire/nlri.h"
#include "bgp/wire/update_message.h"

namespace strata::bgp {
namespace {

// Where the prefixes of one message go.
enum class Slot { kWithdrawn, kMpReach, kMpUnreach };

Status CheckFamily(AfiSafi family, std::span<const IpPrefix> prefixes) {
  const auto ip = family.IpFamily();
  if (!ip || family.safi != kSafiUnicast) {
    return InvalidArgument("cannot pack prefixes of " + family.ToString());
  }
  for (const auto& p : prefixes) {
    if (p.family() != *ip) return InvalidArgument(p.ToString() + " is not " + family.ToString());
  }
  return Status::Ok();
}

std::vector<IpPrefix>& SlotOf(UpdateMessage& m, Slot slot) {
  switch (slot) {
    case Slot::kWithdrawn:
      return m.withdrawn;
    case Slot::kMpReach:
      return m.mp_reach->nlri;
    case Slot::kMpUnreach:
      return m.mp_unreach->withdrawn;
  }
  return m.withdrawn;
}

// Fills copies of `base` (whose slot is empty) greedily. For an MP slot, `mp_fixed` is the size
// of the attribute value without prefixes, so that the switch to an extended length is counted.
// Not for the NLRI field (PackNlri).
StatusOr<EncodedMessages> Pack(const UpdateMessage& base, Slot slot, std::optional<size_t> mp_fixed,
                               std::span<const IpPrefix> prefixes, const CodecOptions& options) {
  auto empty = EncodeUpdate(base, options);
  if (!empty.ok()) return empty.status();
  const size_t base_size = empty->size();
  const size_t max = options.max_message_size();
  auto size_with = [&](size_t prefix_bytes) {
    size_t size = base_size + prefix_bytes;
    if (mp_fixed &&
        AttributeHeaderSize(*mp_fixed + prefix_bytes) > AttributeHeaderSize(*mp_fixed)) {
      size += 1;
    }
    return size;
  };
  EncodedMessages out;
  UpdateMessage msg = base;
  size_t first = 0;  // prefixes[first, end) make the next message
  size_t used = 0;
  auto flush = [&](size_t end) -> Status {
    const auto batch = prefixes.subspan(first, end - first);
    SlotOf(msg, slot).assign(batch.begin(), batch.end());
    auto bytes = EncodeUpdate(msg, options);
    if (!bytes.ok()) return bytes.status();
    out.push_back(std::move(bytes).value());
    first = end;
    used = 0;
    return Status::Ok();
  };
  for (size_t i = 0; i < prefixes.size(); ++i) {
    const size_t need = PrefixWireSize(prefixes[i]);
    if (size_with(used + need) > max) {
      if (used == 0) {
        return ResourceExhausted("path attributes leave no room for " + prefixes[i].ToString());
      }
      if (Status s = flush(i); !s.ok()) return s;
    }
    used += need;
  }
  if (used > 0) {
    if (Status s = flush(prefixes.size()); !s.ok()) return s;
  }
  return out;
}

}  // namespace

StatusOr<std::vector<uint8_t>> EncodeNlriBase(const PathAttributes& attrs,
                                              const CodecOptions& options) {
  if (!attrs.next_hop || !attrs.next_hop->is_v4()) {
    return InvalidArgument("announcements in the NLRI field need an IPv4 next hop");
  }
  UpdateMessage base;
  base.attrs = attrs;
  if (attrs.link_local_next_hop()) base.attrs.link_local_next_hop().reset();
  return EncodeUpdate(base, options);
}

namespace {

// PackNlri once the prefixes are known to be IPv4.
StatusOr<EncodedMessages> PackCheckedNlri(std::span<const uint8_t> base,
                                          std::span<const IpPrefix> prefixes,
                                          const CodecOptions& options) {
  const size_t max = options.max_message_size();
  EncodedMessages out;
  size_t first = 0;  // prefixes[first, end) make the next message
  size_t used = 0;
  // The NLRI field comes last in an UPDATE (RFC 4271 4.3): each message is `base` with its
  // prefixes appended and the header's length set.
  auto flush = [&](size_t end) {
    ByteWriter w;
    w.Reserve(base.size() + used);
    w.Bytes(base);
    for (const IpPrefix& p : prefixes.subspan(first, end - first)) EncodePrefix(p, w);
    FinishMessage(w);
    out.push_back(w.Take());
    first = end;
    used = 0;
  };
  for (size_t i = 0; i < prefixes.size(); ++i) {
    const size_t need = PrefixWireSize(prefixes[i]);
    if (base.size() + used + need > max) {
      if (used == 0) {
        return ResourceExhausted("path attributes leave no room for " + prefixes[i].ToString());
      }
      flush(i);
    }
    used += need;
  }
  if (used > 0) flush(prefixes.size());
  return out;
}

}  // namespace

StatusOr<EncodedMessages> PackNlri(std::span<const uint8_t> base,
                                   std::span<const IpPrefix> prefixes,
                                   const CodecOptions& options) {
  if (Status s = CheckFamily(kIpv4Unicast, prefixes); !s.ok()) return s;
  return PackCheckedNlri(base, prefixes, options);
}

StatusOr<EncodedMessages> PackAnnouncements(const PathAttributes& attrs, AfiSafi family,
                                            std::span<const IpPrefix> prefixes,
                                            const CodecOptions& options) {
  if (Status s = CheckFamily(family, prefixes); !s.ok()) return s;
  if (!attrs.next_hop || attrs.next_hop->family() != *family.IpFamily()) {
    return InvalidArgument("announcements of " + family.ToString() + " need a next hop of it");
  }
  if (family == kIpv4Unicast) {
    auto base = EncodeNlriBase(attrs, options);
    if (!base.ok()) return base.status();
    return PackCheckedNlri(*base, prefixes, options);  // checked above
  }
  UpdateMessage base;
  base.attrs = attrs;
  if (attrs.link_local_next_hop()) base.attrs.link_local_next_hop().reset();
  base.attrs.next_hop.reset();
  base.mp_reach = MpReach{family, *attrs.next_hop, attrs.link_local_next_hop(), {}};
  return Pack(base, Slot::kMpReach, MpReachFixedSize(*base.mp_reach), prefixes, options);
}

StatusOr<EncodedMessages> PackWithdrawals(AfiSafi family, std::span<const IpPrefix> prefixes,
                                          const CodecOptions& options) {
  if (Status s = CheckFamily(family, prefixes); !s.ok()) return s;
  UpdateMessage base;
  if (family == kIpv4Unicast) return Pack(base, Slot::kWithdrawn, std::nullopt, prefixes, options);
  base.mp_unreach = MpUnreach{family, {}};
  return Pack(base, Slot::kMpUnreach, kMpUnreachFixedSize, prefixes, options);
}

}  // namespace strata::bgp
