// Netlink wire format without a kernel: every message the FEA builds parses back to the value
// it came from, and malformed bytes become errors.
#include <gtest/gtest.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <cstring>

#include "fea/netlink/link_codec.h"
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
  KernelRoute r{100, P("192.0.2.0/24"), 196, 20, false, {{A("10.0.0.2"), 3, 1}}};
  EXPECT_EQ(RoundTrip({KernelOpType::kAdd, r}), r);
  std::vector<uint8_t> buf;
  ASSERT_TRUE(AppendRouteRequest(buf, {KernelOpType::kAdd, r}, 1).ok());
  EXPECT_EQ(Hdr(buf)->nlmsg_type, RTM_NEWROUTE);
  EXPECT_EQ(Hdr(buf)->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL);
}

TEST(RouteCodecTest, Ipv6EcmpRoundTripsWithWeights) {
  KernelRoute r{101,   P("2001:db8:1::/48"),
                196,   20,
                false, {{A("fe80::1"), 4, 1}, {A("fe80::2"), 5, 3}, {std::nullopt, 6, 256}}};
  EXPECT_EQ(RoundTrip({KernelOpType::kReplace, r}), r);
}

TEST(RouteCodecTest, ConnectedAndBlackholeAndLargeTableRoundTrip) {
  KernelRoute connected{7, P("10.1.0.0/16"), 196, 0, false, {{std::nullopt, 9, 1}}};
  EXPECT_EQ(RoundTrip({KernelOpType::kAdd, connected}), connected);
  KernelRoute blackhole{70000, P("0.0.0.0/0"), 196, 5, true, {}};
  EXPECT_EQ(RoundTrip({KernelOpType::kAdd, blackhole}), blackhole);
}

TEST(RouteCodecTest, DeleteNamesProtocolAndMetricButNoNextHops) {
  KernelRoute r{100, P("192.0.2.0/24"), 196, 20, false, {{A("10.0.0.2"), 3, 1}}};
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
  KernelRoute r{255, P("10.0.0.1/32"), 2, 0, false, {{std::nullopt, 1, 1}}};
  std::vector<uint8_t> buf;
  ASSERT_TRUE(AppendRouteRequest(buf, {KernelOpType::kAdd, r}, 1).ok());
  auto* rtm = static_cast<rtmsg*>(NLMSG_DATA(reinterpret_cast<nlmsghdr*>(buf.data())));
  rtm->rtm_type = RTN_LOCAL;
  auto parsed = ParseRouteMessage(Hdr(buf));
  ASSERT_TRUE(parsed.ok());
  EXPECT_FALSE(parsed->has_value());
}

TEST(RouteCodecTest, MalformedMessagesAreErrors) {
  KernelRoute r{100, P("192.0.2.0/24"), 196, 20, false, {{A("10.0.0.2"), 3, 1}}};
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
  KernelRoute r6{100, P("2001:db8::/32"), 196, 20, false, {{A("2001:db8::1"), 3, 1}}};
  ASSERT_TRUE(AppendRouteRequest(b6, {KernelOpType::kAdd, r6}, 1).ok());
  static_cast<rtmsg*>(NLMSG_DATA(reinterpret_cast<nlmsghdr*>(b6.data())))->rtm_family = AF_INET;
  EXPECT_FALSE(ParseRouteMessage(Hdr(b6)).ok());
}

TEST(RouteCodecTest, RefusesTooManyNextHops) {
  KernelRoute r{100, P("192.0.2.0/24"), 196, 20, false, {}};
  for (uint32_t i = 0; i <= kMaxNextHops; ++i) r.nexthops.push_back({A("10.0.0.2"), i + 1, 1});
  std::vector<uint8_t> buf;
  EXPECT_FALSE(AppendRouteRequest(buf, {KernelOpType::kAdd, r}, 1).ok());
  EXPECT_TRUE(buf.empty());
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
