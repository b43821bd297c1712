// The per-peer AS path options and default-originate in the filter stages: allowas-in and
// local-as on input; remove-private-as, local-as and default-originate on output.
#include <gtest/gtest.h>

#include "bgp/pipeline/input_filter_stage.h"
#include "bgp/pipeline/output_filter_stage.h"
#include "bgp/pipeline/peer_in.h"
#include "testing/bgp/pipeline_test_util.h"
#include "testing/bgp/recording_stage.h"

namespace strata::bgp {
namespace {

using test_util::A;
using test_util::P;
using test_util::Peer;
using test_util::Route;
using V = std::vector<std::string>;

constexpr uint32_t kLocalAs = 65000;

struct InputBranch {
  explicit InputBranch(AsPathOptions options)
      : filter(1, kLocalAs, A("9.9.9.9"), 0x09090909, &in, nullptr, {}, options), rec(&filter) {
    in.set_next(&filter);
    filter.set_next(&rec);
  }
  PeerIn in{1};
  InputFilterStage filter;
  RecordingStage rec;
  PeerRef peer = Peer(1, 65001, false, "10.0.0.1");
};

TEST(AllowasInTest, OurAsUpToNTimesPasses) {
  InputBranch b(AsPathOptions{.allowas_in = 2});
  b.in.announce(Route("1.0.0.0/8", {.path = {65001, 65000, 3}}, b.peer));
  b.in.announce(Route("2.0.0.0/8", {.path = {65001, 65000, 65000}}, b.peer));
  b.in.announce(Route("3.0.0.0/8", {.path = {65001, 65000, 7, 65000, 65000}}, b.peer));
  EXPECT_EQ(b.rec.EventStrings(), (V{"+1.0.0.0/8 p1", "+2.0.0.0/8 p1"}));
  EXPECT_EQ(b.filter.counters().as_loop, 1u);
  b.in.withdraw(P("3.0.0.0/8"));
  b.in.withdraw(P("1.0.0.0/8"));
  EXPECT_TRUE(b.rec.violations().empty());
  EXPECT_TRUE(b.rec.CheckLookups().ok());
}

TEST(AllowasInTest, WithoutItOnceIsALoop) {
  InputBranch b(AsPathOptions{});
  b.in.announce(Route("1.0.0.0/8", {.path = {65001, 65000, 3}}, b.peer));
  EXPECT_TRUE(b.rec.events().empty());
  EXPECT_EQ(b.filter.counters().as_loop, 1u);
}

TEST(LocalAsTest, ReceivedPathsGetItPrependedAndItCountsAsOurs) {
  InputBranch b(AsPathOptions{.local_as = 64999});
  b.in.announce(Route("1.0.0.0/8", {.path = {65001, 3}}, b.peer));
  b.in.announce(Route("2.0.0.0/8", {.path = {65001, 64999}}, b.peer));  // a loop through it
  ASSERT_EQ(b.rec.events().size(), 1u);
  EXPECT_EQ(b.rec.events()[0].route->path().as_path->ToString(), "64999 65001 3");
  EXPECT_EQ(b.filter.counters().as_loop, 1u);
  EXPECT_EQ(b.filter.lookup_route(P("1.0.0.0/8"))->path().as_path->ToString(), "64999 65001 3");
  b.in.withdraw(P("1.0.0.0/8"));  // the delete carries the same prepended path
  EXPECT_TRUE(b.rec.violations().empty());
}

TEST(LocalAsTest, NoPrependLeavesReceivedPathsAlone) {
  InputBranch b(AsPathOptions{.local_as = 64999, .local_as_no_prepend = true});
  b.in.announce(Route("1.0.0.0/8", {.path = {65001, 3}}, b.peer));
  ASSERT_EQ(b.rec.events().size(), 1u);
  EXPECT_EQ(b.rec.events()[0].route->path().as_path->ToString(), "65001 3");
}

PipelinePeerConfig Config(uint32_t peer_as, AsPathOptions as_path = {},
                          bool default_originate = false, RoutePolicy export_policy = nullptr) {
  PipelinePeerConfig c;
  c.peer_as = peer_as;
  c.as_path = as_path;
  c.default_originate = default_originate;
  c.export_policy = std::move(export_policy);
  return c;
}

class OutputOptionsTest : public ::testing::Test {
 protected:
  void Build(PipelinePeerConfig config) {
    config.address = A("10.9.9.9");
    config.local_address = A("10.0.1.254");
    filter = std::make_unique<OutputFilterStage>(2, kLocalAs, std::move(config), &in);
    rec = std::make_unique<RecordingStage>(filter.get());
    in.set_next(filter.get());
    filter->set_next(rec.get());
  }
  std::string SentPath(const std::string& prefix) {
    BgpRouteRef r = filter->lookup_route(P(prefix));
    return r ? r->path().as_path->ToString() : "not sent";
  }
  PeerIn in{1};
  PeerRef src = Peer(1, 65001, false, "10.0.0.1");
  std::unique_ptr<OutputFilterStage> filter;
  std::unique_ptr<RecordingStage> rec;
};

TEST_F(OutputOptionsTest, RemovePrivateAsOnlyWhenAllPrivate) {
  Build(Config(174, {.remove_private_as = RemovePrivateAs::kIfAllPrivate}));
  in.announce(Route("1.0.0.0/8", {.path = {65001, 64512}}, src));
  in.announce(Route("2.0.0.0/8", {.path = {65001, 3356, 64512}}, src));
  EXPECT_EQ(SentPath("1.0.0.0/8"), "65000");
  EXPECT_EQ(SentPath("2.0.0.0/8"), "65000 65001 3356 64512");
}

TEST_F(OutputOptionsTest, RemovePrivateAsAllReplaceAs) {
  Build(
      Config(174, {.remove_private_as = RemovePrivateAs::kAll, .remove_private_replace_as = true}));
  in.announce(Route("2.0.0.0/8", {.path = {65001, 3356, 4200000000u}}, src));
  EXPECT_EQ(SentPath("2.0.0.0/8"), "65000 65000 3356 65000");
  in.withdraw(P("2.0.0.0/8"));
  EXPECT_TRUE(rec->violations().empty());
}

TEST_F(OutputOptionsTest, LocalAsGoesInFrontOfOursOrReplacesIt) {
  Build(Config(174, {.local_as = 64999}));
  in.announce(Route("1.0.0.0/8", {.path = {65001}}, src));
  EXPECT_EQ(SentPath("1.0.0.0/8"), "64999 65000 65001");
  Build(Config(174, {.local_as = 64999, .local_as_replace_as = true}));
  EXPECT_EQ(SentPath("1.0.0.0/8"), "64999 65001");
}

TEST_F(OutputOptionsTest, DefaultOriginateSendsOursWhateverTheRibHas) {
  Build(Config(174, {}, /*default_originate=*/true,
               [](const BgpRouteRef&) -> BgpRouteRef { return nullptr; }));
  filter->OriginateDefaults();
  ASSERT_EQ(rec->events().size(), 1u);  // IPv4 only: no IPv6 next hop on this session
  const BgpRoute& d = *rec->events()[0].route;
  EXPECT_EQ(d.prefix, P("0.0.0.0/0"));
  EXPECT_EQ(*d.path().next_hop, A("10.0.1.254"));
  EXPECT_EQ(d.path().as_path->ToString(), "65000");
  EXPECT_EQ(*d.path().origin, Origin::kIgp);
  // The Loc-RIB's default is neither sent nor withdrawn; ours stays.
  in.announce(Route("0.0.0.0/0", {.path = {65001}}, src));
  in.withdraw(P("0.0.0.0/0"));
  EXPECT_EQ(rec->events().size(), 1u);
  EXPECT_EQ(filter->counters().default_replaced, 1u);
  EXPECT_EQ(SentPath("0.0.0.0/0"), "65000");
  // Other routes still go through the export policy (which rejects all here).
  in.announce(Route("1.0.0.0/8", {.path = {65001}}, src));
  EXPECT_EQ(rec->events().size(), 1u);
  EXPECT_TRUE(rec->violations().empty());
}

TEST_F(OutputOptionsTest, DefaultOriginateToAnInternalPeerCarriesLocalPref) {
  Build(Config(kLocalAs, {}, /*default_originate=*/true));
  filter->OriginateDefaults();
  ASSERT_EQ(rec->events().size(), 1u);
  const PathAttributes& a = rec->events()[0].route->path();
  EXPECT_TRUE(a.as_path->empty());
  EXPECT_EQ(a.local_pref, kDefaultLocalPref);
  EXPECT_EQ(*a.next_hop, A("10.0.1.254"));
}

}  // namespace
}  // namespace strata::bgp
