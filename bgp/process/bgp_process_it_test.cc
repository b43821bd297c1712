// Integration: strata-finder, two strata-rib and two strata-bgp processes (and a raw TCP speaker)
// driven with strata-call as an operator script would. Sessions run on 127.0.0.2/3/4 (all of
// 127/8 is on lo) at high ports.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "bgp/wire/capabilities.h"
#include "bgp/wire/message_header.h"
#include "bgp/wire/open_message.h"
#include "testing/process_harness.h"

namespace strata::bgp {
namespace {

using namespace std::chrono_literals;
using testing::ProcessHarness;

constexpr int kPort = 11791;

class BgpProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GT(h_.StartFinder(), 0);
    rib_a_ = StartRib("a");
    StartRib("b");
  }

  std::string Call(const std::string& xrl, int* rc = nullptr) {
    auto r = h_.Run({"strata-call", "finder://" + xrl});
    if (rc) *rc = r.exit_code;
    return r.out + r.err;
  }
  bool Ok(const std::string& xrl) {
    int rc = -1;
    const std::string out = Call(xrl, &rc);
    EXPECT_EQ(rc, 0) << xrl << ": " << out;
    return rc == 0;
  }
  pid_t StartRib(const std::string& vr) {
    const pid_t pid = h_.Start({"strata-rib", "--vr", vr}, "rib-" + vr);
    EXPECT_TRUE(ProcessHarness::WaitFor([&] {
      int rc = -1;
      Call("rib." + vr + "/rib/1.0/get_stats", &rc);
      return rc == 0;
    }));
    // The peers' addresses are reachable (what connected routes would say with an FEA).
    Ok("rib." + vr + "/rib/1.0/add_origin_table?protocol:txt=static&kind:txt=PROTOCOL_KIND_IGP");
    Ok("rib." + vr +
       "/rib/1.0/add_routes?protocol:txt=static&routes.0.prefix:ipv4net=127.0.0.0/8&"
       "routes.0.nexthop:ipv4=127.0.0.1");
    return pid;
  }
  pid_t StartBgp(const std::string& vr) {
    const pid_t pid = h_.Start({"strata-bgp", "--vr", vr}, "bgp-" + vr);
    EXPECT_TRUE(ProcessHarness::WaitFor([&] {
      int rc = -1;
      Call("bgp." + vr + "/bgp/1.0/get_stats", &rc);
      return rc == 0;
    }));
    return pid;
  }
  // AS 6500N on 127.0.0.(N+1), peering with the other.
  void Configure(const std::string& vr, int as, const std::string& me, int peer_as,
                 const std::string& peer, int port_number = kPort) {
    const std::string port = std::to_string(port_number);
    Ok("bgp." + vr + "/bgp/1.0/set_local_config?local_as:u32=" + std::to_string(as) +
       "&router_id:ipv4=" + me + "&listen_address:ipv4=" + me + "&port:u32=" + port);
    Ok("bgp." + vr + "/bgp/1.0/add_peer?peer:ipv4=" + peer + "&peer_as:u32=" +
       std::to_string(peer_as) + "&local_address:ipv4=" + me + "&peer_port:u32=" + port +
       "&connect_retry:u32=1&description:txt=to-" + peer + "&ebgp_requires_policy:bool=false");
  }
  // bgp.a (AS 65001, 127.0.0.2) and bgp.b (AS 65002, 127.0.0.3) peering on `port`, Established.
  void StartPair(int port) {
    StartBgp("a");
    StartBgp("b");
    Configure("a", 65001, "127.0.0.2", 65002, "127.0.0.3", port);
    Configure("b", 65002, "127.0.0.3", 65001, "127.0.0.2", port);
    ASSERT_TRUE(ProcessHarness::WaitFor(
        [&] { return Established("a", "127.0.0.3") && Established("b", "127.0.0.2"); }, 15s))
        << Call("bgp.b/bgp/1.0/list_peers") << h_.ReadLog("bgp-a") << h_.ReadLog("bgp-b");
  }
  bool Established(const std::string& vr, const std::string& peer) {
    return Call("bgp." + vr + "/bgp/1.0/list_peers?peer:ipv4=" + peer).find("Established") !=
           std::string::npos;
  }
  std::string Routes(const std::string& vr) { return Call("bgp." + vr + "/bgp/1.0/list_routes"); }
  std::string RibEbgp(const std::string& vr) {
    return Call("rib." + vr + "/rib/1.0/list_routes?protocol:txt=ebgp");
  }
  // The UPDATE messages bgp.<vr> received from `peer` (0 when not shown).
  uint64_t UpdatesIn(const std::string& vr, const std::string& peer) {
    const std::string out = Call("bgp." + vr + "/bgp/1.0/list_peers?peer:ipv4=" + peer);
    const std::string key = "updates_in:u64=";
    const auto at = out.find(key);
    return at == std::string::npos ? 0 : std::stoull(out.substr(at + key.size()));
  }
  static bool Has(const std::string& text, const std::string& what) {
    return text.find(what) != std::string::npos;
  }

