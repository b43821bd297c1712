#include "rtrmgr/sh/show_format.h"

#include <gtest/gtest.h>

#include "libipc/call/atoms_json.h"
#include "libipc/interfaces/fea.pb.h"
#include "libipc/reflection.h"

namespace strata::rtrmgr::sh {
namespace {

TEST(ShowFormatTest, RouteTableAlignsColumns) {
  auto j = nlohmann::json::parse(R"({"routes":[
    {"prefix":"192.0.2.0/24","protocol":"static","nexthop":"127.0.0.1","metric":1,
     "admin_distance":1,"interface":"","best":true},
    {"prefix":"10.0.0.0/8","protocol":"bgp","nexthop":"127.0.0.3","metric":0,
     "admin_distance":20,"interface":"lo","best":false}],"truncated":false})");
  const std::string t = ShowFormat::Format(ShowRequest::Kind::kRoute, j);
  EXPECT_EQ(t,
            "PREFIX        PROTOCOL  NEXTHOP    METRIC  ADMIN DISTANCE  INTERFACE  BEST\n"
            "192.0.2.0/24  static    127.0.0.1  1       1               -          true\n"
            "10.0.0.0/8    bgp       127.0.0.3  0       20              lo         false\n");
}

TEST(ShowFormatTest, DampenedRoutesTable) {
  auto j = nlohmann::json::parse(R"({"routes":[
    {"prefix":"10.1.0.0/16","peer":"127.0.0.2","penalty":3000,"suppressed":true,
     "reuse_in_s":1800,"flaps":3,"withdrawn":false}]})");
  EXPECT_EQ(ShowFormat::Format(ShowRequest::Kind::kBgpDampened, j),
            "PREFIX       PEER       PENALTY  SUPPRESSED  REUSE IN S  FLAPS  WITHDRAWN\n"
            "10.1.0.0/16  127.0.0.2  3000     true        1800        3      false\n");
}

TEST(ShowFormatTest, SummaryShowsPoliciesInForceAndWhetherInherited) {
  auto j = nlohmann::json::parse(R"({"peers":[
    {"peer":"127.0.0.3","peer_as":65002,"state":"Established","export_policy":"vr-out",
     "export_policy_inherited":true,"import_policy":"in"},
    {"peer":"127.0.0.4","peer_as":65003,"state":"Idle"}]})");
  EXPECT_EQ(ShowFormat::Format(ShowRequest::Kind::kBgpSummary, j),
            "PEER       PEER AS  STATE        UPTIME S  PREFIXES RECEIVED  PREFIXES ACCEPTED  "
            "PREFIXES ADVERTISED  IMPORT  EXPORT       DESCRIPTION\n"
            "127.0.0.3  65002    Established  -         -                  -                  "
            "-                    in      vr-out (vr)  -\n"
            "127.0.0.4  65003    Idle         -         -                  -                  "
            "-                    -       -            -\n");
}

TEST(ShowFormatTest, BgpStatsCountsRedistributedRoutesPerProtocol) {
  auto j = nlohmann::json::parse(R"({"peers":"2","export_policy":"vr-out",
    "redistributed_protocols":["connected","static"],
    "redistributed_routes":[{"protocol":"connected","routes":"1"},
                            {"protocol":"static","routes":"3"}]})");
  EXPECT_EQ(ShowFormat::Format(ShowRequest::Kind::kBgpStats, j),
            "export_policy: vr-out\npeers: 2\nredistributed_protocols: connected,static\n"
            "redistributed_routes: connected=1,static=3\n");
}

// `show fib stats` prints fea/1.0/get_stats as "key: value" lines, zeros included: the rebuild
// counters and garbage are there before the first rebuild, not only after it.
TEST(ShowFormatTest, FibStatsShowRebuildsGarbageAndLastRebuild) {
  fea::v1::GetStatsReply reply;
  reply.set_rebuilds(3);
  reply.set_background_rebuilds_started(3);
  reply.set_background_rebuilds_completed(2);
  reply.set_garbage_rows(17);
  reply.set_garbage_bytes(1700);
  reply.set_last_rebuild_usec(190000);
  reply.set_last_rebuild_unix_ms(1795000000000);
  const std::string t = ShowFormat::Format(ShowRequest::Kind::kFibStats,
                                           ipc::AtomsToJson(ipc::MessageToAtoms(reply)));
  for (const char* line :
       {"rebuilds: 3\n", "background_rebuilds_started: 3\n", "background_rebuilds_completed: 2\n",
        "abandoned_rebuilds: 0\n", "garbage_trie_nodes: 0\n", "garbage_rows: 17\n",
        "garbage_bytes: 1700\n", "last_rebuild_usec: 190000\n",
        "last_rebuild_unix_ms: 1795000000000\n"}) {
    EXPECT_NE(t.find(line), std::string::npos) << line << " in\n" << t;
  }
}

TEST(ShowFormatTest, CellsFlattenListsAndMissingValues) {
  EXPECT_EQ(ShowFormat::Cell(nlohmann::json::array({"a", "b"})), "a,b");
  EXPECT_EQ(ShowFormat::Cell(nlohmann::json()), "-");
  EXPECT_EQ(ShowFormat::Cell(nlohmann::json::parse(R"({"address":"10.0.0.1"})")), "10.0.0.1");
  EXPECT_EQ(ShowFormat::Cell(5), "5");
  EXPECT_EQ(
      ShowFormat::Cell(nlohmann::json::parse(
          R"([{"address":"10.0.0.1","prefix":"10.0.0.0/24"},{"address":"::1","prefix":"::1/128"}])")),
      "10.0.0.1/24,::1/128");
}

TEST(ShowFormatTest, NeighborIsOneRecord) {
  auto j = nlohmann::json::parse(R"({"peers":[{"peer":"127.0.0.3","state":"Established"}]})");
  EXPECT_EQ(ShowFormat::Format(ShowRequest::Kind::kBgpNeighbor, j),
            "peer: 127.0.0.3\nstate: Established\n");
  EXPECT_EQ(
      ShowFormat::Format(ShowRequest::Kind::kBgpNeighbor, nlohmann::json::parse(R"({"peers":[]})")),
      "no such neighbour\n");
}

}  // namespace
}  // namespace strata::rtrmgr::sh
