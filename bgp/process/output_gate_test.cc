// OutputGate: the restarting speaker's gate (RFC 4724 4.1).
#include "bgp/process/output_gate.h"

#include <gtest/gtest.h>

namespace strata::bgp {
namespace {

IpPrefix P(std::string_view s) { return *IpPrefix::Parse(s); }

AttributeSetPtr Med(uint32_t med) {
  PathAttributes a;
  a.med = med;
  return AttributeSet::Make(std::move(a));
}

UpdateBatch Announce(AttributeSetPtr attrs, std::vector<std::string_view> prefixes,
                     std::vector<std::string_view> withdrawn = {}) {
  UpdateBatch b;
  AnnouncementGroup g{std::move(attrs), Family::kIpv4, {}};
  for (auto p : prefixes) {
    g.family = P(p).family();
    g.prefixes.push_back(P(p));
  }
  if (!g.prefixes.empty()) b.announcements.push_back(std::move(g));
  for (auto p : withdrawn) b.withdrawals.push_back(P(p));
  return b;
}

// prefix -> MED of the groups, to compare tables whatever the group order.
std::map<IpPrefix, uint32_t> Flatten(const std::vector<AnnouncementGroup>& groups) {
  std::map<IpPrefix, uint32_t> out;
  for (const auto& g : groups) {
    for (const auto& p : g.prefixes) {
      EXPECT_TRUE(out.emplace(p, *g.attrs->attrs().med).second) << "twice: " << p.ToString();
    }
  }
  return out;
}

TEST(OutputGateTest, OpenGateHoldsNothingAndKeepsNothing) {
  OutputGate gate;
  const UpdateBatch b = Announce(Med(1), {"10.0.0.0/8", "11.0.0.0/8"});
  EXPECT_FALSE(gate.Hold(b));
  EXPECT_EQ(gate.size(), 0u);        // no Adj-RIB-Out copy
  EXPECT_TRUE(gate.Open().empty());  // was not closed: nothing to release
  EXPECT_EQ(gate.counters().releases, 0u);
  EXPECT_EQ(gate.counters().held_batches, 0u);
}

// While closed, a churn of changes coalesces per prefix; Open gives each final route once and
// never the withdrawn or superseded ones.
TEST(OutputGateTest, ClosedGateCoalescesChurnAndReleasesTheFinalTableOnce) {
  OutputGate gate;
  gate.Close();
  EXPECT_TRUE(gate.Hold(Announce(Med(1), {"10.0.0.0/8", "11.0.0.0/8", "12.0.0.0/8"})));
  EXPECT_TRUE(gate.Hold(Announce(Med(2), {"10.0.0.0/8"}, {"11.0.0.0/8"})));
  EXPECT_TRUE(gate.Hold(Announce(Med(3), {"13.0.0.0/8", "2001:db8::/32"})));
  EXPECT_TRUE(gate.Hold(Announce(Med(3), {"12.0.0.0/8"}, {"13.0.0.0/8"})));
  EXPECT_EQ(gate.counters().held_batches, 4u);
  EXPECT_EQ(gate.counters().held_changes, 9u);
  EXPECT_EQ(gate.size(), 3u);
  const auto released = gate.Open();
  EXPECT_FALSE(gate.closed());
  EXPECT_EQ(Flatten(released),
            (std::map<IpPrefix, uint32_t>{
                {P("10.0.0.0/8"), 2}, {P("12.0.0.0/8"), 3}, {P("2001:db8::/32"), 3}}));
  // Grouped by attribute set and family: MED 2 v4, MED 3 v4, MED 3 v6.
  ASSERT_EQ(released.size(), 3u);
  for (const auto& g : released) {
    for (const auto& p : g.prefixes) EXPECT_EQ(p.family(), g.family);
  }
  EXPECT_EQ(gate.counters().releases, 1u);
  EXPECT_EQ(gate.counters().released_prefixes, 3u);
  // Open now: the held table is forgotten and what follows passes through.
  EXPECT_EQ(gate.size(), 0u);
  EXPECT_FALSE(gate.Hold(Announce(Med(4), {"14.0.0.0/8"})));
  EXPECT_EQ(gate.size(), 0u);
  EXPECT_TRUE(gate.Open().empty());
}

// Equal attribute sets from different pointers share a group; prefixes come sorted.
TEST(OutputGateTest, GroupsByValueAndFamilySorted) {
  OutputGate gate;
  gate.Close();
  gate.Hold(Announce(Med(7), {"12.0.0.0/8"}));
  gate.Hold(Announce(Med(7), {"10.0.0.0/8"}));
  gate.Hold(Announce(Med(7), {"2001:db8::/32"}));
  const auto groups = gate.Open();
  ASSERT_EQ(groups.size(), 2u);
  const auto& v4 = groups[0].family == Family::kIpv4 ? groups[0] : groups[1];
  const auto& v6 = groups[0].family == Family::kIpv4 ? groups[1] : groups[0];
  EXPECT_EQ(v4.prefixes, (std::vector<IpPrefix>{P("10.0.0.0/8"), P("12.0.0.0/8")}));
  EXPECT_EQ(v6.family, Family::kIpv6);
  EXPECT_EQ(v6.prefixes, (std::vector<IpPrefix>{P("2001:db8::/32")}));
}

// A session lost while closed forgets what it held; the gate stays closed for the next one.
TEST(OutputGateTest, ClearForgetsTheTableButKeepsTheGate) {
  OutputGate gate;
  gate.Close();
  gate.Hold(Announce(Med(1), {"10.0.0.0/8"}));
  gate.Clear();
  EXPECT_TRUE(gate.closed());
  EXPECT_EQ(gate.size(), 0u);
  gate.Hold(Announce(Med(5), {"11.0.0.0/8"}));
  EXPECT_EQ(Flatten(gate.Open()), (std::map<IpPrefix, uint32_t>{{P("11.0.0.0/8"), 5}}));
}

}  // namespace
}  // namespace strata::bgp
