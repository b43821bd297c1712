// TcpConnection on loopback sockets: input flow control (SetReadPaused).
#include "bgp/session/tcp_connection.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace strata::bgp {
namespace {

using boost::asio::ip::tcp;
using namespace std::chrono_literals;

class TcpConnectionTest : public ::testing::Test {
 protected:
  TcpConnectionTest() : acceptor(io, tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0)) {
    client.connect(acceptor.local_endpoint());
    conn = std::make_shared<TcpConnection>(acceptor.accept());
  }
  ~TcpConnectionTest() override { conn->Abort(); }

  void Write(const std::string& s) { boost::asio::write(client, boost::asio::buffer(s)); }
  // Runs the loop until `received` has n bytes or the time is up.
  void RunUntil(size_t n, std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (received.size() < n && std::chrono::steady_clock::now() < end) {
      io.run_for(5ms);
      io.restart();
    }
  }

  boost::asio::io_context io;
  tcp::acceptor acceptor;
  tcp::socket client{io};
  std::shared_ptr<TcpConnection> conn;
  std::string received;
};

TEST_F(TcpConnectionTest, PausedConnectionReadsNothingUntilResumed) {
  TcpConnection::Handlers h;
  h.on_bytes = [this](std::span<const uint8_t> b) {
    received.append(b.begin(), b.end());
    conn->SetReadPaused(true);  // as the speaker does when its queues are full
  };
  conn->StartReading(std::move(h));
  Write("a");
  RunUntil(1, 2000ms);
  EXPECT_EQ(received, "a");
  EXPECT_TRUE(conn->read_paused());
  Write("b");
  RunUntil(2, 100ms);
  EXPECT_EQ(received, "a");  // the byte waits in the socket
  conn->SetReadPaused(false);
  RunUntil(2, 2000ms);
  EXPECT_EQ(received, "ab");
}

TEST_F(TcpConnectionTest, PausedBeforeStartReadsOnlyAfterResume) {
  conn->SetReadPaused(true);
  TcpConnection::Handlers h;
  h.on_bytes = [this](std::span<const uint8_t> b) { received.append(b.begin(), b.end()); };
  conn->StartReading(std::move(h));
  Write("xyz");
  RunUntil(3, 100ms);
  EXPECT_EQ(received, "");
  conn->SetReadPaused(false);
  conn->SetReadPaused(false);  // twice: still one read at a time
  RunUntil(3, 2000ms);
  EXPECT_EQ(received, "xyz");
}

}  // namespace
}  // namespace strata::bgp
