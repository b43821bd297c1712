// The harness's parsers and config generators, on output recorded from the real daemons
// (BIRD 2.0.12, FRR 8.4, GoBGP 3.10, ExaBGP 4.2). No daemon is started.
#include <gtest/gtest.h>

#include "common/json.h"
#include "testing/interop/bird_speaker.h"
#include "testing/interop/exabgp_speaker.h"
#include "testing/interop/frr_speaker.h"
#include "testing/interop/gobgp_speaker.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using nlohmann::json;

TEST(BirdParseTest, ReadsRoutesWithAttributes) {
  const std::string text =
      "BIRD 2.0.12 ready.\n"
      "Table master4:\n"
      "10.3.0.0/24          unicast [nb0 09:00:33.412] * (100) [AS65099?]\n"
      "\tvia 10.91.0.2 on iopa0\n"
      "\tType: BGP univ\n"
      "\tBGP.origin: Incomplete\n"
      "\tBGP.as_path: 65002 65099\n"
      "\tBGP.next_hop: 10.91.0.2\n"
      "\tBGP.med: 10\n"
      "\tBGP.local_pref: 100\n"
      "\tBGP.community: (65002,5) (65002,6)\n"
      "\tBGP.large_community: (65001, 1, 2)\n"
      "\n"
      "Table master6:\n"
      "fd00:2::/48          unicast [nb1 09:00:33.412] * (100) [AS65002i]\n"
      "\tvia fd00:200:1::2 on iopa0\n"
      "\tBGP.as_path: 65002\n"
      "\tBGP.next_hop: fd00:200:1::2 fe80::1\n";
  const auto routes = BirdSpeaker::ParseRoutes(text);
  ASSERT_EQ(routes.size(), 2u);
  EXPECT_EQ(routes[0].prefix, "10.3.0.0/24");
  EXPECT_EQ(routes[0].nexthop, "10.91.0.2");
  EXPECT_EQ(routes[0].as_path, (std::vector<uint32_t>{65002, 65099}));
  EXPECT_EQ(routes[0].med, 10u);
  EXPECT_EQ(routes[0].local_pref, 100u);
  EXPECT_EQ(routes[0].communities, (std::vector<std::string>{"65002:5", "65002:6"}));
  EXPECT_EQ(routes[0].large_communities, (std::vector<std::string>{"65001:1:2"}));
  EXPECT_EQ(routes[1].prefix, "fd00:2::/48");
  EXPECT_EQ(routes[1].nexthop, "fd00:200:1::2");
  EXPECT_FALSE(routes[1].med.has_value());
}

TEST(BirdParseTest, ReadsRouteReflectionAttributes) {
  // A reflected route whose nexthop BIRD cannot resolve (no IGP route to it).
  const std::string text =
      "BIRD 2.0.12 ready.\n"
      "Table master4:\n"
      "10.3.0.0/24          unreachable [nb0 02:52:59.840 from 10.200.1.2] * (100) [i]\n"
      "\tType: BGP univ\n"
      "\tBGP.origin: IGP\n"
      "\tBGP.as_path: \n"
      "\tBGP.next_hop: 10.200.3.1\n"
      "\tBGP.local_pref: 100\n"
      "\tBGP.originator_id: 10.255.0.3\n"
      "\tBGP.cluster_list: 10.255.255.1 10.255.255.2\n";
  const auto routes = BirdSpeaker::ParseRoutes(text);
  ASSERT_EQ(routes.size(), 1u);
  EXPECT_EQ(routes[0].nexthop, "10.200.3.1");
  EXPECT_TRUE(routes[0].as_path.empty());
  EXPECT_EQ(routes[0].originator_id, "10.255.0.3");
  EXPECT_EQ(routes[0].cluster_list, (std::vector<std::string>{"10.255.255.1", "10.255.255.2"}));
}

TEST(BirdParseTest, ConfigSetsAttributesInTheExportFilter) {
  SpeakerConfig c{.name = "b", .local_as = 65001, .router_id = "10.0.0.1"};
  c.neighbors.push_back(
      {.address = "10.200.1.2", .remote_as = 65002, .local_address = "10.200.1.1"});
  c.routes.push_back({.prefix = "10.1.0.0/24", .communities = {"65001:100"}, .med = 50});
  const std::string text = BirdSpeaker::MakeConfig(c, "/tmp/x");
  EXPECT_NE(text.find("route 10.1.0.0/24 blackhole;"), std::string::npos) << text;
  EXPECT_NE(text.find("bgp_community.add((65001,100));"), std::string::npos) << text;
  EXPECT_NE(text.find("bgp_med = 50;"), std::string::npos) << text;
  EXPECT_NE(text.find("neighbor 10.200.1.2 as 65002;"), std::string::npos) << text;
}

