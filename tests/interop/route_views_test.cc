// The operator's views of what became of each route (bgp/1.0 list_peer_routes, explain_prefix)
// with routes from a real BIRD:
//
//   BIRD (AS 65001) --link 1-- Strata (AS 65000, import policy from-bird, network 10.9.0.0/24)
//
// BIRD sends four routes: one accepted, one rejected by from-bird's term drop-blackhole
// (community 65001:666), one with Strata's AS in its path (AS loop) and one whose next hop
// (100.64.0.1) resolves nowhere. Each view must list each with its fate and reason, page by
// page as well as at once; the advertised view lists what BIRD is sent.
// The live stream (bgp/1.0 watch_updates, rib/1.0 watch_routes, what `monitor` polls): a watcher
// long-polls while BIRD announces and withdraws, and sees every UPDATE and every RIB change in
// order, the poll parked until the change came.
// Binaries: $STRATA_BIN_DIR (strata-bgp from $STRATA_BGP_BIN when set).
#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <map>
#include <optional>
#include <thread>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/interop_fixture.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

constexpr auto kWait = 30s;

class RouteViewsInteropTest : public InteropTest {
 protected:
  void SetUp() override {
    InteropTest::SetUp();
    if (IsSkipped()) return;
    RequireBinary("/usr/sbin/bird");
    if (IsSkipped()) return;
    bird_ns_ = &AddNs("b");
    strata_ns_ = &AddNs("s");
    link_ = &AddLink(*bird_ns_, *strata_ns_, 1);
  }

  // prefix -> the PeerRoute entries of every page of `view` (limit routes per page).
  StatusOr<std::map<std::string, json>> View(StrataSpeaker& s, const std::string& view,
                                             uint32_t limit = 0, size_t* pages = nullptr) {
    std::map<std::string, json> out;
    std::string next;
    size_t n = 0;
    do {
      std::string xrl = s.bgp_target() + "list_peer_routes?peer:ipv4=" + link_->a_v4() +
                        "&view:txt=" + view + "&limit:u32=" + std::to_string(limit);
      if (!next.empty()) xrl += "&start_after:ipv4net=" + next;
      auto r = s.Call(xrl);
      if (!r.ok()) return r.status();
      ++n;
      for (const json& e : r->value("routes", json::array())) {
        out[e["route"].value("prefix", "")] = e;
      }
      next = r->value("next", "");
    } while (!next.empty() && n < 100);
    if (pages) *pages = n;
    return out;
  }

  NetNs* bird_ns_ = nullptr;
  NetNs* strata_ns_ = nullptr;
  VethLink* link_ = nullptr;
};

