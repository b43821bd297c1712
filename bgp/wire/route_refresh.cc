#include "bgp/wire/route_refresh.h"

#include "bgp/wire/byte_writer.h"
#include "bgp/wire/message_header.h"

namespace strata::bgp {

std::string RouteRefreshMessage::ToString() const {
  static constexpr const char* kNames[] = {"ROUTE-REFRESH", "BoRR", "EoRR"};
  const std::string name =
      known_subtype() ? kNames[subtype] : "ROUTE-REFRESH subtype " + std::to_string(subtype);
  return name + " " + afi_safi.ToString();
}

std::vector<uint8_t> EncodeRouteRefresh(const RouteRefreshMessage& m) {
  ByteWriter w;
  BeginMessage(w, MessageType::kRouteRefresh);
  w.U16(m.afi_safi.afi);
  w.U8(m.subtype);
  w.U8(m.afi_safi.safi);
  FinishMessage(w);
  return w.Take();
}

WireResult<RouteRefreshMessage> DecodeRouteRefresh(std::span<const uint8_t> message) {
  if (message.size() != kHeaderSize + 4) {
    return MakeNotification(ErrorCode::kRouteRefresh, RouteRefreshError::kInvalidMessageLength,
                            std::vector<uint8_t>(message.begin(), message.end()));
  }
  const auto body = message.subspan(kHeaderSize);
  RouteRefreshMessage m;
  m.afi_safi.afi = static_cast<uint16_t>((body[0] << 8) | body[1]);
  m.subtype = body[2];
  m.afi_safi.safi = body[3];
  return m;
}

}  // namespace strata::bgp
