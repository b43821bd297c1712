// Decoding of UPDATE messages with the revised error handling of RFC 7606.
//
// Every input yields a result, never an exception or a crash. The result carries the strongest
// outcome found (ErrorAction), one entry per problem with its own outcome, and counts per
// outcome for the speaker's counters:
//   - attribute-discard: the attribute is dropped and the rest of the UPDATE is used;
//   - treat-as-withdraw: Withdrawals() then lists every prefix the UPDATE announced;
//   - afi-safi-disable: the MP attribute of `disabled_families` was malformed; the speaker stops
//     using that family (or resets the session with `notification`, which is filled in);
//   - session-reset: `notification` is what to send before closing; nothing else may be used.
// The AS4_PATH merge of RFC 6793 is done here for sessions without 4-octet AS.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bgp/wire/codec_options.h"
#include "bgp/wire/error_action.h"
#include "bgp/wire/notification.h"
#include "bgp/wire/update_message.h"

namespace strata::bgp {

struct UpdateProblem {
  ErrorAction action = ErrorAction::kNone;
  uint8_t attr_code = 0;  // 0 when not about one attribute
  std::string reason;
};

struct UpdateDecodeResult {
  ErrorAction action = ErrorAction::kNone;  // the strongest of problems
  UpdateMessage update;                     // what was decoded; see Announcements/Withdrawals
  std::optional<NotificationMessage> notification;
  std::vector<AfiSafi> disabled_families;
  std::optional<AfiSafi> end_of_rib;  // set when the UPDATE is an End-of-RIB marker
  std::vector<UpdateProblem> problems;
  std::array<uint32_t, kNumErrorActions> counts{};  // problems per ErrorAction
  uint32_t ignored_attributes = 0;  // unknown non-transitive, unknown families, AS4_* from NEW

  uint32_t count(ErrorAction a) const { return counts[static_cast<size_t>(a)]; }
  // Prefixes to install with update.AttributesFor(prefix.family()); empty unless the outcome is
  // none or attribute-discard. Excludes disabled families.
  std::vector<IpPrefix> Announcements() const;
  // Prefixes to remove: the withdrawn ones, plus the announced ones under treat-as-withdraw.
  // Empty on session reset.
  std::vector<IpPrefix> Withdrawals() const;
  std::string ToString() const;
};

// Decodes the body of an UPDATE (after the 19-byte header).
UpdateDecodeResult DecodeUpdateBody(std::span<const uint8_t> body, const CodecOptions& options);

}  // namespace strata::bgp
