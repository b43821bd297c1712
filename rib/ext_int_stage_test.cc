#include "rib/ext_int_stage.h"

#include <gtest/gtest.h>

#include "rib/merge_stage.h"
#include "rib/origin_table.h"
#include "testing/rib/recording_stage.h"
#include "testing/rib/rib_test_util.h"

namespace strata::rib {
namespace {

using test_util::A;
using test_util::P;
using test_util::Route;
using Strings = std::vector<std::string>;

class ExtIntStageTest : public ::testing::Test {
 protected:
  ExtIntStageTest()
      : igp_("ospf", ProtocolKind::kIgp, 110, sched_),
        connected_("connected", ProtocolKind::kIgp, 0, sched_),
        igp_merge_("merge", &igp_, &connected_),
        bgp_("ebgp", ProtocolKind::kEgp, 20, sched_),
        ext_int_(&bgp_, &igp_merge_),
        rec_(&ext_int_) {
    igp_.set_next(&igp_merge_);
    connected_.set_next(&igp_merge_);
    igp_merge_.set_next(&ext_int_);
    bgp_.set_next(&ext_int_);
    ext_int_.set_next(&rec_);
  }
  void ExpectConsistent() {
    EXPECT_TRUE(rec_.violations().empty()) << rec_.violations().front();
    Status s = rec_.CheckLookups();
    EXPECT_TRUE(s.ok()) << s.ToString();
  }
  RouteRef Sent(const char* prefix) { return rec_.current(P(prefix)); }

