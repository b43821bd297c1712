// BgpListener against the real kernel: a dual-stack listener takes IPv4 and IPv6 connections on
// one port and hands each to the peer registered for its address.
#include "bgp/session/bgp_listener.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "bgp/session/asio_address.h"

namespace strata::bgp {
namespace {

using tcp = boost::asio::ip::tcp;
using namespace std::chrono_literals;

TEST(BgpListenerTest, DualStackTakesBothFamiliesOnOnePort) {
  boost::asio::io_context io;
  auto l = BgpListener::OpenDualStack(io, 0);
  ASSERT_TRUE(l.ok()) << l.status().ToString();
  const auto eps = (*l)->endpoints();
  ASSERT_EQ(eps.size(), 2u);
  EXPECT_TRUE(eps[0].address().is_v4());
  EXPECT_TRUE(eps[1].address().is_v6());
  EXPECT_NE(eps[0].port(), 0);
  EXPECT_EQ(eps[0].port(), eps[1].port());

  std::vector<std::string> accepted;
  for (const char* peer : {"127.0.0.1", "::1"}) {
    ASSERT_TRUE((*l)->AddPeer(*IpAddr::Parse(peer),
                              [&accepted, peer](tcp::socket) { accepted.push_back(peer); })
                    .ok());
  }
  tcp::socket v4(io), v6(io);
  v4.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), eps[0].port()));
  v6.connect(tcp::endpoint(boost::asio::ip::make_address("::1"), eps[0].port()));
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (accepted.size() < 2 && std::chrono::steady_clock::now() < deadline) io.run_one_for(50ms);
  std::sort(accepted.begin(), accepted.end());
  EXPECT_EQ(accepted, (std::vector<std::string>{"127.0.0.1", "::1"}));
  EXPECT_EQ((*l)->rejected(), 0u);
}

TEST(BgpListenerTest, DualStackOnAPortTakenIsAnError) {
  boost::asio::io_context io;
  auto first = BgpListener::OpenDualStack(io, 0);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  const uint16_t port = (*first)->endpoints()[0].port();
  auto second = BgpListener::OpenDualStack(io, port);
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(second.status().message().find("port " + std::to_string(port)), std::string::npos)
      << second.status().ToString();
}

// SO_BINDTODEVICE: a listener bound to a device takes connections arriving there, and listeners
// bound to two devices share a port (as two VRs' do). Binding needs CAP_NET_RAW.
TEST(BgpListenerTest, BoundToADevice) {
  if (::geteuid() != 0) GTEST_SKIP() << "SO_BINDTODEVICE needs root";
  boost::asio::io_context io;
  auto l = BgpListener::Open(io, {tcp::endpoint(tcp::v4(), 0)}, "lo");
  ASSERT_TRUE(l.ok()) << l.status().ToString();
  const uint16_t port = (*l)->endpoints()[0].port();
  bool accepted = false;
  ASSERT_TRUE(
      (*l)->AddPeer(*IpAddr::Parse("127.0.0.1"), [&](tcp::socket) { accepted = true; }).ok());
  tcp::socket c(io);
  c.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!accepted && std::chrono::steady_clock::now() < deadline) io.run_one_for(50ms);
  EXPECT_TRUE(accepted);
  // An unbound listener cannot share the port; no such device is an error.
  EXPECT_FALSE(BgpListener::Open(io, {tcp::endpoint(tcp::v4(), port)}).ok());
  EXPECT_FALSE(BgpListener::Open(io, {tcp::endpoint(tcp::v4(), 0)}, "nosuchdev0").ok());
}

}  // namespace
}  // namespace strata::bgp
