#include "rtrmgr/config/config_planner.h"

#include <gtest/gtest.h>

#include <map>

#include "rtrmgr/config/config_validator.h"
#include "testing/rtrmgr/config_test_util.h"

namespace strata::rtrmgr {
namespace {

using test_util::MustParse;
using test_util::RealTemplates;

const char kBase[] =
    "interfaces { interface veth1; interface veth2; }\n"
    "policy { policy-statement accept-all { term t { then { action accept; } } }\n"
    "         policy-statement none { default-action reject; } }\n"
    "virtual-router red {\n"
    "  table-id 100; interface veth1;\n"
    "  static { route 192.0.2.0/24 { next-hop 10.0.0.2; } }\n"
    "  bgp { local-as 65001; router-id 10.0.0.1;\n"
    "        peer 10.0.0.2 { as 65002; import accept-all; } }\n"
    "}\n";

// Every action as "kind instance path: xrl undo xrl" (see PlanAction::ToString).
std::vector<std::string> Plan(const std::string& running, const std::string& candidate) {
  ConfigValidator v(RealTemplates());
  ConfigNode r = MustParse(running);
  ConfigNode c = MustParse(candidate);
  EXPECT_TRUE(v.Check(r).ok()) << v.Check(r).message();
  EXPECT_TRUE(v.Check(c).ok()) << v.Check(c).message();
  auto plan = ConfigPlanner(RealTemplates()).Plan(r, c);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  std::vector<std::string> out;
  if (plan.ok()) {
    for (const auto& a : *plan) out.push_back(a.ToString());
  }
  return out;
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

const std::string kFea = "finder://fea/fea/1.0/";
const std::string kRib = "finder://rib.red/rib/1.0/";
const std::string kBgp = "finder://bgp.red/bgp/1.0/";

TEST(ConfigPlannerTest, FreshStartCreatesEverythingInProcessOrder) {
  EXPECT_EQ(
      Plan("", kBase),
      (std::vector<std::string>{
          "create fea virtual-router red: " + kFea +
              "add_vr?vr:txt=red&table_id:u32=100&move_table:bool=true undo " + kFea +
              "delete_vr?vr:txt=red",
          // Set explicitly: a no-op after add_vr, but what makes setting it later work.
          "create fea virtual-router red table-id: " + kFea +
              "set_vr_table?vr:txt=red&table_id:u32=100 undo " + kFea +
              "set_vr_table?vr:txt=red&table_id:u32=0",
          "create fea virtual-router red interface veth1: " + kFea +
              "bind_interface?interface:txt=veth1&vr:txt=red undo " + kFea +
              "unbind_interface?interface:txt=veth1&vr:txt=red",
          "create rib.red virtual-router red static: " + kRib +
              "add_origin_table?protocol:txt=static&kind:txt=PROTOCOL_KIND_IGP undo " + kRib +
              "delete_origin_table?protocol:txt=static",
          "create rib.red virtual-router red static route 192.0.2.0/24: " + kRib +
              "add_routes?protocol:txt=static&routes.0.prefix:ipv4net=192.0.2.0/24&routes."
              "0.multipath_nexthops:list<ipv4>=10.0.0.2&routes.0.weights:list<u32>=1&routes.0."
              "metric:u32=1 undo " +
              kRib + "delete_routes?protocol:txt=static&prefixes:list<ipv4net>=192.0.2.0/24",
          "create bgp.red virtual-router red bgp: " + kBgp +
              "set_local_config?local_as:u32=65001&router_id:ipv4=10.0.0.1&port:u32=179",
          "create bgp.red virtual-router red bgp peer 10.0.0.2: " + kBgp +
              "add_peer?peer:ipv4=10.0.0.2&peer_as:u32=65002&peer_port:u32=179&hold_time:"
              "u32=90&passive:bool=false&next_hop_self:bool=false&disabled:bool=false&long_"
              "lived_stale_time:u32=0 undo " +
              kBgp + "delete_peer?peer:ipv4=10.0.0.2",
          "create bgp.red virtual-router red bgp peer 10.0.0.2 import: " + kBgp +
              "set_peer_policy?peer:ipv4=10.0.0.2&direction:txt=import&policy:txt=accept-"
              "all undo " +
              kBgp + "clear_peer_policy?peer:ipv4=10.0.0.2&direction:txt=import",
      }));
}

TEST(ConfigPlannerTest, EqualTreesNeedNothing) { EXPECT_TRUE(Plan(kBase, kBase).empty()); }

TEST(ConfigPlannerTest, AddPeer) {
  std::string candidate = Replace(kBase, "import accept-all; }",
                                  "import accept-all; }\n peer 2001:db8::9 { as 65009; "
                                  "local-address 2001:db8::1; passive true; }");
  EXPECT_EQ(Plan(kBase, candidate),
            (std::vector<std::string>{
                "create bgp.red virtual-router red bgp peer 2001:db8::9: " + kBgp +
                "add_peer?peer:ipv6=2001:db8::9&peer_as:u32=65009&local_address:ipv6=2001:db8::1&"
                "peer_port:u32=179&hold_time:u32=90&passive:bool=true&next_hop_self:bool=false&"
                "disabled:bool=false&long_lived_stale_time:u32=0 undo " +
                kBgp + "delete_peer?peer:ipv6=2001:db8::9"}));
}

TEST(ConfigPlannerTest, ChangeStaticNextHopReplacesTheRoute) {
  std::string candidate = Replace(kBase, "next-hop 10.0.0.2", "next-hop 10.0.0.3");
  const std::string args =
      "replace_routes?protocol:txt=static&routes.0.prefix:ipv4net=192.0.2.0/24&routes.0."
      "multipath_nexthops:list<ipv4>=";
  const std::string rest = "&routes.0.weights:list<u32>=1&routes.0.metric:u32=1";
  EXPECT_EQ(Plan(kBase, candidate),
            (std::vector<std::string>{"change rib.red virtual-router red static route "
                                      "192.0.2.0/24: " +
                                      kRib + args + "10.0.0.3" + rest + " undo " + kRib + args +
                                      "10.0.0.2" + rest}));
}

// A next hop added to a route, or its weight changed, replaces the route with all its next
// hops and their weights in order.
TEST(ConfigPlannerTest, StaticNextHopsAndWeightsReplaceTheRoute) {
  std::string candidate =
      Replace(kBase, "next-hop 10.0.0.2;", "next-hop 10.0.0.2 { weight 3; } next-hop 10.0.0.4;");
  const std::string args =
      "replace_routes?protocol:txt=static&routes.0.prefix:ipv4net=192.0.2.0/24&routes.0."
      "multipath_nexthops:list<ipv4>=";
  EXPECT_EQ(Plan(kBase, candidate),
            (std::vector<std::string>{
                "change rib.red virtual-router red static route 192.0.2.0/24: " + kRib + args +
                "10.0.0.2,10.0.0.4&routes.0.weights:list<u32>=3,1&routes.0.metric:u32=1 undo " +
                kRib + args + "10.0.0.2&routes.0.weights:list<u32>=1&routes.0.metric:u32=1"}));
  std::string drop = Replace(kBase, "next-hop 10.0.0.2;", "reject prohibit; distance 250;");
  EXPECT_EQ(Plan(kBase, drop),
            (std::vector<std::string>{
                "change rib.red virtual-router red static route 192.0.2.0/24: " + kRib +
                "replace_routes?protocol:txt=static&routes.0.prefix:ipv4net=192.0.2.0/24&routes.0."
                "type:txt=prohibit&routes.0.admin_distance:u32=250&routes.0.metric:u32=1 undo " +
                kRib + args + "10.0.0.2&routes.0.weights:list<u32>=1&routes.0.metric:u32=1"}));
}

TEST(ConfigPlannerTest, LeafWithOwnXrlsIsChangedOrDeleted) {
  EXPECT_EQ(
      Plan(kBase, Replace(kBase, "import accept-all", "import none")),
      (std::vector<std::string>{
          "change bgp.red virtual-router red bgp peer 10.0.0.2 import: " + kBgp +
          "set_peer_policy?peer:ipv4=10.0.0.2&direction:txt=import&policy:txt=none undo " + kBgp +
          "set_peer_policy?peer:ipv4=10.0.0.2&direction:txt=import&policy:txt=accept-all"}));
  EXPECT_EQ(Plan(kBase, Replace(kBase, "import accept-all;", "")),
            (std::vector<std::string>{
                "delete bgp.red virtual-router red bgp peer 10.0.0.2 import: " + kBgp +
                "clear_peer_policy?peer:ipv4=10.0.0.2&direction:txt=import undo " + kBgp +
                "set_peer_policy?peer:ipv4=10.0.0.2&direction:txt=import&policy:txt=accept-all"}));
}

TEST(ConfigPlannerTest, ChangedLeafWithoutChangeXrlRecreatesItsOwner) {
  // local-as has no XRLs: bgp's %change carries it. Peer `as` has none either: the peer's
  // %change (change_peer) carries it, and its import is left alone.
  EXPECT_EQ(Plan(kBase, Replace(kBase, "local-as 65001", "local-as 65010")),
            (std::vector<std::string>{"change bgp.red virtual-router red bgp: " + kBgp +
                                      "set_local_config?local_as:u32=65010&router_id:ipv4=10.0.0."
                                      "1&port:u32=179 undo " +
                                      kBgp +
                                      "set_local_config?local_as:u32=65001&router_id:ipv4=10.0.0."
                                      "1&port:u32=179"}));
  auto plan = Plan(kBase, Replace(kBase, "as 65002", "as 65003"));
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].substr(0, 52), "change bgp.red virtual-router red bgp peer 10.0.0.2:");
  EXPECT_NE(plan[0].find("change_peer?peer:ipv4=10.0.0.2&peer_as:u32=65003&"), std::string::npos);
  EXPECT_NE(plan[0].find("undo " + kBgp + "change_peer?peer:ipv4=10.0.0.2&peer_as:u32=65002&"),
            std::string::npos);
}

TEST(ConfigPlannerTest, AddAndDeleteVirtualRouters) {
  const std::string running = std::string(kBase) +
                              "virtual-router green { interface veth2;\n"
                              "  static { route 10.9.0.0/16 { next-hop 10.0.0.9; } } }\n";
  const std::string candidate = std::string(kBase) +
                                "virtual-router blue { static { route 2001:db8::/32 { "
                                "next-hop fe80::1; metric 7; } } }\n";
  const std::string gr = "finder://rib.green/rib/1.0/";
  const std::string br = "finder://rib.blue/rib/1.0/";
  EXPECT_EQ(
      Plan(running, candidate),
      (std::vector<std::string>{
          // Deletes first, highest rank first, children before parents.
          "delete rib.green virtual-router green static route 10.9.0.0/16: " + gr +
              "delete_routes?protocol:txt=static&prefixes:list<ipv4net>=10.9.0.0/16 undo " + gr +
              "add_routes?protocol:txt=static&routes.0.prefix:ipv4net=10.9.0.0/16&routes.0."
              "multipath_nexthops:list<ipv4>=10.0.0.9&routes.0.weights:list<u32>=1&routes.0."
              "metric:u32=1",
          "delete rib.green virtual-router green static: " + gr +
              "delete_origin_table?protocol:txt=static undo " + gr +
              "add_origin_table?protocol:txt=static&kind:txt=PROTOCOL_KIND_IGP",
          "delete fea virtual-router green interface veth2: " + kFea +
              "unbind_interface?interface:txt=veth2&vr:txt=green undo " + kFea +
              "bind_interface?interface:txt=veth2&vr:txt=green",
          "delete fea virtual-router green: " + kFea + "delete_vr?vr:txt=green undo " + kFea +
              "add_vr?vr:txt=green&table_id:u32=0&move_table:bool=true",
          // Then creates, lowest rank first, parents before children.
          "create fea virtual-router blue: " + kFea +
              "add_vr?vr:txt=blue&table_id:u32=0&move_table:bool=true undo " + kFea +
              "delete_vr?vr:txt=blue",
          "create rib.blue virtual-router blue static: " + br +
              "add_origin_table?protocol:txt=static&kind:txt=PROTOCOL_KIND_IGP undo " + br +
              "delete_origin_table?protocol:txt=static",
          "create rib.blue virtual-router blue static route 2001:db8::/32: " + br +
              "add_routes?protocol:txt=static&routes.0.prefix:ipv6net=2001:db8::/32&routes.0."
              "multipath_nexthops:list<ipv6>=fe80::1&routes.0.weights:list<u32>=1&routes.0."
              "metric:u32=7 undo " +
              br + "delete_routes?protocol:txt=static&prefixes:list<ipv6net>=2001:db8::/32",
      }));
}

// A table-id change moves the VR live (fea/1.0/set_vr_table), undone by moving it back; the
// VR, its interfaces, static routes and BGP stay.
TEST(ConfigPlannerTest, TableIdChangeMovesTheVrLive) {
  EXPECT_EQ(Plan(kBase, Replace(kBase, "table-id 100", "table-id 200")),
            (std::vector<std::string>{"change fea virtual-router red table-id: " + kFea +
                                      "set_vr_table?vr:txt=red&table_id:u32=200 undo " + kFea +
                                      "set_vr_table?vr:txt=red&table_id:u32=100"}));
  // Set where it was left to its default (0), and back.
  const std::string unset = Replace(kBase, "table-id 100;", "");
  EXPECT_EQ(Plan(unset, kBase),
            (std::vector<std::string>{"create fea virtual-router red table-id: " + kFea +
                                      "set_vr_table?vr:txt=red&table_id:u32=100 undo " + kFea +
                                      "set_vr_table?vr:txt=red&table_id:u32=0"}));
  EXPECT_EQ(Plan(kBase, unset),
            (std::vector<std::string>{"delete fea virtual-router red table-id: " + kFea +
                                      "set_vr_table?vr:txt=red&table_id:u32=0 undo " + kFea +
                                      "set_vr_table?vr:txt=red&table_id:u32=100"}));
}

TEST(ConfigPlannerTest, OptionalAtomIsLeftOutUntilSet) {
  auto plan = Plan(kBase, Replace(kBase, "static {", "static { distance 5;"));
  ASSERT_EQ(plan.size(), 4u);  // static has no %change: re-created with its route
  EXPECT_NE(plan[2].find("add_origin_table?protocol:txt=static&kind:txt=PROTOCOL_KIND_IGP&admin_"
                         "distance:u32=5 undo"),
            std::string::npos);
}

TEST(ConfigPlannerTest, RequiredProcessesPerVr) {
  auto tree = MustParse(std::string(kBase) + "virtual-router blue { table-id 7; }\n" +
                        "virtual-router amber { static; }\n");
  auto procs = ConfigPlanner(RealTemplates()).RequiredProcesses(tree);
  ASSERT_TRUE(procs.ok());
  EXPECT_EQ(*procs, (std::vector<ProcessInstance>{{"fea", "fea", 10, {}},
                                                  {"rib", "rib.amber", 20, {}},
                                                  {"rib", "rib.red", 20, {}},
                                                  {"bgp", "bgp.red", 30, {}}}));
  // The RIB is told its VR's kernel table, so its own add_vr agrees with the config's.
  EXPECT_EQ((*procs)[2].args, (std::vector<std::string>{"--table-id=100"}));
  EXPECT_EQ((*procs)[1].args, (std::vector<std::string>{"--table-id=0"}));
}

// A VR with BGP and no static routes still gets its RIB (bgp requires rib), or BGP's routes
// would have nowhere to go and its next hops nothing to resolve them.
TEST(ConfigPlannerTest, BgpBringsItsVrsRib) {
  auto tree = MustParse(
      "virtual-router green { table-id 9;\n"
      "  bgp { local-as 65001; router-id 10.0.0.1; peer 10.0.0.2 { as 65002; } } }\n");
  auto procs = ConfigPlanner(RealTemplates()).RequiredProcesses(tree);
  ASSERT_TRUE(procs.ok()) << procs.status().ToString();
  EXPECT_EQ(*procs, (std::vector<ProcessInstance>{{"fea", "fea", 10, {}},
                                                  {"rib", "rib.green", 20, {}},
                                                  {"bgp", "bgp.green", 30, {}}}));
  EXPECT_EQ((*procs)[1].args, (std::vector<std::string>{"--table-id=9"}));
}

// strata-bgp is told its VR's table and, when set, its VRF device (common/vrf_name.h); an arg
// whose one value is unset is left out.
TEST(ConfigPlannerTest, BgpIsToldItsVrfDevice) {
  const std::string bgp = " bgp { local-as 65001; router-id 10.0.0.1; } }\n";
  auto tree =
      MustParse("virtual-router green { table-id 9;" + bgp +
                "virtual-router customer-backbone-1 { table-id 10; vrf-device cust1;" + bgp);
  auto procs = ConfigPlanner(RealTemplates()).RequiredProcesses(tree);
  ASSERT_TRUE(procs.ok()) << procs.status().ToString();
  std::map<std::string, std::vector<std::string>> args;
  for (const ProcessInstance& p : *procs) args[p.instance] = p.args;
  EXPECT_EQ(args["bgp.green"], (std::vector<std::string>{"--vr-table=9"}));
  EXPECT_EQ(args["bgp.customer-backbone-1"],
            (std::vector<std::string>{"--vr-table=10", "--vrf-device=cust1"}));
}

TEST(ConfigPlannerTest, ExampleConfigPlans) {
  auto tree = ConfigParser::ParseFile(test_util::SourceDir() + "/examples/strata.conf");
  ASSERT_TRUE(tree.ok());
  auto plan = ConfigPlanner(RealTemplates()).PlanCreate(*tree);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->size(), 17u);  // with set_vr_table for each VR's explicit table-id
  for (const auto& a : *plan) EXPECT_TRUE(a.xrl.is_generic()) << a.ToString();
}

}  // namespace
}  // namespace strata::rtrmgr
