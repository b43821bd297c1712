// Netlink wire format without a kernel: every message the FEA builds parses back to the value
// it came from, and malformed bytes become errors.
#include <gtest/gtest.h>
#include <libmnl/libmnl.h>
#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <array>
#include <cstring>

#include "fea/netlink/attr_table.h"
#include "fea/netlink/link_codec.h"
#include "fea/netlink/nexthop_codec.h"
#include "fea/netlink/route_codec.h"

namespace strata::fea::netlink {
namespace {

IpAddr A(const char* s) { return IpAddr::Parse(s).value(); }
IpPrefix P(const char* s) { return IpPrefix::Parse(s).value(); }

const nlmsghdr* Hdr(const std::vector<uint8_t>& b) {
  return reinterpret_cast<const nlmsghdr*>(b.data());
}

KernelRoute RoundTrip(const KernelOp& op) {
  std::vector<uint8_t> buf;
  EXPECT_TRUE(AppendRouteRequest(buf, op, 7).ok());
  EXPECT_EQ(Hdr(buf)->nlmsg_len, buf.size());
  EXPECT_EQ(Hdr(buf)->nlmsg_seq, 7u);
  auto r = ParseRouteMessage(Hdr(buf));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->has_value());
  return r.ok() && r->has_value() ? **r : KernelRoute{};
}

TEST(RouteCodecTest, Ipv4SingleNextHopRoundTrips) {
  KernelRoute r{100, P("192.0.2.0/24"), 196, 20, RouteType::kUnicast, {{A("10.0.0.2"), 3, 1}}};
  EXPECT_EQ(RoundTrip({KernelOpType::kAdd, r}), r);
  std::vector<uint8_t> buf;
  ASSERT_TRUE(AppendRouteRequest(buf, {KernelOpType::kAdd, r}, 1).ok());
  EXPECT_EQ(Hdr(buf)->nlmsg_type, RTM_NEWROUTE);
  EXPECT_EQ(Hdr(buf)->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL);
}

TEST(RouteCodecTest, Ipv6EcmpRoundTripsWithWeights) {
  KernelRoute r{101,
                P("2001:db8:1::/48"),
                196,
                20,
                RouteType::kUnicast,
                {{A("fe80::1"), 4, 1}, {A("fe80::2"), 5, 3}, {std::nullopt, 6, 256}}};
  EXPECT_EQ(RoundTrip({KernelOpType::kReplace, r}), r);
}

TEST(RouteCodecTest, ConnectedAndBlackholeAndLargeTableRoundTrip) {
  KernelRoute connected{7, P("10.1.0.0/16"), 196, 0, RouteType::kUnicast, {{std::nullopt, 9, 1}}};
  EXPECT_EQ(RoundTrip({KernelOpType::kAdd, connected}), connected);
  KernelRoute blackhole{70000, P("0.0.0.0/0"), 196, 5, RouteType::kBlackhole, {}};
  EXPECT_EQ(RoundTrip({KernelOpType::kAdd, blackhole}), blackhole);
}

// Unreachable and prohibit routes go out as RTN_UNREACHABLE / RTN_PROHIBIT (what `ip route`
// shows as "unreachable" and "prohibit") and read back as the same type, so a restarted FEA
// adopts them.
TEST(RouteCodecTest, UnreachableAndProhibitRoundTripWithTheirKernelTypes) {
  const std::pair<RouteType, uint8_t> kinds[] = {{RouteType::kUnreachable, RTN_UNREACHABLE},
                                                 {RouteType::kProhibit, RTN_PROHIBIT},
                                                 {RouteType::kBlackhole, RTN_BLACKHOLE}};
  for (const auto& [type, rtn] : kinds) {
    for (const char* prefix : {"10.2.0.0/16", "2001:db8:2::/48"}) {
      KernelRoute r{100, P(prefix), 196, 20, type, {}};
      std::vector<uint8_t> buf;
      ASSERT_TRUE(AppendRouteRequest(buf, {KernelOpType::kReplace, r}, 1).ok());
      const auto* rtm = static_cast<const rtmsg*>(NLMSG_DATA(Hdr(buf)));
      EXPECT_EQ(rtm->rtm_type, rtn) << prefix;
      EXPECT_EQ(rtm->rtm_scope, RT_SCOPE_UNIVERSE) << prefix;
      EXPECT_EQ(RoundTrip({KernelOpType::kReplace, r}), r) << prefix;
    }
  }
}

TEST(RouteCodecTest, DeleteNamesProtocolAndMetricButNoNextHops) {
  KernelRoute r{100, P("192.0.2.0/24"), 196, 20, RouteType::kUnicast, {{A("10.0.0.2"), 3, 1}}};
  std::vector<uint8_t> buf;
  ASSERT_TRUE(AppendRouteRequest(buf, {KernelOpType::kDelete, r}, 1).ok());
  EXPECT_EQ(Hdr(buf)->nlmsg_type, RTM_DELROUTE);
  auto parsed = ParseRouteMessage(Hdr(buf));
  ASSERT_TRUE(parsed.ok() && parsed->has_value());
  EXPECT_EQ((*parsed)->protocol, 196);
  EXPECT_EQ((*parsed)->metric, 20u);
  EXPECT_TRUE((*parsed)->nexthops.empty());
}

TEST(RouteCodecTest, SkipsRoutesTheFeaNeverManages) {
  KernelRoute r{255, P("10.0.0.1/32"), 2, 0, RouteType::kUnicast, {{std::nullopt, 1, 1}}};
  std::vector<uint8_t> buf;
  ASSERT_TRUE(AppendRouteRequest(buf, {KernelOpType::kAdd, r}, 1).ok());
  auto* rtm = static_cast<rtmsg*>(NLMSG_DATA(reinterpret_cast<nlmsghdr*>(buf.data())));
  rtm->rtm_type = RTN_LOCAL;
  auto parsed = ParseRouteMessage(Hdr(buf));
  ASSERT_TRUE(parsed.ok());
  EXPECT_FALSE(parsed->has_value());
}

// A VRF table's guard (unreachable default at kGuardMetric) belongs to the VRF device: the
// parser leaves it out, so no resync sweeps it and no restart adopts it as a route; an
// unreachable default at any other metric is an operator's route like any other.
TEST(RouteCodecTest, SkipsTheVrfGuardButNotOtherUnreachableDefaults) {
  for (const char* prefix : {"0.0.0.0/0", "::/0"}) {
    KernelRoute guard{100, P(prefix), 201, kGuardMetric, RouteType::kUnreachable, {}};
    std::vector<uint8_t> buf;
    ASSERT_TRUE(AppendRouteRequest(buf, {KernelOpType::kReplace, guard}, 1).ok());
    auto parsed = ParseRouteMessage(Hdr(buf));
    ASSERT_TRUE(parsed.ok());
    EXPECT_FALSE(parsed->has_value()) << prefix;
    KernelRoute other = guard;
    other.metric = 20;
    EXPECT_EQ(RoundTrip({KernelOpType::kReplace, other}), other) << prefix;
  }
}

TEST(RouteCodecTest, MalformedMessagesAreErrors) {
  KernelRoute r{100, P("192.0.2.0/24"), 196, 20, RouteType::kUnicast, {{A("10.0.0.2"), 3, 1}}};
  std::vector<uint8_t> buf;
  ASSERT_TRUE(AppendRouteRequest(buf, {KernelOpType::kAdd, r}, 1).ok());
  // An attribute length running past the message.
  auto* nlh = reinterpret_cast<nlmsghdr*>(buf.data());
  auto* first_attr = reinterpret_cast<nlattr*>(buf.data() + NLMSG_LENGTH(sizeof(rtmsg)));
  first_attr->nla_len = 4000;
  EXPECT_FALSE(ParseRouteMessage(nlh).ok());
  // A header shorter than rtmsg.
  nlh->nlmsg_len = NLMSG_LENGTH(2);
  EXPECT_FALSE(ParseRouteMessage(nlh).ok());
  // A destination of the wrong length for the family.
  std::vector<uint8_t> b6;
  KernelRoute r6{100, P("2001:db8::/32"), 196, 20, RouteType::kUnicast, {{A("2001:db8::1"), 3, 1}}};
  ASSERT_TRUE(AppendRouteRequest(b6, {KernelOpType::kAdd, r6}, 1).ok());
  static_cast<rtmsg*>(NLMSG_DATA(reinterpret_cast<nlmsghdr*>(b6.data())))->rtm_family = AF_INET;
  EXPECT_FALSE(ParseRouteMessage(Hdr(b6)).ok());
}

// A lone next hop inside RTA_MULTIPATH, with a weight, is the route the FEA installs with one
// plain next hop and reads back equal to it (both found by fuzz/netlink_fuzzer).
TEST(RouteCodecTest, ALoneMultipathNextHopHasNoWeight) {
  std::vector<uint8_t> buf(MNL_SOCKET_BUFFER_SIZE);
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = RTM_NEWROUTE;
  auto* rtm = static_cast<rtmsg*>(mnl_nlmsg_put_extra_header(nlh, sizeof(rtmsg)));
  rtm->rtm_family = AF_INET;
  rtm->rtm_dst_len = 24;
  rtm->rtm_protocol = 196;
  rtm->rtm_type = RTN_UNICAST;
  mnl_attr_put_u32(nlh, RTA_TABLE, 100);
  const std::array<uint8_t, 4> dst{192, 0, 2, 0};
  const std::array<uint8_t, 4> gw{10, 0, 0, 2};
  mnl_attr_put(nlh, RTA_DST, dst.size(), dst.data());
  nlattr* mp = mnl_attr_nest_start(nlh, RTA_MULTIPATH);
  auto* rtnh = static_cast<rtnexthop*>(mnl_nlmsg_get_payload_tail(nlh));
  std::memset(rtnh, 0, sizeof(*rtnh));
  nlh->nlmsg_len += RTNH_ALIGN(sizeof(rtnexthop));
  rtnh->rtnh_ifindex = 3;
  rtnh->rtnh_hops = 255;
  mnl_attr_put(nlh, RTA_GATEWAY, gw.size(), gw.data());
  rtnh->rtnh_len = static_cast<unsigned short>(
      static_cast<uint8_t*>(mnl_nlmsg_get_payload_tail(nlh)) - reinterpret_cast<uint8_t*>(rtnh));
  // An entry with neither gateway nor device leads nowhere and is left out.
  auto* empty = static_cast<rtnexthop*>(mnl_nlmsg_get_payload_tail(nlh));
  std::memset(empty, 0, sizeof(*empty));
  nlh->nlmsg_len += RTNH_ALIGN(sizeof(rtnexthop));
  empty->rtnh_hops = 7;
  empty->rtnh_len = sizeof(rtnexthop);
  mnl_attr_nest_end(nlh, mp);
  buf.resize(nlh->nlmsg_len);
  auto r = ParseRouteMessage(Hdr(buf));
  ASSERT_TRUE(r.ok() && r->has_value()) << r.status().ToString();
  const KernelRoute want{100, P("192.0.2.0/24"),   196,
                         0,   RouteType::kUnicast, {{A("10.0.0.2"), 3, 1}}};
  EXPECT_EQ(**r, want) << (*r)->ToString();
  EXPECT_EQ(RoundTrip({KernelOpType::kAdd, **r}), want);
}

// A gateway of the other family would not be read back (found by fuzz/netlink_fuzzer).
TEST(RouteCodecTest, RefusesAGatewayOfTheOtherFamily) {
  KernelRoute r{100, P("2001:db8::/32"), 200, 20, RouteType::kUnicast, {{A("10.0.0.5"), 5, 1}}};
  std::vector<uint8_t> buf;
  EXPECT_FALSE(AppendRouteRequest(buf, {KernelOpType::kAdd, r}, 1).ok());
}

TEST(RouteCodecTest, RefusesTooManyNextHops) {
  KernelRoute r{100, P("192.0.2.0/24"), 196, 20, RouteType::kUnicast, {}};
  for (uint32_t i = 0; i <= kMaxNextHops; ++i) r.nexthops.push_back({A("10.0.0.2"), i + 1, 1});
  std::vector<uint8_t> buf;
  EXPECT_FALSE(AppendRouteRequest(buf, {KernelOpType::kAdd, r}, 1).ok());
  EXPECT_TRUE(buf.empty());
}

// A route through a nexthop object names it (RTA_NH_ID) instead of its gateway; a dump answer
// without the gateway (nexthop_compat_mode 0) gets it back from the resolver.
TEST(RouteCodecTest, RouteThroughANexthopObjectNamesItsId) {
  KernelRoute r{100, P("192.0.2.0/24"), 196, 20, RouteType::kUnicast, {{A("10.0.0.2"), 3, 1}}};
  std::vector<uint8_t> buf;
  ASSERT_TRUE(AppendRouteRequest(buf, {KernelOpType::kReplace, r}, 1, 42).ok());
  std::array<const nlattr*, RTA_MAX + 1> tb{};
  ASSERT_TRUE(ParseMessageAttrs(Hdr(buf), sizeof(rtmsg), tb));
  ASSERT_NE(tb[RTA_NH_ID], nullptr);
  EXPECT_EQ(mnl_attr_get_u32(tb[RTA_NH_ID]), 42u);
  EXPECT_EQ(tb[RTA_GATEWAY], nullptr);
  EXPECT_EQ(tb[RTA_OIF], nullptr);
  auto bare = ParseRouteMessage(Hdr(buf));
  ASSERT_TRUE(bare.ok() && bare->has_value());
  EXPECT_TRUE((*bare)->nexthops.empty()) << "no resolver: the next hop is unknown";
  int asked = 0;
  auto resolved = ParseRouteMessage(Hdr(buf), [&](uint32_t id) -> std::optional<KernelNextHop> {
    ++asked;
    if (id != 42) return std::nullopt;
    return KernelNextHop{A("10.0.0.2"), 3, 1};
  });
  ASSERT_TRUE(resolved.ok() && resolved->has_value());
  EXPECT_EQ(**resolved, r);
  EXPECT_EQ(asked, 1);
  // A delete never names the object; id 0 spells the next hop out.
  buf.clear();
  ASSERT_TRUE(AppendRouteRequest(buf, {KernelOpType::kDelete, r}, 1, 42).ok());
  tb = {};
  ASSERT_TRUE(ParseMessageAttrs(Hdr(buf), sizeof(rtmsg), tb));
  EXPECT_EQ(tb[RTA_NH_ID], nullptr);
  EXPECT_EQ(RoundTrip({KernelOpType::kAdd, r}), r);
}

TEST(NexthopCodecTest, AddRoundTripsDeleteAndDumpNameWhatTheyShould) {
  const NexthopObject v4{(201u << 24) | 7, 201, A("10.0.0.2"), 3};
  const NexthopObject v6{(201u << 24) | 8, 201, A("fe80::1"), 4};
  for (const NexthopObject& nh : {v4, v6}) {
    std::vector<uint8_t> buf;
    AppendNexthopAdd(buf, nh, 9);
    EXPECT_EQ(Hdr(buf)->nlmsg_len, buf.size());
    EXPECT_EQ(Hdr(buf)->nlmsg_type, RTM_NEWNEXTHOP);
    EXPECT_EQ(Hdr(buf)->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL);
    auto parsed = ParseNexthopMessage(Hdr(buf));
    ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
    ASSERT_TRUE(parsed->has_value());
    EXPECT_EQ(**parsed, nh);
  }
  std::vector<uint8_t> del;
  AppendNexthopDelete(del, 77, 2);
  EXPECT_EQ(Hdr(del)->nlmsg_type, RTM_DELNEXTHOP);
  std::array<const nlattr*, NHA_MAX + 1> tb{};
  ASSERT_TRUE(ParseMessageAttrs(Hdr(del), sizeof(nhmsg), tb));
  ASSERT_NE(tb[NHA_ID], nullptr);
  EXPECT_EQ(mnl_attr_get_u32(tb[NHA_ID]), 77u);
  std::vector<uint8_t> dump;
  AppendNexthopDump(dump, 3);
  EXPECT_EQ(Hdr(dump)->nlmsg_type, RTM_GETNEXTHOP);
  EXPECT_EQ(Hdr(dump)->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
  EXPECT_EQ(Hdr(dump)->nlmsg_len, NLMSG_LENGTH(sizeof(nhmsg))) << "a bare nhmsg, no attributes";
}

TEST(NexthopCodecTest, OtherKindsAreSkippedAndMalformedOnesAreErrors) {
  std::vector<uint8_t> buf;
  AppendNexthopAdd(buf, {5, 201, A("10.0.0.2"), 3}, 1);
  // A group: someone else's kind of object.
  std::vector<uint8_t> group(buf);
  group.resize(group.size() + 64);
  auto* nlh = reinterpret_cast<nlmsghdr*>(group.data());
  const nexthop_grp g{5, 0, 0, 0};
  mnl_attr_put(nlh, NHA_GROUP, sizeof(g), &g);
  group.resize(nlh->nlmsg_len);
  auto parsed = ParseNexthopMessage(Hdr(group));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_FALSE(parsed->has_value());
  // A gateway of the wrong length for the family.
  std::vector<uint8_t> bad(buf);
  static_cast<nhmsg*>(NLMSG_DATA(reinterpret_cast<nlmsghdr*>(bad.data())))->nh_family = AF_INET6;
  EXPECT_FALSE(ParseNexthopMessage(Hdr(bad)).ok());
  // An attribute running past the message; a message shorter than nhmsg.
  std::vector<uint8_t> cut(buf);
  reinterpret_cast<nlattr*>(cut.data() + NLMSG_LENGTH(sizeof(nhmsg)))->nla_len = 4000;
  EXPECT_FALSE(ParseNexthopMessage(Hdr(cut)).ok());
  reinterpret_cast<nlmsghdr*>(cut.data())->nlmsg_len = NLMSG_LENGTH(2);
  EXPECT_FALSE(ParseNexthopMessage(Hdr(cut)).ok());
}

TEST(LinkCodecTest, LinkAndAddressRoundTrip) {
  LinkInfo l{12, "veth0", true, false, 1500, MacAddr::Parse("02:00:00:00:00:01").value()};
  std::vector<uint8_t> buf;
  AppendLinkMessage(buf, RTM_NEWLINK, l, 3);
  auto parsed = ParseLinkMessage(Hdr(buf));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(*parsed, l);

  for (const AddrInfo& a : {AddrInfo{12, A("10.0.0.1"), 24}, AddrInfo{12, A("2001:db8::1"), 64}}) {
    std::vector<uint8_t> ab;
    AppendAddrMessage(ab, RTM_NEWADDR, a, 4);
    auto pa = ParseAddrMessage(Hdr(ab));
    ASSERT_TRUE(pa.ok()) << pa.status().ToString();
    EXPECT_EQ(*pa, a);
  }
}

// A VRF device and its slave: kind, table, alias and master survive the round trip.
TEST(LinkCodecTest, VrfDeviceAndSlaveRoundTrip) {
  LinkInfo vrf{20, "red", true, true, 65575, std::nullopt};
  vrf.kind = "vrf";
  vrf.vrf_table = 100;
  vrf.alias = "strata vr red";
  LinkInfo slave{12, "veth0", true, true, 1500, std::nullopt};
  slave.master = 20;
  slave.kind = "veth";
  for (const LinkInfo& l : {vrf, slave}) {
    std::vector<uint8_t> buf;
    AppendLinkMessage(buf, RTM_NEWLINK, l, 3);
    auto parsed = ParseLinkMessage(Hdr(buf));
    ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
    EXPECT_EQ(*parsed, l);
  }
}

// The requests carry what they set, and nothing else.
TEST(LinkCodecTest, VrfRequests) {
  std::vector<uint8_t> buf;
  AppendVrfCreate(buf, "blue", 101, 7);
  auto* nlh = reinterpret_cast<nlmsghdr*>(buf.data());
  EXPECT_EQ(nlh->nlmsg_type, RTM_NEWLINK);
  EXPECT_EQ(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL);
  EXPECT_EQ(nlh->nlmsg_seq, 7u);
  static_cast<ifinfomsg*>(mnl_nlmsg_get_payload(nlh))->ifi_index = 1;  // the parser needs one
  auto created = ParseLinkMessage(nlh);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(created->name, "blue");
  EXPECT_EQ(created->kind, "vrf");
  EXPECT_EQ(created->vrf_table, 101u);

  buf.clear();
  LinkSet set;
  set.ifindex = 12;
  set.master = 0;
  AppendLinkSet(buf, set, 8);
  nlh = reinterpret_cast<nlmsghdr*>(buf.data());
  EXPECT_EQ(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
  const auto* ifi = static_cast<const ifinfomsg*>(mnl_nlmsg_get_payload(nlh));
  EXPECT_EQ(ifi->ifi_change, 0u);  // the flags stay as they are
  std::array<const nlattr*, IFLA_MAX + 1> tb{};
  ASSERT_TRUE(ParseMessageAttrs(nlh, sizeof(ifinfomsg), tb));
  ASSERT_NE(tb[IFLA_MASTER], nullptr);
  EXPECT_EQ(mnl_attr_get_u32(tb[IFLA_MASTER]), 0u);
  EXPECT_EQ(tb[IFLA_IFNAME], nullptr);

  buf.clear();
  set = LinkSet();
  set.name = "blue";
  set.up = true;
  set.alias = "strata vr blue";
  AppendLinkSet(buf, set, 9);
  nlh = reinterpret_cast<nlmsghdr*>(buf.data());
  ifi = static_cast<const ifinfomsg*>(mnl_nlmsg_get_payload(nlh));
  EXPECT_EQ(ifi->ifi_index, 0);
  EXPECT_EQ(ifi->ifi_flags & IFF_UP, unsigned{IFF_UP});
  EXPECT_EQ(ifi->ifi_change, unsigned{IFF_UP});
  tb = {};
  ASSERT_TRUE(ParseMessageAttrs(nlh, sizeof(ifinfomsg), tb));
  EXPECT_STREQ(mnl_attr_get_str(tb[IFLA_IFNAME]), "blue");
  EXPECT_STREQ(mnl_attr_get_str(tb[IFLA_IFALIAS]), "strata vr blue");
  EXPECT_EQ(tb[IFLA_MASTER], nullptr);

  buf.clear();
  AppendLinkDelete(buf, 20, 10);
  nlh = reinterpret_cast<nlmsghdr*>(buf.data());
  EXPECT_EQ(nlh->nlmsg_type, RTM_DELLINK);
  EXPECT_EQ(static_cast<const ifinfomsg*>(mnl_nlmsg_get_payload(nlh))->ifi_index, 20);
}

// A VRF table attribute of the wrong size is an error, not a table.
TEST(LinkCodecTest, MalformedVrfAttributesAreErrors) {
  alignas(nlmsghdr) std::array<uint8_t, 256> b{};
  nlmsghdr* nlh = mnl_nlmsg_put_header(b.data());
  nlh->nlmsg_type = RTM_NEWLINK;
  auto* ifi = static_cast<ifinfomsg*>(mnl_nlmsg_put_extra_header(nlh, sizeof(ifinfomsg)));
  ifi->ifi_index = 3;
  mnl_attr_put_strz(nlh, IFLA_IFNAME, "red");
  nlattr* info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
  mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "vrf");
  nlattr* data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
  mnl_attr_put_u16(nlh, IFLA_VRF_TABLE, 100);
  mnl_attr_nest_end(nlh, data);
  mnl_attr_nest_end(nlh, info);
  EXPECT_FALSE(ParseLinkMessage(nlh).ok());
}

TEST(LinkCodecTest, MalformedLinkAndAddressMessagesAreErrors) {
  std::vector<uint8_t> buf;
  AppendLinkMessage(buf, RTM_NEWLINK, LinkInfo{0, "x", true, true, 1500, std::nullopt}, 1);
  EXPECT_FALSE(ParseLinkMessage(Hdr(buf)).ok());  // ifindex 0
  std::vector<uint8_t> ab;
  AppendAddrMessage(ab, RTM_NEWADDR, AddrInfo{1, A("10.0.0.1"), 24}, 1);
  static_cast<ifaddrmsg*>(NLMSG_DATA(reinterpret_cast<nlmsghdr*>(ab.data())))->ifa_prefixlen = 40;
  EXPECT_FALSE(ParseAddrMessage(Hdr(ab)).ok());
  static_cast<ifaddrmsg*>(NLMSG_DATA(reinterpret_cast<nlmsghdr*>(ab.data())))->ifa_family =
      AF_INET6;
  EXPECT_FALSE(ParseAddrMessage(Hdr(ab)).ok());  // 4-byte address in an IPv6 message
}

// A name the kernel cannot have (IFNAMSIZ bytes or more before its NUL) is refused, not kept
// whole: the FEA's own messages cut names to IFNAMSIZ - 1, so one kept would not round-trip.
TEST(LinkCodecTest, ALinkNameOfIfnamsizOrMoreIsRefused) {
  alignas(nlmsghdr) std::array<uint8_t, 256> raw{};
  nlmsghdr* nlh = mnl_nlmsg_put_header(raw.data());
  nlh->nlmsg_type = RTM_DELLINK;
  auto* ifi = static_cast<ifinfomsg*>(mnl_nlmsg_put_extra_header(nlh, sizeof(ifinfomsg)));
  ifi->ifi_index = 7;
  const std::string name(IFNAMSIZ, 'a');
  mnl_attr_put(nlh, IFLA_IFNAME, name.size(), name.data());  // no NUL within the attribute
  EXPECT_FALSE(ParseLinkMessage(nlh).ok());

  std::vector<uint8_t> buf;
  AppendLinkMessage(buf, RTM_NEWLINK,
                    LinkInfo{7, std::string(IFNAMSIZ - 1, 'b'), true, true, 1500, std::nullopt}, 1);
  auto parsed = ParseLinkMessage(Hdr(buf));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->name, std::string(IFNAMSIZ - 1, 'b'));
}

TEST(LinkCodecTest, ForEachMessageWalksABatchAndRejectsTruncation) {
  std::vector<uint8_t> buf;
  AppendLinkMessage(buf, RTM_NEWLINK, LinkInfo{1, "a", true, true, 1500, std::nullopt}, 1);
  AppendAddrMessage(buf, RTM_NEWADDR, AddrInfo{1, A("10.0.0.1"), 24}, 2);
  int n = 0;
  EXPECT_TRUE(ForEachMessage(buf.data(), buf.size(), [&](const nlmsghdr*) {
                ++n;
                return Status();
              }).ok());
  EXPECT_EQ(n, 2);
  EXPECT_FALSE(
      ForEachMessage(buf.data(), buf.size() - 3, [](const nlmsghdr*) { return Status(); }).ok());
}

}  // namespace
}  // namespace strata::fea::netlink
