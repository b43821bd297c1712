#include "rtrmgr/sh/show_format.h"

#include <gtest/gtest.h>

#include "libipc/call/atoms_json.h"
#include "libipc/common_convert.h"
#include "libipc/interfaces/fea.pb.h"
#include "libipc/interfaces/rib.pb.h"
#include "libipc/reflection.h"

namespace strata::rtrmgr::sh {
namespace {

TEST(ShowFormatTest, RouteTableShowsNextHopsAsOperatorsWriteThem) {
  auto j = nlohmann::json::parse(R"({"routes":[
    {"prefix":"192.0.2.0/24","protocol":"static","nexthop":"127.0.0.1","metric":1,
     "admin_distance":1,"interface":"","best":true},
    {"prefix":"127.0.0.0/8","protocol":"connected","nexthop":"127.0.0.1","metric":0,
     "admin_distance":0,"interface":"lo","best":true},
    {"prefix":"10.0.0.0/8","protocol":"ibgp","nexthop":"10.9.9.9","metric":0,"stale":true,
     "resolved_nexthop":"10.0.1.2","admin_distance":200,"interface":"eth0","best":true}],
    "truncated":false})");
  EXPECT_EQ(ShowFormat::Format(Op::kShowRoute, j),
            "PREFIX        PROTOCOL   DIST/METRIC  NEXT HOP                          FLAGS\n"
            "192.0.2.0/24  static     1/1          127.0.0.1\n"
            "127.0.0.0/8   connected  0/0          via lo\n"
            "10.0.0.0/8    ibgp       200/0        10.9.9.9 (via 10.0.1.2) via eth0  stale\n");
  EXPECT_EQ(ShowFormat::Format(Op::kShowRoute, nlohmann::json::parse(R"({"found":false})")),
            "no route\n");
  // `show route PREFIX` (an exact prefix) with nothing there: said, not a bare header.
  EXPECT_EQ(ShowFormat::Format(Op::kShowRoute, nlohmann::json::parse(R"({"routes":[]})")),
            "no routes\n");
}

TEST(ShowFormatTest, MultipathRouteShowsEveryNextHopAndTheFlag) {
  auto j = nlohmann::json::parse(R"({"routes":[
    {"prefix":"10.200.9.0/24","protocol":"ebgp","nexthop":"10.200.1.1","metric":0,
     "resolved_nexthop":"10.200.1.1","admin_distance":20,"interface":"veth1","best":true,
     "multipath":[{"nexthop":"10.200.2.1","resolved_nexthop":"10.200.2.1"},
                  {"nexthop":"10.9.9.9"}]}],
    "truncated":false})");
  EXPECT_EQ(ShowFormat::Format(Op::kShowRoute, j),
            "PREFIX         PROTOCOL  DIST/METRIC  NEXT HOP                                      "
            "           FLAGS\n"
            "10.200.9.0/24  ebgp      20/0         10.200.1.1 via veth1, 10.200.2.1, 10.9.9.9 "
            "(unresolved)  multipath\n");
}

// Static routes as the RIB lists them (rib/1.0 Route through MessageToAtoms): weighted next
// hops, an interface route (zero next hop), and the three ways of dropping.
TEST(ShowFormatTest, StaticRoutesShowWeightsInterfacesAndDrops) {
  rib::v1::ListRoutesReply reply;
  auto add = [&](const char* prefix, common::v1::RouteType type) {
    rib::v1::Route* r = reply.add_routes();
    ipc::PrefixToProto(IpPrefix::Parse(prefix).value(), r->mutable_prefix());
    ipc::AddrToProto(IpAddr::Zero(Family::kIpv4), r->mutable_nexthop());
    r->set_protocol("static");
    r->set_admin_distance(1);
    r->set_metric(1);
    r->set_best(true);
    r->set_type(type);
    r->set_weight(1);
    return r;
  };
  rib::v1::Route* ecmp = add("10.0.0.0/8", common::v1::ROUTE_TYPE_UNICAST);
  ipc::AddrToProto(IpAddr::Parse("192.0.2.1").value(), ecmp->mutable_nexthop());
  ecmp->set_weight(2);
  rib::v1::MultipathNexthop* more = ecmp->add_multipath();
  ipc::AddrToProto(IpAddr::Parse("192.0.2.2").value(), more->mutable_nexthop());
  more->set_weight(1);
  add("10.3.0.0/16", common::v1::ROUTE_TYPE_UNICAST)->set_interface("eth1");
  add("10.1.0.0/16", common::v1::ROUTE_TYPE_BLACKHOLE);
  add("10.2.0.0/16", common::v1::ROUTE_TYPE_UNREACHABLE)->set_admin_distance(250);
  add("10.4.0.0/16", common::v1::ROUTE_TYPE_PROHIBIT);
  EXPECT_EQ(ShowFormat::Format(Op::kShowRoute, ipc::AtomsToJson(ipc::MessageToAtoms(reply))),
            "PREFIX       PROTOCOL  DIST/METRIC  NEXT HOP                         FLAGS\n"
            "10.0.0.0/8   static    1/1          192.0.2.1 (weight 2), 192.0.2.2  multipath\n"
            "10.3.0.0/16  static    1/1          via eth1\n"
            "10.1.0.0/16  static    1/1          blackhole\n"
            "10.2.0.0/16  static    250/1        unreachable\n"
            "10.4.0.0/16  static    1/1          prohibit\n");
}

