// BgpSpeaker: the interface every routing daemon of the interop harness implements (BIRD, FRR,
// GoBGP, ExaBGP, Strata), so that tests can be written once against any pair of them.
//
// A speaker is configured before Start() with its AS, router id, neighbours and the routes it
// originates; it runs inside a NetNs with its files (config, control socket, logs) in its own
// directory. Received routes come back in one common form, parsed from each daemon's own
// show output. Methods block for at most a few seconds; the Wait* helpers poll.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "testing/interop/net_ns.h"

namespace strata::interop {

// A route as announced (nexthop empty: the session's own address) or as received.
struct Route {
  std::string prefix{};             // "10.1.0.0/24", "fd00:1::/48"
  std::string nexthop{};            // first nexthop only (IPv6: the global one)
  std::vector<uint32_t> as_path{};  // flattened; sets are not used by the tests
  // The ASes of its AS_CONFED_SEQUENCE segments (RFC 5065), as received (FRR and Strata show
  // segment types; BIRD does not, so they are left empty). Also in as_path.
  std::vector<uint32_t> confed_path{};
  std::vector<std::string> communities{};        // "65001:100"
  std::vector<std::string> large_communities{};  // "65001:1:2"
  std::optional<uint32_t> med{};
  std::optional<uint32_t> local_pref{};
  // Route reflection (RFC 4456), as received; not announced by any speaker.
  std::optional<std::string> originator_id{};  // "10.255.0.1"
  std::vector<std::string> cluster_list{};     // first = added last

  bool ipv6() const { return prefix.find(':') != std::string::npos; }
  std::string ToString() const;
};

struct Neighbor {
  std::string address{};
  uint32_t remote_as = 0;
  std::string local_address{};  // required: our address on the shared link
  // Families carried on this session; tests use one session per family.
  bool ipv4 = true;
  bool ipv6 = false;
  // RFC 5065 (BIRD, FRR): our confederation identifier; the neighbour is then a member AS.
  uint32_t confederation = 0;
  // RFC 4724 (BIRD, FRR): graceful restart for this session (BIRD `graceful restart on`, FRR
  // `neighbor .. graceful-restart` with the forwarding state preserved).
  bool graceful_restart = false;
  // The restart time it advertises, in seconds; 0: the daemon's default (BIRD, FRR: 120).
  uint32_t graceful_restart_time = 0;
  // RFC 9494 (BIRD, Strata): long-lived stale time in seconds; 0: off (BIRD `long lived graceful
  // restart on; long lived stale time N`, Strata `long_lived_stale_time` of add_peer).
  uint32_t long_lived_stale_time = 0;
  // BFD with this neighbour at this interval (transmit and receive, ms); 0: none (FRR:
  // bfdd with a profile, `neighbor .. bfd profile`; BIRD: `protocol bfd`, `bfd on`).
  uint32_t bfd_interval_ms = 0;
};

struct SpeakerConfig {
  std::string name{};  // for logs and directory names: "bird-a"
  uint32_t local_as = 0;
  std::string router_id{};
  std::vector<Neighbor> neighbors{};
  std::vector<Route> routes{};  // originated at start
};

class BgpSpeaker {
 public:
  // `dir`: an existing directory for this speaker's files.
  BgpSpeaker(const NetNs& ns, SpeakerConfig config, std::string dir)
      : ns_(ns), config_(std::move(config)), dir_(std::move(dir)) {}
  virtual ~BgpSpeaker() = default;
  BgpSpeaker(const BgpSpeaker&) = delete;
  BgpSpeaker& operator=(const BgpSpeaker&) = delete;

  virtual Status Start() = 0;
  virtual void Stop() = 0;
  // Asks the daemon whether its session with `neighbor` is Established.
  virtual bool Established(const std::string& neighbor) = 0;
  // Best routes learned from peers (not the ones originated here), both families.
  virtual StatusOr<std::vector<Route>> ReceivedRoutes() = 0;
  virtual Status Announce(const Route& route) = 0;
  virtual Status Withdraw(const std::string& prefix) = 0;
  // Hard reset of the session (NOTIFICATION Cease); the session then comes back by itself.
  virtual Status ResetSession(const std::string& neighbor) = 0;
  // The daemon's log files, for failure messages.
  virtual std::string Logs() const = 0;

  const SpeakerConfig& config() const { return config_; }
  const std::string& dir() const { return dir_; }
  const NetNs& ns() const { return ns_; }

  bool WaitEstablished(const std::string& neighbor,
                       std::chrono::milliseconds limit = std::chrono::seconds(20));
  // The received route for `prefix` once it is there and `accept` holds for it.
  std::optional<Route> WaitForRoute(const std::string& prefix,
                                    std::chrono::milliseconds limit = std::chrono::seconds(15),
                                    const std::function<bool(const Route&)>& accept = nullptr);
  // True once no received route for `prefix` is left.
  bool WaitForRouteGone(const std::string& prefix,
                        std::chrono::milliseconds limit = std::chrono::seconds(15));
  std::optional<Route> FindRoute(const std::string& prefix);

 protected:
  // Reads a file of this speaker's directory ("" when missing); at most the last `max` bytes.
  std::string ReadFileTail(const std::string& name, size_t max = 8000) const;

  const NetNs& ns_;
  SpeakerConfig config_;
  std::string dir_;
};

}  // namespace strata::interop
