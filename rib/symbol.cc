#include "rib/symbol.h"

#include <array>
#include <atomic>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace strata::rib {
namespace {

// Names live in chunks that never move once allocated; a chunk pointer is published (release)
// after its first name is written, so readers need no lock.
constexpr uint32_t kChunkNames = 1024;
constexpr uint32_t kChunks = 4096;

struct Pool {
  std::mutex mu;
  std::map<std::string_view, uint32_t, std::less<>> ids;  // views into the chunks
  std::array<std::atomic<std::string*>, kChunks> chunks{};
  uint32_t next = 1;  // 0 is ""
};

Pool& ThePool() {
  // Leaked on purpose: Symbols in static objects may outlive any pool with a destructor.
  static auto* pool = new Pool();
  return *pool;
}

}  // namespace

uint32_t Symbol::Intern(std::string_view s) {
  if (s.empty()) return 0;
  Pool& pool = ThePool();
  std::lock_guard<std::mutex> lock(pool.mu);
  if (auto it = pool.ids.find(s); it != pool.ids.end()) return it->second;
  const uint32_t id = pool.next++;
  if (id / kChunkNames >= kChunks) std::abort();  // more than 4M distinct names
  std::atomic<std::string*>& chunk = pool.chunks[id / kChunkNames];
  std::string* names = chunk.load(std::memory_order_relaxed);
  if (!names) names = new std::string[kChunkNames];
  std::string& slot = names[id % kChunkNames];
  slot.assign(s);
  chunk.store(names, std::memory_order_release);
  pool.ids.emplace(slot, id);
  return id;
}

const std::string& Symbol::Name(uint32_t id) {
  static const auto* empty = new std::string();
  if (id == 0) return *empty;
  return ThePool().chunks[id / kChunkNames].load(std::memory_order_acquire)[id % kChunkNames];
}

}  // namespace strata::rib
