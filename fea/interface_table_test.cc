#include "fea/interface_table.h"

#include <gtest/gtest.h>

namespace strata::fea {
namespace {

IpAddr A(const char* s) { return IpAddr::Parse(s).value(); }

TEST(InterfaceTableTest, ReportsEachVisibleChangeOnce) {
  InterfaceTable t;
  std::vector<std::string> events;
  t.set_on_change([&](const InterfaceChange& c) {
    events.push_back(c.iface->link.name + (c.removed ? " removed" : " up=") +
                     (c.removed ? "" : std::to_string(c.iface->up())) + " vr=" + c.iface->vr);
  });
  LinkInfo l{5, "eth0", true, true, 1500, std::nullopt};
  t.UpdateLink(l);
  t.UpdateLink(l);  // no change, no event
  t.AddAddress({5, A("10.0.0.1"), 24});
  t.AddAddress({5, A("10.0.0.1"), 24});
  ASSERT_TRUE(t.Bind("eth0", "red").ok());
  l.carrier = false;
  t.UpdateLink(l);
  t.RemoveLink(5);
  EXPECT_EQ(events, (std::vector<std::string>{"eth0 up=1 vr=", "eth0 up=1 vr=", "eth0 up=1 vr=red",
                                              "eth0 up=0 vr=red", "eth0 removed vr=red"}));
  // The binding survives re-creation.
  t.UpdateLink({9, "eth0", true, true, 1500, std::nullopt});
  EXPECT_EQ(t.Find("eth0")->vr, "red");
  EXPECT_EQ(t.Bind("nope", "red").code(), StatusCode::kNotFound);
}

// An interface forwards for one VR: a second VR's bind is refused, and undoing that VR's
// binding (unbind with its name) leaves the owner's in place.
TEST(InterfaceTableTest, BindingBelongsToOneVr) {
  InterfaceTable t;
  t.UpdateLink({5, "eth0", true, true, 1500, std::nullopt});
  ASSERT_TRUE(t.Bind("eth0", "red").ok());
  EXPECT_TRUE(t.Bind("eth0", "red").ok());  // again: nothing to do
  const Status s = t.Bind("eth0", "blue");
  EXPECT_EQ(s.code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(s.message(), "interface 'eth0' is bound to VR 'red'; unbind it from there first");
  EXPECT_EQ(t.Find("eth0")->vr, "red");
  EXPECT_TRUE(t.Unbind("eth0", "blue").ok());
  EXPECT_EQ(t.Find("eth0")->vr, "red");
  ASSERT_TRUE(t.Unbind("eth0", "red").ok());
  EXPECT_EQ(t.Find("eth0")->vr, "");
  ASSERT_TRUE(t.Bind("eth0", "blue").ok());  // a move: unbind, then bind
  EXPECT_EQ(t.Find("eth0")->vr, "blue");
  // The binding of a link the kernel removed can still be undone.
  t.RemoveLink(5);
  EXPECT_TRUE(t.Unbind("eth0", "blue").ok());
  t.UpdateLink({6, "eth0", true, true, 1500, std::nullopt});
  EXPECT_EQ(t.Find("eth0")->vr, "");
  EXPECT_EQ(t.Unbind("nope").code(), StatusCode::kNotFound);
}

// Each change says what the link was before it, so that the FEA can tell a link coming up or
// getting its carrier back (and reconcile the kernel table) from any other change.
TEST(InterfaceTableTest, ChangesCarryTheLinkStateBeforeThem) {
  InterfaceTable t;
  std::vector<std::pair<bool, bool>> was;  // (admin up, carrier) before each change
  t.set_on_change(
      [&](const InterfaceChange& c) { was.emplace_back(c.was_admin_up, c.was_carrier); });
  LinkInfo l{5, "eth0", true, false, 1500, std::nullopt};
  t.UpdateLink(l);  // new: nothing before it
  l.carrier = true;
  t.UpdateLink(l);
  t.AddAddress({5, A("10.0.0.1"), 24});
  l.admin_up = false;
  l.carrier = false;
  t.UpdateLink(l);
  EXPECT_EQ(was, (std::vector<std::pair<bool, bool>>{
                     {false, false}, {true, false}, {true, true}, {true, true}}));
}

TEST(InterfaceTableTest, ConnectedToPicksTheLongestSubnetInTheVr) {
  InterfaceTable t;
  t.UpdateLink({1, "a", true, true, 1500, std::nullopt});
  t.UpdateLink({2, "b", true, true, 1500, std::nullopt});
  t.UpdateLink({3, "c", true, true, 1500, std::nullopt});
  t.AddAddress({1, A("10.0.0.1"), 8});
  t.AddAddress({2, A("10.1.0.1"), 16});
  t.AddAddress({3, A("10.1.2.1"), 24});
  ASSERT_TRUE(t.Bind("a", "red").ok());
  ASSERT_TRUE(t.Bind("b", "red").ok());
  ASSERT_TRUE(t.Bind("c", "blue").ok());
  EXPECT_EQ(t.ConnectedTo("red", A("10.1.2.9"))->link.name, "b");
  EXPECT_EQ(t.ConnectedTo("red", A("10.2.0.9"))->link.name, "a");
  EXPECT_EQ(t.ConnectedTo("blue", A("10.1.2.9"))->link.name, "c");
  EXPECT_EQ(t.ConnectedTo("blue", A("10.2.0.9")), nullptr);
  EXPECT_EQ(t.ConnectedTo("red", A("2001:db8::1")), nullptr);
}

TEST(InterfaceTableTest, SyncRemovesWhatTheSnapshotLacks) {
  InterfaceTable t;
  t.UpdateLink({1, "a", true, true, 1500, std::nullopt});
  t.UpdateLink({2, "b", true, true, 1500, std::nullopt});
  t.AddAddress({1, A("10.0.0.1"), 24});
  t.AddAddress({1, A("10.0.1.1"), 24});
  int removed = 0;
  t.set_on_change([&](const InterfaceChange& c) { removed += c.removed; });
  t.Sync({{1, "a", true, true, 9000, std::nullopt}}, {{1, A("10.0.1.1"), 24}});
  EXPECT_EQ(removed, 1);
  EXPECT_EQ(t.Find("b"), nullptr);
  ASSERT_EQ(t.Find("a")->addresses.size(), 1u);
  EXPECT_EQ(t.Find("a")->addresses[0].address, A("10.0.1.1"));
  EXPECT_EQ(t.Find("a")->link.mtu, 9000u);
}

}  // namespace
}  // namespace strata::fea
