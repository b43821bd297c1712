#include "libipc/target.h"

#include <openssl/crypto.h>

#include <memory>

#include "libipc/arena_options.h"

namespace strata::ipc {

namespace {

// The first block of the arena a request is parsed on: one per thread (a process serves its
// targets on one io_context thread; tests run several in threads), kept for its lifetime.
struct ArenaBlock {
  static constexpr size_t kSize = size_t{256} << 10;
  std::unique_ptr<char[]> bytes = std::make_unique<char[]>(kSize);
  bool in_use = false;
};

ArenaBlock& ThreadArenaBlock() {
  thread_local ArenaBlock block;
  return block;
}

}  // namespace

Target::Target(std::string class_name, std::string instance_name, bool sole_instance)
    : class_name_(std::move(class_name)),
      instance_name_(std::move(instance_name)),
      sole_(sole_instance) {}

void Target::SetKeys(const std::vector<std::pair<std::string, std::string>>& path_keys) {
  for (const auto& [path, key] : path_keys) {
    auto it = methods_.find(path);
    if (it != methods_.end()) it->second.key = key;
  }
  registered_ = true;
}

void Target::ClearKeys() {
  for (auto& [path, m] : methods_) m.key.clear();
  registered_ = false;
}

const MethodEntry* Target::FindMethod(std::string_view path) const {
  auto it = methods_.find(path);
  return it == methods_.end() ? nullptr : &it->second;
}

void Target::DispatchSerialized(std::string_view path, std::string_view key,
                                std::string_view payload, std::unique_ptr<ReplySink> sink) {
  const MethodEntry* m = FindMethod(path);
  if (m == nullptr) {
    sink->Reply(Status(StatusCode::kUnimplemented,
                       "no such method '" + std::string(path) + "' on " + instance_name_),
                nullptr);
    return;
  }
  if (require_keys_) {
    if (!registered_ || m->key.empty()) {
      sink->Reply(Unavailable(instance_name_ + " is not registered with the Finder yet"), nullptr);
      return;
    }
    // Constant-time comparison: the key is the only thing standing between a caller and a
    // method it was not resolved for.
    if (key.size() != m->key.size() || CRYPTO_memcmp(key.data(), m->key.data(), key.size()) != 0) {
      sink->Reply(PermissionDenied("wrong or missing key for " + std::string(path) +
                                   " (resolve it through the Finder)"),
                  nullptr);
      return;
    }
  }
  // The request lives on an arena for the call (BatchArenaOptions). Its first block is the
  // thread's, kept from call to call, so a typical request (a 1000-route batch parses into about
  // 200 KB) allocates nothing: transient blocks freed between the process's long-lived
  // allocations would fragment its heap. Larger requests, or a call dispatched while another is
  // being parsed, spill into blocks of at most 64 KB.
  google::protobuf::ArenaOptions options = BatchArenaOptions(payload.size() * 2);
  ArenaBlock& block = ThreadArenaBlock();
  const bool own_block = !block.in_use;
  if (own_block) {
    options.initial_block = block.bytes.get();
    options.initial_block_size = ArenaBlock::kSize;
    block.in_use = true;
  }
  struct Release {
    bool* in_use;
    ~Release() {
      if (in_use) *in_use = false;
    }
  } release{own_block ? &block.in_use : nullptr};
  google::protobuf::Arena arena(options);
  google::protobuf::Message* request = m->new_request(&arena);
  if (!request->ParseFromArray(payload.data(), static_cast<int>(payload.size()))) {
    sink->Reply(InvalidArgument("arguments of " + std::string(path) + " do not parse as " +
                                std::string(m->descriptor->input_type()->full_name())),
                nullptr);
    return;
  }
  m->invoke(*request, std::move(sink));
}

void Target::DispatchMessage(std::string_view path, const google::protobuf::Message& request,
                             std::unique_ptr<ReplySink> sink) {
  const MethodEntry* m = FindMethod(path);
  if (m == nullptr) {
    sink->Reply(Status(StatusCode::kUnimplemented,
                       "no such method '" + std::string(path) + "' on " + instance_name_),
                nullptr);
    return;
  }
  m->invoke(request, std::move(sink));
}

}  // namespace strata::ipc
