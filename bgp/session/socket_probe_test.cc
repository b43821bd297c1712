// ProbeSessionSocket against the real kernel: what it accepts and what it refuses, naming the
// setting.
#include "bgp/session/socket_probe.h"

#include <gtest/gtest.h>

namespace strata::bgp {
namespace {

PeerConfig Config(std::string_view peer, std::string_view local) {
  PeerConfig c;
  c.peer_address = *IpAddr::Parse(peer);
  c.peer_as = 65002;
  c.local_as = 65001;
  c.router_id = *IpAddr::Parse("10.0.0.1");
  if (!local.empty()) c.local_address = *IpAddr::Parse(local);
  return c;
}

TEST(SocketProbeTest, AcceptsLocalAddressesTtlsAndKeys) {
  EXPECT_TRUE(ProbeSessionSocket(Config("127.0.0.3", "127.0.0.2")).ok());
  EXPECT_TRUE(ProbeSessionSocket(Config("127.0.0.3", "")).ok());
  PeerConfig gtsm = Config("127.0.0.3", "127.0.0.2");
  gtsm.ttl_security_hops = 1;
  gtsm.md5_password = std::string(80, 'k');
  EXPECT_TRUE(ProbeSessionSocket(gtsm).ok());
  PeerConfig v6 = Config("::1", "::1");
  v6.multihop_ttl = 5;
  v6.md5_password = "secret";
  EXPECT_TRUE(ProbeSessionSocket(v6).ok());
}

TEST(SocketProbeTest, RefusesAnAddressThisHostDoesNotHave) {
  Status s = ProbeSessionSocket(Config("127.0.0.3", "192.0.2.77"));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("local_address 192.0.2.77"), std::string::npos) << s.ToString();
}

TEST(SocketProbeTest, LocalAddressesOfBothFamilies) {
  EXPECT_TRUE(IsLocalAddress(*IpAddr::Parse("127.0.0.9")));
  EXPECT_TRUE(IsLocalAddress(*IpAddr::Parse("::1")));
  EXPECT_FALSE(IsLocalAddress(*IpAddr::Parse("192.0.2.77")));
  EXPECT_FALSE(IsLocalAddress(*IpAddr::Parse("2001:db8::77")));
}

// lo holds 127.0.0.1 and ::1, and loopback is never a next hop to send; an address on no
// interface has no sibling. (The interop test finds the IPv6 address of a veth interface.)
TEST(SocketProbeTest, TheOtherFamilysInterfaceAddressIsNeverLoopback) {
  EXPECT_EQ(InterfaceAddressOfFamily(*IpAddr::Parse("127.0.0.1"), Family::kIpv6), std::nullopt);
  EXPECT_EQ(InterfaceAddressOfFamily(*IpAddr::Parse("::1"), Family::kIpv4), std::nullopt);
  EXPECT_EQ(InterfaceAddressOfFamily(*IpAddr::Parse("192.0.2.77"), Family::kIpv6), std::nullopt);
}

TEST(SocketProbeTest, RefusesAKeyLongerThanTheKernelTakes) {
  // Longer than TCP_MD5SIG_MAXKEYLEN (SetTcpMd5Key checks before asking the kernel;
  // PeerConfig::Validate refuses it first in the speaker).
  PeerConfig c = Config("127.0.0.3", "127.0.0.2");
  c.md5_password = std::string(81, 'k');
  Status s = ProbeSessionSocket(c);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("md5_password"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace strata::bgp
