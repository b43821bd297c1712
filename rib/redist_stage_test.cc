#include "rib/redist_stage.h"

#include <gtest/gtest.h>

#include "rib/merge_stage.h"
#include "rib/origin_table.h"
#include "testing/rib/recording_stage.h"
#include "testing/rib/rib_test_util.h"

namespace strata::rib {
namespace {

using test_util::P;
using test_util::Route;
using Strings = std::vector<std::string>;

class Collect : public RedistOutput {
 public:
  void redist_add(const RouteRef& r) override { log.push_back("+" + r->prefix.ToString()); }
  void redist_delete(const RouteRef& r) override { log.push_back("-" + r->prefix.ToString()); }
  void redist_dump_done() override { log.push_back("done"); }
  Strings log;
};

class RedistStageTest : public ::testing::Test {
 protected:
  RedistStageTest()
      : stat_("static", ProtocolKind::kIgp, 1, sched_),
        ospf_("ospf", ProtocolKind::kIgp, 110, sched_),
        merge_("merge", &stat_, &ospf_),
        redist_(&merge_, sched_, 2),
        rec_(&redist_) {
    stat_.set_next(&merge_);
    ospf_.set_next(&merge_);
    merge_.set_next(&redist_);
    redist_.set_next(&rec_);
  }
  TaskScheduler sched_;
  OriginTable stat_;
  OriginTable ospf_;
  MergeStage merge_;
  RedistStage redist_;
  RecordingStage rec_;
};

TEST_F(RedistStageTest, DumpThenChangesOfTheRequestedProtocols) {
  ASSERT_TRUE(stat_.add(Route("10.0.0.0/8", "192.0.2.1")).ok());
  ASSERT_TRUE(ospf_.add(Route("10.1.0.0/16", "192.0.2.1")).ok());
  Collect out;
  redist_.subscribe(RedistFilter{{"static"}, {}, {}}, &out);
  sched_.run_until_idle();
  EXPECT_EQ(out.log, (Strings{"+10.0.0.0/8", "done"}));
  ASSERT_TRUE(stat_.add(Route("10.1.0.0/16", "192.0.2.1")).ok());  // static now wins 10.1/16
  ASSERT_TRUE(ospf_.add(Route("10.2.0.0/16", "192.0.2.1")).ok());  // not static
  ASSERT_TRUE(stat_.remove(P("10.0.0.0/8")).ok());
  EXPECT_EQ(out.log, (Strings{"+10.0.0.0/8", "done", "+10.1.0.0/16", "-10.0.0.0/8"}));
  EXPECT_EQ(rec_.events().size(), 6u);  // everything also passes downstream
}

TEST_F(RedistStageTest, ChangesDuringASlicedDumpAreNeitherLostNorDoubled) {
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(stat_.add(Route("10.0." + std::to_string(i) + ".0/24", "192.0.2.1")).ok());
  }
  Collect out;
  redist_.subscribe(RedistFilter{}, &out);
  sched_.run_slice();                                              // dumps 10.0.0/24 and 10.0.1/24
  ASSERT_TRUE(stat_.remove(P("10.0.0.0/24")).ok());                // already dumped: sent now
  ASSERT_TRUE(stat_.remove(P("10.0.4.0/24")).ok());                // not yet dumped: never sent
  ASSERT_TRUE(stat_.add(Route("10.0.9.0/24", "192.0.2.1")).ok());  // the dump will find it
  sched_.run_until_idle();
  EXPECT_EQ(out.log, (Strings{"+10.0.0.0/24", "+10.0.1.0/24", "-10.0.0.0/24", "+10.0.2.0/24",
                              "+10.0.3.0/24", "+10.0.5.0/24", "+10.0.9.0/24", "done"}));
}

TEST_F(RedistStageTest, PrefixRangeAndTagFilters) {
  ASSERT_TRUE(stat_.add(Route("10.0.0.0/8", "192.0.2.1", 0, 5)).ok());
  ASSERT_TRUE(stat_.add(Route("10.1.0.0/16", "192.0.2.1", 0, 5)).ok());
  ASSERT_TRUE(stat_.add(Route("10.2.0.0/16", "192.0.2.1", 0, 6)).ok());
  ASSERT_TRUE(stat_.add(Route("11.0.0.0/8", "192.0.2.1", 0, 5)).ok());
  Collect in_range, tagged;
  redist_.subscribe(RedistFilter{{}, P("10.0.0.0/8"), {}}, &in_range);
  const uint64_t id = redist_.subscribe(RedistFilter{{}, {}, 5}, &tagged);
  sched_.run_until_idle();
  EXPECT_EQ(in_range.log, (Strings{"+10.0.0.0/8", "+10.1.0.0/16", "+10.2.0.0/16", "done"}));
  EXPECT_EQ(tagged.log, (Strings{"+10.0.0.0/8", "+10.1.0.0/16", "+11.0.0.0/8", "done"}));
  ASSERT_TRUE(redist_.unsubscribe(id).ok());
  EXPECT_EQ(redist_.unsubscribe(id).code(), StatusCode::kNotFound);
  ASSERT_TRUE(stat_.add(Route("12.0.0.0/8", "192.0.2.1", 0, 5)).ok());
  EXPECT_EQ(tagged.log.size(), 4u);
}

}  // namespace
}  // namespace strata::rib
