#include "rtrmgr/config/config_rules.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "rtrmgr/config/config_validator.h"
#include "testing/rtrmgr/config_test_util.h"

namespace strata::rtrmgr {
namespace {

using test_util::MustParse;
using test_util::RealTemplates;

// Every finding of `text` (errors and warnings), one per line, in position order.
std::string Findings(const std::string& text) {
  auto report = ConfigValidator(RealTemplates()).Examine(MustParse(text));
  std::string out;
  for (const auto* list : {&report.errors, &report.warnings}) {
    for (const auto& e : *list) out += (out.empty() ? "" : "\n") + e.ToString();
  }
  return out;
}

// A VR with BGP: `peers` and `extra` go inside its bgp block.
std::string Bgp(const std::string& inside, const std::string& vr_extra = "") {
  return "policy { policy-statement all { term t { then { action accept; } } } }\n"
         "virtual-router red {\n" +
         vr_extra +
         "bgp {\n"
         "local-as 65001; router-id 10.0.0.1;\n" +
         inside + "\n}\n}\n";
}
const std::string kPol = " import all; export all;";

struct Case {
  const char* rule;
  std::string config;
  std::string finding;  // exact ToString of the one finding
};

std::vector<Case> Cases() {
  return {
      {"interface-in-two-vrs",
       "interfaces { interface eth0; }\n"
       "virtual-router red { interface eth0; }\n"
       "virtual-router blue { interface eth0; }\n",
       "test.conf:3:33: interface 'eth0' is already bound to virtual-router 'red' "
       "(test.conf:2:32): an interface belongs to one VR"},
      {"table-id-shared",
       "virtual-router red { table-id 100; }\nvirtual-router blue { table-id 100; }\n",
       "test.conf:2:32: kernel table 100 already belongs to virtual-router 'red' "
       "(test.conf:1:31): each VR needs its own table (or 0 for none)"},
      {"table-id-reserved", "virtual-router red { table-id 255; }\n",
       "test.conf:1:31: warning: table-id 255 is the kernel's local table: routes there make "
       "addresses local to this host; use a table of your own (1..252, 256..)"},
      {"vrf-device-name", "virtual-router customer-backbone-1 { table-id 100; }\n",
       "test.conf:1:16: the VR's VRF device takes its name, and interface name "
       "'customer-backbone-1' is not 1..15 bytes (Linux interface names): set vrf-device NAME"},
      {"vrf-device-name", "virtual-router red { table-id 100; vrf-device red-customer-xyz; }\n",
       "test.conf:1:47: vrf-device: interface name 'red-customer-xyz' is not 1..15 bytes"},
      {"vrf-device-shared",
       "virtual-router red { table-id 100; }\nvirtual-router blue { table-id 101; "
       "vrf-device red; }\n",
       "test.conf:2:48: VRF device 'red' is already virtual-router 'red''s (test.conf:1:16): set "
       "another vrf-device"},
      {"static-next-hop-family",
       "virtual-router red { static { route 10.0.0.0/8 { next-hop 2001:db8::1; } } }\n",
       "test.conf:1:59: next-hop 2001:db8::1 is not of the family of route 10.0.0.0/8"},
      {"static-route-empty", "virtual-router red { static { route 10.0.0.0/8 { metric 5; } } }\n",
       "test.conf:1:31: route 10.0.0.0/8 has no next-hop, interface, blackhole or reject: it "
       "would lead nowhere"},
      {"static-drop-conflict",
       "virtual-router red { static { route 10.0.0.0/8 { next-hop 192.0.2.1; blackhole; } } }\n",
       "test.conf:1:70: route 10.0.0.0/8 is blackhole and has a next-hop: a route that drops "
       "forwards nowhere"},
      {"static-interface-not-in-vr",
       "interfaces { interface eth1; }\n"
       "virtual-router red { static { route 10.0.0.0/8 { interface eth1; } } }\n",
       "test.conf:2:60: interface 'eth1' is not bound to virtual-router 'red': a route leaves by "
       "an interface of its VR"},
      {"bgp-router-id-zero", "virtual-router red { bgp { local-as 65001; router-id 0.0.0.0; } }\n",
       "test.conf:1:54: router-id 0.0.0.0: the BGP Identifier must be non-zero (RFC 6286)"},
      {"bgp-cluster-id-zero",
       Bgp("cluster-id 0.0.0.0; peer 192.0.2.3 { as 65001; route-reflector-client true; }"),
       "test.conf:5:12: cluster-id 0.0.0.0: a CLUSTER_ID must be non-zero (leave it unset for "
       "the router-id)"},
      {"bgp-reserved-as", "virtual-router red { bgp { local-as 23456; router-id 10.0.0.1; } }\n",
       "test.conf:1:37: warning: local-as 23456 is AS_TRANS (RFC 6793)"},
      {"bgp-confederation-members-without-identifier", Bgp("confederation-members 64512;"),
       "test.conf:5:23: confederation-members without confederation-identifier: set the "
       "identifier (the AS the confederation shows outside) or delete the members"},
      {"bgp-confederation-identifier-is-local-as", Bgp("confederation-identifier 65001;"),
       "test.conf:5:26: confederation-identifier 65001 equals local-as: local-as is this VR's "
       "member AS, the identifier the confederation's AS outside (RFC 5065)"},
      {"bgp-confederation-identifier-is-member",
       Bgp("confederation-identifier 65000; confederation-members 64512 65000;"),
       "test.conf:5:61: confederation-members lists 65000, the confederation-identifier: the "
       "identifier is not a member AS"},
      {"bgp-confederation-members-list-local-as",
       Bgp("confederation-identifier 65000; confederation-members 65001;"),
       "test.conf:5:55: warning: confederation-members lists local-as 65001: the members are "
       "the other member ASes"},
      {"bgp-listen-shared",
       "virtual-router red { bgp { local-as 1; router-id 1.1.1.1; listen-address 127.0.0.2; } }\n"
       "virtual-router blue { bgp { local-as 2; router-id 1.1.1.2; } }\n",
       "test.conf:2:23: BGP of virtual-router 'blue' would listen on every address (IPv4 and "
       "IPv6) port 179, "
       "which virtual-router 'red' already takes (127.0.0.2, test.conf:1:74): give each VR its "
       "own listen-address or port"},
      {"bgp-listen-shared",
       "virtual-router red { bgp { local-as 1; router-id 1.1.1.1; listen-address ::; } }\n"
       "virtual-router blue { bgp { local-as 2; router-id 1.1.1.2; } }\n",
       "test.conf:2:23: BGP of virtual-router 'blue' would listen on every address (IPv4 and "
       "IPv6) port 179, which virtual-router 'red' already takes (any IPv6 address, "
       "test.conf:1:74): give each VR its own listen-address or port"},
      {"bgp-listen-address", Bgp("listen-address ff02::1;"),
       "test.conf:5:16: listen-address ff02::1 is not the address of one host (unset or "
       "0.0.0.0: any address)"},
      {"bgp-damping-reuse-above-suppress", Bgp("damping { reuse 2000; }"),
       "test.conf:5:17: damping reuse 2000 is not below suppress 2000: a route is suppressed at "
       "suppress and reused below reuse (RFC 2439)"},
      {"bgp-damping-ceiling", Bgp("damping { half-life 30; max-suppress 30; }"),
       "test.conf:5:38: damping: the penalty ceiling reuse * 2^(max-suppress / half-life) = "
       "1500 is below suppress 2000: no route would ever be suppressed (RFC 2439)"},
      {"bgp-multipath-no-effect", Bgp("multipath { maximum-paths 1; maximum-paths-ibgp 1; }"),
       "test.conf:5:1: warning: multipath with maximum-paths 1 and maximum-paths-ibgp 1: one "
       "path per prefix, nothing to share (delete the block, or raise a count)"},
      {"bgp-multipath-ibgp-without-ibgp-peer", Bgp("multipath { maximum-paths-ibgp 4; }"),
       "test.conf:5:32: warning: maximum-paths-ibgp 4 but no iBGP peer (as 65001): it has no "
       "effect"},
      {"bgp-redistribute-without-static", Bgp("redistribute connected static;"),
       "test.conf:5:24: warning: redistribute static, but the VR has no static block: nothing is "
       "redistributed until it has one"},
      {"bgp-cluster-id-without-clients", Bgp("cluster-id 10.0.0.9;"),
       "test.conf:5:12: warning: cluster-id without any route-reflector-client peer: it has no "
       "effect"},
      {"bgp-network-next-hop-family", Bgp("network 10.0.0.0/8 { next-hop ::1; }"),
       "test.conf:5:31: next-hop ::1 is not of the family of network 10.0.0.0/8"},
      {"bgp-peer-address", Bgp("peer 224.0.0.5 { as 2;" + kPol + " }"),
       "test.conf:5:6: peer 224.0.0.5 is not the address of one host"},
      {"bgp-peer-is-self",
       Bgp("listen-address 127.0.0.2; port 1179; peer 127.0.0.2 { as 2; port 1179;" + kPol + " }"),
       "test.conf:5:43: peer 127.0.0.2 port 1179 is this VR's own listen-address and port: it "
       "would connect to itself"},
      {"bgp-peer-is-self",
       "interfaces { interface eth0 { address 192.0.2.1/24; } }\n" +
           Bgp("peer 192.0.2.1 { as 2;" + kPol + " }"),
       "test.conf:6:6: peer 192.0.2.1 port 179 is an address of this host, and this VR listens "
       "on port 179 of every address (no listen-address): it would connect to itself"},
      {"bgp-peer-is-self", Bgp("peer ::1 { as 2;" + kPol + " }"),
       "test.conf:5:6: peer ::1 port 179 is an address of this host, and this VR listens on port "
       "179 of every address (no listen-address): it would connect to itself"},
      {"bgp-next-hop-family", Bgp("peer 192.0.2.2 { as 2; ipv4-next-hop 192.0.2.1;" + kPol + " }"),
       "test.conf:5:38: ipv4-next-hop sets the next hop of routes of the other family on an IPv6 "
       "session; peer 192.0.2.2 is IPv4, and its own family's routes go with the session's "
       "address"},
      {"bgp-local-address-family",
       Bgp("peer 192.0.2.2 { as 2; local-address 2001:db8::1;" + kPol + " }"),
       "test.conf:5:38: local-address 2001:db8::1 is not of the family of peer 192.0.2.2"},
      {"bgp-hold-time", Bgp("peer 192.0.2.2 { as 2; hold-time 2;" + kPol + " }"),
       "test.conf:5:34: hold-time 2: a hold time is 0 (no keepalives) or at least 3 seconds "
       "(RFC 4271 4.2)"},
      {"bgp-md5-length",
       Bgp("peer 192.0.2.2 { as 2; md5-password \"" + std::string(81, 'k') + "\";" + kPol + " }"),
       "test.conf:5:37: md5-password is 81 bytes long: TCP MD5 keys (RFC 2385) are at most 80 "
       "bytes on Linux"},
      {"bgp-rr-client-not-internal",
       Bgp("peer 192.0.2.2 { as 2; route-reflector-client true;" + kPol + " }"),
       "test.conf:5:47: route-reflector-client on an eBGP peer (as 2, local-as 65001): route "
       "reflection is between internal peers (RFC 4456)"},
      {"bgp-ttl-security-with-multihop",
       Bgp("peer 192.0.2.2 { as 2; multihop 2; ttl-security 1;" + kPol + " }"),
       "test.conf:5:49: ttl-security and multihop exclude each other: GTSM (RFC 5082) sends "
       "with TTL 255 and accepts packets that crossed at most ttl-security hops"},
      {"bgp-bfd-multihop-local-address",
       Bgp("peer 192.0.2.2 { as 65001; bfd { minimum-interval 100; }" + kPol + " }"),
       "test.conf:5:28: bfd with an iBGP peer needs local-address: its multihop BFD session "
       "(RFC 5883) is named by both addresses"},
      {"bgp-ebgp-without-policy", Bgp("peer 192.0.2.2 { as 2; import all; }"),
       "test.conf:5:6: warning: eBGP peer 192.0.2.2 has no export policy (its own or the VR's): "
       "RFC 8212 sends it nothing (set one, or ebgp-requires-policy false)"},
      {"bgp-max-prefixes-options-alone",
       Bgp("peer 192.0.2.2 { as 2; max-prefixes-restart 60;" + kPol + " }"),
       "test.conf:5:45: warning: max-prefixes-restart without max-prefixes: it has no effect"},
      {"policy-prefix-length", "policy { prefix-list x { prefix 10.0.0.0/8 { ge 16; le 33; } } }\n",
       "test.conf:1:56: 10.0.0.0/8: le 33 is beyond IPv4's 32 bits"},
      {"policy-as-path-regex", "policy { as-path-set x { regex \"^65001 \" \"(65002\"; } }\n",
       "test.conf:1:42: AS-path regular expression '(65002' does not compile: Mismatched '(' and "
       "')' in regular expression"},
      {"policy-community-pattern",
       "policy { policy-statement p { term t { then { community-add 65001:1 65001:*; } } } }\n",
       "test.conf:1:69: '65001:*' is a pattern: community-add takes exact communities (patterns "
       "go in a set or a delete)"},
      {"bgp-peer-as-missing", Bgp("peer 192.0.2.2 {" + kPol + " }"),
       "test.conf:5:6: peer 192.0.2.2 has no as, neither its own nor its group's"},
      {"bgp-peer-group-undefined", Bgp("peer 192.0.2.2 { as 2; group nope;" + kPol + " }"),
       "test.conf:5:30: group nope is not a group of this VR's bgp"},
      {"bgp-peer-duplicate",
       Bgp("group g { as 2;" + kPol + " peer 192.0.2.2; }\npeer 192.0.2.2 { as 3;" + kPol + " }"),
       "test.conf:5:46: peer 192.0.2.2 is written twice (in a group and outside, or in two "
       "groups)"},
      {"bgp-local-as-not-external", Bgp("peer 192.0.2.2 { as 65001; local-as 64999; }"),
       "test.conf:5:37: local-as on a peer inside our AS or confederation (as 65001): it is for "
       "eBGP peers only (FRR, Junos)"},
      {"bgp-local-as-options-alone",
       Bgp("peer 192.0.2.2 { as 2; local-as-no-prepend;" + kPol + " }"),
       "test.conf:5:24: warning: local-as-no-prepend without local-as: it has no effect"},
      {"bgp-remove-private-as-not-external",
       Bgp("peer 192.0.2.2 { as 65001; remove-private-as all; }"),
       "test.conf:5:46: remove-private-as on a peer inside our AS or confederation (as 65001): "
       "private ASes are removed towards eBGP peers only"},
      {"policy-next-hop-zero",
       "policy { policy-statement p { term t { then { next-hop ::; } } } }\n",
       "test.conf:1:56: next-hop :: is not a next hop"},
  };
}

TEST(ConfigRulesTest, EachRuleFindsItsCase) {
  for (const Case& c : Cases()) {
    auto report = ConfigValidator(RealTemplates()).Examine(MustParse(c.config));
    std::vector<ConfigError> all = report.errors;
    all.insert(all.end(), report.warnings.begin(), report.warnings.end());
    EXPECT_EQ(all.size(), 1u) << c.rule << ":\n" << Findings(c.config);
    if (all.empty()) continue;
    EXPECT_EQ(all[0].rule, c.rule);
    EXPECT_EQ(all[0].ToString(), c.finding) << c.rule;
    const RuleInfo* info = ConfigRules::Find(c.rule);
    EXPECT_NE(info, nullptr) << c.rule;
    if (info != nullptr) {
      EXPECT_EQ(all[0].warning, info->warning) << c.rule;
    }
  }
}

TEST(ConfigRulesTest, EveryRuleHasACase) {
  std::set<std::string> tested;
  for (const Case& c : Cases()) tested.insert(c.rule);
  for (const RuleInfo& r : ConfigRules::All()) {
    EXPECT_TRUE(tested.contains(std::string(r.id))) << r.id << " has no test case";
    EXPECT_FALSE(r.what.empty() || r.why.empty()) << r.id;
  }
}

// Near misses: what each rule must leave alone.
TEST(ConfigRulesTest, LegalNeighboursOfEachRuleAreClean) {
  const std::string configs[] = {
      // One interface per VR; table 0 shared (no kernel table); main table is fine.
      "interfaces { interface eth0; interface eth1; }\n"
      "virtual-router red { interface eth0; table-id 254; }\n"
      "virtual-router blue { interface eth1; }\nvirtual-router green;\n",
      // Hold time 0 and 3; 80-byte key; iBGP client; ttl-security alone; IPv6 peer with its
      // family's local address; the VR's policies count for RFC 8212; a peer at the VR's own
      // listen address on another port (another VR listens there).
      Bgp("listen-address 127.0.0.2; import all; export all; cluster-id 10.0.0.1;\n"
          "peer 192.0.2.2 { as 2; hold-time 0; md5-password \"" +
          std::string(80, 'k') +
          "\"; }\n"
          "peer 192.0.2.3 { as 65001; hold-time 3; route-reflector-client true; }\n"
          "peer 192.0.2.4 { as 3; ttl-security 1; ebgp-requires-policy false; }\n"
          "peer 2001:db8::2 { as 4; local-address 2001:db8::1; max-prefixes 10; "
          "max-prefixes-warning 50; }\n"
          "peer 127.0.0.2 { as 5; port 1180; }"),
      // Listening on any address: a peer at another host, or on another port of this one.
      "interfaces { interface eth0 { address 192.0.2.1/24; } }\n" +
          Bgp("import all; export all; peer 192.0.2.2 { as 2; } peer 127.0.0.1 { as 3; port "
              "1180; } peer 192.0.2.1 { as 4; port 1180; } peer ::1 { as 5; port 1180; }"),
      // Confederation peers need no policy; members without local-as.
      Bgp("confederation-identifier 65000; confederation-members 64512;\n"
          "peer 192.0.2.9 { as 64512; }",
          "static { route 10.0.0.0/8 { next-hop 192.0.2.1; } }\n"),
      // Two VRs on one port, different addresses; IPv4 any and IPv6 any do not clash, nor does
      // a VR on both families with one on another port.
      "virtual-router red { bgp { local-as 1; router-id 1.1.1.1; listen-address 127.0.0.2; } }\n"
      "virtual-router blue { bgp { local-as 2; router-id 1.1.1.2; listen-address 127.0.0.3; } }\n"
      "virtual-router green { bgp { local-as 3; router-id 1.1.1.3; listen-address ::; } }\n"
      "virtual-router white { bgp { local-as 4; router-id 1.1.1.4; port 1179; } }\n",
      // Static routes of every kind: weighted next hops (and the single next-hop form), next
      // hops through a bound interface, an interface alone, blackhole, both rejects, a floating
      // distance.
      "interfaces { interface eth1; }\n"
      "virtual-router red { interface eth1; static {\n"
      "route 10.0.0.0/8 { next-hop 192.0.2.1 { weight 2; } next-hop 192.0.2.2; distance 5; }\n"
      "route 10.9.0.0/16 { next-hop 192.0.2.1; }\n"
      "route 10.8.0.0/16 { next-hop 192.0.2.1; interface eth1; distance 250; }\n"
      "route 10.3.0.0/16 { interface eth1; }\n"
      "route 10.1.0.0/16 { blackhole; }\n"
      "route 10.2.0.0/16 { reject; } route 10.4.0.0/16 { reject prohibit; }\n"
      "route 2001:db8:1::/48 { next-hop 2001:db8::1 { weight 256; } next-hop 2001:db8::2; }\n"
      "} }\n",
      // Two VRs in VRFs of their own listen on the same port and any address (their sockets
      // are bound to their VRF devices); a long VR name with a vrf-device, or in the main table.
      "virtual-router red { table-id 100; bgp { local-as 1; router-id 1.1.1.1; } }\n"
      "virtual-router blue { table-id 101; bgp { local-as 2; router-id 1.1.1.2; } }\n"
      "virtual-router customer-backbone-1 { table-id 102; vrf-device cust1; "
      "bgp { local-as 3; router-id 1.1.1.3; } }\n"
      "virtual-router customer-backbone-2 { table-id 254; }\n",
      // Multipath at its defaults; iBGP multipath with an iBGP peer.
      Bgp("multipath { }"),
      Bgp("multipath { maximum-paths 1; maximum-paths-ibgp 64; multiple-as true; }\n"
          "peer 192.0.2.3 { as 65001; }"),
      // A group with a member inside and one naming it, each overriding a setting; the AS path
      // options on eBGP peers, written alone and in full.
      Bgp("group transit { as 2; hold-time 30;" + kPol +
          " allowas-in; remove-private-as all replace-as;\n"
          "peer 192.0.2.2 { hold-time 60; } }\n"
          "peer 192.0.2.3 { group transit; as 3; local-as 64999; local-as-no-prepend; "
          "local-as-replace-as; default-originate; }\n"
          "peer 192.0.2.4 { as 4; allowas-in 1; remove-private-as;" +
          kPol + " }"),
      // Damping at its defaults and at Cisco's; ranges at their edges.
      Bgp("damping { }"),
      Bgp("damping { half-life 15; reuse 750; suppress 2000; max-suppress 60; }"),
      "policy { prefix-list x { prefix 10.0.0.0/8 { ge 8; le 32; } prefix 0.0.0.0/0 { le 0; }\n"
      "prefix 2001:db8::/32 { ge 128; } }\n"
      "as-path-set a { regex \"^65001( |$)\" \"_65002_\"; }\n"
      "policy-statement p { term t { from { route-filter 10.0.0.0/8 { le 24; } as-path \".*\"; "
      "community 65001:1; } then { community-add no-export; community-delete 65001:*; "
      "large-community-add 1:2:3; next-hop 192.0.2.1; } } } }\n",
  };
  for (const std::string& c : configs) EXPECT_EQ(Findings(c), "") << c;
}

// Static next-hop weights outside 1..256 are refused where they are written.
TEST(ConfigRulesTest, StaticWeightsOutOfRangeAreRefusedAtTheirPosition) {
  for (const char* w : {"0", "257"}) {
    const std::string f = Findings(
        std::string(
            "virtual-router red { static { route 10.0.0.0/8 { next-hop 192.0.2.1 { weight ") +
        w + "; } } } }\n");
    EXPECT_NE(f.find("test.conf:1:78"), std::string::npos) << f;
    EXPECT_NE(f.find("1..256"), std::string::npos) << f;
  }
}

// Path counts outside 1..64 are refused where they are written.
TEST(ConfigRulesTest, MultipathCountsOutOfRangeAreRefusedAtTheirPosition) {
  const std::string f = Findings(Bgp("multipath { maximum-paths 65; }"));
  EXPECT_NE(f.find("test.conf:5:27"), std::string::npos) << f;
  EXPECT_EQ(f.find("warning"), std::string::npos) << f;
  EXPECT_NE(Findings(Bgp("multipath { maximum-paths-ibgp 0; }")).find("test.conf:5:32"),
            std::string::npos);
}

// A node made by `set` has no position: the finding names its path.
TEST(ConfigRulesTest, FindingsWithoutPositionNameThePath) {
  ConfigNode root;
  ConfigNode vr("virtual-router", {"red"});
  ConfigNode bgp("bgp");
  bgp.AddChild(ConfigNode("local-as", {"65001"}));
  bgp.AddChild(ConfigNode("router-id", {"10.0.0.1"}));
  ConfigNode peer("peer", {"192.0.2.2"});
  peer.AddChild(ConfigNode("as", {"65001"}));
  peer.AddChild(ConfigNode("hold-time", {"1"}));
  bgp.AddChild(std::move(peer));
  vr.AddChild(std::move(bgp));
  root.AddChild(std::move(vr));
  auto report = ConfigValidator(RealTemplates()).Examine(root);
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0].ToString(),
            "virtual-router red bgp peer 192.0.2.2: hold-time 1: a hold time is 0 (no "
            "keepalives) or at least 3 seconds (RFC 4271 4.2)");
}

// A tree the schema refuses is still searched: the rules skip the bad values.
TEST(ConfigRulesTest, SchemaErrorsDoNotHideRules) {
  EXPECT_EQ(Findings(Bgp("peer 192.0.2.2 { as x; hold-time 1; }")),
            "test.conf:5:21: 'x' is not a valid u32 for 'as'\n"
            "test.conf:5:34: hold-time 1: a hold time is 0 (no keepalives) or at least 3 seconds "
            "(RFC 4271 4.2)");
}

}  // namespace
}  // namespace strata::rtrmgr
