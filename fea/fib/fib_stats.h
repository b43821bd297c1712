// FibStats: a point-in-time description of the multi-VR FIB's size and shape.
//
// Why: the shared structure only pays off when VR tables are alike, so the operator (and the
// grouping policy) needs per-part byte counts, row counts and depth. Plain value type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fea/fib/route_master.h"

namespace strata::fib {

struct GroupStats {
  std::vector<VrId> members;
  int root_bits = 0;
  size_t trie_nodes = 0;          // node slots in use (root block included)
  size_t trie_node_capacity = 0;  // node slots allocated (incremental-update reserve included)
  size_t leaves = 0;              // distinct leaf subtrees (prefixes of the common set)
  size_t rows = 0;                // live shared next-hop rows
  size_t row_width = 0;           // NextHopIds per row (= members.size())
  size_t trie_bytes = 0;          // allocated
  size_t row_bytes = 0;           // allocated
  // depth_histogram[d]: leaves reached after reading d node words (root slot = 1).
  std::vector<uint64_t> depth_histogram;
};

struct FibStats {
  std::vector<GroupStats> groups;
  size_t vrs = 0;
  size_t routes = 0;
  size_t trie_nodes = 0;
  size_t shared_rows = 0;
  size_t trie_bytes = 0;
  size_t row_bytes = 0;
  size_t next_hop_bytes = 0;         // per-VR next-hop tables
  size_t master_bytes = 0;           // route master (not read by lookups)
  size_t lookup_bytes = 0;           // trie + rows + per-VR next-hop tables
  uint64_t rebuilds = 0;             // all rebuilds, blocking or concurrent
  uint64_t background_rebuilds = 0;  // of those, by the FIB's worker (auto_rebuild)
  uint64_t background_rebuilds_started =
      0;                             // worker runs started (completed + abandoned + running)
  uint64_t abandoned_rebuilds = 0;   // concurrent rebuilds given up (VRs changed, log overflow)
  size_t dead_bytes = 0;             // freed trie slots and rows awaiting reuse
  size_t dead_trie_nodes = 0;        // of those, node slots no lookup can reach any more
  size_t dead_rows = 0;              // of those, rows no leaf refers to any more
  double last_rebuild_seconds = 0;   // wall time of the last completed rebuild (0: none yet)
  int64_t last_rebuild_unix_ms = 0;  // when it completed (system clock; 0: none yet)
  uint64_t updates = 0;
  std::vector<uint64_t> depth_histogram;
};

}  // namespace strata::fib
