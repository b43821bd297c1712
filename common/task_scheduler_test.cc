#include "common/task_scheduler.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace strata {
namespace {

TEST(TaskSchedulerTest, RunsTasksRoundRobinUntilDone) {
  TaskScheduler s;
  int wakeups = 0;
  s.set_wakeup([&] { ++wakeups; });
  std::string trace;
  int a = 3, b = 2;
  bool a_done = false;
  TaskHandle ha = s.add(
      "a",
      [&] {
        trace += 'a';
        return --a > 0;
      },
      [&] { a_done = true; });
  TaskHandle hb = s.add("b", [&] {
    trace += 'b';
    return --b > 0;
  });
  EXPECT_EQ(wakeups, 1);
  EXPECT_EQ(s.run_until_idle(), 5u);
  EXPECT_EQ(trace, "ababa");
  EXPECT_TRUE(a_done);
  EXPECT_FALSE(ha.active());
}

TEST(TaskSchedulerTest, DestroyingTheHandleCancels) {
  TaskScheduler s;
  int runs = 0;
  {
    TaskHandle h = s.add("t", [&] {
      ++runs;
      return true;
    });
    EXPECT_TRUE(h.active());
    s.run_slice();
  }
  EXPECT_EQ(s.pending(), 0u);
  EXPECT_FALSE(s.run_slice());
  EXPECT_EQ(runs, 1);
}

TEST(TaskSchedulerTest, DoneCallbackMayDestroyTheOwner) {
  TaskScheduler s;
  struct Owner {
    TaskHandle h;
  };
  auto owner = std::make_unique<Owner>();
  owner->h = s.add(
      "t", [] { return false; }, [&] { owner.reset(); });
  s.run_until_idle();
  EXPECT_EQ(owner, nullptr);
}

}  // namespace
}  // namespace strata
