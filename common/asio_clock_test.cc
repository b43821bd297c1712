// AsioClock: timers fire on the io_context at their time, can be moved and stopped, and never
// fire after their destruction.
#include "common/asio_clock.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

using namespace std::chrono_literals;

TEST(AsioClockTest, TimersFireMoveAndStop) {
  boost::asio::io_context io;
  AsioClock clock(io);
  int fired_a = 0;
  int fired_b = 0;
  auto a = clock.make_timer([&] { ++fired_a; });
  auto b = clock.make_timer([&] { ++fired_b; });
  const auto start = clock.now();
  a->start_at(start + 20ms);
  a->start_at(start + 40ms);  // moved: fires once, not before 40 ms
  b->start_at(start + 10ms);
  b->stop();
  auto c = clock.make_timer([] { FAIL() << "destroyed timer fired"; });
  c->start_at(start);
  c.reset();
  io.run_for(20ms);
  EXPECT_EQ(fired_a, 0);
  io.restart();
  io.run_for(100ms);
  EXPECT_EQ(fired_a, 1);
  EXPECT_EQ(fired_b, 0);
  EXPECT_GE(clock.now() - start, 40ms);
}

}  // namespace
}  // namespace strata
