// The path attribute handler table: for each known type code its name, the flags it must carry,
// its RFC 7606 outcomes, and functions to decode, encode and format it.
//
// The UPDATE decoder, encoder and PathAttributes::ToString all walk this one table instead of
// switching on type codes (the BIRD attrs.c design). Adding an attribute means adding a row.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "bgp/wire/bgp_types.h"
#include "bgp/wire/byte_writer.h"
#include "bgp/wire/codec_options.h"
#include "bgp/wire/error_action.h"
#include "bgp/wire/update_message.h"
#include "common/status.h"

namespace strata::bgp {

// What decoding the attributes of one UPDATE builds up.
struct AttrDecodeContext {
  CodecOptions options;
  PathAttributes attrs;
  std::optional<MpReach> mp_reach;
  std::optional<MpUnreach> mp_unreach;
  std::optional<AsPath> as4_path;            // merged after all attributes are read
  std::optional<Aggregator> as4_aggregator;  // likewise
  std::optional<AfiSafi> mp_family;          // set by the MP decoders once AFI/SAFI is read
  bool ignored = false;  // set by a decoder that skips a valid attribute (e.g. unknown family)
};

// What encoding reads.
struct AttrEncodeInput {
  const PathAttributes& attrs;
  const CodecOptions& options;
  const MpReach* mp_reach = nullptr;
  const MpUnreach* mp_unreach = nullptr;
};

struct AttributeHandler {
  AttrCode code;
  const char* name;
  uint8_t flags;               // the Optional and Transitive bits it must carry
  ErrorAction on_malformed;    // RFC 7606 outcome of a bad length or value
  ErrorAction on_flags_error;  // RFC 7606 3(c): usually treat-as-withdraw
  UpdateError subcode;         // for a NOTIFICATION when the outcome is a session reset
  // RFC 7606 7.5, 7.9, 7.10: LOCAL_PREF, ORIGINATOR_ID and CLUSTER_LIST from an external peer.
  bool discard_from_external;
  // Decodes `value` into ctx; an error means malformed. Assigns nothing on error.
  Status (*decode)(std::span<const uint8_t> value, AttrDecodeContext& ctx);
  // Appends the value; false when the attribute is absent or not sent on this session.
  bool (*encode)(const AttrEncodeInput& in, ByteWriter& value);
  // "med 10", or "" when absent; nullptr for attributes shown by UpdateMessage::ToString.
  std::string (*format)(const PathAttributes& attrs);
};

// nullptr for a type code without a handler.
const AttributeHandler* FindAttributeHandler(uint8_t code);
// Every handler, in type code order.
std::span<const AttributeHandler> AttributeHandlers();

// Appends one attribute: flags (with Extended Length when the value passes 255 bytes), code,
// length, value. REQUIRES: value.size() <= 65535.
void WriteAttribute(ByteWriter& w, uint8_t flags, uint8_t code, std::span<const uint8_t> value);
// The header size WriteAttribute uses for a value of this length: 3 or 4.
inline size_t AttributeHeaderSize(size_t value_len) { return value_len > 255 ? 4 : 3; }

}  // namespace strata::bgp