TEST(BirdParseTest, ConfigMarksConfederationMemberNeighbour) {
  SpeakerConfig c{.name = "bird", .local_as = 64513, .router_id = "10.0.0.1"};
  c.neighbors.push_back({.address = "10.200.1.2",
                         .remote_as = 64512,
                         .local_address = "10.200.1.1",
                         .confederation = 65000});
  c.neighbors.push_back(
      {.address = "10.200.2.2", .remote_as = 65009, .local_address = "10.200.2.1"});
  const std::string text = BirdSpeaker::MakeConfig(c, "/tmp/x");
  const size_t first = text.find("protocol bgp nb0");
  const size_t second = text.find("protocol bgp nb1");
  const std::string line = "confederation 65000; confederation member yes;";
  const size_t confed = text.find(line);
  ASSERT_NE(confed, std::string::npos) << text;
  EXPECT_TRUE(first < confed && confed < second) << text;  // only in the member's protocol
  EXPECT_EQ(text.find("confederation", confed + line.size()), std::string::npos) << text;
}

TEST(FrrParseTest, ReadsRouteReflectionAttributes) {
  const json path = json::parse(R"({
    "aspath":{"string":"Local","segments":[],"length":0},
    "origin":"IGP","locPrf":100,"valid":true,
    "bestpath":{"overall":true,"selectionReason":"First path received"},
    "originatorId":"10.255.0.1","clusterList":{"list":["10.255.255.1"]},
    "nexthops":[{"ip":"10.200.1.1","afi":"ipv4","metric":0,"accessible":true,"used":true}],
    "peer":{"peerId":"10.200.2.2","routerId":"10.255.0.10","type":"internal"}})");
  const Route r = FrrSpeaker::ParsePath("10.1.0.0/24", path);
  EXPECT_EQ(r.nexthop, "10.200.1.1");
  EXPECT_EQ(r.originator_id, "10.255.0.1");
  EXPECT_EQ(r.cluster_list, (std::vector<std::string>{"10.255.255.1"}));
  EXPECT_FALSE(FrrSpeaker::ParsePath("10.1.0.0/24", json::object()).originator_id.has_value());
}

TEST(FrrParseTest, ReadsAPathOfShowBgpPrefixJson) {
  const json path = json::parse(R"({
    "aspath":{"string":"65001","segments":[{"type":"as-sequence","list":[65001, 65010]}],"length":2},
    "origin":"IGP","metric":50,"locPrf":120,"valid":true,
    "bestpath":{"overall":true,"selectionReason":"First path received"},
    "community":{"string":"65001:100","list":["65001:100"]},
    "largeCommunity":{"string":"65001:1:2","list":["65001:1:2"]},
    "nexthops":[{"ip":"10.91.0.1","afi":"ipv4","metric":0,"accessible":true,"used":true}],
    "peer":{"peerId":"10.91.0.1","routerId":"10.91.0.1","type":"external"}})");
  const Route r = FrrSpeaker::ParsePath("10.1.0.0/24", path);
  EXPECT_EQ(r.nexthop, "10.91.0.1");
  EXPECT_EQ(r.as_path, (std::vector<uint32_t>{65001, 65010}));
  EXPECT_EQ(r.med, 50u);
  EXPECT_EQ(r.local_pref, 120u);
  EXPECT_EQ(r.communities, (std::vector<std::string>{"65001:100"}));
  EXPECT_EQ(r.large_communities, (std::vector<std::string>{"65001:1:2"}));
}

TEST(FrrParseTest, ReadsConfedSegmentsApart) {
  const json path = json::parse(R"({
    "aspath":{"string":"(64512) 65009","segments":[{"type":"as-confed-sequence","list":[64512]},
      {"type":"as-sequence","list":[65009]}],"length":1},
    "nexthops":[{"ip":"10.200.2.1","afi":"ipv4","metric":0,"accessible":true,"used":true}]})");
  const Route r = FrrSpeaker::ParsePath("10.9.0.0/24", path);
  EXPECT_EQ(r.as_path, (std::vector<uint32_t>{64512, 65009}));
  EXPECT_EQ(r.confed_path, (std::vector<uint32_t>{64512}));
}

