#include "fea/vrf_devices.h"

#include <gtest/gtest.h>

#include "testing/fea/fake_link_kernel.h"

namespace strata::fea {
namespace {

LinkInfo Link(uint32_t index, const std::string& name) {
  LinkInfo l;
  l.ifindex = index;
  l.name = name;
  l.admin_up = true;
  l.carrier = true;
  l.mtu = 1500;
  return l;
}

// The kernel, the interface table the link monitor keeps, and VrfDevices fed by its changes.
class VrfDevicesTest : public ::testing::Test {
 protected:
  VrfDevicesTest() {
    table_.set_on_change([this](const InterfaceChange& c) { vrf_.OnInterfaceChange(c); });
    kernel_.AddLink(Link(1, "eth1"));
    kernel_.AddLink(Link(2, "eth2"));
    kernel_.AddLink(Link(3, "eth3"));
    Settle();
  }
  // Lets the kernel's events reach the table until nothing more happens.
  void Settle() {
    for (int i = 0; i < 5; ++i) kernel_.Deliver(table_);
  }
  uint32_t MasterOf(uint32_t index) { return kernel_.links.at(index).master; }
  uint32_t IndexOf(const std::string& name) {
    const Interface* i = table_.Find(name);
    return i == nullptr ? 0 : i->link.ifindex;
  }

