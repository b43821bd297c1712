#include "bgp/wire/update_message.h"

#include <algorithm>

#include "bgp/wire/attribute_table.h"
#include "bgp/wire/message_header.h"
#include "bgp/wire/nlri.h"

namespace strata::bgp {
namespace {

std::string PrefixList(const std::vector<IpPrefix>& prefixes) {
  std::string s;
  for (const auto& p : prefixes) s += " " + p.ToString();
  return s;
}

}  // namespace

std::optional<AfiSafi> UpdateMessage::EndOfRib() const {
  if (!withdrawn.empty() || !nlri.empty() || mp_reach || attrs != PathAttributes()) {
    return std::nullopt;
  }
  if (!mp_unreach) return kIpv4Unicast;
  if (mp_unreach->withdrawn.empty()) return mp_unreach->afi_safi;
  return std::nullopt;
}

bool UpdateMessage::HasReachable() const {
  return !nlri.empty() || (mp_reach && !mp_reach->nlri.empty());
}

PathAttributes UpdateMessage::AttributesFor(Family family) const {
  PathAttributes out = attrs;
  if (mp_reach && mp_reach->afi_safi.IpFamily() == family) {
    out.next_hop = mp_reach->next_hop;
    out.link_local_next_hop() = mp_reach->link_local_next_hop;
  }
  return out;
}

std::string UpdateMessage::ToString() const {
  std::string s = "UPDATE";
  if (auto eor = EndOfRib()) return s + " End-of-RIB " + eor->ToString();
  if (!withdrawn.empty()) s += " withdraw" + PrefixList(withdrawn);
  if (mp_unreach)
    s += " mp-withdraw " + mp_unreach->afi_safi.ToString() + PrefixList(mp_unreach->withdrawn);
  const std::string a = attrs.ToString();
  if (!a.empty()) s += " [" + a + "]";
  if (mp_reach) {
    s += " mp-announce " + mp_reach->afi_safi.ToString() + " via " + mp_reach->next_hop.ToString();
    if (mp_reach->link_local_next_hop) s += " " + mp_reach->link_local_next_hop->ToString();
    s += PrefixList(mp_reach->nlri);
  }
  if (!nlri.empty()) s += " announce" + PrefixList(nlri);
  return s;
}

StatusOr<std::vector<uint8_t>> EncodeUpdate(const UpdateMessage& update,
                                            const CodecOptions& options) {
  ByteWriter w;
  // Room for the prefixes (5 bytes at most each for IPv4, 17 for IPv6) and typical attributes.
  size_t estimate = 256 + 5 * (update.withdrawn.size() + update.nlri.size());
  if (update.mp_reach) estimate += 17 * update.mp_reach->nlri.size();
  if (update.mp_unreach) estimate += 17 * update.mp_unreach->withdrawn.size();
  w.Reserve(std::min(estimate, options.max_message_size()));
  BeginMessage(w, MessageType::kUpdate);
  const size_t withdrawn_len_at = w.size();
  w.U16(0);
  for (const auto& p : update.withdrawn) EncodePrefix(p, w);
  const size_t attrs_len_at = w.size();
  w.U16(0);
  const AttrEncodeInput in{update.attrs, options, update.mp_reach ? &*update.mp_reach : nullptr,
                           update.mp_unreach ? &*update.mp_unreach : nullptr};
  ByteWriter value;  // one buffer for every attribute's value
  for (const AttributeHandler& handler : AttributeHandlers()) {
    value.Clear();
    if (!handler.encode(in, value)) continue;
    if (value.size() > 0xffff) return ResourceExhausted(std::string(handler.name) + " too long");
    WriteAttribute(w, handler.flags, static_cast<uint8_t>(handler.code), value.bytes());
  }
  for (const RawAttribute& raw : update.attrs.unknown()) {
    // RFC 4271 5: an unrecognized optional transitive attribute is passed on marked Partial.
    WriteAttribute(w, raw.flags | attr_flag::kPartial, raw.code, raw.value);
  }
  const size_t attrs_end = w.size();
  for (const auto& p : update.nlri) EncodePrefix(p, w);
  if (w.size() > options.max_message_size()) {
    return ResourceExhausted("UPDATE of " + std::to_string(w.size()) + " bytes exceeds " +
                             std::to_string(options.max_message_size()));
  }
  w.PatchU16(withdrawn_len_at, static_cast<uint16_t>(attrs_len_at - withdrawn_len_at - 2));
  w.PatchU16(attrs_len_at, static_cast<uint16_t>(attrs_end - attrs_len_at - 2));
  FinishMessage(w);
  return w.Take();
}

std::vector<uint8_t> EncodeEndOfRib(AfiSafi family) {
  UpdateMessage eor;
  if (family != kIpv4Unicast) eor.mp_unreach = MpUnreach{family, {}};
  return std::move(EncodeUpdate(eor, CodecOptions{})).value();
}

}  // namespace strata::bgp
