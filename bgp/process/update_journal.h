// UpdateJournal: the speaker's record of the UPDATEs it receives from and sends to its peers, one
// event per prefix, for `monitor bgp updates` (bgp/1.0 watch_updates). A ChangeJournal
// (common/change_journal.h): events are kept only while someone watches, at most a fixed number.
// Received events are taken after decoding and the session's checks (an UPDATE treated as
// withdraw is recorded as withdrawals), before import policy; sent events after export policy.
// Threading: the io_context thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>

#include "bgp/wire/attribute_set.h"
#include "common/change_journal.h"
#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "common/unix_time.h"

namespace strata::bgp {

struct UpdateEvent {
  enum class Direction : uint8_t { kReceived, kSent };
  Direction direction = Direction::kReceived;
  bool withdraw = false;
  IpAddr peer;
  IpPrefix prefix;
  AttributeSetPtr attrs;  // announcements only
  int64_t unix_ms = 0;
};

// The journal's bound in memory: 10,000 events in well under 1 MB (the attribute sets they hold
// are shared with the routes).
static_assert(sizeof(UpdateEvent) <= 96);

using UpdateJournal = ChangeJournal<UpdateEvent>;

// One event per prefix of `prefixes`; `attrs` null for withdrawals.
inline void RecordUpdates(UpdateJournal* journal, UpdateEvent::Direction direction,
                          const IpAddr& peer, const AttributeSetPtr& attrs,
                          std::span<const IpPrefix> prefixes) {
  if (journal == nullptr) return;
  int64_t unix_ms = -1;  // read once, and only when recording
  for (const IpPrefix& p : prefixes) {
    journal->Record([&] {
      if (unix_ms < 0) {
        unix_ms = UnixMillisNow();
      }
      return UpdateEvent{direction, attrs == nullptr, peer, p, attrs, unix_ms};
    });
  }
}

}  // namespace strata::bgp
