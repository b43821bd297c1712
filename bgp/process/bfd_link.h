// BfdLink: strata-bgp as a client of strata-bfd (bfd/1.0, libipc/interfaces/bfd.proto).
//
// For each neighbour with BFD configured it holds one session in strata-bfd: single hop (RFC
// 5881) for a directly connected eBGP neighbour, multihop (RFC 5883, from the neighbour's local
// address) otherwise, in the VR's VRF device when it has one. strata-bfd reports the session's
// state to this process's target through bfd_client/1.0; a session that goes down from Up calls
// `on_down`, which takes the BGP session down at once (Cease, BFD Down, RFC 9384) instead of
// after the hold time. A session that never came up takes nothing down (RFC 5882 3.2: BGP does
// not wait for BFD), and neither does strata-bfd's own absence: sessions wait for it, and are
// registered again whenever it (re)starts.
// Threading: the io_context thread. REQUIRES: the Router outlives this object.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "common/ip_addr.h"
#include "common/log.h"
#include "libipc/interfaces/bfd.pb.h"
#include "libipc/interfaces/bfd_client.strata.h"
#include "libipc/router.h"

namespace strata::bgp {

struct BfdSettings {
  uint32_t min_tx_ms = 300;
  uint32_t min_rx_ms = 300;
  uint32_t multiplier = 3;
  bool operator==(const BfdSettings&) const = default;
};

class BfdLink : public bfd_client::v1::BfdClientHandler {
 public:
  using OnDown = std::function<void(const IpAddr& peer, const std::string& diag)>;

  // The VR's VRF device as the sessions use it when they are set ("" none, or none in this
  // kernel: BgpSpeaker::usable_device).
  using Device = std::function<std::string()>;

  // `client` is this process's target ("bgp.<vr>").
  BfdLink(ipc::Router& router, std::string client, Device vrf_device, OnDown on_down);
  ~BfdLink() override;

  // Holds a session to `peer` (multihop from `local` when `multihop`); a changed key or settings
  // replace the session held before.
  void Set(const IpAddr& peer, const IpAddr& local, bool multihop, const BfdSettings& settings);
  // Lets go of the peer's session; false if none was held.
  bool Clear(const IpAddr& peer);
  bool configured(const IpAddr& peer) const { return wants_.contains(peer); }
  // For `show bgp neighbor`: "" (no BFD), "up", "init", "down (DIAG)", "admin down", or
  // "waiting for strata-bfd".
  std::string State(const IpAddr& peer) const;
  // After registration: follows strata-bfd's births to register the sessions again.
  void Started();

  void SessionEvent(const bfd_client::v1::SessionEventRequest& request,
                    ipc::Responder<bfd_client::v1::SessionEventReply> reply) override;

 private:
  struct Want {
    bfd::v1::SessionKey key;
    BfdSettings settings;
    std::string state;  // as State() shows it
  };
  void Register(const IpAddr& peer);
  void Unregister(const bfd::v1::SessionKey& key);

  ipc::Router& router_;
  std::string client_;
  Device vrf_device_;
  OnDown on_down_;
  std::shared_ptr<spdlog::logger> log_;
  std::map<IpAddr, Want> wants_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::bgp
