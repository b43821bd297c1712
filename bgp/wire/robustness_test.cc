// Randomized robustness: valid messages mutated by bit flips, truncations, random length fields
// and random bytes are decoded tens of thousands of times. Nothing may crash (this binary is also
// run under ASan and UBSan), results must be self-consistent, and every UPDATE decoded without
// problems must survive a re-encode unchanged.
#include <gtest/gtest.h>

#include <random>

#include "bgp/wire/message_codec.h"
#include "bgp/wire/update_message.h"
#include "testing/bgp/sample_messages.h"
#include "testing/bgp/wire_test_util.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::P;

std::vector<std::vector<uint8_t>> Seeds() {
  std::vector<std::vector<uint8_t>> seeds = test_util::SampleControlMessages();
  for (bool four : {true, false}) {
    CodecOptions o;
    o.four_octet_as = four;
    seeds.push_back(*EncodeUpdate(test_util::SampleUpdate(), o));
  }
  return seeds;
}

void Mutate(std::vector<uint8_t>& m, std::mt19937& rng) {
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  const int rounds = 1 + static_cast<int>(pick(4));
  for (int i = 0; i < rounds && !m.empty(); ++i) {
    switch (pick(6)) {
      case 0:  // flip a bit
        m[pick(m.size())] ^= static_cast<uint8_t>(1u << pick(8));
        break;
      case 1:  // random byte, biased toward the body where lengths live
        m[m.size() > 19 ? 19 + pick(m.size() - 19) : pick(m.size())] =
            static_cast<uint8_t>(pick(256));
        break;
      case 2:  // truncate
        m.resize(pick(m.size() + 1));
        break;
      case 3:  // a random 16-bit length somewhere
        if (m.size() >= 2) {
          const size_t at = pick(m.size() - 1);
          m[at] = static_cast<uint8_t>(pick(256) & (pick(2) ? 0x00 : 0xff));
          m[at + 1] = static_cast<uint8_t>(pick(256));
        }
        break;
      case 4:  // insert random bytes
        m.insert(m.begin() + static_cast<long>(pick(m.size() + 1)), pick(8) + 1,
                 static_cast<uint8_t>(pick(256)));
        break;
      case 5:  // small length-byte nudges
        m[pick(m.size())] += static_cast<uint8_t>(pick(5)) - 2;
        break;
    }
  }
  // Usually keep the header length honest so the body decoders get exercised.
  if (m.size() >= 19 && pick(4) != 0) {
    m[16] = static_cast<uint8_t>(m.size() >> 8);
    m[17] = static_cast<uint8_t>(m.size());
  }
}

void CheckUpdate(const UpdateDecodeResult& r, const CodecOptions& options) {
  EXPECT_EQ(r.action == ErrorAction::kNone, r.problems.empty());
  uint32_t total = 0;
  for (uint32_t c : r.counts) total += c;
  EXPECT_EQ(total, r.problems.size());
  if (r.action == ErrorAction::kSessionReset) {
    EXPECT_TRUE(r.notification.has_value());
    EXPECT_TRUE(r.Announcements().empty());
  }
  if (r.action != ErrorAction::kNone || !options.four_octet_as) return;
  // A clean decode re-encodes to something that decodes to the same update.
  auto bytes = EncodeUpdate(r.update, options);
  if (!bytes.ok()) return;  // can only grow past the limit through AS_PATH segment splitting
  auto again = DecodeUpdateBody(test_util::Body(*bytes), options);
  EXPECT_EQ(again.action, ErrorAction::kNone) << again.ToString();
  EXPECT_EQ(again.update, r.update) << r.update.ToString() << "\nvs\n" << again.update.ToString();
}

TEST(RobustnessTest, MutatedMessagesNeverCrash) {
  const auto seeds = Seeds();
  std::mt19937 rng(20240607);
  size_t decoded = 0;
  size_t errors = 0;
  for (int i = 0; i < 60000; ++i) {
    std::vector<uint8_t> m = seeds[static_cast<size_t>(i) % seeds.size()];
    Mutate(m, rng);
    CodecOptions options;
    options.four_octet_as = (rng() & 1) != 0;
    options.extended_message = (rng() & 3) == 0;
    options.peer_type = static_cast<PeerType>(rng() % 3);
    auto result = DecodeMessage(m, options);
    if (!result.ok()) {
      ++errors;
      EXPECT_FALSE(result.error().ToString().empty());
      continue;
    }
    ++decoded;
    if (const auto* u = std::get_if<UpdateDecodeResult>(&*result)) {
      CheckUpdate(*u, options);
      EXPECT_FALSE(u->ToString().empty());
    }
    if (HasFailure()) break;
  }
  // Both paths were exercised.
  EXPECT_GT(decoded, 1000u);
  EXPECT_GT(errors, 1000u);
}

TEST(RobustnessTest, RandomBodiesNeverCrash) {
  std::mt19937 rng(7);
  for (int i = 0; i < 30000; ++i) {
    std::vector<uint8_t> body(rng() % 64);
    for (auto& b : body) b = static_cast<uint8_t>(rng());
    if (body.size() >= 4 && (rng() & 1)) {  // plausible length fields
      body[0] = 0;
      body[1] = static_cast<uint8_t>(rng() % 8);
      const size_t at = std::min<size_t>(2 + body[1], body.size() - 2);
      body[at] = 0;
      body[at + 1] = static_cast<uint8_t>(body.size() - at - 2);
    }
    CodecOptions options;
    options.four_octet_as = (rng() & 1) != 0;
    CheckUpdate(DecodeUpdateBody(body, options), options);
    (void)DecodeOpenBody(body);
    (void)DecodeNotificationBody(body);
    Capabilities caps;
    (void)DecodeCapabilities(body, caps);
    if (HasFailure()) break;
  }
}

}  // namespace
}  // namespace strata::bgp
