// BfdSockets over loopback: two instances on port 0, each with its own session table, bring a
// single-hop and a multihop session Up through the real UDP sockets (TTL 255 sent, the TTL,
// destination and interface read back from each datagram), and a closed instance's sessions
// fail on the other side. Real sockets, so real time: each wait has a deadline.
#include "bfd/process/bfd_sockets.h"

#include <gtest/gtest.h>

#include "common/asio_clock.h"
#include "testing/common/value_literals.h"

namespace strata::bfd {
namespace {

using namespace std::chrono_literals;
using test_util::A;

struct Side {
  explicit Side(boost::asio::io_context& io)
      : clock(io),
        sockets(io, {0, 0, 0, 0}, [this](const ReceivedPacket& p) { OnPacket(p); }),
        table(clock, {.transmit = [this](const SessionKey& k, std::vector<uint8_t> bytes) {
                if (!sockets.Send(k, bytes).ok()) ++send_failures;
              }}) {}
  void OnPacket(const ReceivedPacket& p) {
    last = p;
    last_bytes.assign(p.bytes.begin(), p.bytes.end());
    last.bytes = last_bytes;
    table.Receive(p);
  }
  AsioClock clock;
  BfdSockets sockets;
  SessionTable table;
  ReceivedPacket last;
  std::vector<uint8_t> last_bytes;
  int send_failures = 0;
};

SessionParams Fast() {
  SessionParams p;
  p.desired_min_tx = p.required_min_rx = 20ms;
  return p;
}

bool RunUntil(boost::asio::io_context& io, const std::function<bool()>& done,
              std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!done() && std::chrono::steady_clock::now() < end) {
    io.restart();
    io.run_for(10ms);
  }
  return done();
}

TEST(BfdSocketsTest, SingleHopAndMultihopSessionsComeUpOverLoopback) {
  boost::asio::io_context io;
  Side a(io);
  Side b(io);
  ASSERT_TRUE(a.sockets.Open().ok());
  ASSERT_TRUE(b.sockets.Open().ok());
  ASSERT_NE(a.sockets.single_hop_port(), 0);
  ASSERT_NE(a.sockets.single_hop_port(), b.sockets.single_hop_port());
  a.sockets.set_peer_ports(b.sockets.single_hop_port(), b.sockets.multihop_port());
  b.sockets.set_peer_ports(a.sockets.single_hop_port(), a.sockets.multihop_port());
  const SessionKey single{.peer = A("127.0.0.1")};
  const SessionKey multi{.peer = A("127.0.0.1"), .local = A("127.0.0.1"), .multihop = true};
  for (Side* s : {&a, &b}) {
    s->table.Add(single, "test", Fast());
    s->table.Add(multi, "test", Fast());
  }
  auto all_up = [&] {
    for (Side* s : {&a, &b}) {
      for (const auto& [k, e] : s->table.entries()) {
        if (e.session->state() != SessionState::kUp) return false;
      }
    }
    return true;
  };
  ASSERT_TRUE(RunUntil(io, all_up, 5000ms));
  EXPECT_EQ(a.last.ttl, 255);
  EXPECT_EQ(a.last.source, A("127.0.0.1"));
  EXPECT_EQ(a.last.destination, A("127.0.0.1"));
  EXPECT_EQ(a.last.interface, "lo");
  EXPECT_EQ(a.table.drops().bad_ttl + a.table.drops().no_session + a.table.drops().malformed, 0u);
  EXPECT_EQ(a.send_failures, 0);

  // b goes silent: a's sessions fail within their Detection Time (3 x 20 ms) or so.
  b.sockets.Forget(single);
  b.sockets.Forget(multi);
  b.sockets.set_peer_ports(1, 1);  // nothing listens there
  auto a_down = [&] {
    for (const auto& [k, e] : a.table.entries()) {
      if (e.session->state() != SessionState::kDown) return false;
    }
    return true;
  };
  ASSERT_TRUE(RunUntil(io, a_down, 2000ms));
  EXPECT_EQ(a.table.Find(single)->session->local_diag(), Diag::kDetectionTimeExpired);
}

}  // namespace
}  // namespace strata::bfd
