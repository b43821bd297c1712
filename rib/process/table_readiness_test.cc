#include "rib/process/table_readiness.h"

#include <gtest/gtest.h>

namespace strata::rib {
namespace {

using namespace std::chrono_literals;
using Strings = std::vector<std::string>;

class TableReadinessTest : public ::testing::Test {
 protected:
  TableReadiness::TimePoint at(std::chrono::milliseconds ms) const { return t0_ + ms; }
  TableReadiness Make(bool await_config) {
    TableReadiness r(
        {.await_config = await_config, .recovery_time = 60000ms, .max_extension = 600000ms}, t0_);
    return r;
  }
  const TableReadiness::TimePoint t0_{};
};

TEST_F(TableReadinessTest, CompleteOnceConfigConnectedAndEveryOwnerAreIn) {
  TableReadiness r = Make(true);
  int completions = 0;
  r.set_on_complete([&] { ++completions; });
  r.FeaAnswered(true, at(10ms));
  EXPECT_TRUE(r.recovering());
  EXPECT_EQ(r.awaiting(), (Strings{"configuration", "connected routes"}));
  r.ConnectedSynced(at(20ms));
  r.ConfigComplete({"bgp.red"}, at(500ms));
  EXPECT_EQ(r.awaiting(), Strings{"owner bgp.red"});
  EXPECT_FALSE(r.complete());
  r.OwnerDone("bgp.red", at(9000ms));
  EXPECT_TRUE(r.complete());
  EXPECT_FALSE(r.recovering());
  EXPECT_EQ(r.completed_how(), "every owner re-sent its routes");
  EXPECT_EQ(completions, 1);
  r.OwnerDone("bgp.red", at(9500ms));
  r.Tick(at(100000ms));
  EXPECT_EQ(completions, 1) << "complete once";
}

TEST_F(TableReadinessTest, AnOwnerDoneBeforeTheConfigNamedItCounts) {
  TableReadiness r = Make(true);
  r.ConnectedSynced(at(0ms));
  r.OwnerDone("bgp.red", at(100ms));  // the speaker re-sent before the rtrmgr's replay ended
  r.ConfigComplete({"bgp.red"}, at(200ms));
  EXPECT_TRUE(r.complete());
}

TEST_F(TableReadinessTest, TheDeadlineEndsTheWaitAndSaysWhatWasMissing) {
  TableReadiness r = Make(true);
  r.FeaAnswered(true, at(0ms));
  r.ConnectedSynced(at(0ms));
  r.ConfigComplete({"bgp.red"}, at(100ms));
  EXPECT_EQ(r.deadline(), at(60000ms));
  r.Tick(at(59999ms));
  EXPECT_FALSE(r.complete());
  r.Tick(at(60000ms));
  EXPECT_TRUE(r.complete());
  EXPECT_EQ(r.completed_how(), "the recovery deadline passed (awaiting owner bgp.red)");
  EXPECT_EQ(r.awaiting(), Strings{});
}

TEST_F(TableReadinessTest, ARestartingOwnerPushesTheDeadlineByItsDeferral) {
  TableReadiness r = Make(true);
  r.ConnectedSynced(at(0ms));
  r.ConfigComplete({"bgp.red"}, at(0ms));
  r.OwnerDefers("bgp.red", 360000ms, at(2000ms));
  EXPECT_EQ(r.deadline(), at(362000ms));
  r.OwnerDefers("bgp.red", 10000ms, at(3000ms));
  EXPECT_EQ(r.deadline(), at(362000ms)) << "never earlier";
  r.OwnerDefers("bgp.red", 7200000ms, at(4000ms));
  EXPECT_EQ(r.deadline(), at(604000ms)) << "at most max_extension from then";
  r.Tick(at(361999ms));
  EXPECT_FALSE(r.complete());
}

TEST_F(TableReadinessTest, WithoutAnRtrmgrOnlyConnectedRoutesAreAwaited) {
  TableReadiness r = Make(false);
  r.FeaAnswered(true, at(0ms));
  EXPECT_TRUE(r.recovering());
  r.ConnectedSynced(at(5ms));
  EXPECT_TRUE(r.complete());
}

TEST_F(TableReadinessTest, AnEmptyFeaMeansNoRecovery) {
  TableReadiness r = Make(true);
  EXPECT_FALSE(r.fea_answered());
  EXPECT_FALSE(r.recovering());
  r.FeaAnswered(false, at(0ms));
  EXPECT_TRUE(r.fea_answered());
  EXPECT_FALSE(r.recovering()) << "a first start: routes go to the FEA as they come";
  EXPECT_FALSE(r.complete());
  // The FEA restarts later with routes adopted from the kernel, the table still incomplete.
  r.FeaAnswered(true, at(100ms));
  EXPECT_TRUE(r.recovering());
}

TEST_F(TableReadinessTest, ACompleteTableDoesNotRecoverAgain) {
  TableReadiness r = Make(false);
  r.ConnectedSynced(at(0ms));
  ASSERT_TRUE(r.complete());
  r.FeaAnswered(true, at(10ms));  // the FEA restarted: it gets the complete table at once
  EXPECT_FALSE(r.recovering());
}

TEST_F(TableReadinessTest, NextHopAnswersWaitForTheIgpSideWhileRecovering) {
  TableReadiness r = Make(true);
  int changes = 0;
  r.set_on_change([&] { ++changes; });
  EXPECT_TRUE(r.recovery_unknown());
  EXPECT_TRUE(r.hold_answers()) << "not known yet whether the RIB recovers";
  r.FeaAnswered(true, at(0ms));
  EXPECT_FALSE(r.recovery_unknown());
  EXPECT_TRUE(r.hold_answers()) << "recovering, no connected routes yet";
  r.ConnectedSynced(at(10ms));
  EXPECT_TRUE(r.hold_answers()) << "static routes come with the configuration";
  r.ConfigComplete({"bgp.red"}, at(20ms));
  EXPECT_TRUE(r.igp_ready());
  EXPECT_FALSE(r.hold_answers()) << "the owners need the answers to re-send their tables";
  EXPECT_FALSE(r.complete());
  EXPECT_EQ(changes, 3);
}

TEST_F(TableReadinessTest, ARibThatFindsTheFeaEmptyAnswersAtOnce) {
  TableReadiness r = Make(true);
  r.FeaAnswered(false, at(0ms));
  EXPECT_FALSE(r.hold_answers());
  TableReadiness standalone = Make(false);
  EXPECT_FALSE(standalone.recovery_unknown()) << "no rtrmgr, no FEA perhaps: nothing to wait for";
  EXPECT_FALSE(standalone.hold_answers());
}

}  // namespace
}  // namespace strata::rib