  ProcessHarness h_;
  pid_t rib_a_ = -1;
};

TEST_F(BgpProcessTest, TwoSpeakersExchangeNetworksAndSurviveAKill) {
  pid_t a = StartBgp("a");
  StartBgp("b");
  Configure("a", 65001, "127.0.0.2", 65002, "127.0.0.3");
  Configure("b", 65002, "127.0.0.3", 65001, "127.0.0.2");
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] { return Established("a", "127.0.0.3") && Established("b", "127.0.0.2"); }, 15s))
      << Call("bgp.a/bgp/1.0/list_peers") << h_.ReadLog("bgp-a");

  Ok("bgp.a/bgp/1.0/add_network?prefix:ipv4net=10.1.0.0/16");
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return Has(RibEbgp("b"), "10.1.0.0/16"); }))
      << RibEbgp("b") << Routes("b");
  const std::string routes = Routes("b");
  EXPECT_TRUE(Has(routes, "as_path:txt=65001&")) << routes;
  EXPECT_TRUE(Has(routes, "nexthop:ipv4=127.0.0.2")) << routes;
  EXPECT_TRUE(Has(RibEbgp("b"), "nexthop:ipv4=127.0.0.2"));

  Ok("bgp.a/bgp/1.0/delete_network?prefix:ipv4net=10.1.0.0/16");
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] { return !Has(RibEbgp("b"), "10.1.0.0/16") && !Has(Routes("b"), "10.1.0.0/16"); }));
  EXPECT_FALSE(Has(Routes("a"), "10.1.0.0/16"));

  // Kill a: b sees the session go; a negotiated graceful restart, so b keeps its route, stale,
  // in its RIB (RFC 4724 helper) until a comes back.
  Ok("bgp.a/bgp/1.0/add_network?prefix:ipv4net=10.2.0.0/16");
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return Has(RibEbgp("b"), "10.2.0.0/16"); }));
  h_.Kill(a, SIGKILL);
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return !Established("b", "127.0.0.2"); }, 10s))
      << Call("bgp.b/bgp/1.0/list_peers");
  const std::string down = Call("bgp.b/bgp/1.0/list_peers");
  EXPECT_TRUE(Has(down, "stale_routes:u64=1&")) << down;
  EXPECT_TRUE(Has(down, "peer_restarting:bool=true")) << down;
  EXPECT_TRUE(Has(RibEbgp("b"), "10.2.0.0/16"));
  // Restart a with the same configuration: everything comes back.
  a = StartBgp("a");
  Configure("a", 65001, "127.0.0.2", 65002, "127.0.0.3");
  Ok("bgp.a/bgp/1.0/add_network?prefix:ipv4net=10.2.0.0/16");
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] { return Established("b", "127.0.0.2") && Has(RibEbgp("b"), "10.2.0.0/16"); }, 20s))
      << Call("bgp.b/bgp/1.0/list_peers") << h_.ReadLog("bgp-b");
  const std::string peers = Call("bgp.b/bgp/1.0/list_peers");
  EXPECT_TRUE(Has(peers, "established_transitions:u64=2&")) << peers;
  EXPECT_TRUE(Has(peers, "prefixes_received:u64=1&")) << peers;
  // a's End-of-RIB ends the helper's stale period.
  ASSERT_TRUE(ProcessHarness::WaitFor([&] {
    return Has(Call("bgp.b/bgp/1.0/list_peers"), "stale_routes:u64=0&");
  })) << Call("bgp.b/bgp/1.0/list_peers");
}