  TaskScheduler sched_;
  OriginTable igp_;
  OriginTable connected_;
  MergeStage igp_merge_;
  OriginTable bgp_;
  ExtIntStage ext_int_;
  RecordingStage rec_;
};

TEST_F(ExtIntStageTest, UnresolvableRouteIsHeldUntilAnIgpRouteCoversItsNexthop) {
  ASSERT_TRUE(bgp_.add(Route("203.0.113.0/24", "10.9.9.9")).ok());
  EXPECT_TRUE(rec_.events().empty());
  EXPECT_EQ(ext_int_.unresolved_count(), 1u);
  ASSERT_TRUE(igp_.add(Route("10.9.0.0/16", "192.168.1.1", 7)).ok());
  RouteRef r = Sent("203.0.113.0/24");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->nexthop(), A("10.9.9.9"));
  EXPECT_EQ(r->forwarding_nexthop(), A("192.168.1.1"));
  EXPECT_EQ(*r->resolved_via(), P("10.9.0.0/16"));
  EXPECT_EQ(r->igp_metric(), 7u);
  EXPECT_EQ(ext_int_.unresolved_count(), 0u);
  ExpectConsistent();
}

TEST_F(ExtIntStageTest, ConnectedNexthopIsKept) {
  ASSERT_TRUE(connected_.add(Route("192.168.1.0/24", "192.168.1.254")).ok());
  ASSERT_TRUE(bgp_.add(Route("203.0.113.0/24", "192.168.1.7")).ok());
  EXPECT_EQ(Sent("203.0.113.0/24")->forwarding_nexthop(), A("192.168.1.7"));
  ExpectConsistent();
}

TEST_F(ExtIntStageTest, MoreSpecificIgpRouteReResolvesDependents) {
  ASSERT_TRUE(igp_.add(Route("10.0.0.0/8", "192.168.1.1")).ok());
  ASSERT_TRUE(bgp_.add(Route("203.0.113.0/24", "10.9.9.9")).ok());
  ASSERT_TRUE(bgp_.add(Route("198.51.100.0/24", "10.9.9.9")).ok());
  ASSERT_TRUE(bgp_.add(Route("192.0.2.0/24", "10.1.1.1")).ok());
  rec_.clear_events();
  ASSERT_TRUE(igp_.add(Route("10.9.0.0/16", "192.168.1.2")).ok());
  // The new IGP route, then each route using 10.9.9.9 re-resolved; 10.1.1.1's user untouched.
  EXPECT_EQ(rec_.EventStrings(),
            (Strings{"+10.9.0.0/16 ospf", "-198.51.100.0/24 ebgp", "+198.51.100.0/24 ebgp",
                     "-203.0.113.0/24 ebgp", "+203.0.113.0/24 ebgp"}));
  EXPECT_EQ(Sent("203.0.113.0/24")->forwarding_nexthop(), A("192.168.1.2"));
  EXPECT_EQ(Sent("192.0.2.0/24")->forwarding_nexthop(), A("192.168.1.1"));
  ExpectConsistent();
}

TEST_F(ExtIntStageTest, IgpChangeAndWithdrawalReResolveOrWithdrawEventByEvent) {
  ASSERT_TRUE(igp_.add(Route("10.0.0.0/8", "192.168.1.1")).ok());
  ASSERT_TRUE(igp_.add(Route("10.9.0.0/16", "192.168.1.2")).ok());
  ASSERT_TRUE(bgp_.add(Route("203.0.113.0/24", "10.9.9.9")).ok());
  ASSERT_TRUE(igp_.replace(Route("10.9.0.0/16", "192.168.1.3")).ok());
  EXPECT_EQ(Sent("203.0.113.0/24")->forwarding_nexthop(), A("192.168.1.3"));
  ExpectConsistent();
  ASSERT_TRUE(igp_.remove(P("10.9.0.0/16")).ok());
  EXPECT_EQ(Sent("203.0.113.0/24")->forwarding_nexthop(), A("192.168.1.1"));  // falls back
  ExpectConsistent();
  rec_.clear_events();
  ASSERT_TRUE(igp_.remove(P("10.0.0.0/8")).ok());
  EXPECT_EQ(rec_.EventStrings(), (Strings{"-10.0.0.0/8 ospf", "-203.0.113.0/24 ebgp"}));
  EXPECT_EQ(ext_int_.unresolved_count(), 1u);
  ExpectConsistent();
  ASSERT_TRUE(bgp_.remove(P("203.0.113.0/24")).ok());  // held back: nothing to withdraw
  EXPECT_EQ(rec_.events().size(), 2u);
  EXPECT_EQ(ext_int_.nexthop_count(), 0u);
}

TEST_F(ExtIntStageTest, SamePrefixDecidedByAdminDistance) {
  ASSERT_TRUE(igp_.add(Route("10.0.0.0/8", "192.168.1.1")).ok());
  ASSERT_TRUE(igp_.add(Route("10.9.0.0/16", "192.168.1.2")).ok());
  ASSERT_TRUE(bgp_.add(Route("10.9.0.0/16", "10.0.0.1")).ok());  // ebgp 20 beats ospf 110
  EXPECT_EQ(Sent("10.9.0.0/16")->protocol(), "ebgp");
  igp_.set_admin_distance(10);
  sched_.run_until_idle();
  EXPECT_EQ(Sent("10.9.0.0/16")->protocol(), "ospf");
  ExpectConsistent();
  ASSERT_TRUE(igp_.remove(P("10.9.0.0/16")).ok());
  EXPECT_EQ(Sent("10.9.0.0/16")->protocol(), "ebgp");
  ExpectConsistent();
}

// A multipath route passes with every hop that resolves, each resolved on its own; an IGP change
// under any hop re-resolves it.
RibRoute Multi(const char* prefix, const char* nexthop, std::vector<const char*> more) {
  RibRoute r = Route(prefix, nexthop);
  Multipath hops;
  for (const char* a : more) hops.push_back(MultipathHop{A(a), nullptr, Symbol()});
  r.set_multipath(MakeMultipath(std::move(hops)));
  return r;
}

TEST_F(ExtIntStageTest, MultipathHopsResolveEachOnTheirOwn) {
  ASSERT_TRUE(connected_.add(Route("192.168.1.0/24", "192.168.1.254")).ok());
  ASSERT_TRUE(bgp_.add(Multi("203.0.113.0/24", "192.168.1.7", {"192.168.1.8", "10.9.9.9"})).ok());
  RouteRef r = Sent("203.0.113.0/24");
  ASSERT_NE(r, nullptr);
  ASSERT_NE(r->multipath(), nullptr);
  ASSERT_EQ(r->multipath()->size(), 2u);
  EXPECT_EQ((*r->multipath())[0].resolution->nexthop, A("192.168.1.8"));  // connected: kept
  EXPECT_FALSE((*r->multipath())[1].resolution);                          // 10.9.9.9: nowhere
  // An IGP route to the third hop re-resolves the route.
  ASSERT_TRUE(igp_.add(Route("10.9.0.0/16", "192.168.1.1", 7)).ok());
  r = Sent("203.0.113.0/24");
  ASSERT_TRUE((*r->multipath())[1].resolution);
  EXPECT_EQ((*r->multipath())[1].resolution->nexthop, A("192.168.1.1"));
  EXPECT_EQ(r->forwarding_nexthop(), A("192.168.1.7"));
  // And its withdrawal takes the hop away, not the route.
  ASSERT_TRUE(igp_.remove(P("10.9.0.0/16")).ok());
  r = Sent("203.0.113.0/24");
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE((*r->multipath())[1].resolution);
  // A replace without the hops leaves no dependents behind.
  ASSERT_TRUE(bgp_.replace(Route("203.0.113.0/24", "192.168.1.7")).ok());
  EXPECT_EQ(Sent("203.0.113.0/24")->multipath(), nullptr);
  EXPECT_EQ(ext_int_.nexthop_count(), 1u);
  ExpectConsistent();
}

TEST_F(ExtIntStageTest, MultipathRouteWaitsForItsOwnNextHop) {
  ASSERT_TRUE(connected_.add(Route("192.168.1.0/24", "192.168.1.254")).ok());
  ASSERT_TRUE(bgp_.add(Multi("203.0.113.0/24", "10.9.9.9", {"192.168.1.8"})).ok());
  EXPECT_EQ(Sent("203.0.113.0/24"), nullptr);
  ASSERT_TRUE(igp_.add(Route("10.9.0.0/16", "192.168.1.1")).ok());
  RouteRef r = Sent("203.0.113.0/24");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ((*r->multipath())[0].resolution->nexthop, A("192.168.1.8"));
  ASSERT_TRUE(bgp_.remove(P("203.0.113.0/24")).ok());
  EXPECT_EQ(ext_int_.nexthop_count(), 0u);
  ExpectConsistent();
}

TEST(MultipathValueTest, ValidatesAndInternsByContent) {
  RibRoute r = Multi("203.0.113.0/24", "192.0.2.1", {"192.0.2.2"});
  EXPECT_TRUE(r.Validate().ok());
  EXPECT_FALSE(Multi("203.0.113.0/24", "192.0.2.1", {"192.0.2.1"}).Validate().ok());
  EXPECT_FALSE(Multi("203.0.113.0/24", "192.0.2.1", {"192.0.2.2", "192.0.2.2"}).Validate().ok());
  EXPECT_FALSE(Multi("203.0.113.0/24", "192.0.2.1", {"2001:db8::1"}).Validate().ok());
  // Two routes with equal sets share one interned attribute set.
  RibRoute s = Multi("198.51.100.0/24", "192.0.2.1", {"192.0.2.2"});
  EXPECT_TRUE(r.shared_attrs() == s.shared_attrs());
  EXPECT_FALSE(r.shared_attrs() == Route("203.0.113.0/24", "192.0.2.1").shared_attrs());
  EXPECT_EQ(r.ToString(), "203.0.113.0/24 via 192.0.2.1  ad 0 metric 0 multipath 192.0.2.2");
}

}  // namespace
}  // namespace strata::rib