TEST_F(RouteViewsInteropTest, EachRouteBirdSentShowsItsFateAndWhy) {
  auto& bird = AddSpeaker<BirdSpeaker>(
      *bird_ns_, SpeakerConfig{.name = "bird",
                               .local_as = 65001,
                               .router_id = "10.255.0.1",
                               .neighbors = {Neighbor{.address = link_->b_v4(),
                                                      .remote_as = 65000,
                                                      .local_address = link_->a_v4()}},
                               .routes = {{.prefix = "10.1.0.0/24"},
                                          {.prefix = "10.66.0.0/24", .communities = {"65001:666"}},
                                          {.prefix = "10.2.0.0/24", .as_path = {65000}},
                                          {.prefix = "10.3.0.0/24", .nexthop = "100.64.0.1"}}});
  auto& strata = AddSpeaker<StrataSpeaker>(
      *strata_ns_,
      SpeakerConfig{
          .name = "strata",
          .local_as = 65000,
          .router_id = "10.255.0.10",
          .neighbors = {Neighbor{
              .address = link_->a_v4(), .remote_as = 65001, .local_address = link_->b_v4()}},
          .routes = {{.prefix = "10.9.0.0/24"}}},
      StrataBinariesFromEnv());
  ASSERT_OK(strata.Start());
  ASSERT_OK(strata
                .Call(strata.bgp_target() +
                      "define_policy?name:txt=from-bird&terms.0.name:txt=drop-blackhole"
                      "&terms.0.communities:list<txt>=65001:666"
                      "&terms.0.action:txt=POLICY_ACTION_REJECT&terms.1.name:txt=rest"
                      "&terms.1.action:txt=POLICY_ACTION_ACCEPT")
                .status());
  ASSERT_OK(strata
                .Call(strata.bgp_target() + "set_peer_policy?peer:ipv4=" + link_->a_v4() +
                      "&direction:txt=import&policy:txt=from-bird")
                .status());
  ASSERT_OK(bird.Start());
  ASSERT_TRUE(strata.WaitEstablished(link_->a_v4(), kWait));
  ASSERT_TRUE(PollUntil(
      [&] {
        return StrataSpeaker::Counter(strata.PeerStatus(link_->a_v4()), "prefixes_received") == 4;
      },
      kWait))
      << strata.PeerStatus(link_->a_v4()).dump();
  // The next hops settle once the RIB answered.
  ASSERT_TRUE(PollUntil(
      [&] {
        auto v = View(strata, "PEER_ROUTE_VIEW_RECEIVED");
        return v.ok() && v->size() == 4 &&
               v->at("10.1.0.0/24").value("fate", "") == "ROUTE_FATE_BEST" &&
               v->at("10.3.0.0/24").value("fate", "") == "ROUTE_FATE_NEXTHOP_UNRESOLVED";
      },
      kWait))
      << strata.Logs();

  auto received = View(strata, "PEER_ROUTE_VIEW_RECEIVED");
  ASSERT_OK(received.status());
  const json& policy = received->at("10.66.0.0/24");
  EXPECT_EQ(policy.value("fate", ""), "ROUTE_FATE_REJECTED_POLICY") << policy.dump();
  EXPECT_EQ(policy.value("reason", ""), "rejected by policy from-bird term drop-blackhole");
  EXPECT_EQ(policy["route"].value("accepted", true), false);
  EXPECT_FALSE(policy.contains("accepted")) << policy.dump();
  const json& loop = received->at("10.2.0.0/24");
  EXPECT_EQ(loop.value("fate", ""), "ROUTE_FATE_AS_LOOP") << loop.dump();
  EXPECT_NE(loop.value("reason", "").find("65000"), std::string::npos) << loop.dump();
  EXPECT_EQ(loop["route"].value("as_path", ""), "65001 65000");  // before import policy
  const json& unresolved = received->at("10.3.0.0/24");
  EXPECT_NE(unresolved.value("reason", "").find("100.64.0.1"), std::string::npos)
      << unresolved.dump();
  const json& best = received->at("10.1.0.0/24");
  EXPECT_EQ(best.value("reason", ""), "best: only-route") << best.dump();
  EXPECT_EQ(best["accepted"].value("best", false), true) << best.dump();

  // Only the routes no decision sees.
  auto rejected = View(strata, "PEER_ROUTE_VIEW_REJECTED");
  ASSERT_OK(rejected.status());
  EXPECT_EQ(rejected->size(), 3u);
  EXPECT_FALSE(rejected->contains("10.1.0.0/24"));

  // A page per route, the cursor carrying on: the same four.
  size_t pages = 0;
  auto paged = View(strata, "PEER_ROUTE_VIEW_RECEIVED", 1, &pages);
  ASSERT_OK(paged.status());
  EXPECT_EQ(paged->size(), 4u);
  EXPECT_GE(pages, 4u);

  // Every path for one prefix.
  auto ex = strata.Call(strata.bgp_target() + "explain_prefix?prefix:ipv4net=10.66.0.0/24");
  ASSERT_OK(ex.status());
  ASSERT_EQ(ex->value("paths", json::array()).size(), 1u) << ex->dump();
  EXPECT_EQ((*ex)["paths"][0].value("fate", ""), "ROUTE_FATE_REJECTED_POLICY");
  ex = strata.Call(strata.bgp_target() + "explain_prefix?prefix:ipv4net=10.1.0.0/24");
  ASSERT_OK(ex.status());
  EXPECT_EQ(ex->value("best_reason", ""), "only-route") << ex->dump();

  // What BIRD is sent: our network, not its own routes back.
  auto advertised = View(strata, "PEER_ROUTE_VIEW_ADVERTISED");
  ASSERT_OK(advertised.status());
  ASSERT_TRUE(advertised->contains("10.9.0.0/24"));
  EXPECT_EQ(advertised->at("10.9.0.0/24").value("fate", ""), "ROUTE_FATE_ADVERTISED");
  EXPECT_EQ(advertised->at("10.9.0.0/24")["route"].value("as_path", ""), "65000");
  EXPECT_FALSE(advertised->contains("10.1.0.0/24"));
  ASSERT_TRUE(PollUntil([&] { return bird.FindRoute("10.9.0.0/24").has_value(); }, kWait));

  // A peer that does not exist is an error, not an empty list.
  auto none =
      strata.Call(strata.bgp_target() +
                  "list_peer_routes?peer:ipv4=192.0.2.99&view:txt=PEER_ROUTE_VIEW_RECEIVED");
  EXPECT_EQ(none.status().code(), StatusCode::kNotFound);
}

