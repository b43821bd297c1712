// BFD Control packet harness: the UDP payload a peer (or anyone on the link) sends to strata-bfd.
// Input: one payload. Properties beyond "no crash, no leak, no UB": a packet Decode accepts
// re-encodes to bytes that decode to the same packet; and the payload, delivered to a session
// table holding a session for its source (both as single hop with TTL 255 and as multihop), moves
// the sessions only through RFC 5880's states, with time advanced after it by a few
// detection times so the timers run too, and they keep sending unless the packet asked them not to.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>

#include "bfd/control_packet.h"
#include "bfd/session_table.h"
#include "fuzz/fuzz_check.h"
#include "testing/common/fake_clock.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  using namespace strata::bfd;
  using namespace std::chrono_literals;
  const std::span<const uint8_t> bytes(data, size);
  auto p = Decode(bytes);
  if (p.ok()) {
    const std::vector<uint8_t> once = Encode(*p);
    auto q = Decode(once);
    FUZZ_CHECK(q.ok(), "re-encoded packet refused: " + q.status().ToString());
    FUZZ_CHECK(Encode(*q) == once, "re-encoded packet decodes differently");
  }
  FakeClock clock;
  size_t sent = 0;
  SessionTable table(clock, {.transmit = [&](const SessionKey&, std::vector<uint8_t>) { ++sent; }},
                     1);
  const IpAddr peer = IpAddr::V4(0x0a000002);
  SessionParams params;
  params.desired_min_tx = params.required_min_rx = 50ms;
  const SessionKey single{.peer = peer};
  const SessionKey multi{.peer = peer, .multihop = true};
  table.Add(single, "fuzz", params);
  table.Add(multi, "fuzz", params);
  for (bool multihop : {false, true}) {
    table.Receive({.source = peer,
                   .destination = IpAddr::V4(0x0a000001),
                   .ttl = 255,
                   .multihop = multihop,
                   .bytes = bytes});
  }
  clock.advance(2s);
  for (const auto& [key, e] : table.entries()) {
    const auto s = static_cast<uint8_t>(e.session->state());
    FUZZ_CHECK(s <= 3, "session in no RFC 5880 state");
  }
  // A peer may ask for no packets (RequiredMinRxInterval 0, RFC 5880 6.8.7) or for fewer than
  // one in the 2 s waited (the next one then leaves after up to that interval); otherwise the
  // sessions sent at least one.
  const bool quiet_asked =
      p.ok() && (p->required_min_rx_us == 0 || p->required_min_rx_us > 1500000);
  FUZZ_CHECK(sent > 0 || quiet_asked, "the sessions sent nothing in 2 s");
  return 0;
}