TEST(ShowFormatTest, Durations) {
  EXPECT_EQ(ShowFormat::Duration(0), "00:00:00");
  EXPECT_EQ(ShowFormat::Duration(3725), "01:02:05");
  EXPECT_EQ(ShowFormat::Duration(90061), "1d01h01m");
  EXPECT_EQ(ShowFormat::Duration(694861), "1w1d01h");
}

TEST(ShowFormatTest, FibIsATableWithNextHopsNotJson) {
  fea::v1::ListRoutesReply reply;
  reply.set_table_id(100);
  auto* r = reply.add_routes();
  r->mutable_prefix()->set_addr(std::string("\xc6\x33\x64\x00", 4));
  r->mutable_prefix()->set_len(24);
  auto* h = r->add_nexthops();
  h->mutable_address()->set_addr(std::string("\x0a\x00\x02\x02", 4));
  h->set_interface("veth-frr");
  h = r->add_nexthops();
  h->mutable_address()->set_addr(std::string("\x0a\x00\x01\x02", 4));
  h->set_interface("veth-bird");
  h->set_weight(2);
  r->set_protocol("ebgp");
  r->set_in_kernel(true);
  const std::string t =
      ShowFormat::Format(Op::kShowFib, ipc::AtomsToJson(ipc::MessageToAtoms(reply)));
  EXPECT_EQ(t,
            "kernel table 100\n"
            "PREFIX           NEXT HOP                                                  METRIC  "
            "PROTOCOL  KERNEL\n"
            "198.51.100.0/24  10.0.2.2 via veth-frr, 10.0.1.2 via veth-bird (weight 2)  0       "
            "ebgp      yes\n");
  EXPECT_EQ(ShowFormat::FibNextHops(nlohmann::json::object()), "blackhole");
  EXPECT_EQ(ShowFormat::FibNextHops(nlohmann::json::parse(R"({"type":"ROUTE_TYPE_PROHIBIT"})")),
            "prohibit");
}

TEST(ShowFormatTest, DampenedRoutesTable) {
  auto j = nlohmann::json::parse(R"({"routes":[
    {"prefix":"10.1.0.0/16","peer":"127.0.0.2","penalty":3000,"suppressed":true,
     "reuse_in_s":1800,"flaps":3,"withdrawn":false}]})");
  EXPECT_EQ(ShowFormat::Format(Op::kShowBgpDampened, j),
            "PREFIX       PEER       PENALTY  SUPPRESSED  REUSE IN  FLAPS  WITHDRAWN\n"
            "10.1.0.0/16  127.0.0.2  3000     yes         00:30:00  3      no\n");
}

TEST(ShowFormatTest, SummaryShowsUptimeAndPoliciesInForce) {
  auto j = nlohmann::json::parse(R"({"peers":[
    {"peer":"127.0.0.3","peer_as":65002,"state":"Established","export_policy":"vr-out",
     "export_policy_inherited":true,"import_policy":"in","uptime_s":3725,
     "prefixes_received":5,"prefixes_accepted":4,"prefixes_advertised":3,"group":"transit"},
    {"peer":"127.0.0.4","peer_as":65003,"state":"Idle"}]})");
  EXPECT_EQ(ShowFormat::Format(Op::kShowBgpSummary, j),
            "PEER       AS     GROUP    STATE        UP/DOWN   RCVD  ACCEPTED  SENT  IMPORT  "
            "EXPORT       "
            "DESCRIPTION\n"
            "127.0.0.3  65002  transit  Established  01:02:05  5     4         3     in      "
            "vr-out (vr)  "
            "-\n"
            "127.0.0.4  65003  -        Idle         -         -     -         -     -       -     "
            "       "
            "-\n");
}

