#include "bgp/wire/codec_options.h"

#include <algorithm>

namespace strata::bgp {

NegotiatedSession Negotiate(const Capabilities& local, uint16_t local_hold_time,
                            const Capabilities& remote, uint16_t remote_hold_time,
                            PeerType peer_type) {
  NegotiatedSession s;
  s.codec.four_octet_as = local.four_octet_as.has_value() && remote.four_octet_as.has_value();
  s.codec.extended_message = local.extended_message && remote.extended_message;
  s.codec.peer_type = peer_type;
  // RFC 4760 8: a speaker that sends no multiprotocol capability talks IPv4 unicast only.
  auto families_of = [](const Capabilities& c) {
    return c.multiprotocol.empty() ? std::vector<AfiSafi>{kIpv4Unicast} : c.multiprotocol;
  };
  const auto remote_families = families_of(remote);
  for (const AfiSafi& f : families_of(local)) {
    if (std::find(remote_families.begin(), remote_families.end(), f) != remote_families.end()) {
      s.families.push_back(f);
    }
  }
  s.route_refresh = (local.route_refresh || local.enhanced_route_refresh) &&
                    (remote.route_refresh || remote.enhanced_route_refresh);
  s.enhanced_route_refresh = local.enhanced_route_refresh && remote.enhanced_route_refresh;
  s.hold_time = std::min(local_hold_time, remote_hold_time);
  if (local.graceful_restart && remote.graceful_restart) {
    const GracefulRestartCapability& gr = *remote.graceful_restart;
    s.graceful_restart = true;
    s.peer_restarting = gr.restarting;
    s.peer_restart_time = gr.restart_time;
    for (const auto& f : gr.families) {
      if (std::find(s.families.begin(), s.families.end(), f.afi_safi) == s.families.end()) continue;
      s.peer_gr_families.push_back(f.afi_safi);
      if (f.forwarding_preserved) s.peer_forwarding_preserved.push_back(f.afi_safi);
    }
  }
  if (local.long_lived_graceful_restart && remote.long_lived_graceful_restart &&
      remote.graceful_restart) {
    s.long_lived_graceful_restart = true;
    for (const auto& f : remote.long_lived_graceful_restart->families) {
      if (std::find(s.families.begin(), s.families.end(), f.afi_safi) == s.families.end()) continue;
      s.peer_llgr_families.push_back(f);
    }
  }
  return s;
}

}  // namespace strata::bgp