TEST(FrrParseTest, ConfigHasConfederationAndGracefulRestartLines) {
  const SpeakerConfig config{.name = "frr",
                             .local_as = 64513,
                             .router_id = "10.255.0.1",
                             .neighbors = {Neighbor{.address = "10.200.1.2",
                                                    .remote_as = 64512,
                                                    .local_address = "10.200.1.1",
                                                    .confederation = 65000,
                                                    .graceful_restart = true,
                                                    .graceful_restart_time = 5},
                                           Neighbor{.address = "10.200.2.2",
                                                    .remote_as = 64514,
                                                    .local_address = "10.200.2.1",
                                                    .confederation = 65000}}};
  EXPECT_EQ(FrrSpeaker::RouterLines(config),
            (std::vector<std::string>{
                "bgp confederation identifier 65000", "bgp confederation peers 64512 64514",
                "bgp graceful-restart preserve-fw-state", "bgp graceful-restart restart-time 5"}));
  const std::string text = FrrSpeaker::MakeConfig(config, "/tmp");
  EXPECT_NE(text.find(" neighbor 10.200.1.2 graceful-restart\n"), std::string::npos) << text;
  EXPECT_EQ(text.find(" neighbor 10.200.2.2 graceful-restart"), std::string::npos) << text;
  SpeakerConfig plain = config;
  for (auto& n : plain.neighbors) n = Neighbor{.address = n.address, .remote_as = n.remote_as};
  EXPECT_TRUE(FrrSpeaker::RouterLines(plain).empty());
}

TEST(GobgpParseTest, ReadsAPathOfGlobalRibJson) {
  const json path = json::parse(R"({"nlri":{"prefix":"10.1.0.0/24"},"best":true,"attrs":[
    {"type":1,"value":0},{"type":2,"as_paths":[{"segment_type":2,"num":1,"asns":[65001]}]},
    {"type":3,"nexthop":"10.91.0.1"},{"type":4,"metric":7},{"type":8,"communities":[4259905636]},
    {"type":32,"value":[{"ASN":65001,"LocalData1":1,"LocalData2":2}]}],
    "neighbor-ip":"10.91.0.1"})");
  const Route r = GobgpSpeaker::ParsePath("10.1.0.0/24", path);
  EXPECT_EQ(r.nexthop, "10.91.0.1");
  EXPECT_EQ(r.as_path, (std::vector<uint32_t>{65001}));
  EXPECT_EQ(r.med, 7u);
  EXPECT_EQ(r.communities, (std::vector<std::string>{"65001:100"}));  // 65001 << 16 | 100
  EXPECT_EQ(r.large_communities, (std::vector<std::string>{"65001:1:2"}));
}

TEST(GobgpParseTest, TakesTheIpv6NexthopFromMpReach) {
  const json path = json::parse(R"({"nlri":{"prefix":"fd00:9::/48"},"best":true,"attrs":[
    {"type":1,"value":2},
    {"type":14,"nexthop":"fd00::5","afi":2,"safi":1,"value":[{"prefix":"fd00:9::/48"}]}],
    "neighbor-ip":"fd00::5"})");
  EXPECT_EQ(GobgpSpeaker::ParsePath("fd00:9::/48", path).nexthop, "fd00::5");
}

TEST(ExabgpParseTest, ReplaysAnnouncementsWithdrawalsAndSessionDrops) {
  const std::string jsonl =
      R"({"type":"state","neighbor":{"address":{"local":"10.0.0.2","peer":"10.0.0.1"},"state":"up"}})"
      "\n"
      R"({"type":"update","neighbor":{"message":{"update":{"attribute":{"origin":"igp","as-path":[65001,65009],"med":5,"community":[[65001,100]],"large-community":[[65001,1,2]]},"announce":{"ipv4 unicast":{"10.0.0.1":[{"nlri":"10.1.0.0/24"},{"nlri":"10.1.1.0/24"}]}}}}}})"
      "\n"
      R"({"type":"update","neighbor":{"message":{"update":{"withdraw":{"ipv4 unicast":[{"nlri":"10.1.1.0/24"}]}}}}})"
      "\n";
  auto routes = ExabgpSpeaker::ParseReceived(jsonl);
  ASSERT_EQ(routes.size(), 1u);
  EXPECT_EQ(routes[0].prefix, "10.1.0.0/24");
  EXPECT_EQ(routes[0].nexthop, "10.0.0.1");
  EXPECT_EQ(routes[0].as_path, (std::vector<uint32_t>{65001, 65009}));
  EXPECT_EQ(routes[0].med, 5u);
  EXPECT_EQ(routes[0].communities, (std::vector<std::string>{"65001:100"}));
  EXPECT_EQ(routes[0].large_communities, (std::vector<std::string>{"65001:1:2"}));
  routes = ExabgpSpeaker::ParseReceived(
      jsonl + R"({"type":"state","neighbor":{"address":{"peer":"10.0.0.1"},"state":"down"}})");
  EXPECT_TRUE(routes.empty());
}

