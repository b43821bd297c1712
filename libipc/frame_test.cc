#include "libipc/frame.h"

#include <gtest/gtest.h>

#include <random>

namespace strata::ipc {
namespace {

std::string Call(uint64_t id, std::string_view method, std::string_view key,
                 std::string_view payload) {
  std::string out;
  AppendCallFrame(out, id, method, key, [&](std::string& o) { o.append(payload); });
  return out;
}

TEST(FrameTest, CallRoundTrips) {
  const std::string key(16, 'k');
  std::string buf = Call(42, "rib.red/rib/1.0/add_route", key, "payload");
  FrameKind kind{};
  CallFrame call;
  ReplyFrame reply;
  auto used = ParseFrame(buf, kind, call, reply);
  ASSERT_TRUE(used.ok());
  EXPECT_EQ(*used, buf.size());
  EXPECT_EQ(kind, FrameKind::kCall);
  EXPECT_EQ(call.id, 42u);
  EXPECT_EQ(call.method, "rib.red/rib/1.0/add_route");
  EXPECT_EQ(call.key, key);
  EXPECT_EQ(call.payload, "payload");
}

TEST(FrameTest, ReplyCarriesStatusAndDropsPayloadOnError) {
  std::string buf;
  AppendReplyFrame(buf, 7, NotFound("no such target"), [](std::string& o) { o.append("x"); });
  AppendReplyFrame(buf, 8, Status(), [](std::string& o) { o.append("ok"); });
  FrameKind kind{};
  CallFrame call;
  ReplyFrame reply;
  auto used = ParseFrame(buf, kind, call, reply);
  ASSERT_TRUE(used.ok());
  EXPECT_EQ(kind, FrameKind::kReply);
  EXPECT_EQ(reply.id, 7u);
  EXPECT_EQ(reply.code, StatusCode::kNotFound);
  EXPECT_EQ(reply.message, "no such target");
  EXPECT_TRUE(reply.payload.empty());
  auto used2 = ParseFrame(std::string_view(buf).substr(*used), kind, call, reply);
  ASSERT_TRUE(used2.ok());
  EXPECT_EQ(reply.id, 8u);
  EXPECT_EQ(reply.payload, "ok");
}

TEST(FrameTest, IncompleteFrameAsksForMore) {
  std::string buf = Call(1, "a/b/1.0/c", "", "xyz");
  FrameKind kind{};
  CallFrame call;
  ReplyFrame reply;
  for (size_t n = 0; n < buf.size(); ++n) {
    auto used = ParseFrame(std::string_view(buf).substr(0, n), kind, call, reply);
    ASSERT_TRUE(used.ok());
    EXPECT_EQ(*used, 0u) << n;
  }
}

TEST(FrameTest, RejectsOversizeUnknownKindAndBadInnerLengths) {
  FrameKind kind{};
  CallFrame call;
  ReplyFrame reply;
  std::string huge = "\xff\xff\xff\x7f";
  EXPECT_EQ(ParseFrame(huge, kind, call, reply).status().code(), StatusCode::kResourceExhausted);
  std::string bad_kind("\x09\x00\x00\x00\x09\x01\x00\x00\x00\x00\x00\x00\x00", 13);
  EXPECT_EQ(ParseFrame(bad_kind, kind, call, reply).status().code(), StatusCode::kInvalidArgument);
  // A call whose method length runs past the frame.
  std::string buf = Call(1, "abc", "", "");
  buf[4 + 1 + 8] = '\x50';
  EXPECT_FALSE(ParseFrame(buf, kind, call, reply).ok());
}

TEST(FrameTest, LimitIsCheckedOnTheLengthPrefixAlone) {
  FrameKind kind{};
  CallFrame call;
  ReplyFrame reply;
  const std::string buf = Call(1, "t/i/1.0/m", "", std::string(100, 'p'));
  EXPECT_TRUE(ParseFrame(buf, kind, call, reply, 1000).ok());
  EXPECT_EQ(ParseFrame(buf.substr(0, 4), kind, call, reply, 50).status().code(),
            StatusCode::kResourceExhausted);
}

TEST(FrameTest, PeekFindsTheLengthThenTheMethodOfACall) {
  const std::string buf = Call(9, "rib.red/rib/1.0/add_routes", "", "xyz");
  EXPECT_FALSE(PeekFrame(buf.substr(0, 3)).have_length);
  FrameHead h = PeekFrame(buf.substr(0, 4));
  EXPECT_TRUE(h.have_length);
  EXPECT_EQ(h.length, buf.size() - 4);
  EXPECT_FALSE(h.have_method);
  h = PeekFrame(buf.substr(0, 4 + 1 + 8 + 2 + 10));
  EXPECT_FALSE(h.have_method) << "method not all in yet";
  h = PeekFrame(buf);
  ASSERT_TRUE(h.have_method);
  EXPECT_EQ(h.method, "rib.red/rib/1.0/add_routes");
  std::string r;
  AppendReplyFrame(r, 9, Status(), [](std::string& out) { out += "x"; });
  EXPECT_FALSE(PeekFrame(r).have_method);
}

TEST(FrameTest, RandomBytesNeverCrash) {
  std::mt19937 rng(7);
  FrameKind kind{};
  CallFrame call;
  ReplyFrame reply;
  int errors = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string buf = Call(rng(), "t/i/1.0/m", std::string(16, 'k'), "payload");
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) buf[rng() % buf.size()] = static_cast<char>(rng());
    buf.resize(rng() % (buf.size() + 1));
    auto used = ParseFrame(buf, kind, call, reply);
    if (!used.ok()) {
      ++errors;
    } else {
      EXPECT_LE(*used, buf.size());
    }
  }
  EXPECT_GT(errors, 0);
}

}  // namespace
}  // namespace strata::ipc
