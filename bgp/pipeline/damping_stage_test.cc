// DampingStage between a PeerIn and a RecordingStage, with a FakeClock and a TaskScheduler run
// by hand: suppression, reuse, history, the ceiling, what is not charged, clearing, slices.
#include "bgp/pipeline/damping_stage.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "bgp/pipeline/peer_in.h"
#include "testing/bgp/pipeline_test_util.h"
#include "testing/bgp/recording_stage.h"
#include "testing/common/fake_clock.h"

namespace strata::bgp {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;
using test_util::P;
using test_util::Peer;
using test_util::Route;
using V = std::vector<std::string>;
using Entry = DampingStage::Entry;

class DampingStageTest : public ::testing::Test {
 protected:
  explicit DampingStageTest(DampingParams params = {}, size_t slice = 1000)
      : damping_(1, params, &in_, clock_, scheduler_, slice), rec_(&damping_) {
    in_.set_next(&damping_);
    damping_.set_next(&rec_);
    damping_.set_session(peer_);
  }

  BgpRouteRef R(const std::string& prefix, uint32_t second_as = 2) {
    return Route(prefix, {.path = {65001, second_as}}, peer_);
  }
  // Advances the clock and runs what came due.
  void Advance(std::chrono::steady_clock::duration d) {
    clock_.advance(d);
    scheduler_.run_until_idle();
  }
  void ExpectConsistent() {
    EXPECT_TRUE(rec_.violations().empty()) << rec_.violations().front();
    EXPECT_TRUE(rec_.CheckLookups().ok()) << rec_.CheckLookups().message();
  }
  const DampingStage::Entry* Find(const std::string& prefix) {
    entries_ = damping_.Entries();
    for (const auto& e : entries_) {
      if (e.prefix == P(prefix)) return &e;
    }
    return nullptr;
  }

