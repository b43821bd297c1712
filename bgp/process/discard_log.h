// DiscardLog: the last prefixes a peer sent that strata-bgp did not keep, and why, for
// `show bgp neighbor X discarded-routes` (bgp/1.0 list_peer_routes, view DISCARDED).
//
// A route the Adj-RIB-In holds has its fate in the other views; these never reach it, so
// without a record an operator sees only a counter:
//   - malformed: the UPDATE was treated as withdraw (RFC 7606), with the decoder's reason;
//   - first-as: an eBGP path not starting with the peer's AS (enforce-first-as);
//   - own-next-hop: NEXT_HOP is our address on the session (RFC 4271 6.3);
//   - max-prefix: the UPDATE that took the peer over its limit (the session went down).
// At most `capacity` prefixes are kept, the oldest dropped first; the reason text is shared by
// the prefixes of one UPDATE, so an entry is a prefix, a time and a reference (about 48 bytes):
// 1,000 entries are under 64 KB per peer, and a peer that never sends such a route costs an
// empty deque. Threading: the owner's thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "common/ip_prefix.h"

namespace strata::bgp {

class DiscardLog {
 public:
  enum class Reason : uint8_t { kMalformed, kFirstAs, kOwnNextHop, kMaxPrefix };
  struct Entry {
    IpPrefix prefix;
    Reason reason = Reason::kMalformed;
    int64_t unix_ms = 0;
    std::shared_ptr<const std::string> why;  // shared by the prefixes of one UPDATE
  };

  explicit DiscardLog(size_t capacity = 1000) : capacity_(capacity == 0 ? 1 : capacity) {}

  // The prefixes of one UPDATE, discarded for `reason`, said in words by `why`.
  void Add(std::span<const IpPrefix> prefixes, Reason reason, std::string why, int64_t unix_ms);

  // Oldest first.
  const std::deque<Entry>& entries() const { return entries_; }
  // Prefixes discarded since the peer was configured, kept or not.
  uint64_t total() const { return total_; }
  size_t capacity() const { return capacity_; }

 private:
  size_t capacity_;
  uint64_t total_ = 0;
  std::deque<Entry> entries_;
};

std::string_view DiscardReasonName(DiscardLog::Reason reason);  // "malformed", "first-as", ...

}  // namespace strata::bgp