TEST(ShowFormatTest, BgpRoutesShowSelfAndMissingAttributes) {
  // local_pref and med absent (an eBGP route, our own network): "-", not 0.
  auto j = nlohmann::json::parse(R"({"routes":[
    {"prefix":"198.51.100.0/24","peer":"127.0.0.3","nexthop":"127.0.0.3","as_path":"65002",
     "origin":"igp","best":true,"reason":"only-route","rpki":"valid"},
    {"prefix":"203.0.113.0/24","nexthop":"0.0.0.0","as_path":"","origin":"igp","best":true,
     "reason":"only-route","local_pref":100}]})");
  EXPECT_EQ(ShowFormat::Format(Op::kShowBgpRoutes, j),
            "    PREFIX           PEER       NEXT HOP   AS PATH  ORIGIN  LOCAL PREF  MED  RPKI   "
            "WHY BEST\n"
            "*>  198.51.100.0/24  127.0.0.3  127.0.0.3  65002    igp     -           -    valid  "
            "only-route\n"
            "*>  203.0.113.0/24   local      self       (empty)  igp     100         -    -      "
            "only-route\n");
}

TEST(ShowFormatTest, PeerRoutesShowFateAndReason) {
  auto j = nlohmann::json::parse(R"({"routes":[
    {"route":{"prefix":"10.1.0.0/24","nexthop":"10.0.1.2","as_path":"65010"},
     "fate":"ROUTE_FATE_BEST","reason":"best: local-pref","stale":false},
    {"route":{"prefix":"10.3.0.0/24","nexthop":"100.64.0.1","as_path":"65010"},
     "fate":"ROUTE_FATE_NEXTHOP_UNRESOLVED","reason":"next hop 100.64.0.1 does not resolve",
     "stale":true}]})");
  EXPECT_EQ(ShowFormat::Format(Op::kShowBgpReceivedRoutes, j),
            "PREFIX       NEXT HOP    AS PATH  FATE                        WHY\n"
            "10.1.0.0/24  10.0.1.2    65010    best                        best: local-pref\n"
            "10.3.0.0/24  100.64.0.1  65010    nexthop-unresolved (stale)  next hop 100.64.0.1 "
            "does not resolve\n");
  EXPECT_EQ(ShowFormat::Format(Op::kShowBgpFilteredRoutes, nlohmann::json::object()),
            "no routes\n");
}

// Discarded routes: when (local time), which, what became of them and why.
TEST(ShowFormatTest, DiscardedRoutesShowTimeFateAndReason) {
  auto j = nlohmann::json::parse(R"({"routes":[
    {"route":{"prefix":"10.9.0.0/16"},"fate":"ROUTE_FATE_MALFORMED",
     "reason":"RFC 7606 treat-as-withdraw: bad ORIGIN","unix_ms":"1795839208946"},
    {"route":{"prefix":"10.7.0.0/16"},"fate":"ROUTE_FATE_OWN_NEXTHOP",
     "reason":"NEXT_HOP 127.0.0.3 is ours","unix_ms":1795839209000}]})");
  j["routes"][1]["unix_ms"] = int64_t{1795839209000};  // as IPC replies give it: signed
  const std::string t0 = ShowFormat::LocalTime(1795839208946);
  const std::string t1 = ShowFormat::LocalTime(1795839209000);
  const std::string pad(t0.size() - 4, ' ');
  EXPECT_EQ(ShowFormat::Format(Op::kShowBgpDiscardedRoutes, j),
            "TIME" + pad + "  PREFIX       FATE         WHY\n" + t0 +
                "  10.9.0.0/16  malformed    RFC 7606 treat-as-withdraw: bad ORIGIN\n" + t1 +
                "  10.7.0.0/16  own-nexthop  NEXT_HOP 127.0.0.3 is ours\n");
  EXPECT_EQ(ShowFormat::Format(Op::kShowBgpDiscardedRoutes, nlohmann::json::object()),
            "no routes discarded\n");
}

