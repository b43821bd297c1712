// BGP message decoder harness. Input: one session-kind byte (bgp_session_kind.h), then one
// whole BGP message as read from a peer. Properties beyond "no crash, no leak, no UB":
// - an UPDATE's result is self-consistent (the action matches its problems; a session reset
//   carries its NOTIFICATION and announces nothing);
// - decode -> encode -> decode gives the same message, for every message the decoder accepted
//   whole (UPDATE without problems, OPEN, NOTIFICATION, ROUTE-REFRESH), on every session kind.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <variant>

#include "bgp/wire/message_codec.h"
#include "bgp/wire/update_message.h"
#include "fuzz/bgp_session_kind.h"
#include "fuzz/fuzz_check.h"

namespace strata::fuzz {
namespace {

using bgp::ErrorAction;

bgp::WireResult<bgp::Message> Decode(std::span<const uint8_t> m, const bgp::CodecOptions& o) {
  return bgp::DecodeMessage(m, o);
}

void CheckUpdate(const bgp::UpdateDecodeResult& r, const bgp::CodecOptions& o) {
  uint32_t total = 0;
  for (uint32_t c : r.counts) total += c;
  FUZZ_CHECK(total == r.problems.size(), r.ToString());
  FUZZ_CHECK((r.action == ErrorAction::kNone) == r.problems.empty(), r.ToString());
  if (r.action == ErrorAction::kSessionReset) {
    FUZZ_CHECK(r.notification.has_value(), r.ToString());
    FUZZ_CHECK(r.Announcements().empty(), r.ToString());
  }
  FUZZ_CHECK(!r.ToString().empty(), "empty text form");
  if (r.action != ErrorAction::kNone) return;
  auto bytes = bgp::EncodeUpdate(r.update, o);
  if (!bytes.ok()) return;  // AS_PATH segment splitting can grow a message past the limit
  auto again = Decode(*bytes, o);
  FUZZ_CHECK(again.ok(), again.ok() ? "" : again.error().ToString());
  const auto* u = std::get_if<bgp::UpdateDecodeResult>(&*again);
  FUZZ_CHECK(u != nullptr, "re-encoded UPDATE decodes as another type");
  FUZZ_CHECK(u->action == ErrorAction::kNone, u->ToString());
  FUZZ_CHECK(u->update == r.update,
             r.update.ToString() + "\nre-decoded as\n" + u->update.ToString());
}

template <typename T, typename Get>
void CheckRoundTrip(const T& first, const std::vector<uint8_t>& bytes, const bgp::CodecOptions& o,
                    Get get) {
  auto again = Decode(bytes, o);
  FUZZ_CHECK(again.ok(), again.ok() ? "" : again.error().ToString());
  const T* second = get(*again);
  FUZZ_CHECK(second != nullptr, "re-encoded message decodes as another type");
  FUZZ_CHECK(*second == first, "re-decoded message differs");
}

}  // namespace
}  // namespace strata::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  using namespace strata::fuzz;
  if (size < 1) return 0;
  const bgp::CodecOptions o = SessionKind(data[0]);
  auto result = Decode(std::span<const uint8_t>(data + 1, size - 1), o);
  if (!result.ok()) {
    FUZZ_CHECK(!result.error().ToString().empty(), "an error without text");
    return 0;
  }
  const bgp::Message& m = *result;
  if (const auto* u = std::get_if<bgp::UpdateDecodeResult>(&m)) CheckUpdate(*u, o);
  if (const auto* open = std::get_if<bgp::OpenMessage>(&m)) {
    CheckRoundTrip(*open, bgp::EncodeOpen(*open), o,
                   [](const bgp::Message& x) { return std::get_if<bgp::OpenMessage>(&x); });
  }
  if (const auto* n = std::get_if<bgp::ReceivedNotification>(&m)) {
    const std::string text = n->notification.ToString();
    FUZZ_CHECK(!text.empty(), "empty text form");
    // Peer text reaches logs and the shell escaped: no control character survives.
    for (const char c : text) FUZZ_CHECK(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f, text);
    CheckRoundTrip(n->notification, bgp::EncodeNotification(n->notification), o,
                   [](const bgp::Message& x) -> const bgp::NotificationMessage* {
                     const auto* r = std::get_if<bgp::ReceivedNotification>(&x);
                     return r ? &r->notification : nullptr;
                   });
  }
  if (const auto* rr = std::get_if<bgp::RouteRefreshMessage>(&m)) {
    CheckRoundTrip(*rr, bgp::EncodeRouteRefresh(*rr), o,
                   [](const bgp::Message& x) { return std::get_if<bgp::RouteRefreshMessage>(&x); });
  }
  return 0;
}
