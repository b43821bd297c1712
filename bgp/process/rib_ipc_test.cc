// RibIpcSink and RibNexthopOracle against a real in-process strata-rib (RibProcess on its own
// Router, calls crossing sockets).
#include <gtest/gtest.h>

#include "bgp/process/rib_ipc_sink.h"
#include "bgp/process/rib_nexthop_oracle.h"
#include "libipc/common_convert.h"
#include "libipc/interfaces/rib.strata.h"
#include "testing/bgp/bgp_test_env.h"

namespace strata::bgp {
namespace {

using namespace std::chrono_literals;
namespace rpb = strata::rib::v1;

IpPrefix P(std::string_view s) { return *IpPrefix::Parse(s); }
IpAddr A(std::string_view s) { return *IpAddr::Parse(s); }

BgpRouteRef Route(std::string_view prefix, std::string_view nexthop, bool ibgp = false,
                  PeerId id = 1) {
  auto peer = NewPeerInfo();
  peer->id = id;
  peer->ibgp = ibgp;
  peer->address = A("192.0.2.1");
  PathAttributes a;
  a.origin = Origin::kIgp;
  a.next_hop = A(nexthop);
  return MakeRoute(P(prefix), AttributeSet::Make(std::move(a)), peer);
}

// What the pipeline's RIB branch is to the sink: it remembers what it gave, gives it all again
// on resend (later, as the fanout's dump runs in slices; changes meanwhile are left to the dump,
// as the fanout skips those of prefixes not yet dumped) and records pauses.
class FakeFeed : public RibFeed {
 public:
  void Bind(ipc::Router& router, RibIpcSink& sink) {
    io_ = &router.io();
    sink_ = &sink;
    sink.attach(this);
  }
  void Add(RibOrigin o, const BgpRouteRef& r) {
    table_[r->prefix] = {o, r};
    if (!resending_) sink_->add_route(o, r, {});
  }
  void Replace(RibOrigin o, const BgpRouteRef& old_route, const BgpRouteRef& new_route) {
    table_[new_route->prefix] = {o, new_route};
    if (!resending_) sink_->replace_route(o, old_route, new_route, {});
  }
  void Delete(RibOrigin o, const BgpRouteRef& r) {
    table_.erase(r->prefix);
    if (!resending_) sink_->delete_route(o, r);
  }

  void pause() override {
    paused = true;
    ++pauses;
  }
  void resume() override { paused = false; }
  void resend() override {
    ++resends;
    resending_ = true;
    boost::asio::post(*io_, [this, alive = std::weak_ptr<bool>(alive_)] {
      if (alive.expired() || !sink_) return;
      resending_ = false;
      for (const auto& [p, e] : table_) sink_->add_route(e.first, e.second, {});
      sink_->end_batch();
    });
  }
  bool resending() const override { return resending_; }

  bool paused = false;
  int pauses = 0;
  int resends = 0;

 private:
  boost::asio::io_context* io_ = nullptr;
  RibIpcSink* sink_ = nullptr;
  std::map<IpPrefix, std::pair<RibOrigin, BgpRouteRef>> table_;
  bool resending_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

class RibIpcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    env_.StartRib("red");
    bgp_router_ = &env_.NewRouter("bgp", [this](ipc::Router& r) {
      oracle_ = std::make_unique<RibNexthopOracle>(r, "rib.red", "bgp.red");
      r.AddTarget("bgp", "bgp.red", false).Serve(*oracle_);
    });
    oracle_->set_listener(&listener_);
    RibIpcSink::Options o;
    o.rib_target = "rib.red";
    o.owner = "bgp.red";
    o.max_batch = 10;
    o.max_in_flight = 2;
    sink_ = std::make_unique<RibIpcSink>(*bgp_router_, o, [](const BgpRoute& r) {
      return r.peer->id == 99;  // the "local" peer in these tests
    });
    feed_.Bind(*bgp_router_, *sink_);
    client_ = &env_.NewRouter("client");
  }
  void TearDown() override {
    if (sink_) sink_->detach(&feed_);
    sink_.reset();
    oracle_.reset();
  }