TEST(ShowFormatTest, RouteDetailShowsEachPathAndThePolicysChanges) {
  auto j = nlohmann::json::parse(R"({"best_reason":"local-pref","paths":[
    {"route":{"prefix":"10.1.0.0/24","peer":"10.0.1.2","nexthop":"10.0.1.2","as_path":"65010",
              "origin":"igp"},
     "accepted":{"prefix":"10.1.0.0/24","peer":"10.0.1.2","nexthop":"10.0.1.2",
                 "as_path":"65010","origin":"igp","local_pref":200,"igp_metric":0},
     "fate":"ROUTE_FATE_BEST","reason":"best: local-pref"},
    {"route":{"prefix":"10.1.0.0/24","peer":"10.0.2.2","nexthop":"10.0.2.2","as_path":"65020",
              "origin":"igp","communities":["65020:1"]},
     "fate":"ROUTE_FATE_REJECTED_POLICY","reason":"rejected by policy in term t"}]})");
  EXPECT_EQ(ShowFormat::Format(Op::kShowBgpRoutes, j),
            "10.1.0.0/24: 2 path(s), best by local-pref\n"
            "  From peer 10.0.1.2: best\n"
            "    Received: AS path 65010, origin igp, next hop 10.0.1.2\n"
            "    After import policy: AS path 65010, origin igp, next hop 10.0.1.2, local pref "
            "200\n"
            "    Why: best: local-pref\n"
            "  From peer 10.0.2.2: rejected-policy\n"
            "    Received: AS path 65020, origin igp, next hop 10.0.2.2, communities 65020:1\n"
            "    Why: rejected by policy in term t\n");
}

TEST(ShowFormatTest, RouteTheFeaRefusedIsFlaggedNotInstalled) {
  auto j = nlohmann::json::parse(R"({"found":true,"route":{"prefix":"198.18.0.0/24",
    "protocol":"static","admin_distance":1,"metric":1,"nexthop":"203.0.113.77",
    "not_installed":"next hop 0: 203.0.113.77 is on no interface of VR 'red'"}})");
  const std::string out = ShowFormat::Format(Op::kShowRoute, j);
  EXPECT_NE(out.find("NOT INSTALLED: next hop 0: 203.0.113.77 is on no interface of VR 'red'"),
            std::string::npos)
      << out;
}

TEST(ShowFormatTest, RibRouteDetailPutsTheWinnerFirst) {
  auto j = nlohmann::json::parse(R"j({"prefix":"10.1.0.0/24","winner":{"protocol":"static",
    "not_installed":""},"candidates":[
    {"protocol":"ebgp","admin_distance":20,"metric":0,"nexthop":"10.0.1.2",
     "why":"lost: admin distance 20 > 1 (static)"},
    {"protocol":"static","admin_distance":1,"metric":1,"nexthop":"127.0.0.9",
     "why":"best: lowest admin distance, then metric"}]})j");
  EXPECT_EQ(ShowFormat::RibRouteDetail(j),
            "10.1.0.0/24: 2 candidate(s), winner static, installed\n"
            "  static, distance 1, metric 1, next hop 127.0.0.9\n"
            "    best: lowest admin distance, then metric\n"
            "  ebgp, distance 20, metric 0, next hop 10.0.1.2\n"
            "    lost: admin distance 20 > 1 (static)\n");
  EXPECT_EQ(ShowFormat::RibRouteDetail(nlohmann::json{{"prefix", ""}}), "no route\n");
}

TEST(ShowFormatTest, BgpStatsCountsRedistributedRoutesPerProtocol) {
  auto j = nlohmann::json::parse(R"({"peers":"2","export_policy":"vr-out",
    "redistributed_protocols":["connected","static"],
    "redistributed_routes":[{"protocol":"connected","routes":"1"},
                            {"protocol":"static","routes":"3"}]})");
  EXPECT_EQ(ShowFormat::Format(Op::kShowBgpStats, j),
            "export_policy: vr-out\npeers: 2\nredistributed_protocols: connected,static\n"
            "redistributed_routes: connected=1,static=3\n");
}