  FakeLinkKernel kernel_;
  InterfaceTable table_;
  VrfDevices vrf_{&kernel_, table_};
};

TEST_F(VrfDevicesTest, MakesTheDeviceAndEnslavesTheBoundInterfaces) {
  ASSERT_TRUE(table_.Bind("eth1", "red").ok());
  ASSERT_TRUE(vrf_.Ensure("red", 100, "").ok());
  Settle();
  const uint32_t red = IndexOf("red");
  ASSERT_NE(red, 0u);
  EXPECT_EQ(table_.Find("red")->link.vrf_table, 100u);
  EXPECT_EQ(table_.Find("red")->link.alias, "strata vr red");
  EXPECT_EQ(MasterOf(1), red);
  EXPECT_TRUE(kernel_.guards.contains(100));
  // Bound later: enslaved on the binding; unbound: released.
  ASSERT_TRUE(table_.Bind("eth2", "red").ok());
  Settle();
  EXPECT_EQ(MasterOf(2), red);
  ASSERT_TRUE(table_.Unbind("eth2", "red").ok());
  Settle();
  EXPECT_EQ(MasterOf(2), 0u);
  // An interface that appears bound (re-created) is enslaved.
  kernel_.RemoveLinkFromOutside(1);
  Settle();
  kernel_.AddLink(Link(9, "eth1"));
  Settle();
  EXPECT_EQ(MasterOf(9), red);
  // The same again: nothing sent.
  const size_t calls = kernel_.calls.size();
  ASSERT_TRUE(vrf_.Ensure("red", 100, "").ok());
  ASSERT_TRUE(vrf_.Ensure("red", 100, "red").ok());
  EXPECT_EQ(kernel_.calls.size(), calls);
  // The VR goes: its device, guard and slaves with it.
  vrf_.Remove("red");
  Settle();
  EXPECT_EQ(IndexOf("red"), 0u);
  EXPECT_EQ(MasterOf(9), 0u);
  EXPECT_FALSE(kernel_.guards.contains(100));
  EXPECT_EQ(vrf_.errors(), 0u);
}

TEST_F(VrfDevicesTest, MainTableAndNoTableNeedNoDevice) {
  ASSERT_TRUE(table_.Bind("eth1", "default").ok());
  ASSERT_TRUE(vrf_.Ensure("default", kMainTable, "").ok());
  ASSERT_TRUE(vrf_.Ensure("lab", 0, "").ok());
  Settle();
  EXPECT_TRUE(kernel_.calls.empty());
  EXPECT_EQ(vrf_.Find("default"), nullptr);
  // A VR that moves to the main table leaves its device.
  ASSERT_TRUE(table_.Bind("eth2", "red").ok());
  ASSERT_TRUE(vrf_.Ensure("red", 100, "").ok());
  Settle();
  ASSERT_NE(IndexOf("red"), 0u);
  ASSERT_TRUE(vrf_.Ensure("red", kMainTable, "").ok());
  Settle();
  EXPECT_EQ(IndexOf("red"), 0u);
  EXPECT_EQ(MasterOf(2), 0u);
}

TEST_F(VrfDevicesTest, NamesTooLongOrTakenAreRefused) {
  EXPECT_EQ(vrf_.Ensure("customer-backbone-1", 100, "").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(vrf_.Ensure("red", 100, "a/b").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(vrf_.Ensure("red", 100, "eth3").code(), StatusCode::kFailedPrecondition);
  ASSERT_TRUE(vrf_.Ensure("customer-backbone-1", 100, "cust1").ok());
  EXPECT_EQ(vrf_.Ensure("blue", 101, "cust1").code(), StatusCode::kAlreadyExists);
  Settle();
  EXPECT_EQ(table_.Find("cust1")->link.vrf_table, 100u);
  // A table change (set_vr_table names no device) keeps the name.
  ASSERT_TRUE(vrf_.Ensure("customer-backbone-1", 102, "").ok());
  Settle();
  EXPECT_EQ(table_.Find("cust1")->link.vrf_table, 102u);
}

// Linux cannot change a VRF's table: Strata's device is made again on the new one and the
// slaves follow it.
TEST_F(VrfDevicesTest, TableChangeMakesTheDeviceAgain) {
  ASSERT_TRUE(table_.Bind("eth1", "red").ok());
  ASSERT_TRUE(vrf_.Ensure("red", 100, "").ok());
  Settle();
  ASSERT_TRUE(vrf_.Ensure("red", 200, "").ok());
  Settle();
  EXPECT_EQ(table_.Find("red")->link.vrf_table, 200u);
  EXPECT_EQ(MasterOf(1), IndexOf("red"));
  EXPECT_FALSE(kernel_.guards.contains(100));
  EXPECT_TRUE(kernel_.guards.contains(200));
  // A new name on the same table: the old device goes before the monitor says so.
  ASSERT_TRUE(vrf_.Ensure("red", 200, "red2").ok());
  Settle();
  EXPECT_EQ(IndexOf("red"), 0u);
  EXPECT_EQ(MasterOf(1), IndexOf("red2"));
  EXPECT_EQ(vrf_.errors(), 0u);
}

// A device someone else made on the VR's table is used and left in place when the VR goes.
TEST_F(VrfDevicesTest, AdoptsAForeignDeviceAndLeavesIt) {
  LinkInfo red = Link(20, "red");
  red.kind = "vrf";
  red.vrf_table = 100;
  kernel_.AddLink(red);
  Settle();
  ASSERT_TRUE(table_.Bind("eth1", "red").ok());
  ASSERT_TRUE(vrf_.Ensure("red", 100, "").ok());
  Settle();
  EXPECT_TRUE(vrf_.Find("red")->adopted);
  EXPECT_EQ(MasterOf(1), 20u);
  EXPECT_EQ(vrf_.Ensure("red", 200, "").code(), StatusCode::kFailedPrecondition);
  // Another name for the table's device is refused rather than a second device.
  EXPECT_EQ(vrf_.Ensure("blue", 100, "blue").code(), StatusCode::kFailedPrecondition);
  vrf_.Remove("red");
  Settle();
  EXPECT_NE(IndexOf("red"), 0u);
  EXPECT_EQ(MasterOf(1), 0u);
}

// After an FEA restart: the device and slaves are there; adopting them sends nothing, and
// Cleanup() removes only what the configuration no longer has.
TEST_F(VrfDevicesTest, RestartAdoptsWithoutTouchingTheKernel) {
  ASSERT_TRUE(table_.Bind("eth1", "red").ok());
  ASSERT_TRUE(table_.Bind("eth2", "red").ok());
  ASSERT_TRUE(vrf_.Ensure("red", 100, "").ok());
  ASSERT_TRUE(table_.Bind("eth3", "blue").ok());
  ASSERT_TRUE(vrf_.Ensure("blue", 101, "").ok());
  Settle();
  // A new FEA: a fresh table from the kernel's links, a fresh VrfDevices.
  InterfaceTable table2;
  VrfDevices vrf2(&kernel_, table2);
  table2.set_on_change([&](const InterfaceChange& c) { vrf2.OnInterfaceChange(c); });
  std::vector<LinkInfo> links;
  for (const auto& [i, l] : kernel_.links) links.push_back(l);
  table2.Sync(links, {});
  kernel_.calls.clear();
  // The configuration again, without blue and with eth2 no longer in red.
  ASSERT_TRUE(vrf2.Ensure("red", 100, "").ok());
  ASSERT_TRUE(table2.Bind("eth1", "red").ok());
  EXPECT_TRUE(kernel_.calls == std::vector<std::string>{"guard+ 100"}) << kernel_.calls.size();
  EXPECT_FALSE(vrf2.Find("red")->adopted);  // Strata's, by its alias
  vrf2.Cleanup();
  const uint32_t blue_index = table2.Find("blue")->link.ifindex;
  EXPECT_FALSE(kernel_.links.contains(blue_index));
  EXPECT_EQ(kernel_.links.at(2).master, 0u);
  EXPECT_EQ(kernel_.links.at(1).master, table2.Find("red")->link.ifindex);
}

TEST_F(VrfDevicesTest, DeviceDeletedFromOutsideIsMadeAgain) {
  ASSERT_TRUE(table_.Bind("eth1", "red").ok());
  ASSERT_TRUE(vrf_.Ensure("red", 100, "").ok());
  Settle();
  kernel_.RemoveLinkFromOutside(IndexOf("red"));
  Settle();
  ASSERT_NE(IndexOf("red"), 0u);
  EXPECT_EQ(MasterOf(1), IndexOf("red"));
}

// A kernel without VRF devices: each bound interface gets `iif IF lookup TABLE` instead.
TEST_F(VrfDevicesTest, WithoutVrfDevicesInterfacesGetRules) {
  kernel_.no_vrf = true;
  ASSERT_TRUE(table_.Bind("eth1", "red").ok());
  ASSERT_TRUE(vrf_.Ensure("red", 100, "").ok());
  Settle();
  using Rules = std::set<std::pair<std::string, uint32_t>>;
  EXPECT_EQ(kernel_.rules, (Rules{{"eth1", 100}}));
  EXPECT_TRUE(kernel_.guards.contains(100));
  ASSERT_TRUE(table_.Bind("eth2", "red").ok());
  Settle();
  EXPECT_EQ(kernel_.rules, (Rules{{"eth1", 100}, {"eth2", 100}}));
  ASSERT_TRUE(table_.Unbind("eth2", "red").ok());
  Settle();
  EXPECT_EQ(kernel_.rules, (Rules{{"eth1", 100}}));
  // A table change moves the rules.
  ASSERT_TRUE(vrf_.Ensure("red", 200, "").ok());
  EXPECT_EQ(kernel_.rules, (Rules{{"eth1", 200}}));
  vrf_.Remove("red");
  EXPECT_TRUE(kernel_.rules.empty());
  EXPECT_TRUE(kernel_.guards.empty());
  for (const std::string& c : kernel_.calls) EXPECT_EQ(c.find("master"), std::string::npos) << c;
  EXPECT_EQ(vrf_.errors(), 0u);
}

TEST_F(VrfDevicesTest, NoKernelDoesNothing) {
  VrfDevices none(nullptr, table_);
  EXPECT_TRUE(none.Ensure("red", 100, "").ok());
  EXPECT_EQ(none.Find("red"), nullptr);
}

}  // namespace
}  // namespace strata::fea
