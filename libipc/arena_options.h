// BatchArenaOptions: protobuf arena settings for the IPC's large messages (batches of routes).
//
// A message built or parsed on an arena costs a few blocks instead of a malloc and a free per
// field. Blocks stay under malloc's mmap threshold (128 KB): freed, they are reused by the next
// batch rather than raising the threshold and fragmenting the heap around them.
#pragma once

#include <google/protobuf/arena.h>

#include <algorithm>
#include <cstddef>

namespace strata::ipc {

inline constexpr size_t kArenaMaxBlock = size_t{64} << 10;

// `first_block`: the expected size of the message (clamped to 256 B .. kArenaMaxBlock).
inline google::protobuf::ArenaOptions BatchArenaOptions(size_t first_block = size_t{16} << 10) {
  google::protobuf::ArenaOptions options;
  options.start_block_size = std::clamp<size_t>(first_block, 256, kArenaMaxBlock);
  options.max_block_size = kArenaMaxBlock;
  return options;
}

}  // namespace strata::ipc
