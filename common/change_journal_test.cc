#include "common/change_journal.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace strata {
namespace {

using Journal = ChangeJournal<std::string>;
using std::chrono::milliseconds;

Journal::TimePoint At(int64_t ms) { return Journal::TimePoint(milliseconds(ms)); }

std::vector<uint64_t> Seqs(const Journal::Page& p) {
  std::vector<uint64_t> out;
  for (const auto& e : p.entries) out.push_back(e.seq);
  return out;
}

TEST(ChangeJournalTest, NothingIsRecordedOrBuiltWithoutAWatcher) {
  Journal j({.capacity = 4, .idle = milliseconds(1000)});
  int built = 0;
  for (int i = 0; i < 100; ++i) {
    j.Record([&] {
      ++built;
      return std::string("x");
    });
  }
  EXPECT_EQ(built, 0);
  EXPECT_EQ(j.size(), 0u);
  EXPECT_EQ(j.seq(), 100u);
  EXPECT_FALSE(j.recording());
}

TEST(ChangeJournalTest, NumbersEntriesInOrderFromTheFirstRead) {
  Journal j({.capacity = 10, .idle = milliseconds(1000)});
  j.Record([] { return std::string("before"); });
  Journal::Page first = j.Read(j.seq(), 0, At(0));
  EXPECT_TRUE(first.entries.empty());
  EXPECT_EQ(first.next, 1u);
  EXPECT_EQ(first.lost, 0u);
  j.Record([] { return std::string("a"); });
  j.Record([] { return std::string("b"); });
  Journal::Page p = j.Read(first.next, 0, At(1));
  EXPECT_EQ(Seqs(p), (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(p.entries[0].entry, "a");
  EXPECT_EQ(p.entries[1].entry, "b");
  EXPECT_EQ(p.next, 3u);
  EXPECT_EQ(p.lost, 0u);
  // Nothing new: the same number again.
  Journal::Page again = j.Read(p.next, 0, At(2));
  EXPECT_TRUE(again.entries.empty());
  EXPECT_EQ(again.next, 3u);
}

TEST(ChangeJournalTest, MaxPagesThroughTheEntries) {
  Journal j({.capacity = 10, .idle = milliseconds(1000)});
  (void)j.Read(0, 0, At(0));
  for (int i = 0; i < 5; ++i) j.Record([i] { return std::to_string(i); });
  Journal::Page p = j.Read(0, 2, At(1));
  EXPECT_EQ(Seqs(p), (std::vector<uint64_t>{1, 2}));
  p = j.Read(p.next, 2, At(1));
  EXPECT_EQ(Seqs(p), (std::vector<uint64_t>{3, 4}));
  p = j.Read(p.next, 2, At(1));
  EXPECT_EQ(Seqs(p), (std::vector<uint64_t>{5}));
}

TEST(ChangeJournalTest, KeepsAtMostCapacityAndCountsWhatAReaderMissed) {
  Journal j({.capacity = 3, .idle = milliseconds(1000)});
  (void)j.Read(0, 0, At(0));
  for (int i = 0; i < 10; ++i) j.Record([i] { return std::to_string(i); });
  EXPECT_EQ(j.size(), 3u);
  Journal::Page p = j.Read(2, 0, At(1));
  EXPECT_EQ(p.lost, 5u);  // 3..7 fell out of the bound
  EXPECT_EQ(Seqs(p), (std::vector<uint64_t>{8, 9, 10}));
  EXPECT_EQ(p.next, 10u);
}

TEST(ChangeJournalTest, StopsRecordingAfterIdleAndReportsTheGapToAReturningReader) {
  Journal j({.capacity = 100, .idle = milliseconds(1000)});
  (void)j.Read(0, 0, At(0));
  j.Record([] { return std::string("a"); });
  j.Expire(At(999));
  EXPECT_TRUE(j.recording());
  j.Expire(At(1000));
  EXPECT_FALSE(j.recording());
  EXPECT_EQ(j.size(), 0u);  // memory given back
  int built = 0;
  j.Record([&] {
    ++built;
    return std::string("b");
  });
  j.Record([&] {
    ++built;
    return std::string("c");
  });
  EXPECT_EQ(built, 0);
  Journal::Page p = j.Read(1, 0, At(5000));
  EXPECT_EQ(p.lost, 2u);  // b and c happened while nobody watched
  EXPECT_TRUE(p.entries.empty());
  EXPECT_EQ(p.next, 3u);
  j.Record([] { return std::string("d"); });
  p = j.Read(p.next, 0, At(5001));
  EXPECT_EQ(p.lost, 0u);
  EXPECT_EQ(Seqs(p), (std::vector<uint64_t>{4}));
}

TEST(ChangeJournalTest, ANumberFromAnEarlierProcessReadsFromNow) {
  Journal j({.capacity = 10, .idle = milliseconds(1000)});
  Journal::Page p = j.Read(500, 0, At(0));
  EXPECT_EQ(p.lost, 0u);
  EXPECT_EQ(p.next, 0u);
  j.Record([] { return std::string("a"); });
  EXPECT_EQ(Seqs(j.Read(p.next, 0, At(1))), (std::vector<uint64_t>{1}));
}

TEST(ChangeJournalTest, LastRecordedFoldsAChangeIntoThePreviousEntry) {
  Journal j({.capacity = 10, .idle = milliseconds(1000)});
  EXPECT_EQ(j.last_recorded(), nullptr);
  (void)j.Read(0, 0, At(0));
  j.Record([] { return std::string("delete"); });
  ASSERT_NE(j.last_recorded(), nullptr);
  *j.last_recorded() = "replace";
  Journal::Page p = j.Read(0, 0, At(1));
  ASSERT_EQ(p.entries.size(), 1u);
  EXPECT_EQ(p.entries[0].entry, "replace");
}

TEST(ChangeJournalTest, AParkedReaderIsAnsweredByTheNextChange) {
  Journal j({.capacity = 10, .idle = milliseconds(1000)});
  int wakeups = 0;
  j.set_wakeup([&] { ++wakeups; });
  j.Record([] { return std::string("old"); });  // before anyone watched: not seen
  std::optional<Journal::Page> got;
  j.Park(std::nullopt, 0, At(5000), At(0), [&](Journal::Page p) { got = std::move(p); });
  EXPECT_FALSE(got);
  EXPECT_EQ(j.parked(), 1u);
  EXPECT_EQ(j.next_deadline(), At(5000));
  j.Record([] { return std::string("new"); });
  EXPECT_EQ(wakeups, 1);
  EXPECT_FALSE(got);  // answered by the owner's Flush, so a burst goes in one answer
  j.Record([] { return std::string("newer"); });
  j.Flush(At(10));
  ASSERT_TRUE(got);
  EXPECT_EQ(Seqs(*got), (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(got->lost, 0u);
  EXPECT_EQ(j.parked(), 0u);
  // Idle expiry is the next deadline once nobody waits.
  EXPECT_EQ(j.next_deadline(), At(1010));
}

TEST(ChangeJournalTest, AParkedReaderIsAnsweredEmptyAtItsDeadline) {
  Journal j({.capacity = 10, .idle = milliseconds(1000)});
  std::optional<Journal::Page> got;
  j.Park(std::nullopt, 0, At(500), At(0), [&](Journal::Page p) { got = std::move(p); });
  j.Flush(At(499));
  EXPECT_FALSE(got);
  j.Flush(At(500));
  ASSERT_TRUE(got);
  EXPECT_TRUE(got->entries.empty());
  EXPECT_EQ(got->next, 0u);
}

TEST(ChangeJournalTest, AReaderWithSomethingAlreadyThereIsAnsweredAtOnce) {
  Journal j({.capacity = 10, .idle = milliseconds(1000)});
  (void)j.Read(0, 0, At(0));
  j.Record([] { return std::string("a"); });
  std::optional<Journal::Page> got;
  j.Park(std::nullopt, 0, At(500), At(1), [&](Journal::Page p) { got = std::move(p); });
  EXPECT_FALSE(got);  // no number is "from now": a is not for it
  std::optional<Journal::Page> from_start;
  j.Record([] { return std::string("b"); });
  j.Park(1, 0, At(500), At(2), [&](Journal::Page p) { from_start = std::move(p); });
  ASSERT_TRUE(from_start);
  EXPECT_EQ(Seqs(*from_start), (std::vector<uint64_t>{2}));
}

// A journal with no change yet answers 0; a change made before the reader's next poll is for it
// (0 is a number like any other, not "from now").
TEST(ChangeJournalTest, ZeroFromAnIdleJournalStillSeesTheNextChange) {
  Journal j({.capacity = 10, .idle = milliseconds(1000)});
  std::optional<Journal::Page> first;
  j.Park(std::nullopt, 0, At(0), At(0), [&](Journal::Page p) { first = std::move(p); });
  ASSERT_TRUE(first);
  EXPECT_EQ(first->next, 0u);
  j.Record([] { return std::string("a"); });  // between the two polls
  std::optional<Journal::Page> second;
  j.Park(first->next, 0, At(500), At(1), [&](Journal::Page p) { second = std::move(p); });
  ASSERT_TRUE(second);
  EXPECT_EQ(Seqs(*second), (std::vector<uint64_t>{1}));
}

TEST(ChangeJournalTest, RecordingGoesOnWhileReadersWait) {
  Journal j({.capacity = 10, .idle = milliseconds(100)});
  std::optional<Journal::Page> got;
  j.Park(std::nullopt, 0, At(20000), At(0), [&](Journal::Page p) { got = std::move(p); });
  j.Expire(At(10000));
  EXPECT_TRUE(j.recording());
  j.Drain(At(10001));
  ASSERT_TRUE(got);
  EXPECT_EQ(j.parked(), 0u);
}

}  // namespace
}  // namespace strata
