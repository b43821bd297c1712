// Route flap damping (RFC 2439) in strata-bgp, speaker-wide for eBGP routes.
#include "testing/bgp/bgp_speaker_test_fixture.h"

namespace strata::bgp::speaker_test {
namespace {

// Route flap damping at b (speaker-wide, eBGP routes): a's network flaps until b suppresses it,
// it comes back once b's clock has moved past the reuse time, and clear_damping releases it.
class DampingSpeakerTest : public BgpSpeakerTest {
 protected:
  Status SetDamping(const std::string& vr, const bpb::SetDampingRequest& req) {
    return Bgp<bpb::SetDampingRequest, bpb::SetDampingReply>(vr, "set_damping", req);
  }
  std::vector<bpb::DampedRoute> Damped(const std::string& vr) {
    bpb::ListDampedRoutesReply rep;
    EXPECT_TRUE((Bgp<bpb::ListDampedRoutesRequest, bpb::ListDampedRoutesReply>(
                     vr, "list_damped_routes", bpb::ListDampedRoutesRequest(), &rep))
                    .ok());
    return {rep.routes().begin(), rep.routes().end()};
  }
  bool InRib(const std::string& vr, const std::string& prefix) {
    for (const auto& r : RibTable(vr, "ebgp")) {
      if (r.starts_with(prefix + " ")) return true;
    }
    return false;
  }
  // True once b holds a's announcement of `prefix` (in its RIB, or held by damping).
  bool Announced(const std::string& prefix) {
    if (InRib("b", prefix)) return true;
    auto d = Damped("b");
    return d.size() == 1 && !d[0].withdrawn();
  }
  // a withdraws and announces again its network `prefix` `times` times, each seen at b.
  void Flap(const std::string& prefix, int times) {
    auto before = Damped("b");
    const uint32_t base = before.empty() ? 0 : before[0].flaps();
    for (int i = 0; i < times; ++i) {
      ASSERT_TRUE(Network("a", prefix, false).ok());
      ASSERT_TRUE(env_.RunUntil([&] {
        auto d = Damped("b");
        return !InRib("b", prefix) && d.size() == 1 && d[0].flaps() == base + i + 1;
      })) << i;
      ASSERT_TRUE(Network("a", prefix).ok());
      ASSERT_TRUE(env_.RunUntil([&] { return Announced(prefix); })) << i;
    }
  }

