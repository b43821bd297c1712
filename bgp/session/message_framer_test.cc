#include "bgp/session/message_framer.h"

#include <gtest/gtest.h>

#include "bgp/wire/message_header.h"

namespace strata::bgp {
namespace {

using Result = MessageFramer::Result;

TEST(MessageFramerTest, WaitsForWholeMessages) {
  MessageFramer f;
  const auto ka = EncodeKeepalive();
  std::span<const uint8_t> m;
  f.Append(std::span(ka).first(10));
  EXPECT_EQ(f.Next(kMaxMessageSize, m), Result::kNeedMore);
  f.Append(std::span(ka).subspan(10));
  ASSERT_EQ(f.Next(kMaxMessageSize, m), Result::kMessage);
  EXPECT_EQ(std::vector<uint8_t>(m.begin(), m.end()), ka);
  EXPECT_EQ(f.Next(kMaxMessageSize, m), Result::kNeedMore);
  EXPECT_EQ(f.buffered(), 0u);
}

TEST(MessageFramerTest, SplitsSeveralMessagesInOneRead) {
  MessageFramer f;
  std::vector<uint8_t> stream;
  for (int i = 0; i < 3; ++i) {
    const auto ka = EncodeKeepalive();
    stream.insert(stream.end(), ka.begin(), ka.end());
  }
  stream.push_back(0xff);  // start of a fourth
  f.Append(stream);
  int whole = 0;
  std::span<const uint8_t> m;
  while (f.Next(kMaxMessageSize, m) == Result::kMessage) {
    EXPECT_EQ(m.size(), kHeaderSize);
    ++whole;
  }
  EXPECT_EQ(whole, 3);
  EXPECT_EQ(f.buffered(), 1u);
}

TEST(MessageFramerTest, BadMarkerFailsForGood) {
  MessageFramer f;
  std::span<const uint8_t> m;
  f.Append(std::vector<uint8_t>(19, 0));
  ASSERT_EQ(f.Next(kMaxMessageSize, m), Result::kError);
  EXPECT_EQ(f.error().code, 1);
  EXPECT_EQ(f.error().subcode, 1);
  EXPECT_TRUE(f.failed());
  f.Append(EncodeKeepalive());
  EXPECT_EQ(f.Next(kMaxMessageSize, m), Result::kError);
}

TEST(MessageFramerTest, LengthAboveMaximumIsBadLength) {
  std::vector<uint8_t> header(19, 0xff);
  header[16] = 0x10;  // 4097
  header[17] = 0x01;
  header[18] = 2;
  std::span<const uint8_t> m;
  MessageFramer f;
  f.Append(header);
  ASSERT_EQ(f.Next(kMaxMessageSize, m), Result::kError);
  EXPECT_EQ(f.error().subcode, 2);
  MessageFramer extended;
  extended.Append(header);
  EXPECT_EQ(extended.Next(kMaxExtendedMessageSize, m), Result::kNeedMore);  // waits for the body
}

}  // namespace
}  // namespace strata::bgp
