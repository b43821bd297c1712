#include "bgp/wire/open_message.h"

#include "bgp/wire/byte_reader.h"
#include "bgp/wire/byte_writer.h"
#include "bgp/wire/message_header.h"

namespace strata::bgp {
namespace {

constexpr uint8_t kParamCapabilities = 2;
constexpr uint8_t kParamExtendedLength = 255;  // RFC 9072

NotificationMessage OpenErr(OpenError e, std::vector<uint8_t> data = {}) {
  return MakeNotification(ErrorCode::kOpenMessage, e, std::move(data));
}

// Decodes the parameters in `r`, each with a 1- or 2-byte length.
WireResult<bool> DecodeParams(ByteReader r, bool extended, Capabilities& caps) {
  while (!r.empty()) {
    uint8_t type = 0;
    uint16_t len = 0;
    uint8_t len8 = 0;
    if (!r.U8(type)) return OpenErr(OpenError::kUnspecific);
    if (extended ? !r.U16(len) : !r.U8(len8)) return OpenErr(OpenError::kUnspecific);
    if (!extended) len = len8;
    std::span<const uint8_t> value;
    if (!r.Bytes(len, value)) return OpenErr(OpenError::kUnspecific);
    if (type != kParamCapabilities) return OpenErr(OpenError::kUnsupportedOptionalParameter);
    auto decoded = DecodeCapabilities(value, caps);
    if (!decoded.ok()) return decoded.error();
  }
  return true;
}

}  // namespace

OpenMessage OpenMessage::Make(uint32_t asn, uint16_t hold_time, IpAddr bgp_id, Capabilities caps) {
  OpenMessage m;
  m.my_as = asn > 0xffff ? kAsTrans : static_cast<uint16_t>(asn);
  m.hold_time = hold_time;
  m.bgp_id = bgp_id;
  m.caps = std::move(caps);
  m.caps.four_octet_as = asn;
  return m;
}

std::string OpenMessage::ToString() const {
  return "OPEN v" + std::to_string(version) + " as " + std::to_string(PeerAs()) + " hold " +
         std::to_string(hold_time) + " id " + bgp_id.ToString() + " caps [" + caps.ToString() + "]";
}

std::vector<uint8_t> EncodeOpen(const OpenMessage& open) {
  ByteWriter caps;
  EncodeCapabilities(open.caps, caps);
  ByteWriter w;
  BeginMessage(w, MessageType::kOpen);
  w.U8(open.version);
  w.U16(open.my_as);
  w.U16(open.hold_time);
  w.U32(open.bgp_id.is_v4() ? open.bgp_id.v4_host_order() : 0);
  if (caps.size() == 0) {
    w.U8(0);
  } else if (caps.size() + 2 <= 255) {
    w.U8(static_cast<uint8_t>(caps.size() + 2));
    w.U8(kParamCapabilities);
    w.U8(static_cast<uint8_t>(caps.size()));
    w.Bytes(caps.bytes());
  } else {
    w.U8(kParamExtendedLength);
    w.U8(kParamExtendedLength);
    w.U16(static_cast<uint16_t>(caps.size() + 3));
    w.U8(kParamCapabilities);
    w.U16(static_cast<uint16_t>(caps.size()));
    w.Bytes(caps.bytes());
  }
  FinishMessage(w);
  return w.Take();
}

WireResult<OpenMessage> DecodeOpenBody(std::span<const uint8_t> body) {
  ByteReader r(body);
  OpenMessage m;
  uint32_t id = 0;
  uint8_t params_len = 0;
  if (!r.U8(m.version) || !r.U16(m.my_as) || !r.U16(m.hold_time) || !r.U32(id) ||
      !r.U8(params_len)) {
    return OpenErr(OpenError::kUnspecific);
  }
  if (m.version != kBgpVersion) return OpenErr(OpenError::kUnsupportedVersion, {0, kBgpVersion});
  m.bgp_id = IpAddr::V4(id);
  bool extended = false;
  size_t len = params_len;
  // RFC 9072: a first parameter of type 255 means a 2-byte length follows.
  if (params_len != 0 && !r.empty() && r.rest()[0] == kParamExtendedLength) {
    uint8_t marker = 0;
    uint16_t ext_len = 0;
    if (!r.U8(marker) || !r.U16(ext_len)) return OpenErr(OpenError::kUnspecific);
    extended = true;
    len = ext_len;
  }
  std::span<const uint8_t> params;
  if (!r.Bytes(len, params) || !r.empty()) return OpenErr(OpenError::kUnspecific);
  auto decoded = DecodeParams(ByteReader(params), extended, m.caps);
  if (!decoded.ok()) return decoded.error();
  return m;
}

std::optional<NotificationMessage> ValidateOpen(const OpenMessage& open,
                                                const OpenExpectations& expect) {
  if (open.hold_time == 1 || open.hold_time == 2) return OpenErr(OpenError::kUnacceptableHoldTime);
  const uint32_t id = open.bgp_id.is_v4() ? open.bgp_id.v4_host_order() : 0;
  if (id == 0 || (expect.peer_is_internal && open.bgp_id == expect.local_bgp_id)) {
    return OpenErr(OpenError::kBadBgpIdentifier);
  }
  if (open.my_as == 0) return OpenErr(OpenError::kBadPeerAs);
  if (open.caps.four_octet_as) {
    const uint32_t as4 = *open.caps.four_octet_as;
    const uint16_t mapped = as4 > 0xffff ? kAsTrans : static_cast<uint16_t>(as4);
    if (as4 == 0 || mapped != open.my_as) return OpenErr(OpenError::kBadPeerAs);
  }
  if (expect.peer_as != 0 && open.PeerAs() != expect.peer_as) {
    return OpenErr(OpenError::kBadPeerAs);
  }
  return std::nullopt;
}

}  // namespace strata::bgp
