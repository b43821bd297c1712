// OutputGate: the restarting speaker's gate in front of one peer's wire (RFC 4724 4.1).
//
// Open (the normal case): Hold returns false, the caller sends the batch, and nothing is kept:
// there is no Adj-RIB-Out copy (a full table is a million entries per peer); a route refresh or
// soft reset out re-sends from the pipeline (BgpPipeline::refresh_out), as XORP keeps routes only
// where they enter. Closed (this speaker restarted and defers its route selection until its
// graceful restart peers' End-of-RIB, or its selection deferral timer): Hold records the batch
// and nothing goes on the wire. Changes coalesce per prefix, so the peer never sees the partial
// best paths of the re-learning; a withdrawal just forgets the prefix (the peer, our helper,
// holds our previous routes stale, and its sweep on our End-of-RIB drops what we do not announce
// again). Open hands back the held table once, grouped by attribute set and family, to send
// before our End-of-RIB, and forgets it. Threading: single-threaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/container/btree_map.h"
#include "bgp/pipeline/session_sink.h"
#include "bgp/wire/bgp_types.h"

namespace strata::bgp {

class OutputGate {
 public:
  struct Counters {
    uint64_t held_batches = 0;       // batches recorded while closed
    uint64_t held_changes = 0;       // announcements and withdrawals in them
    uint64_t released_prefixes = 0;  // handed back by Open
    uint64_t releases = 0;           // Open calls that found the gate closed
  };

  // From now on batches are held (the session is established while we restart).
  void Close() { closed_ = true; }
  bool closed() const { return closed_; }
  // Closed: records `batch` and returns true (send nothing). Open: returns false; the caller
  // sends the batch.
  bool Hold(const UpdateBatch& batch);
  // Opens the gate; returns the held table (every prefix once, grouped by attribute set and
  // family, prefixes sorted) when it was closed, else nothing.
  std::vector<AnnouncementGroup> Open();
  // The session went: forget the held table (the gate stays as it is).
  void Clear() { table_.clear(); }

  // Prefixes held while closed.
  size_t size() const { return table_.size(); }
  const Counters& counters() const { return counters_; }

 private:
  std::vector<AnnouncementGroup> Groups() const;

  bool closed_ = false;
  // Held while closed. A B-tree: sorted like a std::map, without a 72-byte node per prefix (a full
  // table is 1M).
  absl::btree_map<IpPrefix, AttributeSetPtr> table_;
  Counters counters_;
};

}  // namespace strata::bgp
