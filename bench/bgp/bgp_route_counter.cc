#include "bench/bgp/bgp_route_counter.h"

namespace strata::bench {

RouteCounter::RouteCounter(const std::vector<IpPrefix>& table, const std::vector<IpPrefix>& watched)
    : table_size_(table.size()),
      is_present_(table.size(), 0),
      watch_(std::make_unique<Watch[]>(watched.size())) {
  index_.reserve(table.size() + watched.size());
  uint32_t i = 0;
  for (const auto& p : table) index_.emplace(Key(p.addr().v4_host_order(), p.len()), i++);
  for (const auto& p : watched) index_.emplace(Key(p.addr().v4_host_order(), p.len()), i++);
}

template <typename Fn>
bool RouteCounter::ScanPrefixes(const uint8_t* p, const uint8_t* end, Fn fn) {
  while (p < end) {
    const int len = *p++;
    const int bytes = (len + 7) / 8;
    if (len > 32 || end - p < bytes) return false;
    uint32_t addr = 0;
    for (int b = 0; b < bytes; ++b) addr |= static_cast<uint32_t>(p[b]) << (24 - 8 * b);
    p += bytes;
    if (len < 32) addr &= len == 0 ? 0 : ~((1u << (32 - len)) - 1);
    auto it = index_.find(Key(addr, len));
    if (it != index_.end()) fn(it->second);
  }
  return true;
}

void RouteCounter::Seen(uint32_t index, bool announce, int64_t now) {
  if (index >= table_size_) {
    Watch& w = watch_[index - table_size_];
    (announce ? w.announced : w.withdrawn).store(now, std::memory_order_release);
    return;
  }
  uint8_t& state = is_present_[index];
  if (announce && !state) {
    state = 1;
    present_.fetch_add(1, std::memory_order_release);
  } else if (!announce && state) {
    state = 0;
    present_.fetch_sub(1, std::memory_order_release);
    withdrawn_.fetch_add(1, std::memory_order_release);
  }
}

bool RouteCounter::OnUpdate(std::span<const uint8_t> body) {
  const int64_t now = NowNs();
  updates_.fetch_add(1, std::memory_order_relaxed);
  const uint8_t* p = body.data();
  const uint8_t* end = p + body.size();
  if (end - p < 2) return false;
  const size_t wlen = (static_cast<size_t>(p[0]) << 8) | p[1];
  p += 2;
  if (static_cast<size_t>(end - p) < wlen + 2) return false;
  if (!ScanPrefixes(p, p + wlen, [&](uint32_t i) { Seen(i, false, now); })) return false;
  p += wlen;
  const size_t alen = (static_cast<size_t>(p[0]) << 8) | p[1];
  p += 2;
  if (static_cast<size_t>(end - p) < alen) return false;
  p += alen;
  return ScanPrefixes(p, end, [&](uint32_t i) { Seen(i, true, now); });
}

}  // namespace strata::bench
