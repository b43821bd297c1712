#include "bgp/session/open_negotiator.h"

#include <algorithm>

#include "bgp/wire/byte_writer.h"
#include "bgp/wire/next_hop_rules.h"

namespace strata::bgp {
namespace {

bool RemoteHas(const Capabilities& remote, CapabilityCode code,
               const std::vector<AfiSafi>& families) {
  switch (code) {
    case CapabilityCode::kMultiprotocol:
      return std::all_of(families.begin(), families.end(), [&](const AfiSafi& f) {
        return std::find(remote.multiprotocol.begin(), remote.multiprotocol.end(), f) !=
               remote.multiprotocol.end();
      });
    case CapabilityCode::kRouteRefresh:
      return remote.route_refresh;
    case CapabilityCode::kExtendedMessage:
      return remote.extended_message;
    case CapabilityCode::kGracefulRestart:
      return remote.graceful_restart.has_value();
    case CapabilityCode::kFourOctetAs:
      return remote.four_octet_as.has_value();
    case CapabilityCode::kAddPath:
      return !remote.add_path.empty();
    case CapabilityCode::kEnhancedRouteRefresh:
      return remote.enhanced_route_refresh;
    case CapabilityCode::kLongLivedGracefulRestart:
      return remote.long_lived_graceful_restart.has_value();
  }
  return false;
}

}  // namespace

OpenNegotiator::OpenNegotiator(const PeerConfig& config) : config_(config) {
  Capabilities caps;
  caps.multiprotocol = config.families;
  caps.route_refresh = config.route_refresh;
  caps.enhanced_route_refresh = config.enhanced_route_refresh;
  caps.extended_message = config.extended_message;
  caps.graceful_restart = config.graceful_restart;
  caps.long_lived_graceful_restart = config.long_lived_graceful_restart;
  local_open_ = OpenMessage::Make(config.open_as(), config.hold_time, config.router_id, caps);
}

void OpenNegotiator::AppendLocalCapability(CapabilityCode code, std::vector<uint8_t>& out) const {
  const Capabilities& local = local_open_.caps;
  Capabilities one;
  switch (code) {
    case CapabilityCode::kMultiprotocol:
      one.multiprotocol = local.multiprotocol;
      break;
    case CapabilityCode::kRouteRefresh:
      one.route_refresh = true;
      break;
    case CapabilityCode::kExtendedMessage:
      one.extended_message = true;
      break;
    case CapabilityCode::kGracefulRestart:
      one.graceful_restart = local.graceful_restart.value_or(GracefulRestartCapability{});
      break;
    case CapabilityCode::kFourOctetAs:
      one.four_octet_as = local.four_octet_as;
      break;
    case CapabilityCode::kAddPath:
      one.add_path = local.add_path;
      break;
    case CapabilityCode::kEnhancedRouteRefresh:
      one.enhanced_route_refresh = true;
      break;
    case CapabilityCode::kLongLivedGracefulRestart:
      one.long_lived_graceful_restart =
          local.long_lived_graceful_restart.value_or(LongLivedGracefulRestartCapability{});
      break;
  }
  ByteWriter w;
  EncodeCapabilities(one, w);
  out.insert(out.end(), w.bytes().begin(), w.bytes().end());
}

WireResult<NegotiatedSession> OpenNegotiator::Accept(const OpenMessage& remote) const {
  OpenExpectations expect;
  expect.peer_as = config_.peer_as;
  expect.local_bgp_id = config_.router_id;
  expect.peer_is_internal = config_.peer_type() == PeerType::kInternal;
  if (auto error = ValidateOpen(remote, expect)) return *error;

  std::vector<uint8_t> missing;
  for (CapabilityCode code : config_.required_capabilities) {
    if (!RemoteHas(remote.caps, code, config_.families)) AppendLocalCapability(code, missing);
  }
  NegotiatedSession s = Negotiate(local_open_.caps, local_open_.hold_time, remote.caps,
                                  remote.hold_time, config_.peer_type());
  s.codec.peer_on_loopback = IsLoopback(config_.peer_address);
  if (missing.empty() && s.families.empty()) {
    AppendLocalCapability(CapabilityCode::kMultiprotocol, missing);
  }
  if (!missing.empty()) {
    return MakeNotification(ErrorCode::kOpenMessage, OpenError::kUnsupportedCapability,
                            std::move(missing));
  }
  return s;
}

std::chrono::seconds OpenNegotiator::KeepaliveInterval(uint16_t negotiated_hold_time) const {
  if (negotiated_hold_time == 0) return std::chrono::seconds(0);
  const uint16_t third = std::max<uint16_t>(1, negotiated_hold_time / 3);
  const uint16_t configured = config_.keepalive_time == 0 ? third : config_.keepalive_time;
  return std::chrono::seconds(std::min(configured, third));
}

}  // namespace strata::bgp
