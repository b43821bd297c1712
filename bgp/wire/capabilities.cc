#include "bgp/wire/capabilities.h"

#include <algorithm>

#include "bgp/wire/byte_reader.h"

namespace strata::bgp {
namespace {

NotificationMessage Malformed() {
  return MakeNotification(ErrorCode::kOpenMessage, OpenError::kUnspecific);
}

void Put(ByteWriter& w, CapabilityCode code, const ByteWriter& value) {
  w.U8(static_cast<uint8_t>(code));
  w.U8(static_cast<uint8_t>(value.size()));
  w.Bytes(value.bytes());
}

bool ReadAfiSafi(ByteReader& r, AfiSafi& out) { return r.U16(out.afi) && r.U8(out.safi); }

bool DecodeGracefulRestart(std::span<const uint8_t> v, GracefulRestartCapability& gr) {
  ByteReader r(v);
  uint16_t word = 0;
  if (!r.U16(word) || r.remaining() % 4 != 0) return false;
  gr.restarting = (word & 0x8000) != 0;
  gr.notification_support = (word & 0x4000) != 0;
  gr.restart_time = word & 0x0fff;
  gr.families.clear();
  while (!r.empty()) {
    GracefulRestartCapability::Family f;
    uint8_t flags = 0;
    if (!ReadAfiSafi(r, f.afi_safi) || !r.U8(flags)) return false;
    f.forwarding_preserved = (flags & 0x80) != 0;
    gr.families.push_back(f);
  }
  return true;
}

bool DecodeLongLivedGracefulRestart(std::span<const uint8_t> v,
                                    LongLivedGracefulRestartCapability& llgr) {
  if (v.size() % 7 != 0) return false;
  ByteReader r(v);
  while (!r.empty()) {
    LongLivedGracefulRestartCapability::Family f;
    uint8_t flags = 0;
    uint8_t hi = 0;
    uint16_t lo = 0;
    if (!ReadAfiSafi(r, f.afi_safi) || !r.U8(flags) || !r.U8(hi) || !r.U16(lo)) return false;
    f.forwarding_preserved = (flags & 0x80) != 0;
    f.stale_time = (uint32_t{hi} << 16) | lo;
    llgr.families.push_back(f);
  }
  return true;
}

}  // namespace

bool Capabilities::Supports(AfiSafi f) const {
  return std::find(multiprotocol.begin(), multiprotocol.end(), f) != multiprotocol.end();
}

std::string Capabilities::ToString() const {
  std::string s;
  auto add = [&s](const std::string& part) { s += (s.empty() ? "" : " ") + part; };
  if (!multiprotocol.empty()) {
    std::string mp = "mp(";
    for (size_t i = 0; i < multiprotocol.size(); ++i) {
      mp += (i ? "," : "") + multiprotocol[i].ToString();
    }
    add(mp + ")");
  }
  if (route_refresh) add("rr");
  if (enhanced_route_refresh) add("err");
  if (four_octet_as) add("as4(" + std::to_string(*four_octet_as) + ")");
  if (extended_message) add("ext-msg");
  if (graceful_restart) add("gr(" + std::to_string(graceful_restart->restart_time) + "s)");
  if (!add_path.empty()) add("add-path");
  if (long_lived_graceful_restart) add("llgr");
  for (const auto& u : unknown) add("unknown(" + std::to_string(u.code) + ")");
  return s;
}

void EncodeCapabilities(const Capabilities& caps, ByteWriter& w) {
  for (const AfiSafi& f : caps.multiprotocol) {
    ByteWriter v;
    v.U16(f.afi);
    v.U8(0);
    v.U8(f.safi);
    Put(w, CapabilityCode::kMultiprotocol, v);
  }
  if (caps.route_refresh) Put(w, CapabilityCode::kRouteRefresh, ByteWriter());
  if (caps.enhanced_route_refresh) Put(w, CapabilityCode::kEnhancedRouteRefresh, ByteWriter());
  if (caps.extended_message) Put(w, CapabilityCode::kExtendedMessage, ByteWriter());
  if (caps.four_octet_as) {
    ByteWriter v;
    v.U32(*caps.four_octet_as);
    Put(w, CapabilityCode::kFourOctetAs, v);
  }
  if (caps.graceful_restart) {
    const auto& gr = *caps.graceful_restart;
    ByteWriter v;
    v.U16(static_cast<uint16_t>((gr.restarting ? 0x8000 : 0) |
                                (gr.notification_support ? 0x4000 : 0) |
                                (gr.restart_time & 0x0fff)));
    // A capability value holds at most 255 bytes: 2 + 4 * 63.
    for (size_t i = 0; i < gr.families.size() && i < 63; ++i) {
      v.U16(gr.families[i].afi_safi.afi);
      v.U8(gr.families[i].afi_safi.safi);
      v.U8(gr.families[i].forwarding_preserved ? 0x80 : 0);
    }
    Put(w, CapabilityCode::kGracefulRestart, v);
  }
  if (!caps.add_path.empty()) {
    ByteWriter v;
    for (size_t i = 0; i < caps.add_path.size() && i < 63; ++i) {
      v.U16(caps.add_path[i].afi_safi.afi);
      v.U8(caps.add_path[i].afi_safi.safi);
      v.U8(caps.add_path[i].send_receive);
    }
    Put(w, CapabilityCode::kAddPath, v);
  }
  if (caps.long_lived_graceful_restart) {
    ByteWriter v;
    // A capability value holds at most 255 bytes: 7 * 36.
    const auto& families = caps.long_lived_graceful_restart->families;
    for (size_t i = 0; i < families.size() && i < 36; ++i) {
      const uint32_t t =
          std::min(families[i].stale_time, LongLivedGracefulRestartCapability::kMaxStaleTime);
      v.U16(families[i].afi_safi.afi);
      v.U8(families[i].afi_safi.safi);
      v.U8(families[i].forwarding_preserved ? 0x80 : 0);
      v.U8(static_cast<uint8_t>(t >> 16));
      v.U16(static_cast<uint16_t>(t & 0xffff));
    }
    Put(w, CapabilityCode::kLongLivedGracefulRestart, v);
  }
  for (const auto& u : caps.unknown) {
    w.U8(u.code);
    const size_t len = std::min<size_t>(u.value.size(), 255);
    w.U8(static_cast<uint8_t>(len));
    w.Bytes(std::span<const uint8_t>(u.value).first(len));
  }
}

WireResult<bool> DecodeCapabilities(std::span<const uint8_t> value, Capabilities& caps) {
  ByteReader r(value);
  while (!r.empty()) {
    uint8_t code = 0;
    uint8_t len = 0;
    std::span<const uint8_t> v;
    if (!r.U8(code) || !r.U8(len) || !r.Bytes(len, v)) return Malformed();
    ByteReader vr(v);
    switch (static_cast<CapabilityCode>(code)) {
      case CapabilityCode::kMultiprotocol: {
        AfiSafi f;
        uint8_t reserved = 0;
        if (len != 4 || !vr.U16(f.afi) || !vr.U8(reserved) || !vr.U8(f.safi)) return Malformed();
        if (!caps.Supports(f)) caps.multiprotocol.push_back(f);
        break;
      }
      case CapabilityCode::kRouteRefresh:
        if (len != 0) return Malformed();
        caps.route_refresh = true;
        break;
      case CapabilityCode::kEnhancedRouteRefresh:
        if (len != 0) return Malformed();
        caps.enhanced_route_refresh = true;
        break;
      case CapabilityCode::kExtendedMessage:
        if (len != 0) return Malformed();
        caps.extended_message = true;
        break;
      case CapabilityCode::kFourOctetAs: {
        uint32_t asn = 0;
        if (len != 4 || !vr.U32(asn)) return Malformed();
        caps.four_octet_as = asn;
        break;
      }
      case CapabilityCode::kGracefulRestart: {
        GracefulRestartCapability gr;
        if (!DecodeGracefulRestart(v, gr)) return Malformed();
        caps.graceful_restart = std::move(gr);
        break;
      }
      case CapabilityCode::kLongLivedGracefulRestart: {
        LongLivedGracefulRestartCapability llgr;
        if (!DecodeLongLivedGracefulRestart(v, llgr)) return Malformed();
        caps.long_lived_graceful_restart = std::move(llgr);
        break;
      }
      case CapabilityCode::kAddPath: {
        if (len % 4 != 0) return Malformed();
        while (!vr.empty()) {
          AddPathFamily f;
          if (!ReadAfiSafi(vr, f.afi_safi) || !vr.U8(f.send_receive)) return Malformed();
          caps.add_path.push_back(f);
        }
        break;
      }
      default:
        caps.unknown.push_back(RawCapability{code, std::vector<uint8_t>(v.begin(), v.end())});
        break;
    }
  }
  return true;
}

}  // namespace strata::bgp