// ExaBGP reports an End-of-RIB as an "update" whose message has "eor" and no "update": it
// leaves the table alone, and so does a line that is cut short or is not an object.
TEST(ExabgpParseTest, EndOfRibAndOddLinesLeaveTheTableAlone) {
  const std::string jsonl =
      R"({"type":"update","neighbor":{"message":{"update":{"announce":{"ipv4 unicast":{"10.0.0.1":[{"nlri":"10.1.0.0/24"}]}}}}}})"
      "\n"
      R"({"type":"update","neighbor":{"direction":"receive","message":{"eor":{"afi":"ipv4","safi":"unicast"}}}})"
      "\n"
      R"({"type":"update"})"
      "\n"
      R"({"type":"state"})"
      "\n"
      R"([1,2])"
      "\n"
      R"({"type":"update","neighbor":{"message":{"upd)"
      "\n";
  const auto routes = ExabgpSpeaker::ParseReceived(jsonl);
  ASSERT_EQ(routes.size(), 1u);
  EXPECT_EQ(routes[0].prefix, "10.1.0.0/24");
}

// A segment or community attribute without its "list" reads as empty (FRR always prints one;
// reading a missing key of a const json is undefined behaviour, so the parser must not).
TEST(FrrParseTest, PartsWithoutTheirListAreEmpty) {
  const json path = json::parse(R"({"aspath":{"segments":[{"type":"as-sequence"}]},
    "community":{"string":""},"largeCommunity":{}})");
  const Route r = FrrSpeaker::ParsePath("10.1.0.0/24", path);
  EXPECT_TRUE(r.as_path.empty());
  EXPECT_TRUE(r.communities.empty());
  EXPECT_TRUE(r.large_communities.empty());
}

TEST(ExabgpParseTest, PrefersTheGlobalIpv6Nexthop) {
  const std::string line =
      R"({"type":"update","neighbor":{"message":{"update":{"attribute":{"as-path":[65002]},)"
      R"("announce":{"ipv6 unicast":{"fd00:200:1::2":[{"nlri":"fd00:2::/48"}],)"
      R"("fe80::e8fb:7fff:fedc:b0db":[{"nlri":"fd00:2::/48"}]}}}}}})";
  const auto routes = ExabgpSpeaker::ParseReceived(line + "\n");
  ASSERT_EQ(routes.size(), 1u);
  EXPECT_EQ(routes[0].nexthop, "fd00:200:1::2");
}

TEST(ExabgpParseTest, RouteTextUsesTheApiSyntax) {
  const Route r{.prefix = "10.4.0.0/24", .communities = {"65003:1", "65003:2"}, .med = 9};
  EXPECT_EQ(ExabgpSpeaker::RouteText(r),
            "route 10.4.0.0/24 next-hop self med 9 community [ 65003:1 65003:2 ]");
}

TEST(StrataParseTest, ReadsABgpRouteOfListRoutes) {
  const json j = json::parse(R"({"prefix":"10.1.0.0/24","peer":"10.200.1.1",
    "nexthop":"10.200.1.1","as_path":"65001 65009","origin":"igp","med":3,
    "communities":["65001:100"],"large_communities":[],"best":true})");
  const Route r = StrataSpeaker::ParseRoute(j);
  EXPECT_EQ(r.as_path, (std::vector<uint32_t>{65001, 65009}));
  EXPECT_EQ(r.med, 3u);
  EXPECT_FALSE(r.local_pref.has_value());
  EXPECT_EQ(r.communities, (std::vector<std::string>{"65001:100"}));
  EXPECT_FALSE(r.originator_id.has_value());
  const Route reflected = StrataSpeaker::ParseRoute(json::parse(R"({"prefix":"10.1.0.0/24",
    "peer":"10.200.1.1","nexthop":"10.200.9.1","as_path":"","originator_id":"10.255.0.9",
    "cluster_list":["10.255.255.1","10.255.255.2"]})"));
  EXPECT_EQ(reflected.originator_id, "10.255.0.9");
  EXPECT_EQ(reflected.cluster_list, (std::vector<std::string>{"10.255.255.1", "10.255.255.2"}));
}

TEST(StrataParseTest, ReadsConfedSegmentsOfTheAsPathText) {
  const Route r = StrataSpeaker::ParseRoute(
      json::parse(R"j({"prefix":"10.1.0.0/24","as_path":"(64512 64513) 65009 (64514)"})j"));
  EXPECT_EQ(r.as_path, (std::vector<uint32_t>{64512, 64513, 65009, 64514}));
  EXPECT_EQ(r.confed_path, (std::vector<uint32_t>{64512, 64513, 64514}));
  EXPECT_TRUE(StrataSpeaker::ParseRoute(json::parse(R"({"as_path":"65001"})")).confed_path.empty());
}

}  // namespace
}  // namespace strata::interop
