// AsioTimer on a real io_context: expiry, Stop, and restarts that push the deadline later
// (kept by the pending wait) or earlier (a new wait).
#include "bgp/session/asio_timer.h"

#include <gtest/gtest.h>

#include <chrono>

namespace strata::bgp {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class AsioTimerTest : public ::testing::Test {
 protected:
  // Runs the io_context until `done` or 2 s.
  void RunUntil(const std::function<bool()>& done) {
    const auto end = Clock::now() + 2s;
    while (!done() && Clock::now() < end) {
      io.restart();
      io.run_for(1ms);
    }
  }
  boost::asio::io_context io;
  int fired = 0;
  Clock::time_point fired_at;
  AsioTimer timer{io, [this] {
                    ++fired;
                    fired_at = Clock::now();
                  }};
};

TEST_F(AsioTimerTest, FiresOnceAfterItsDuration) {
  const auto start = Clock::now();
  timer.Start(20ms);
  EXPECT_TRUE(timer.running());
  RunUntil([&] { return fired > 0; });
  EXPECT_EQ(fired, 1);
  EXPECT_GE(fired_at - start, 20ms);
  EXPECT_FALSE(timer.running());
  io.restart();
  io.run_for(30ms);
  EXPECT_EQ(fired, 1);
}

TEST_F(AsioTimerTest, RestartsPushTheDeadlineLater) {
  const auto start = Clock::now();
  timer.Start(30ms);
  // Restarted every 10 ms for 100 ms, as a hold timer by each message: never fires meanwhile.
  Clock::time_point last;
  while (Clock::now() - start < 100ms) {
    last = Clock::now();
    timer.Start(30ms);
    io.restart();
    io.run_for(10ms);
    ASSERT_EQ(fired, 0);
  }
  RunUntil([&] { return fired > 0; });
  EXPECT_EQ(fired, 1);
  EXPECT_GE(fired_at - last, 30ms);
}

TEST_F(AsioTimerTest, AShorterRestartFiresSooner) {
  const auto start = Clock::now();
  timer.Start(1s);
  timer.Start(20ms);
  RunUntil([&] { return fired > 0; });
  EXPECT_EQ(fired, 1);
  EXPECT_LT(fired_at - start, 500ms);
}

TEST_F(AsioTimerTest, StopCancelsAndStartArmsAgain) {
  timer.Start(20ms);
  timer.Start(40ms);  // kept by the pending wait
  timer.Stop();
  EXPECT_FALSE(timer.running());
  io.restart();
  io.run_for(80ms);
  EXPECT_EQ(fired, 0);
  timer.Start(10ms);
  RunUntil([&] { return fired > 0; });
  EXPECT_EQ(fired, 1);
}

}  // namespace
}  // namespace strata::bgp