  // The routes of a RIB table, "prefix nexthop" strings.
  std::vector<std::string> Table(const std::string& protocol) {
    rpb::ListRoutesRequest req;
    req.set_protocol(protocol);
    auto [s, rep] = env_.Call<rpb::ListRoutesRequest, rpb::ListRoutesReply>(
        *client_, "rib.red", "rib/1.0/list_routes", req);
    std::vector<std::string> out;
    if (!s.ok()) return {"error: " + s.ToString()};
    for (const auto& r : rep.routes()) {
      out.push_back((*ipc::PrefixFromProto(r.prefix(), "p")).ToString() + " " +
                    (*ipc::AddrFromProto(r.nexthop(), "n")).ToString() +
                    (r.stale() ? " stale" : ""));
    }
    return out;
  }
  Status AddIgp(std::string_view prefix, std::string_view nexthop, uint32_t metric) {
    rpb::AddOriginTableRequest t;
    t.set_protocol("ospf");
    t.set_kind(rpb::PROTOCOL_KIND_IGP);
    (void)env_.Call<rpb::AddOriginTableRequest, rpb::AddOriginTableReply>(
        *client_, "rib.red", "rib/1.0/add_origin_table", t);
    rpb::AddRoutesRequest req;
    req.set_protocol("ospf");
    auto* e = req.add_routes();
    ipc::PrefixToProto(P(prefix), e->mutable_prefix());
    ipc::AddrToProto(A(nexthop), e->mutable_nexthop());
    e->set_metric(metric);
    return env_
        .Call<rpb::AddRoutesRequest, rpb::AddRoutesReply>(*client_, "rib.red", "rib/1.0/add_routes",
                                                          req)
        .first;
  }
  bool Ready() {
    return env_.RunUntil(
        [&] { return sink_->ready() && sink_->in_flight() == 0 && !feed_.resending(); });
  }

  struct Listener : NexthopListener {
    void nexthop_answer(const IpAddr& nh, const NexthopAnswer& a) override { answers[nh] = a; }
    void nexthop_invalidated(const IpPrefix& p) override { invalidated.push_back(p); }
    std::map<IpAddr, NexthopAnswer> answers;
    std::vector<IpPrefix> invalidated;
  };