// One long poll: the events after `after` (absent: from the next one), waiting up to `ms`.
StatusOr<json> Watch(StrataSpeaker& s, const std::string& target, std::optional<uint64_t> after,
                     uint32_t ms) {
  std::string xrl = target + "?timeout_ms:u32=" + std::to_string(ms);
  if (after) xrl += "&after_seq:u64=" + std::to_string(*after);
  return s.Call(xrl);
}

uint64_t U64(const json& reply, const char* key, uint64_t absent) {
  if (!reply.contains(key)) return absent;
  const json& v = reply[key];
  return v.is_string() ? std::stoull(v.get<std::string>()) : v.get<uint64_t>();
}
uint64_t NextSeq(const json& reply, uint64_t before) { return U64(reply, "next_seq", before); }

// "received announce 10.1.0.0/24" / "sent withdraw ..." / "add 10.1.0.0/24 ebgp".
std::vector<std::string> Lines(const json& reply, bool route) {
  std::vector<std::string> out;
  for (const json& e : reply.value("events", json::array())) {
    const json r = e.value("route", json::object());
    if (route) {
      std::string c = e.value("change", "");
      c = c.substr(c.rfind('_') + 1);
      for (char& ch : c) ch = static_cast<char>(std::tolower(ch));
      out.push_back(c + " " + r.value("prefix", "") + " " + r.value("protocol", ""));
    } else {
      out.push_back(
          std::string(e.value("direction", "") == "UPDATE_DIRECTION_SENT" ? "sent" : "received") +
          (e.value("withdraw", false) ? " withdraw " : " announce ") + r.value("prefix", ""));
    }
  }
  return out;
}

