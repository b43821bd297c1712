// SessionTable: every BFD session of strata-bfd, its clients, and the demultiplexing of received
// packets (RFC 5880 6.3, RFC 5881 3 and 5, RFC 5883 3).
//
// A session is named by its key (VR, peer address, local address, interface, single or multi
// hop) and shared by the clients that asked for it (strata-bgp for a neighbour, the RIB for a
// static route's next hop): its intervals are the fastest any client asked for, the multiplier
// the smallest, and it lives while one client holds it. When the last one leaves, the session
// goes AdminDown, so the peer stops without declaring a failure, and disappears after one
// Detection Time (at least a second) of AdminDown packets (RFC 5880 6.8.16).
// A received packet goes to the session whose local discriminator is its Your Discriminator, or,
// when that is zero (the peer does not know us yet), to the session keyed by its source and
// destination. Single-hop packets must come with TTL / Hop Limit 255 (GTSM, RFC 5881 5).
// Packets that fit no session, fail a check or come from another address than the session's
// peer are counted and dropped. Discriminators are random, non-zero and unique.
// Threading: single-threaded; the hooks run synchronously.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "bfd/bfd_session.h"
#include "common/clock.h"
#include "common/ip_addr.h"

namespace strata::bfd {

struct SessionKey {
  std::string vr{};  // empty: the default VR
  IpAddr peer{};
  IpAddr local{};            // unset (default IpAddr): any of ours
  std::string interface {};  // single hop: the link to the peer (empty: any)
  bool multihop = false;

  auto operator<=>(const SessionKey&) const = default;
  bool operator==(const SessionKey&) const = default;
  std::string ToString() const;
};

struct ReceivedPacket {
  std::string vr{};
  IpAddr source{};
  IpAddr destination{};
  std::string interface {};  // where it came in (single hop)
  uint8_t ttl = 0;           // TTL / Hop Limit as received
  bool multihop = false;     // came to port 4784
  std::span<const uint8_t> bytes{};
};

struct DropCounters {
  uint64_t malformed = 0;     // failed a check of RFC 5880 6.8.6
  uint64_t no_session = 0;    // unknown Your Discriminator, or no session for the addresses
  uint64_t bad_ttl = 0;       // single hop with TTL / Hop Limit not 255
  uint64_t wrong_source = 0;  // a known discriminator from another address than the peer's
};

class SessionTable {
 public:
  struct Hooks {
    // Sends a session's packet to its peer.
    std::function<void(const SessionKey&, std::vector<uint8_t>)> transmit{};
    // A session changed state; `clients` are the ones holding it.
    std::function<void(const SessionKey&, const BfdSession&, SessionState from, Diag diag)>
        state_changed{};
    // A session with no clients left is gone (after its AdminDown time).
    std::function<void(const SessionKey&)> removed{};
  };
  struct Entry {
    SessionKey key;
    std::map<std::string, SessionParams> clients;  // what each client asked for
    std::unique_ptr<BfdSession> session;
    // No clients left: AdminDown until then, removed after.
    std::optional<Clock::TimePoint> linger_until;
  };

  SessionTable(Clock& clock, Hooks hooks, uint32_t seed = std::random_device{}());

  // `client` holds the session of `key` with `params` (a new session, or new parameters of its
  // share). Returns the session. REQUIRES: CheckAuthConfig(params.auth) ok.
  const BfdSession& Add(const SessionKey& key, const std::string& client,
                        const SessionParams& params);
  // `client` lets go of the session; false if it held none.
  bool Remove(const SessionKey& key, const std::string& client);
  // Every session `client` holds is let go (the client died).
  size_t RemoveClient(const std::string& client);
  // Holds the session in AdminDown or lets it come up; false if there is no such session.
  bool SetAdminDown(const SessionKey& key, bool down);

  void Receive(const ReceivedPacket& packet);

  const Entry* Find(const SessionKey& key) const;
  const std::map<SessionKey, Entry>& entries() const { return entries_; }
  const DropCounters& drops() const { return drops_; }

 private:
  // The fastest intervals any client asked for, the smallest multiplier, the first client's key.
  static SessionParams Merge(const std::map<std::string, SessionParams>& clients);
  uint32_t NewDiscriminator();
  Entry* Match(const ReceivedPacket& packet, const ControlPacket& p);
  void Linger(Entry& e);
  // Removes the entries whose AdminDown time is over and waits for the next.
  void Sweep();

  Clock& clock_;
  Hooks hooks_;
  std::minstd_rand rng_;
  std::map<SessionKey, Entry> entries_;
  std::unordered_map<uint32_t, Entry*> by_discr_;
  DropCounters drops_;
  std::unique_ptr<Timer> sweep_timer_;
};

}  // namespace strata::bfd
