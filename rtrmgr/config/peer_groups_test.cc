#include "rtrmgr/config/peer_groups.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rtrmgr/config/config_planner.h"
#include "rtrmgr/config/config_validator.h"
#include "testing/rtrmgr/config_test_util.h"

namespace strata::rtrmgr {
namespace {

using test_util::MustParse;
using test_util::RealTemplates;

const char kGroups[] =
    "policy { policy-statement all { term t { then { action accept; } } } }\n"
    "virtual-router red { bgp { local-as 65001; router-id 10.0.0.1;\n"
    "  group transit { as 65002; hold-time 30; import all; export all; default-originate;\n"
    "    peer 10.0.0.2 { hold-time 60; } }\n"
    "  peer 10.0.0.3 { group transit; description c; }\n"
    "  peer 10.0.0.4 { as 65004; import all; export all; } } }\n";

const ConfigNode& Bgp(const ConfigNode& root) {
  return *root.FindChild("virtual-router", "red")->FindChild("bgp");
}

TEST(PeerGroupsTest, MembersTakeTheGroupsSettingsUnlessTheyHaveTheirOwn) {
  const ConfigNode expanded = PeerGroups::Expand(MustParse(kGroups), /*keep_groups=*/false);
  const ConfigNode& bgp = Bgp(expanded);
  EXPECT_EQ(bgp.FindChild("group"), nullptr);
  const ConfigNode* inside = bgp.FindChild("peer", "10.0.0.2");
  ASSERT_NE(inside, nullptr);
  EXPECT_EQ(inside->FindChild("hold-time")->first_arg(), "60");  // its own wins
  EXPECT_EQ(inside->FindChild("as")->first_arg(), "65002");
  EXPECT_EQ(inside->FindChild("group")->first_arg(), "transit");
  EXPECT_NE(inside->FindChild("default-originate"), nullptr);
  const ConfigNode* naming = bgp.FindChild("peer", "10.0.0.3");
  ASSERT_NE(naming, nullptr);
  EXPECT_EQ(naming->FindChild("hold-time")->first_arg(), "30");
  EXPECT_EQ(naming->FindChild("import")->first_arg(), "all");
  EXPECT_EQ(naming->FindChild("description")->first_arg(), "c");
  // An inherited value keeps the group's position (findings point at the group's line).
  EXPECT_EQ(naming->FindChild("hold-time")->pos().line, 3);
  const ConfigNode* alone = bgp.FindChild("peer", "10.0.0.4");
  ASSERT_NE(alone, nullptr);
  EXPECT_EQ(alone->FindChild("hold-time"), nullptr);
  // Kept for the rules, emptied of members.
  const ConfigNode kept = PeerGroups::Expand(MustParse(kGroups), /*keep_groups=*/true);
  const ConfigNode* group = Bgp(kept).FindChild("group", "transit");
  ASSERT_NE(group, nullptr);
  EXPECT_EQ(group->FindChild("peer"), nullptr);
}

TEST(PeerGroupsTest, TheTemplatesAcceptGroupsAndTheirMembers) {
  EXPECT_TRUE(ConfigValidator(RealTemplates()).Check(MustParse(kGroups)).ok())
      << ConfigValidator(RealTemplates()).Check(MustParse(kGroups)).message();
}

std::vector<std::string> Plan(const std::string& running, const std::string& candidate) {
  auto plan = ConfigPlanner(RealTemplates()).Plan(MustParse(running), MustParse(candidate));
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  std::vector<std::string> out;
  if (plan.ok()) {
    for (const auto& a : *plan) out.push_back(a.path + ": " + a.xrl.ToString());
  }
  return out;
}

TEST(PeerGroupsTest, AGroupChangeChangesEveryMemberThatDoesNotOverrideIt) {
  std::string changed = kGroups;
  changed.replace(changed.find("hold-time 30"), 12, "hold-time 40");
  const std::vector<std::string> plan = Plan(kGroups, changed);
  ASSERT_EQ(plan.size(), 1u);  // 10.0.0.2 keeps its own 60, 10.0.0.4 has no group
  EXPECT_NE(plan[0].find("virtual-router red bgp peer 10.0.0.3: "), std::string::npos) << plan[0];
  EXPECT_NE(plan[0].find("change_peer?"), std::string::npos) << plan[0];
  EXPECT_NE(plan[0].find("hold_time:u32=40"), std::string::npos) << plan[0];
  EXPECT_NE(plan[0].find("group:txt=transit"), std::string::npos) << plan[0];
}

TEST(PeerGroupsTest, AFreshStartAddsMembersWithTheGroupsSettings) {
  const std::vector<std::string> plan = Plan("", kGroups);
  std::vector<std::string> adds;
  for (const std::string& a : plan) {
    if (a.find("add_peer?") != std::string::npos) adds.push_back(a);
  }
  ASSERT_EQ(adds.size(), 3u);
  for (const std::string& a : adds) {
    if (a.find("peer 10.0.0.4:") != std::string::npos) {
      EXPECT_EQ(a.find("group:txt"), std::string::npos) << a;
      continue;
    }
    EXPECT_NE(a.find("peer_as:u32=65002"), std::string::npos) << a;
    EXPECT_NE(a.find("default_originate:bool=true"), std::string::npos) << a;
    EXPECT_NE(a.find("group:txt=transit"), std::string::npos) << a;
  }
  // The members' policies come from the group too.
  int policies = 0;
  for (const std::string& a : plan) policies += a.find("set_peer_policy?") != std::string::npos;
  EXPECT_EQ(policies, 6);
}

}  // namespace
}  // namespace strata::rtrmgr
