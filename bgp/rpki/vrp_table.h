// VrpTable: the set of Validated ROA Payloads (prefix, max length, origin AS) the RPKI caches
// gave, and route origin validation against it (RFC 6811 2).
//
// Why a table of our own rather than RTRlib's pfx_table: validation runs for every route that
// enters the pipeline, on the pipeline's thread; this table is only touched there (RTRlib's
// updates are posted to that thread, rtr_client.h), so validation takes no lock, and tests and
// the benchmark build it without any cache.
// Each VRP is counted once per source that gave it (two caches, or two sessions of one
// during a switch, may both hold it): Add and Remove report whether the set itself changed.
// Validation: the VRPs whose prefix covers the route's are its candidates. None: not-found.
// Valid if one has the route's origin AS, that AS is not 0 (RFC 6483 4, RFC 7607: an AS 0 VRP
// says the prefix must not be originated) and the route's length is at most its max length;
// invalid otherwise, as for a route whose origin is NONE (its AS_PATH ends in an AS_SET).
// Memory: a trie node per VRP prefix (RouteTrie), a vector there, and 8 bytes per VRP.
// Threading: single-threaded (the pipeline's thread).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bgp/rpki/rov_state.h"
#include "common/ip_prefix.h"
#include "common/route_trie.h"

namespace strata::bgp {

struct Vrp {
  IpPrefix prefix;
  uint8_t max_len = 0;
  uint32_t asn = 0;
  friend bool operator==(const Vrp&, const Vrp&) = default;
  // "192.0.2.0/24-24 AS65001".
  std::string ToString() const;
};

class VrpTable {
 public:
  // Adds one source's copy of `vrp`; true if the set gained it. REQUIRES: max_len within
  // [prefix length, address width] (RtrClient drops other records).
  bool Add(const Vrp& vrp);
  // Drops one source's copy; true if the set lost it (false too if it was not there).
  bool Remove(const Vrp& vrp);
  void Clear();

  // RFC 6811 2. `origin` nullopt: the route's origin AS is NONE.
  RovState Validate(const IpPrefix& prefix, std::optional<uint32_t> origin) const;
  // The VRPs covering `prefix` (what made the decision), shortest prefix first.
  std::vector<Vrp> Covering(const IpPrefix& prefix) const;

  // Distinct VRPs per family.
  size_t v4_count() const { return v4_; }
  size_t v6_count() const { return v6_; }
  size_t size() const { return v4_ + v6_; }
  // Prefixes holding VRPs (trie entries).
  size_t prefixes() const { return trie_.size(); }
  // Adds and removes that changed the set, since the start.
  uint64_t serial() const { return serial_; }

 private:
  struct Entry {
    uint32_t asn = 0;
    uint8_t max_len = 0;
    uint16_t sources = 0;  // saturates; a VRP has few sources
  };
  using Entries = std::vector<Entry>;

  RouteTrie<Entries> trie_;
  size_t v4_ = 0;
  size_t v6_ = 0;
  uint64_t serial_ = 0;
};

}  // namespace strata::bgp
