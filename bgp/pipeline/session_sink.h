// SessionSink: where a PeerOut hands its batched changes; implemented by the peer's session.
//
// A batch holds, for each attribute set (by value) and family, the prefixes to announce with it,
// ready for PackAnnouncements, and the prefixes to withdraw (both families, sorted; the session
// splits them per family for PackWithdrawals). Within one batch a prefix appears once.
// Flow control: while busy() is true (e.g. its socket buffer is full) the PeerOut sends nothing
// more and its fanout reader stops pulling; when the session drains it calls
// BgpPipeline::peer_output_ready(). REQUIRES: send_updates does not call back into the pipeline
// synchronously (post instead). Threading: the pipeline's thread.
#pragma once

#include <vector>

#include "bgp/wire/attribute_set.h"
#include "common/ip_prefix.h"

namespace strata::bgp {

struct AnnouncementGroup {
  AttributeSetPtr attrs;
  Family family = Family::kIpv4;
  std::vector<IpPrefix> prefixes;  // sorted
};

struct UpdateBatch {
  std::vector<AnnouncementGroup> announcements;
  std::vector<IpPrefix> withdrawals;  // sorted
  bool empty() const { return announcements.empty() && withdrawals.empty(); }
};

class SessionSink {
 public:
  virtual ~SessionSink() = default;
  virtual void send_updates(UpdateBatch batch) = 0;
  virtual bool busy() const = 0;
};

}  // namespace strata::bgp
