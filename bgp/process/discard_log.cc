#include "bgp/process/discard_log.h"

namespace strata::bgp {

void DiscardLog::Add(std::span<const IpPrefix> prefixes, Reason reason, std::string why,
                     int64_t unix_ms) {
  if (prefixes.empty()) return;
  total_ += prefixes.size();
  auto text = std::make_shared<const std::string>(std::move(why));
  // Only the last `capacity_` of a long UPDATE can stay.
  if (prefixes.size() > capacity_) prefixes = prefixes.subspan(prefixes.size() - capacity_);
  while (entries_.size() + prefixes.size() > capacity_) entries_.pop_front();
  for (const IpPrefix& p : prefixes) entries_.push_back({p, reason, unix_ms, text});
}

std::string_view DiscardReasonName(DiscardLog::Reason reason) {
  switch (reason) {
    case DiscardLog::Reason::kMalformed:
      return "malformed";
    case DiscardLog::Reason::kFirstAs:
      return "first-as";
    case DiscardLog::Reason::kOwnNextHop:
      return "own-nexthop";
    case DiscardLog::Reason::kMaxPrefix:
      return "max-prefix";
  }
  return "unknown";
}

}  // namespace strata::bgp