TEST(ShowFormatTest, BgpRpkiCaches) {
  auto j = nlohmann::json::parse(R"({"enabled":true,"vrps_v4":"2","refresh_s":3600,
    "retry_s":600,"expire_s":7200,"revalidation_walks":"3","revalidated_routes":"1",
    "caches":[{"cache":{"address":"127.0.0.1","port":3323,"preference":1},
               "state":"RTR_ESTABLISHED","group_active":true,"vrps":"2","updates":"2",
               "serial":1,"version":1}]})");
  EXPECT_EQ(ShowFormat::Format(Op::kShowBgpRpki, j),
            "VRPs: 2 IPv4, 0 IPv6; refresh 3600 s, retry 600 s, expire 7200 s\n"
            "Re-validation: 3 VRP prefixes walked, 1 routes changed state, 0 pending\n"
            "CACHE      PORT  PREF  STATE            IN USE  VRPS  UPDATES  SERIAL  VERSION\n"
            "127.0.0.1  3323  1     RTR_ESTABLISHED  yes     2     2        1       1\n");
  EXPECT_EQ(ShowFormat::Format(Op::kShowBgpRpki, nlohmann::json::object()),
            "RPKI origin validation is off (no cache)\n");
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
  const std::string t =
      ShowFormat::Format(Op::kShowFibStats, ipc::AtomsToJson(ipc::MessageToAtoms(reply)));
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

TEST(ShowFormatTest, NeighborIsABlockPerPeer) {
  auto j = nlohmann::json::parse(R"({"peers":[{"peer":"127.0.0.3","peer_as":65002,
    "peer_type":"external","state":"Established","uptime_s":61,"enabled":true,
    "established_transitions":1,"import_policy":"in","export_policy":"out",
    "export_policy_inherited":true,"prefixes_received":3,"prefixes_accepted":2,
    "families":["ipv4-unicast","ipv6-unicast"],"graceful_restart_configured":true,
    "graceful_restart":true,"peer_restart_time":120,"other_family_next_hop":"2001:db8::2"}]})");
  const std::string t = ShowFormat::Format(Op::kShowBgpNeighbor, j);
  for (const char* line : {"Peer 127.0.0.3, AS 65002 (external)\n",
                           "  State: Established for 00:01:01, 1 established transition(s)\n",
                           "  Families: ipv4-unicast, ipv6-unicast\n",
                           "  Next hop for the other family's routes: 2001:db8::2\n",
                           "  Policies: import in, export out (vr)\n",
                           "  Prefixes: 3 received, 2 accepted, 0 advertised\n",
                           "  Graceful restart: negotiated, peer restart time 120 s\n"}) {
    EXPECT_NE(t.find(line), std::string::npos) << line << " in\n" << t;
  }
  EXPECT_EQ(ShowFormat::Format(Op::kShowBgpNeighbor, nlohmann::json::parse(R"({"peers":[]})")),
            "no such neighbour\n");
}

TEST(ShowFormatTest, MonitorLinesSayWhatChangedWhere) {
  auto route = nlohmann::json::parse(R"({"seq":"7","unix_ms":"1764290467212",
    "change":"ROUTE_CHANGE_REPLACE","route":{"prefix":"203.0.113.0/24","nexthop":"127.0.0.1",
    "protocol":"static","admin_distance":1,"metric":9,"best":true}})");
  std::string t = ShowFormat::MonitorRoute("red", route);
  EXPECT_NE(t.find(".212 vr red replace 203.0.113.0/24 static 127.0.0.1, distance 1, metric 9\n"),
            std::string::npos)
      << t;
  auto sent = nlohmann::json::parse(R"({"unix_ms":1764290467212,
    "direction":"UPDATE_DIRECTION_SENT","peer":"10.0.2.2","route":{"prefix":"10.20.0.0/24",
    "as_path":"65002","origin":"igp","nexthop":"10.0.1.2","med":5}})");
  t = ShowFormat::MonitorBgp("red", sent);
  EXPECT_NE(t.find(" vr red sent to 10.0.2.2: announce 10.20.0.0/24, AS path 65002, origin igp, "
                   "next hop 10.0.1.2, MED 5\n"),
            std::string::npos)
      << t;
  auto withdrawn = nlohmann::json::parse(R"({"unix_ms":1,"direction":"UPDATE_DIRECTION_RECEIVED",
    "peer":"10.0.1.2","withdraw":true,"route":{"prefix":"10.20.0.0/24"}})");
  t = ShowFormat::MonitorBgp("red", withdrawn);
  EXPECT_NE(t.find(" vr red received from 10.0.1.2: withdraw 10.20.0.0/24\n"), std::string::npos)
      << t;
  EXPECT_EQ(ShowFormat::MonitorLost("blue", 12),
            "vr blue: 12 events lost (the monitor fell behind)\n");
}

}  // namespace
}  // namespace strata::rtrmgr::sh