TEST_F(RouteViewsInteropTest, WatchersSeeEveryUpdateAndRibChangeInOrder) {
  auto& bird = AddSpeaker<BirdSpeaker>(
      *bird_ns_, SpeakerConfig{.name = "bird",
                               .local_as = 65001,
                               .router_id = "10.255.0.1",
                               .neighbors = {Neighbor{.address = link_->b_v4(),
                                                      .remote_as = 65000,
                                                      .local_address = link_->a_v4()}},
                               .routes = {{.prefix = "10.1.0.0/24"}}});
  auto& strata = AddSpeaker<StrataSpeaker>(
      *strata_ns_,
      SpeakerConfig{
          .name = "strata",
          .local_as = 65000,
          .router_id = "10.255.0.10",
          .neighbors = {Neighbor{
              .address = link_->a_v4(), .remote_as = 65001, .local_address = link_->b_v4()}},
          .routes = {{.prefix = "10.9.0.0/24"}}},
      StrataBinariesFromEnv());
  ASSERT_OK(strata.Start());
  const std::string updates = strata.bgp_target() + "watch_updates";
  const std::string routes = strata.rib_target() + "watch_routes";
  // The first calls start the journals (nothing is recorded before anyone watches).
  auto u = Watch(strata, updates, std::nullopt, 0);
  ASSERT_OK(u.status());
  auto r = Watch(strata, routes, std::nullopt, 0);
  ASSERT_OK(r.status());
  uint64_t useq = NextSeq(*u, 0);
  uint64_t rseq = NextSeq(*r, 0);
  // A peer the speaker does not have is an error, not a silent empty stream.
  EXPECT_EQ(strata.Call(updates + "?peer:ipv4=192.0.2.99").status().code(), StatusCode::kNotFound);

  ASSERT_OK(bird.Start());
  ASSERT_TRUE(strata.WaitEstablished(link_->a_v4(), kWait));
  std::vector<std::string> seen_updates;
  std::vector<std::string> seen_routes;
  auto collect = [&](const std::string& want_update, const std::string& want_route) {
    return PollUntil(
        [&] {
          auto a = Watch(strata, updates, useq, 500);
          if (a.ok()) {
            useq = NextSeq(*a, useq);
            EXPECT_EQ(U64(*a, "lost", 0), 0u) << a->dump();
            for (auto& l : Lines(*a, false)) seen_updates.push_back(l);
          }
          auto b = Watch(strata, routes, rseq, 500);
          if (b.ok()) {
            rseq = NextSeq(*b, rseq);
            for (auto& l : Lines(*b, true)) seen_routes.push_back(l);
          }
          auto has = [](const std::vector<std::string>& v, const std::string& s) {
            return s.empty() || std::find(v.begin(), v.end(), s) != v.end();
          };
          return has(seen_updates, want_update) && has(seen_routes, want_route);
        },
        kWait);
  };
  ASSERT_TRUE(collect("received announce 10.1.0.0/24", "add 10.1.0.0/24 ebgp"))
      << ::testing::PrintToString(seen_updates) << ::testing::PrintToString(seen_routes)
      << strata.Logs();
  ASSERT_TRUE(collect("sent announce 10.9.0.0/24", "")) << ::testing::PrintToString(seen_updates);

  // A poll parked before BIRD withdraws is answered with the withdrawal.
  auto parked = std::async(std::launch::async, [&] { return Watch(strata, updates, useq, 8000); });
  std::this_thread::sleep_for(500ms);  // the poll is in strata-bgp, waiting
  EXPECT_EQ(parked.wait_for(0s), std::future_status::timeout);
  ASSERT_OK(bird.Withdraw("10.1.0.0/24"));
  auto got = parked.get();
  ASSERT_OK(got.status());
  std::vector<std::string> lines = Lines(*got, false);
  ASSERT_FALSE(lines.empty()) << got->dump();
  EXPECT_EQ(lines[0], "received withdraw 10.1.0.0/24") << got->dump();
  useq = NextSeq(*got, useq);
  seen_updates.clear();
  ASSERT_TRUE(collect("", "delete 10.1.0.0/24 ebgp")) << ::testing::PrintToString(seen_routes);

  // Announced then withdrawn: both, in that order.
  ASSERT_OK(bird.Announce({.prefix = "10.5.0.0/24"}));
  ASSERT_TRUE(collect("received announce 10.5.0.0/24", "add 10.5.0.0/24 ebgp"));
  ASSERT_OK(bird.Withdraw("10.5.0.0/24"));
  ASSERT_TRUE(collect("received withdraw 10.5.0.0/24", "delete 10.5.0.0/24 ebgp"));
  std::vector<std::string> received;
  for (const auto& l : seen_updates) {
    if (l.rfind("received", 0) == 0) received.push_back(l);
  }
  EXPECT_EQ(received, (std::vector<std::string>{"received announce 10.5.0.0/24",
                                                "received withdraw 10.5.0.0/24"}));
  std::vector<std::string> tail(seen_routes.end() - 2, seen_routes.end());
  EXPECT_EQ(tail, (std::vector<std::string>{"add 10.5.0.0/24 ebgp", "delete 10.5.0.0/24 ebgp"}));
}

}  // namespace
}  // namespace strata::interop