  FakeClock clock_;
};

TEST_F(DampingSpeakerTest, BadParametersAreRefusedNamingTheField) {
  env_.StartRib("b");
  StartBgp("b");
  auto message = [&](const std::function<void(bpb::SetDampingRequest&)>& adjust) {
    bpb::SetDampingRequest req;
    req.set_enabled(true);
    adjust(req);
    Status s = SetDamping("b", req);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
    return s.message();
  };
  EXPECT_NE(message([](auto& r) { r.set_half_life(46); }).find("half_life"), std::string::npos);
  EXPECT_NE(message([](auto& r) { r.set_reuse(20001); }).find("reuse"), std::string::npos);
  EXPECT_NE(message([](auto& r) { r.set_reuse(2000); }).find("suppress"), std::string::npos);
  EXPECT_NE(message([](auto& r) { r.set_max_suppress(721); }).find("max_suppress"),
            std::string::npos);
  // 750 * 2^(1/15) never reaches 2000.
  EXPECT_NE(message([](auto& r) { r.set_max_suppress(1); }).find("max_suppress"),
            std::string::npos);
  EXPECT_NE(message([](auto& r) {
              r.set_attribute_change_penalty(20001);
            }).find("attribute_change_penalty"),
            std::string::npos);
  bpb::ClearDampingRequest bad_prefix;
  bad_prefix.mutable_prefix()->set_addr(std::string("\x01\x02\x03", 3));
  EXPECT_EQ(
      (Bgp<bpb::ClearDampingRequest, bpb::ClearDampingReply>("b", "clear_damping", bad_prefix))
          .code(),
      StatusCode::kInvalidArgument);
  // Accepted before set_local_config, kept for the pipeline built then; off again.
  bpb::SetDampingRequest on;
  on.set_enabled(true);
  EXPECT_TRUE(SetDamping("b", on).ok());
  EXPECT_TRUE(SetDamping("b", bpb::SetDampingRequest()).ok());
}

TEST_F(DampingSpeakerTest, FlappingNetworkIsSuppressedAndComesBackAfterReuse) {
  Pair(kPort + 40, nullptr, &clock_);
  bpb::SetDampingRequest on;
  on.set_enabled(true);  // defaults: half-life 15 min, reuse 750, suppress 2000
  ASSERT_TRUE(SetDamping("b", on).ok());
  ASSERT_TRUE(Network("a", "10.2.0.0/16").ok());  // steady, never damped
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return InRib("b", "10.1.0.0/16"); }));
  Flap("10.1.0.0/16", 3);
  std::vector<bpb::DampedRoute> d = Damped("b");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ((*ipc::PrefixFromProto(d[0].prefix(), "p")).ToString(), "10.1.0.0/16");
  EXPECT_EQ((*ipc::AddrFromProto(d[0].peer(), "p")).ToString(), "127.0.0.2");
  EXPECT_EQ(d[0].penalty(), 3000u);  // the clock stood still: no decay
  EXPECT_TRUE(d[0].suppressed());
  EXPECT_EQ(d[0].reuse_in_s(), 1800u);  // 3000 -> 750: two half-lives
  EXPECT_EQ(d[0].flaps(), 3u);
  ASSERT_TRUE(env_.RunUntil([&] { return InRib("b", "10.2.0.0/16"); }));
  env_.Run(200ms);
  EXPECT_FALSE(InRib("b", "10.1.0.0/16"));
  EXPECT_EQ(Best("b"), (std::vector<std::string>{"10.2.0.0/16 [65001]"}));

  clock_.advance(std::chrono::seconds(1799));
  env_.Run(200ms);
  EXPECT_FALSE(InRib("b", "10.1.0.0/16"));
  clock_.advance(std::chrono::seconds(1));
  ASSERT_TRUE(env_.RunUntil([&] { return InRib("b", "10.1.0.0/16"); }));
  EXPECT_FALSE(Damped("b")[0].suppressed());

  // Suppressed again, then released by clear_damping.
  Flap("10.1.0.0/16", 3);
  ASSERT_TRUE(Damped("b")[0].suppressed());
  env_.Run(200ms);
  EXPECT_FALSE(InRib("b", "10.1.0.0/16"));
  bpb::ClearDampingRequest clear;
  ipc::PrefixToProto(P("10.1.0.0/16"), clear.mutable_prefix());
  // Of a peer b does not have: refused; of its peer a (127.0.0.2): released.
  ipc::AddrToProto(*IpAddr::Parse("127.0.0.9"), clear.mutable_peer());
  EXPECT_EQ(
      (Bgp<bpb::ClearDampingRequest, bpb::ClearDampingReply>("b", "clear_damping", clear)).code(),
      StatusCode::kNotFound);
  ipc::AddrToProto(*IpAddr::Parse("127.0.0.2"), clear.mutable_peer());
  bpb::ClearDampingReply cleared;
  ASSERT_TRUE(
      (Bgp<bpb::ClearDampingRequest, bpb::ClearDampingReply>("b", "clear_damping", clear, &cleared))
          .ok());
  EXPECT_EQ(cleared.cleared(), 1u);
  ASSERT_TRUE(env_.RunUntil([&] { return InRib("b", "10.1.0.0/16"); }));
  EXPECT_TRUE(Damped("b").empty());
}

// RFC 8212: b keeps the default for its eBGP peer a and has no policies: it accepts none of a's

}  // namespace
}  // namespace strata::bgp::speaker_test