// strata-rib of a is SIGKILLed and started again (empty, its static routes configured again but
// one, within strata-bgp's settle time after the new RIB's dump): strata-bgp keeps the routes,
// stale, while the RIB is away, subscribes to the new RIB's redistribution and then withdraws
// only the static route the new RIB lacks. b hears nothing while the RIB is away and never loses
// the route the new RIB has again. Ports 12800.. (this test's range).
TEST_F(BgpProcessTest, RedistributedRoutesFollowARestartedRib) {
  constexpr int kRedistPort = 12802;
  StartPair(kRedistPort);
  if (HasFatalFailure()) return;
  Ok("bgp.a/bgp/1.0/set_redistribute?protocols:list<txt>=static");
  const auto add_static = [&](const std::string& prefix) {
    return Ok("rib.a/rib/1.0/add_routes?protocol:txt=static&routes.0.prefix:ipv4net=" + prefix +
              "&routes.0.nexthop:ipv4=127.0.0.1");
  };
  ASSERT_TRUE(add_static("10.5.0.0/16"));
  ASSERT_TRUE(add_static("10.6.0.0/16"));
  ASSERT_TRUE(ProcessHarness::WaitFor([&] {
    return Has(RibEbgp("b"), "10.5.0.0/16") && Has(RibEbgp("b"), "10.6.0.0/16");
  })) << RibEbgp("b")
      << h_.ReadLog("bgp-a");
  const uint64_t updates = UpdatesIn("b", "127.0.0.2");

  h_.Kill(rib_a_, SIGKILL);
  std::this_thread::sleep_for(1s);  // bgp.a hears of the death
  EXPECT_TRUE(Has(RibEbgp("b"), "10.5.0.0/16") && Has(RibEbgp("b"), "10.6.0.0/16"));
  EXPECT_EQ(UpdatesIn("b", "127.0.0.2"), updates);
  rib_a_ = StartRib("a");  // the origin table and 127/8 again
  ASSERT_TRUE(add_static("10.6.0.0/16"));
  ASSERT_TRUE(add_static("10.7.0.0/16"));
  bool lost_10_6 = false;
  ASSERT_TRUE(ProcessHarness::WaitFor(
      [&] {
        const std::string rib = RibEbgp("b");
        lost_10_6 = lost_10_6 || !Has(rib, "10.6.0.0/16");
        return !Has(rib, "10.5.0.0/16") && Has(rib, "10.6.0.0/16") && Has(rib, "10.7.0.0/16");
      },
      20s))
      << RibEbgp("b") << h_.ReadLog("bgp-a");
  EXPECT_FALSE(lost_10_6);
  // More UPDATEs than the two differences reach b (the new RIB's next hop answers re-announce
  // routes), but none took 10.6.0.0/16 away.
  EXPECT_GE(UpdatesIn("b", "127.0.0.2"), updates + 2);
  EXPECT_TRUE(Established("b", "127.0.0.2"));
  // Still subscribed: a later delete reaches b.
  Ok("rib.a/rib/1.0/delete_routes?protocol:txt=static&prefixes:list<ipv4net>=10.6.0.0/16");
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return !Has(RibEbgp("b"), "10.6.0.0/16"); }))
      << RibEbgp("b");
  EXPECT_TRUE(Has(RibEbgp("b"), "10.7.0.0/16"));
}

// strata-fea --no-kernel reads the host's interfaces; lo bound to VR a gives rib.a the connected
// route 127.0.0.0/8, which bgp.a redistributes to b until lo is unbound.
TEST_F(BgpProcessTest, ConnectedRouteOfARealFeaIsRedistributed) {
  constexpr int kConnectedPort = 12803;
  h_.Start({"strata-fea", "--no-kernel"}, "fea");
  ASSERT_TRUE(ProcessHarness::WaitFor([&] {
    int rc = -1;
    Call("fea/fea/1.0/get_stats", &rc);
    return rc == 0;
  })) << h_.ReadLog("fea");
  StartPair(kConnectedPort);
  if (HasFatalFailure()) return;
  Ok("bgp.a/bgp/1.0/set_redistribute?protocols:list<txt>=connected");
  Ok("fea/fea/1.0/add_vr?vr:txt=a");
  Ok("fea/fea/1.0/bind_interface?interface:txt=lo&vr:txt=a");
  const auto connected = [&] { return Call("rib.a/rib/1.0/list_routes?protocol:txt=connected"); };
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return Has(connected(), "127.0.0.0/8"); }))
      << connected() << h_.ReadLog("rib-a");
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return Has(RibEbgp("b"), "127.0.0.0/8"); }))
      << RibEbgp("b") << h_.ReadLog("bgp-a");
  EXPECT_TRUE(Has(Routes("b"), "as_path:txt=65001&")) << Routes("b");

  Ok("fea/fea/1.0/unbind_interface?interface:txt=lo");
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return !Has(connected(), "127.0.0.0/8"); }))
      << connected();
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return !Has(RibEbgp("b"), "127.0.0.0/8"); }))
      << RibEbgp("b");
}