  PeerRef peer_ = Peer(1, 65001, false, "10.0.0.1");
  FakeClock clock_;
  TaskScheduler scheduler_;
  PeerIn in_{1};
  DampingStage damping_;
  RecordingStage rec_;
  std::vector<DampingStage::Entry> entries_;
};

// Three withdrawals a minute apart: 1000 (2^(-2/15) + 2^(-1/15) + 1) > 2000 suppresses.
TEST_F(DampingStageTest, FlapsUntilSuppressedThenReuseAnnouncesTheCurrentRoute) {
  const std::string p = "10.1.0.0/16";
  for (int i = 0; i < 3; ++i) {
    in_.announce(R(p));
    in_.withdraw(P(p));
    if (i < 2) {
      EXPECT_FALSE(Find(p)->suppressed) << i;
      Advance(minutes(1));
    }
  }
  const double penalty = 1000 * (std::exp2(-2.0 / 15) + std::exp2(-1.0 / 15) + 1);
  ASSERT_NE(Find(p), nullptr);
  EXPECT_NEAR(Find(p)->penalty, penalty, 1e-6);
  EXPECT_TRUE(Find(p)->suppressed);
  EXPECT_EQ(Find(p)->flaps, 3u);
  EXPECT_TRUE(Find(p)->withdrawn);
  EXPECT_EQ(damping_.suppressed(), 1u);

  // Announced again while suppressed: held, and lookups say so. The change of attributes
  // costs 500 more.
  rec_.clear_events();
  in_.announce(R(p, 7));
  auto current = R(p, 8);
  in_.announce(current);
  EXPECT_TRUE(rec_.events().empty());
  EXPECT_NEAR(Find(p)->penalty, penalty + 500, 1e-6);
  EXPECT_EQ(Find(p)->flaps, 3u);
  EXPECT_EQ(damping_.lookup_route(P(p)), nullptr);
  ExpectConsistent();

  // Reused when 15 min * log2(penalty / 750) have passed, with the route held now.
  const auto reuse = std::chrono::duration<double>(900 * std::log2((penalty + 500) / 750));
  EXPECT_NEAR(std::chrono::duration<double>(Find(p)->reuse_in).count(), reuse.count(), 1e-6);
  Advance(std::chrono::duration_cast<seconds>(reuse) - seconds(1));
  EXPECT_TRUE(rec_.events().empty());
  EXPECT_TRUE(Find(p)->suppressed);
  Advance(seconds(2));
  EXPECT_EQ(rec_.EventStrings(), (V{"+10.1.0.0/16 p1"}));
  EXPECT_EQ(rec_.current(P(p)), current);
  EXPECT_FALSE(Find(p)->suppressed);
  EXPECT_NEAR(Find(p)->penalty, 750, 1);
  ExpectConsistent();

  // History of a route that is up is freed too, once under reuse / 2 (one more half-life).
  Advance(minutes(14));
  EXPECT_EQ(damping_.histories(), 1u);
  Advance(minutes(2));
  EXPECT_EQ(damping_.histories(), 0u);
  EXPECT_EQ(clock_.armed(), 0u);
  ExpectConsistent();
}

TEST_F(DampingStageTest, SuppressedWhileWithdrawnIsNotReannouncedAndHistoryIsFreed) {
  const std::string p = "10.2.0.0/16";
  for (int i = 0; i < 3; ++i) {
    in_.announce(R(p));
    in_.withdraw(P(p));
  }
  EXPECT_TRUE(Find(p)->suppressed);
  EXPECT_EQ(Find(p)->penalty, 3000);
  // 3000 -> 750 takes two half-lives; nothing is announced since nothing is held.
  rec_.clear_events();
  Advance(minutes(30));
  EXPECT_TRUE(rec_.events().empty());
  ASSERT_NE(Find(p), nullptr);
  EXPECT_FALSE(Find(p)->suppressed);
  // Kept until under 375: one more half-life.
  Advance(minutes(15) - seconds(1));
  EXPECT_NE(Find(p), nullptr);
  Advance(seconds(2));
  EXPECT_EQ(Find(p), nullptr);
  // A fresh start: the next withdrawal is a first flap.
  in_.announce(R(p));
  in_.withdraw(P(p));
  EXPECT_EQ(Find(p)->flaps, 1u);
  EXPECT_FALSE(Find(p)->suppressed);
  ExpectConsistent();
}

TEST_F(DampingStageTest, PenaltyIsCappedSoSuppressionEndsAfterMaxSuppress) {
  const std::string p = "10.3.0.0/16";
  for (int i = 0; i < 30; ++i) {
    in_.announce(R(p));
    in_.withdraw(P(p));
  }
  in_.announce(R(p));
  EXPECT_EQ(Find(p)->penalty, 12000);  // 750 * 2^(60 / 15)
  EXPECT_EQ(Find(p)->flaps, 30u);
  EXPECT_EQ(Find(p)->reuse_in, minutes(60));
  rec_.clear_events();
  Advance(minutes(60) - seconds(1));
  EXPECT_TRUE(rec_.events().empty());
  Advance(seconds(1));
  EXPECT_EQ(rec_.EventStrings(), (V{"+10.3.0.0/16 p1"}));
  ExpectConsistent();
}

class DampingAttrChangeTest : public DampingStageTest {
 protected:
  DampingAttrChangeTest() : DampingStageTest(DampingParams{.attribute_change_penalty = 1000}) {}
};

TEST_F(DampingAttrChangeTest, AttributeChangesSuppressARouteAlreadyPassed) {
  const std::string p = "10.4.0.0/16";
  in_.announce(R(p, 2));
  in_.announce(R(p, 2));  // same attributes: not a change
  EXPECT_EQ(Find(p), nullptr);
  in_.announce(R(p, 3));
  EXPECT_EQ(Find(p)->penalty, 1000);
  EXPECT_EQ(Find(p)->flaps, 0u);
  in_.announce(R(p, 4));
  EXPECT_TRUE(Find(p)->suppressed);
  EXPECT_EQ(rec_.EventStrings(),
            (V{"+10.4.0.0/16 p1", "=10.4.0.0/16 p1", "=10.4.0.0/16 p1", "-10.4.0.0/16 p1"}));
  ExpectConsistent();
  // Withdrawn while suppressed: nothing to send, one more flap.
  in_.withdraw(P(p));
  EXPECT_EQ(rec_.events().size(), 4u);
  EXPECT_EQ(Find(p)->flaps, 1u);
  EXPECT_TRUE(Find(p)->withdrawn);
  ExpectConsistent();
}

TEST_F(DampingStageTest, OtherSessionsAndPolicyRefilteringAreNotCharged) {
  in_.announce(R("10.5.0.0/16"));
  damping_.set_session(nullptr);  // the session went down; its routes are deleted
  in_.withdraw(P("10.5.0.0/16"));
  damping_.set_session(peer_);
  in_.announce(R("10.5.0.0/16"));
  damping_.set_charging(false);
  in_.withdraw(P("10.5.0.0/16"));
  damping_.set_charging(true);
  EXPECT_EQ(damping_.histories(), 0u);
  EXPECT_EQ(clock_.armed(), 0u);
  EXPECT_EQ(rec_.EventStrings(),
            (V{"+10.5.0.0/16 p1", "-10.5.0.0/16 p1", "+10.5.0.0/16 p1", "-10.5.0.0/16 p1"}));
}

TEST_F(DampingStageTest, ClearReleasesSuppressedRoutesAtOnce) {
  for (const char* p : {"10.6.0.0/16", "10.7.0.0/16", "10.8.0.0/16"}) {
    for (int i = 0; i < 3; ++i) {
      in_.announce(R(p));
      in_.withdraw(P(p));
    }
    in_.announce(R(p));
  }
  EXPECT_EQ(damping_.suppressed(), 3u);
  rec_.clear_events();
  EXPECT_EQ(damping_.Clear(P("10.7.0.0/16")), 1u);
  EXPECT_EQ(rec_.EventStrings(), (V{"+10.7.0.0/16 p1"}));
  EXPECT_EQ(damping_.Clear(P("10.9.0.0/16")), 0u);
  EXPECT_EQ(damping_.Clear(std::nullopt), 2u);
  EXPECT_EQ(rec_.EventStrings(), (V{"+10.7.0.0/16 p1", "+10.6.0.0/16 p1", "+10.8.0.0/16 p1"}));
  EXPECT_EQ(damping_.histories(), 0u);
  EXPECT_EQ(damping_.suppressed(), 0u);
  EXPECT_EQ(clock_.armed(), 0u);
  ExpectConsistent();
}

class DampingSliceTest : public DampingStageTest {
 protected:
  DampingSliceTest() : DampingStageTest(DampingParams{}, /*slice=*/2) {}
};

TEST_F(DampingSliceTest, OneTimerAndReusesInSlices) {
  for (int n = 0; n < 5; ++n) {
    const std::string p = "10." + std::to_string(n) + ".0.0/16";
    for (int i = 0; i < 3; ++i) {
      in_.announce(R(p));
      in_.withdraw(P(p));
    }
    in_.announce(R(p));
  }
  EXPECT_EQ(damping_.suppressed(), 5u);
  EXPECT_EQ(clock_.armed(), 1u);  // one timer for the stage, not one per route
  rec_.clear_events();
  clock_.advance(minutes(30));
  EXPECT_EQ(scheduler_.pending(), 1u);
  EXPECT_TRUE(scheduler_.run_slice());
  EXPECT_EQ(rec_.events().size(), 2u);
  ExpectConsistent();  // the three not yet reused are still suppressed downstream and here
  EXPECT_EQ(damping_.suppressed(), 3u);
  scheduler_.run_until_idle();
  EXPECT_EQ(rec_.events().size(), 5u);
  EXPECT_EQ(damping_.suppressed(), 0u);
  EXPECT_EQ(clock_.armed(), 1u);  // now for freeing the histories
  ExpectConsistent();
}

// Random announcements, withdrawals, attribute changes, session changes, clears and clock moves
// with reuses run a slice at a time: after every step both consistency rules hold, and what is
// downstream is exactly the parent's routes of prefixes not suppressed.
class DampingRandomTest : public DampingStageTest, public ::testing::WithParamInterface<int> {
 protected:
  DampingRandomTest() : DampingStageTest(DampingParams{}, /*slice=*/3) {}
};

TEST_P(DampingRandomTest, KeepsTheContract) {
  std::mt19937 rng(GetParam());
  auto pick = [&](int n) { return static_cast<int>(rng() % n); };
  auto prefix = [&](int i) { return "10." + std::to_string(i) + ".0.0/16"; };
  size_t suppressed_steps = 0;
  size_t reuses = 0;  // suppressions ended by time
  for (int step = 0; step < 3000; ++step) {
    const size_t suppressed_before = damping_.suppressed();
    const int op = pick(100);
    const std::string p = prefix(pick(12));
    if (op < 40) {
      in_.announce(R(p, 2 + pick(2)));
    } else if (op < 75) {
      in_.withdraw(P(p));
    } else if (op < 85) {
      clock_.advance(seconds(pick(5) ? pick(120) : pick(3600)));
      if (pick(2)) scheduler_.run_slice();
    } else if (op < 93) {
      scheduler_.run_until_idle();
    } else if (op < 96) {
      damping_.set_session(nullptr);  // a dead session's route going: not charged
      in_.withdraw(P(p));
      damping_.set_session(peer_);
    } else if (op < 98) {
      damping_.set_charging(false);  // policy re-filtering: not charged
      in_.announce(R(p, 4));
      damping_.set_charging(true);
    } else {
      damping_.Clear(pick(2) ? std::optional<IpPrefix>(P(p)) : std::nullopt);
    }
    ASSERT_TRUE(rec_.violations().empty()) << step << ": " << rec_.violations().front();
    ASSERT_TRUE(rec_.CheckLookups().ok()) << step << ": " << rec_.CheckLookups().message();
    size_t suppressed = 0;
    for (int i = 0; i < 12; ++i) {
      const Entry* e = Find(prefix(i));
      const bool held = e && e->suppressed;
      suppressed += held;
      const BgpRouteRef up = in_.lookup_route(P(prefix(i)));
      ASSERT_EQ(rec_.current(P(prefix(i))), held ? nullptr : up) << step << " " << prefix(i);
      if (e) {
        ASSERT_LE(e->penalty, 12000 + 1e-6);
      }
    }
    ASSERT_EQ(damping_.suppressed(), suppressed);
    suppressed_steps += suppressed > 0;
    if (op >= 75 && op < 93) reuses += suppressed_before - suppressed;
  }
  // The mix really suppresses and reuses.
  EXPECT_GT(suppressed_steps, 300u);
  EXPECT_GT(reuses, 10u);
  damping_.Clear(std::nullopt);
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(rec_.current(P(prefix(i))), in_.lookup_route(P(prefix(i))));
  }
  EXPECT_EQ(clock_.armed(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Seeds, DampingRandomTest, ::testing::Range(1, 6));

}  // namespace
}  // namespace strata::bgp
