#include "libipc/ipc_limits.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "libipc/frame.h"

namespace strata::ipc {
namespace {

template <typename T>
bool ParseNumber(std::string_view s, T& out) {
  T v{};
  auto [end, err] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (err != std::errc() || end != s.data() + s.size()) return false;
  out = v;
  return true;
}

template <typename T>
void FromEnv(const char* name, T& out) {
  if (const char* v = std::getenv(name); v != nullptr && *v != '\0') ParseNumber(v, out);
}

uint32_t Clamp(uint32_t bytes) { return std::clamp<uint32_t>(bytes, 64, kMaxFrameBytes); }

}  // namespace

uint32_t IpcLimits::CallLimit(std::string_view method) const {
  // Skip the instance; the interface is the next two components.
  const auto first = method.find('/');
  if (first != std::string_view::npos) {
    const auto third = method.rfind('/');
    if (third > first) {
      auto it = interface_max_frame_bytes.find(method.substr(first + 1, third - first - 1));
      if (it != interface_max_frame_bytes.end()) return Clamp(it->second);
    }
  }
  return Clamp(max_frame_bytes);
}

uint32_t IpcLimits::LargestCallLimit() const {
  uint32_t most = Clamp(max_frame_bytes);
  for (const auto& [iface, bytes] : interface_max_frame_bytes) most = std::max(most, Clamp(bytes));
  return most;
}

IpcLimits IpcLimits::FromEnvironment() {
  IpcLimits l;
  FromEnv("STRATA_IPC_MAX_FRAME_BYTES", l.max_frame_bytes);
  FromEnv("STRATA_IPC_MAX_CONNECTIONS", l.max_connections);
  FromEnv("STRATA_IPC_MAX_CONNECTIONS_PER_PEER", l.max_connections_per_peer);
  int64_t ms = l.frame_timeout.count();
  FromEnv("STRATA_IPC_FRAME_TIMEOUT_MS", ms);
  if (ms > 0) l.frame_timeout = std::chrono::milliseconds(ms);
  if (const char* v = std::getenv("STRATA_IPC_INTERFACE_MAX_FRAME_BYTES"); v != nullptr) {
    std::string_view rest = v;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      const std::string_view item = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      const auto eq = item.find('=');
      uint32_t bytes = 0;
      if (eq != std::string_view::npos && ParseNumber(item.substr(eq + 1), bytes)) {
        l.interface_max_frame_bytes[std::string(item.substr(0, eq))] = bytes;
      }
    }
  }
  return l;
}

}  // namespace strata::ipc
