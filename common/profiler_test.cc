#include "common/profiler.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(ProfilerTest, PointsStartDisabledAndAreSharedByName) {
  Profiler& p = Profiler::Get();
  ProfilePoint& a = p.Point("test_point_a");
  EXPECT_FALSE(a.enabled());
  EXPECT_EQ(&a, &p.Point("test_point_a"));
  EXPECT_EQ(&a, p.Find("test_point_a"));
  EXPECT_EQ(nullptr, p.Find("test_point_nope"));
  bool listed = false;
  for (ProfilePoint* q : p.Points()) listed = listed || q == &a;
  EXPECT_TRUE(listed);
}

TEST(ProfilerTest, RecordsInOrderWithMonotonicTimesAndTakeEmpties) {
  ProfilePoint pt("t");
  pt.set_enabled(true);
  const int64_t before = ProfilePoint::NowNs();
  pt.Record("add 10.0.0.0/24");
  pt.Record("delete 10.0.0.0/24");
  const int64_t after = ProfilePoint::NowNs();
  auto r = pt.Take();
  ASSERT_EQ(2u, r.size());
  EXPECT_EQ("add 10.0.0.0/24", r[0].detail);
  EXPECT_EQ("delete 10.0.0.0/24", r[1].detail);
  EXPECT_LE(before, r[0].time_ns);
  EXPECT_LE(r[0].time_ns, r[1].time_ns);
  EXPECT_LE(r[1].time_ns, after);
  EXPECT_EQ(0u, pt.size());
  EXPECT_TRUE(pt.Take().empty());
}

TEST(ProfilerTest, OldestRecordsGoPastTheLimitAndAreCounted) {
  ProfilePoint pt("t");
  pt.set_limit(3);
  for (int i = 0; i < 5; ++i) pt.Record(std::to_string(i));
  EXPECT_EQ(2u, pt.dropped());
  auto r = pt.Take();
  ASSERT_EQ(3u, r.size());
  EXPECT_EQ("2", r[0].detail);
  EXPECT_EQ("4", r[2].detail);
}

}  // namespace
}  // namespace strata