// A raw speaker (AS 65004 on 127.0.0.4) that completes the OPEN exchange by hand.
class RawSpeaker {
 public:
  bool Connect(const std::string& to, int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in local{};
    local.sin_family = AF_INET;
    ::inet_pton(AF_INET, "127.0.0.4", &local.sin_addr);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) return false;
    sockaddr_in remote{};
    remote.sin_family = AF_INET;
    remote.sin_port = htons(static_cast<uint16_t>(port));
    ::inet_pton(AF_INET, to.c_str(), &remote.sin_addr);
    return ::connect(fd_, reinterpret_cast<sockaddr*>(&remote), sizeof remote) == 0;
  }
  ~RawSpeaker() {
    if (fd_ >= 0) ::close(fd_);
  }
  void Send(const std::vector<uint8_t>& m) {
    ASSERT_EQ(::send(fd_, m.data(), m.size(), MSG_NOSIGNAL), static_cast<ssize_t>(m.size()));
  }
  // Reads one whole message; its type (0 on error).
  int Read() {
    uint8_t header[19];
    if (!ReadN(header, sizeof header)) return 0;
    const size_t len = (header[16] << 8) | header[17];
    std::vector<uint8_t> body(len - 19);
    if (!ReadN(body.data(), body.size())) return 0;
    return header[18];
  }
  // An UPDATE announcing 10.<second_octet>.0.0/16 with ORIGIN `origin` (4-octet AS path: our
  // OPEN carries the 4-octet AS capability).
  // 10.<second_octet>.0.0/16 from AS 65004, NEXT_HOP 127.0.0.<next_hop_last>.
  static std::vector<uint8_t> Update(uint8_t second_octet, uint8_t origin,
                                     uint8_t next_hop_last = 4) {
    std::vector<uint8_t> attrs = {0x40, 1,    1, origin,  // ORIGIN
                                  0x40, 2,    6, 2,      1, 0, 0,
                                  0xFD, 0xEC,                                   // AS_PATH 65004
                                  0x40, 3,    4, 127,    0, 0, next_hop_last};  // NEXT_HOP
    std::vector<uint8_t> m(16, 0xFF);
    const size_t len = 19 + 2 + 2 + attrs.size() + 3;
    m.push_back(static_cast<uint8_t>(len >> 8));
    m.push_back(static_cast<uint8_t>(len));
    m.push_back(2);
    m.push_back(0);
    m.push_back(0);
    m.push_back(0);
    m.push_back(static_cast<uint8_t>(attrs.size()));
    m.insert(m.end(), attrs.begin(), attrs.end());
    m.push_back(16);
    m.push_back(10);
    m.push_back(second_octet);
    return m;
  }

 private:
  bool ReadN(uint8_t* p, size_t n) {
    while (n > 0) {
      const ssize_t got = ::recv(fd_, p, n, 0);
      if (got <= 0) return false;
      p += got;
      n -= static_cast<size_t>(got);
    }
    return true;
  }
  int fd_ = -1;
};