  BgpTestEnv env_;
  ipc::Router* bgp_router_ = nullptr;
  ipc::Router* client_ = nullptr;
  Listener listener_;
  std::unique_ptr<RibNexthopOracle> oracle_;
  std::unique_ptr<RibIpcSink> sink_;
  FakeFeed feed_;
};

TEST_F(RibIpcTest, SinkWaitsForTheRibThenRegistersTablesAndSends) {
  feed_.Add(RibOrigin::kEbgp, Route("10.0.0.0/8", "192.0.2.1"));
  sink_->end_batch();
  env_.Run(50ms);
  EXPECT_FALSE(sink_->ready());
  EXPECT_EQ(sink_->queued(), 0u);  // not kept: the feed resends it once the RIB is there
  sink_->rib_event(true);
  ASSERT_TRUE(Ready());
  ASSERT_TRUE(env_.RunUntil([&] { return !Table("ebgp").empty(); }));
  EXPECT_EQ(feed_.resends, 1);
  EXPECT_EQ(Table("ebgp"), (std::vector<std::string>{"10.0.0.0/8 192.0.2.1"}));
  EXPECT_TRUE(Table("ibgp").empty());
  EXPECT_EQ(sink_->counters().routes_sent, 1u);
}

TEST_F(RibIpcTest, SinkCoalescesPerPrefixAndBatches) {
  sink_->rib_event(true);
  ASSERT_TRUE(Ready());
  BgpRouteRef a = Route("10.0.0.0/8", "192.0.2.1");
  BgpRouteRef b = Route("10.0.0.0/8", "192.0.2.2");
  feed_.Add(RibOrigin::kEbgp, a);
  feed_.Replace(RibOrigin::kEbgp, a, b);
  feed_.Delete(RibOrigin::kEbgp, b);
  for (int i = 0; i < 35; ++i) {
    feed_.Add(RibOrigin::kEbgp, Route("20.0." + std::to_string(i) + ".0/24", "192.0.2.1"));
  }
  const uint64_t calls_before = sink_->counters().calls_sent;
  sink_->end_batch();
  EXPECT_LE(sink_->in_flight(), 2u);  // the window
  ASSERT_TRUE(Ready());
  ASSERT_TRUE(env_.RunUntil([&] { return sink_->queued() == 0 && sink_->in_flight() == 0; }));
  // 36 dirty prefixes, 10 per round, one add call per round (10.0.0.0/8 came and went).
  EXPECT_EQ(sink_->counters().calls_sent - calls_before, 4u);
  EXPECT_EQ(Table("ebgp").size(), 35u);
  EXPECT_EQ(sink_->counters().routes_sent, 35u);
  EXPECT_EQ(sink_->installed(), 35u);
  // Withdrawn again: nothing left installed or queued, re-announced: sent once more.
  for (int i = 0; i < 35; ++i) {
    feed_.Delete(RibOrigin::kEbgp, Route("20.0." + std::to_string(i) + ".0/24", "192.0.2.1"));
  }
  feed_.Add(RibOrigin::kEbgp, Route("20.0.0.0/24", "192.0.2.3"));
  sink_->end_batch();
  ASSERT_TRUE(env_.RunUntil([&] { return sink_->queued() == 0 && sink_->in_flight() == 0; }));
  EXPECT_EQ(Table("ebgp"), (std::vector<std::string>{"20.0.0.0/24 192.0.2.3"}));
  EXPECT_EQ(sink_->installed(), 1u);
}

// More pending prefixes than 2 x max_batch x max_in_flight (40 here): the feed is paused until
// the rounds bring them under one window's worth, and nothing is lost.
TEST_F(RibIpcTest, SinkPausesItsFeedWhileTheRibIsBehind) {
  sink_->rib_event(true);
  ASSERT_TRUE(Ready());
  for (int i = 0; i < 45; ++i) {
    feed_.Add(RibOrigin::kEbgp, Route("20.0." + std::to_string(i) + ".0/24", "192.0.2.1"));
  }
  EXPECT_TRUE(feed_.paused);
  EXPECT_EQ(feed_.pauses, 1);
  EXPECT_EQ(sink_->queued(), 45u);
  sink_->end_batch();
  ASSERT_TRUE(env_.RunUntil([&] { return sink_->queued() == 0 && sink_->in_flight() == 0; }));
  EXPECT_FALSE(feed_.paused);
  EXPECT_EQ(Table("ebgp").size(), 45u);
  EXPECT_EQ(sink_->installed(), 45u);
}

TEST_F(RibIpcTest, SinkReplacesAndMovesBetweenTablesAndSkipsOwnRoutes) {
  sink_->rib_event(true);
  ASSERT_TRUE(Ready());
  BgpRouteRef a = Route("10.0.0.0/8", "192.0.2.1");
  feed_.Add(RibOrigin::kEbgp, a);
  feed_.Add(RibOrigin::kEbgp, Route("30.0.0.0/8", "192.0.2.1", false, 99));
  sink_->end_batch();
  ASSERT_TRUE(Ready());
  EXPECT_EQ(Table("ebgp"), (std::vector<std::string>{"10.0.0.0/8 192.0.2.1"}));
  BgpRouteRef b = Route("10.0.0.0/8", "192.0.2.7");
  feed_.Replace(RibOrigin::kEbgp, a, b);
  sink_->end_batch();
  ASSERT_TRUE(Ready());
  EXPECT_EQ(Table("ebgp"), (std::vector<std::string>{"10.0.0.0/8 192.0.2.7"}));
  BgpRouteRef c = Route("10.0.0.0/8", "192.0.2.9", true);
  feed_.Delete(RibOrigin::kEbgp, b);
  feed_.Add(RibOrigin::kIbgp, c);
  sink_->end_batch();
  ASSERT_TRUE(Ready());
  EXPECT_TRUE(Table("ebgp").empty());
  EXPECT_EQ(Table("ibgp"), (std::vector<std::string>{"10.0.0.0/8 192.0.2.9"}));
  EXPECT_EQ(sink_->counters().calls_failed, 0u);
}

TEST_F(RibIpcTest, SinkResendsEverythingToARestartedRib) {
  sink_->rib_event(true);
  ASSERT_TRUE(Ready());
  feed_.Add(RibOrigin::kEbgp, Route("10.0.0.0/8", "192.0.2.1"));
  feed_.Add(RibOrigin::kIbgp, Route("11.0.0.0/8", "192.0.2.2", true));
  sink_->end_batch();
  ASSERT_TRUE(Ready());
  env_.StopRib("red");
  sink_->rib_event(false);
  feed_.Delete(RibOrigin::kIbgp, Route("11.0.0.0/8", "192.0.2.2", true));
  sink_->end_batch();
  env_.StartRib("red");
  sink_->rib_event(true);
  ASSERT_TRUE(Ready());
  EXPECT_EQ(Table("ebgp"), (std::vector<std::string>{"10.0.0.0/8 192.0.2.1"}));
  EXPECT_TRUE(Table("ibgp").empty());
}

TEST_F(RibIpcTest, SinkResyncsWhenTheRibRefusesABatch) {
  sink_->rib_event(true);
  ASSERT_TRUE(Ready());
  feed_.Add(RibOrigin::kEbgp, Route("10.0.0.0/8", "192.0.2.1"));
  sink_->end_batch();
  ASSERT_TRUE(Ready());
  // Someone else removes our route behind our back: our next replace is refused.
  rpb::DeleteRoutesRequest del;
  del.set_protocol("ebgp");
  ipc::PrefixToProto(P("10.0.0.0/8"), del.add_prefixes());
  ASSERT_TRUE((env_.Call<rpb::DeleteRoutesRequest, rpb::DeleteRoutesReply>(
                   *client_, "rib.red", "rib/1.0/delete_routes", del))
                  .first.ok());
  feed_.Replace(RibOrigin::kEbgp, Route("10.0.0.0/8", "192.0.2.1"),
                Route("10.0.0.0/8", "192.0.2.5"));
  sink_->end_batch();
  ASSERT_TRUE(env_.RunUntil([&] { return sink_->counters().resyncs == 1; }));
  ASSERT_TRUE(Ready());
  EXPECT_EQ(Table("ebgp"), (std::vector<std::string>{"10.0.0.0/8 192.0.2.5"}));
}

// A restarting speaker (its tables still hold stale routes) defers route selection: what it
// learns waits in the sink, and the RIB (so the kernel) keeps the stale routes untouched until
// graceful_restart_done, when only the final choices go, then the sweep.
TEST_F(RibIpcTest, RestartingSinkDefersChangesUntilTheRestartIsDone) {
  sink_.reset();
  oracle_.reset();
  RibIpcSink::Options o;
  o.rib_target = "rib.red";
  o.owner = "bgp.red";
  o.graceful_restart = true;
  std::vector<bool> states;
  o.on_restart_state = [&](bool restarting) { states.push_back(restarting); };
  auto first = std::make_unique<RibIpcSink>(*bgp_router_, o);
  FakeFeed first_feed;
  first_feed.Bind(*bgp_router_, *first);
  first->rib_event(true);
  ASSERT_TRUE(env_.RunUntil([&] { return first->ready() && first->in_flight() == 0; }));
  EXPECT_FALSE(first->deferring());
  first_feed.Add(RibOrigin::kEbgp, Route("10.0.0.0/8", "192.0.2.1"));
  first_feed.Add(RibOrigin::kEbgp, Route("11.0.0.0/8", "192.0.2.1"));
  first->end_batch();
  ASSERT_TRUE(env_.RunUntil([&] { return first->installed() == 2 && first->in_flight() == 0; }));

  // bgp.red dies: the RIB keeps its routes, stale.
  first.reset();
  env_.DropRouter("bgp");
  const std::vector<std::string> stale = {"10.0.0.0/8 192.0.2.1 stale",
                                          "11.0.0.0/8 192.0.2.1 stale"};
  ASSERT_TRUE(env_.RunUntil([&] { return Table("ebgp") == stale; }))
      << ::testing::PrintToString(Table("ebgp"));

  // Back: it finds its stale routes and defers.
  ipc::Router& again =
      env_.NewRouter("bgp", [](ipc::Router& r) { r.AddTarget("bgp", "bgp.red", false); });
  auto sink = std::make_unique<RibIpcSink>(again, o);
  FakeFeed feed;
  feed.Bind(again, *sink);
  sink->rib_event(true);
  ASSERT_TRUE(env_.RunUntil([&] { return sink->ready(); }));
  EXPECT_EQ(states, (std::vector<bool>{false, true}));
  EXPECT_TRUE(sink->deferring());
  // Learned during the restart: a new best path for 10/8 (first another one), a new prefix.
  feed.Add(RibOrigin::kEbgp, Route("10.0.0.0/8", "192.0.2.5"));
  sink->end_batch();
  feed.Replace(RibOrigin::kEbgp, Route("10.0.0.0/8", "192.0.2.5"),
               Route("10.0.0.0/8", "192.0.2.7"));
  feed.Add(RibOrigin::kEbgp, Route("12.0.0.0/8", "192.0.2.7"));
  sink->end_batch();
  env_.Run(200ms);
  EXPECT_EQ(Table("ebgp"), stale);
  EXPECT_EQ(sink->queued(), 0u);  // not kept: the feed gives the final choices at the end
  EXPECT_EQ(sink->counters().calls_sent, 0u);
  EXPECT_EQ(feed.resends, 0);

  // Every End-of-RIB is in: the final choices go in one round, then the sweep of 11/8.
  sink->graceful_restart_done();
  EXPECT_FALSE(sink->deferring());
  EXPECT_EQ(feed.resends, 1);
  ASSERT_TRUE(env_.RunUntil([&] {
    return Table("ebgp") ==
           std::vector<std::string>{"10.0.0.0/8 192.0.2.7", "12.0.0.0/8 192.0.2.7"};
  })) << ::testing::PrintToString(Table("ebgp"));
  EXPECT_EQ(sink->counters().routes_sent, 2u);
  EXPECT_EQ(sink->counters().calls_failed, 0u);
  sink.reset();
}

// The RIB keeps our routes, after we die, for our configured restart time: the sink registers
// the tables with it, and again when it changes.
TEST_F(RibIpcTest, GracefulRestartSinkSendsItsRestartTime) {
  sink_.reset();
  RibIpcSink::Options o;
  o.rib_target = "rib.red";
  o.owner = "bgp.red";
  o.graceful_restart = true;
  o.restart_time_s = 300;
  auto sink = std::make_unique<RibIpcSink>(*bgp_router_, o);
  auto restart_times = [&] {
    auto [s, rep] = env_.Call<rpb::GetStatsRequest, rpb::GetStatsReply>(
        *client_, "rib.red", "rib/1.0/get_stats", rpb::GetStatsRequest());
    std::map<std::string, uint32_t> out;
    if (!s.ok()) return out;
    for (const auto& t : rep.tables()) {
      if (t.protocol() == "ebgp" || t.protocol() == "ibgp") out[t.protocol()] = t.restart_time_s();
    }
    return out;
  };
  using Times = std::map<std::string, uint32_t>;
  sink->set_restart_time(240);  // before the RIB is there: the registration carries it
  sink->rib_event(true);
  ASSERT_TRUE(env_.RunUntil([&] { return sink->ready(); }));
  EXPECT_EQ(restart_times(), (Times{{"ebgp", 240}, {"ibgp", 240}}));
  sink->set_restart_time(600);  // configuration changed: registered again
  ASSERT_TRUE(env_.RunUntil([&] {
    return restart_times() == Times{{"ebgp", 600}, {"ibgp", 600}};
  })) << ::testing::PrintToString(restart_times());
  EXPECT_EQ(sink->counters().calls_failed, 0u);
  sink.reset();
}

TEST_F(RibIpcTest, OracleAnswersFromTheRibAndHearsInvalidations) {
  ASSERT_TRUE(AddIgp("10.0.0.0/8", "192.0.2.254", 7).ok());
  oracle_->register_interest(A("10.1.1.1"));
  oracle_->register_interest(A("172.16.0.1"));
  env_.Run(50ms);
  EXPECT_TRUE(listener_.answers.empty());  // the RIB is not known to be up yet
  EXPECT_EQ(oracle_->waiting(), 2u);
  oracle_->rib_event(true);
  ASSERT_TRUE(env_.RunUntil([&] { return listener_.answers.size() == 2; }));
  const NexthopAnswer& in = listener_.answers[A("10.1.1.1")];
  EXPECT_TRUE(in.resolvable);
  EXPECT_EQ(in.metric, 7u);
  EXPECT_TRUE(in.covering.Contains(A("10.1.1.1")));
  EXPECT_TRUE(P("10.0.0.0/8").Contains(in.covering));
  EXPECT_FALSE(listener_.answers[A("172.16.0.1")].resolvable);
  // A more specific route changes the answer for 10.1.1.1: the RIB invalidates it.
  ASSERT_TRUE(AddIgp("10.1.0.0/16", "192.0.2.253", 3).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return !listener_.invalidated.empty(); }));
  EXPECT_TRUE(listener_.invalidated[0].Contains(A("10.1.1.1")));
  EXPECT_GE(oracle_->counters().invalidations, 1u);
}

TEST_F(RibIpcTest, OracleInvalidatesEverythingWhenTheRibDiesAndAsksAgainWhenBack) {
  oracle_->rib_event(true);
  oracle_->register_interest(A("10.1.1.1"));
  ASSERT_TRUE(env_.RunUntil([&] { return listener_.answers.size() == 1; }));
  env_.StopRib("red");
  oracle_->rib_event(false);
  ASSERT_EQ(listener_.invalidated.size(), 1u);
  EXPECT_TRUE(listener_.invalidated[0].Contains(A("10.1.1.1")));
  // Asked again while the RIB is down: held until it is back.
  listener_.answers.clear();
  oracle_->register_interest(A("10.1.1.1"));
  env_.Run(50ms);
  EXPECT_TRUE(listener_.answers.empty());
  env_.StartRib("red");
  oracle_->rib_event(true);
  ASSERT_TRUE(env_.RunUntil([&] { return listener_.answers.size() == 1; }));
  EXPECT_FALSE(listener_.answers[A("10.1.1.1")].resolvable);
}

}  // namespace
}  // namespace strata::bgp
