// RouteJournal: a delete and an add of one prefix in the same io_context handler (the pipeline's
// replace) are one kReplace; an add in a later handler is an event of its own, seen by a
// watcher that has already seen the delete.
#include "rib/process/route_journal.h"

#include <gtest/gtest.h>

#include <optional>

namespace strata::rib {
namespace {

using Change = RouteEvent::Change;

RouteRef Route(const char* prefix, const char* nexthop) {
  RouteAttrs a;
  a.nexthop = *IpAddr::Parse(nexthop);
  return MakeRoute(RibRoute(*IpPrefix::Parse(prefix), a));
}

class RouteJournalTest : public ::testing::Test {
 protected:
  // Everything after `after` (the first call starts recording).
  RouteJournal::Journal::Page Read(std::optional<uint64_t> after) {
    std::optional<RouteJournal::Journal::Page> got;
    journal_.Watch(after, 0, std::chrono::milliseconds(0),
                   [&](RouteJournal::Journal::Page p) { got = std::move(p); });
    io_.poll();
    io_.restart();
    EXPECT_TRUE(got);
    return got ? std::move(*got) : RouteJournal::Journal::Page();
  }
  std::vector<Change> Changes(const RouteJournal::Journal::Page& p) {
    std::vector<Change> out;
    for (const auto& e : p.entries) out.push_back(e.entry.change);
    return out;
  }

  boost::asio::io_context io_;
  RouteJournal journal_{io_, RouteJournal::Journal::Options()};
};

TEST_F(RouteJournalTest, ADeleteAndAnAddInOneHandlerAreOneReplace) {
  uint64_t next = Read(std::nullopt).next;
  journal_.Observe(FeaOp::kDelete, Route("10.0.0.0/24", "192.0.2.1"));
  journal_.Observe(FeaOp::kAdd, Route("10.0.0.0/24", "192.0.2.2"));
  auto page = Read(next);
  EXPECT_EQ(Changes(page), (std::vector<Change>{Change::kReplace}));
  EXPECT_EQ(page.entries[0].entry.route->nexthop(), *IpAddr::Parse("192.0.2.2"));
}

TEST_F(RouteJournalTest, AnAddInALaterHandlerIsAnEventOfItsOwn) {
  uint64_t next = Read(std::nullopt).next;
  journal_.Observe(FeaOp::kDelete, Route("10.0.0.0/24", "192.0.2.1"));
  auto first = Read(next);  // the watcher sees the delete
  EXPECT_EQ(Changes(first), (std::vector<Change>{Change::kDelete}));
  journal_.Observe(FeaOp::kAdd, Route("10.0.0.0/24", "192.0.2.1"));  // the peer came back
  auto second = Read(first.next);
  EXPECT_EQ(Changes(second), (std::vector<Change>{Change::kAdd}));
}

TEST_F(RouteJournalTest, AnAddOfAnotherPrefixDoesNotFold) {
  uint64_t next = Read(std::nullopt).next;
  journal_.Observe(FeaOp::kDelete, Route("10.0.0.0/24", "192.0.2.1"));
  journal_.Observe(FeaOp::kAdd, Route("10.0.1.0/24", "192.0.2.1"));
  EXPECT_EQ(Changes(Read(next)), (std::vector<Change>{Change::kDelete, Change::kAdd}));
}

}  // namespace
}  // namespace strata::rib