TEST_F(BgpProcessTest, MalformedUpdateIsTreatedAsWithdrawAndTheSessionSurvives) {
  StartBgp("b");
  const std::string port = std::to_string(kPort + 1);
  Ok("bgp.b/bgp/1.0/set_local_config?local_as:u32=65002&router_id:ipv4=127.0.0.3&"
     "listen_address:ipv4=127.0.0.3&port:u32=" +
     port);
  Ok("bgp.b/bgp/1.0/add_peer?peer:ipv4=127.0.0.4&peer_as:u32=65004&passive:bool=true&"
     "ipv6_unicast:bool=false&ebgp_requires_policy:bool=false");
  RawSpeaker raw;
  ASSERT_TRUE(raw.Connect("127.0.0.3", kPort + 1));
  raw.Send(EncodeOpen(OpenMessage::Make(65004, 90, *IpAddr::Parse("127.0.0.4"), Capabilities{})));
  ASSERT_EQ(raw.Read(), 1);  // OPEN
  ASSERT_EQ(raw.Read(), 4);  // KEEPALIVE
  raw.Send(EncodeKeepalive());
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return Established("b", "127.0.0.4"); }));

  raw.Send(RawSpeaker::Update(9, 7));  // ORIGIN 7 is malformed: treat-as-withdraw (RFC 7606 7.1)
  raw.Send(RawSpeaker::Update(8, 0));  // a good one after it
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return Has(Routes("b"), "10.8.0.0/16"); }))
      << Routes("b") << h_.ReadLog("bgp-b");
  EXPECT_FALSE(Has(Routes("b"), "10.9.0.0/16"));
  const std::string peers = Call("bgp.b/bgp/1.0/list_peers?peer:ipv4=127.0.0.4");
  EXPECT_TRUE(Has(peers, "Established")) << peers;
  EXPECT_TRUE(Has(peers, "malformed_updates:u64=1")) << peers;
  EXPECT_TRUE(Has(RibEbgp("b"), "10.8.0.0/16"));
  EXPECT_TRUE(Has(Call("bgp.b/bgp/1.0/get_stats"), "peers_established:u64=1"));

  // Our own address as NEXT_HOP (RFC 4271 6.3): ignored, the session stays.
  raw.Send(RawSpeaker::Update(7, 0, /*next_hop_last=*/3));
  raw.Send(RawSpeaker::Update(6, 0));
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return Has(Routes("b"), "10.6.0.0/16"); }));
  EXPECT_FALSE(Has(Routes("b"), "10.7.0.0/16"));
  // Neither route is held, so only the discarded view shows them, oldest first, with why.
  const std::string discarded =
      Call("bgp.b/bgp/1.0/list_peer_routes?peer:ipv4=127.0.0.4&view:txt=PEER_ROUTE_VIEW_DISCARDED");
  EXPECT_TRUE(Has(discarded, "routes.0.route.prefix:ipv4net=10.9.0.0/16")) << discarded;
  EXPECT_TRUE(Has(discarded, "routes.0.fate:txt=ROUTE_FATE_MALFORMED")) << discarded;
  EXPECT_TRUE(Has(discarded, "treat-as-withdraw")) << discarded;
  EXPECT_TRUE(Has(discarded, "routes.1.route.prefix:ipv4net=10.7.0.0/16")) << discarded;
  EXPECT_TRUE(Has(discarded, "routes.1.fate:txt=ROUTE_FATE_OWN_NEXTHOP")) << discarded;
  EXPECT_TRUE(Has(discarded, "NEXT_HOP%20127.0.0.3%20is%20our%20address")) << discarded;
  EXPECT_FALSE(Has(discarded, "10.8.0.0/16")) << discarded;
  EXPECT_TRUE(Has(discarded, "routes.0.unix_ms:i64=")) << discarded;
}

// change_peer through strata-call is all or nothing: a value the speaker or the kernel refuses
// gets an error exit, and the session, its settings and its routes stay as they were.
TEST_F(BgpProcessTest, ChangePeerWithABadValueFailsAndChangesNothing) {
  constexpr int kChangePort = 12360;
  StartPair(kChangePort);
  if (HasFatalFailure()) return;
  Ok("bgp.a/bgp/1.0/add_network?prefix:ipv4net=10.1.0.0/16");
  ASSERT_TRUE(ProcessHarness::WaitFor([&] { return Has(RibEbgp("b"), "10.1.0.0/16"); }));

  const std::string change =
      "bgp.b/bgp/1.0/change_peer?peer:ipv4=127.0.0.2&peer_as:u32=65001&"
      "peer_port:u32=" +
      std::to_string(kChangePort) + "&connect_retry:u32=1&ebgp_requires_policy:bool=false";
  int rc = 0;
  std::string out = Call(change + "&local_address:ipv4=192.0.2.77&description:txt=x", &rc);
  EXPECT_NE(rc, 0) << out;
  EXPECT_TRUE(Has(out, "local_address")) << out;
  out =
      Call(change + "&local_address:ipv4=127.0.0.3&md5_password:txt=" + std::string(81, 'k'), &rc);
  EXPECT_NE(rc, 0) << out;
  EXPECT_TRUE(Has(out, "md5_password")) << out;

  const std::string peers = Call("bgp.b/bgp/1.0/list_peers?peer:ipv4=127.0.0.2");
  EXPECT_TRUE(Has(peers, "Established")) << peers;
  EXPECT_TRUE(Has(peers, "established_transitions:u64=1&")) << peers;
  EXPECT_TRUE(Has(peers, "description:txt=to-127.0.0.2")) << peers;
  EXPECT_TRUE(Has(RibEbgp("b"), "10.1.0.0/16"));
  // A good change of the description goes through in place.
  Ok(change + "&local_address:ipv4=127.0.0.3&description:txt=changed");
  const std::string after = Call("bgp.b/bgp/1.0/list_peers?peer:ipv4=127.0.0.2");
  EXPECT_TRUE(Has(after, "description:txt=changed")) << after;
  EXPECT_TRUE(Has(after, "established_transitions:u64=1&")) << after;
}

}  // namespace
}  // namespace strata::bgp
