// RPKI route origin validation (RFC 6811, RTR RFC 8210) between real programs:
//
//   stayrtr (RTR cache, in Strata's namespace on 127.0.0.1, serving a VRP JSON file the test
//            writes and rewrites)
//        |
//   ExaBGP (AS 65001) --link 1-- Strata (AS 65010) --link 2-- BIRD (AS 65003)
//
// ExaBGP announces V (origin AS 64500, covered by a VRP of AS 64500: valid), I (origin 64666,
// covered by a VRP of another AS: invalid) and N (no VRP: not-found). Strata's import policy
// from ExaBGP rejects `rpki invalid`. The test checks the states in list_routes and the
// counters, that BIRD gets V and N but not I, then rewrites the VRP file so that V's VRP names
// another AS: stayrtr notifies, Strata re-validates V (invalid now) and withdraws it from BIRD;
// I's VRP made to allow it brings I to BIRD. list_rpki_caches shows the session and VRP counts.
#include <gtest/gtest.h>

#include <fstream>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/exabgp_speaker.h"
#include "testing/interop/interop_fixture.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

constexpr uint32_t kExaAs = 65001;
constexpr uint32_t kBirdAs = 65003;
constexpr uint32_t kStrataAs = 65010;
constexpr auto kWait = 45s;

const char* const kValid = "10.10.1.0/24";
const char* const kInvalid = "10.20.1.0/24";
const char* const kNotFound = "10.30.1.0/24";

struct Roa {
  std::string prefix;
  int max_len;
  uint32_t asn;
};

// stayrtr's JSON input (rpki-client's format).
void WriteVrps(const std::string& path, const std::vector<Roa>& roas) {
  json j;
  j["metadata"] = {{"buildtime", "2024-01-01T00:00:00Z"}};
  j["roas"] = json::array();
  for (const Roa& r : roas) {
    j["roas"].push_back({{"prefix", r.prefix},
                         {"maxLength", r.max_len},
                         {"asn", "AS" + std::to_string(r.asn)},
                         {"ta", "test"}});
  }
  const std::string tmp = path + ".tmp";
  std::ofstream(tmp) << j.dump(1);
  std::rename(tmp.c_str(), path.c_str());
}

class RpkiInteropTest : public InteropTest {
 protected:
  void SetUp() override {
    InteropTest::SetUp();
    if (IsSkipped()) return;
    RequireBinary("/usr/sbin/bird");
    RequireBinary("/usr/sbin/exabgp");
    RequireBinary("/usr/bin/stayrtr");
  }

  // The route's RFC 6811 state in Strata's list_routes ("" when absent).
  std::string StateOf(const std::string& prefix) {
    auto r = strata_->Call(strata_->bgp_target() + "list_routes?prefix:ipv4net=" + prefix);
    if (!r.ok() || !r->contains("routes")) return "";
    for (const json& route : (*r)["routes"]) return route.value("rpki", "");
    return "";
  }

  json Caches() {
    auto c = strata_->Call(strata_->bgp_target() + "list_rpki_caches");
    return c.ok() ? *c : json();
  }

  StrataSpeaker* strata_ = nullptr;
  Daemon stayrtr_;
};

TEST_F(RpkiInteropTest, InvalidRejectedAndVrpChangeWithdrawsDownstream) {
  NetNs& ens = AddNs("e");
  NetNs& sns = AddNs("s");
  NetNs& bns = AddNs("b");
  VethLink& l1 = AddLink(ens, sns, 1);
  VethLink& l2 = AddLink(sns, bns, 2);

  // The cache: a port free in Strata's namespace (nothing else runs there), read back from a
  // socket bound to port 0.
  const CommandResult port_r = sns.Exec(
      {"/usr/bin/python3", "-c",
       "import socket;s=socket.socket();s.bind(('127.0.0.1',0));print(s.getsockname()[1])"});
  ASSERT_TRUE(port_r.ok()) << port_r.output;
  const std::string port = port_r.output.substr(0, port_r.output.find('\n'));
  const std::string vrps = dir() + "/vrps.json";
  WriteVrps(vrps, {{"10.10.0.0/16", 24, 64500}, {"10.20.0.0/16", 24, 64500}});
  ASSERT_OK(stayrtr_.Start(
      sns.Wrap({"stayrtr", "-bind", "127.0.0.1:" + port, "-cache", vrps, "-checktime=false",
                "-refresh", "1", "-rtr.refresh", "60", "-loglevel", "debug"}),
      dir() + "/stayrtr.log"));

  auto& exa = AddSpeaker<ExabgpSpeaker>(
      ens,
      SpeakerConfig{
          .name = "exabgp",
          .local_as = kExaAs,
          .router_id = "10.255.0.1",
          .neighbors = {{.address = l1.b_v4(), .remote_as = kStrataAs, .local_address = l1.a_v4()}},
          .routes = {{.prefix = kValid, .as_path = {kExaAs, 64500}},
                     {.prefix = kInvalid, .as_path = {kExaAs, 64666}},
                     {.prefix = kNotFound, .as_path = {kExaAs, 64500}}}});
  auto& bird = AddSpeaker<BirdSpeaker>(
      bns, SpeakerConfig{
               .name = "bird",
               .local_as = kBirdAs,
               .router_id = "10.255.0.3",
               .neighbors = {
                   {.address = l2.a_v4(), .remote_as = kStrataAs, .local_address = l2.b_v4()}}});
  strata_ = &AddSpeaker<StrataSpeaker>(
      sns,
      SpeakerConfig{
          .name = "strata",
          .local_as = kStrataAs,
          .router_id = "10.255.0.10",
          .neighbors = {{.address = l1.a_v4(), .remote_as = kExaAs, .local_address = l1.b_v4()},
                        {.address = l2.b_v4(), .remote_as = kBirdAs, .local_address = l2.a_v4()}}},
      StrataBinariesFromEnv());
  ASSERT_OK(strata_->Start());
  const std::string bgp = strata_->bgp_target();
  ASSERT_TRUE(strata_
                  ->Call(bgp + "define_policy?name:txt=rov&terms.0.name:txt=invalid"
                               "&terms.0.rpki:list<txt>=invalid"
                               "&terms.0.action:txt=POLICY_ACTION_REJECT"
                               "&default_action:txt=POLICY_ACTION_ACCEPT")
                  .ok());
  ASSERT_TRUE(strata_
                  ->Call(bgp + "set_peer_policy?peer:ipv4=" + l1.a_v4() +
                         "&direction:txt=import&policy:txt=rov")
                  .ok());
  ASSERT_TRUE(strata_
                  ->Call(bgp + "add_rpki_cache?cache.address:txt=127.0.0.1&cache.port:u32=" + port +
                         "&cache.preference:u32=1")
                  .ok());
  // The VRPs first, then the peers: the routes are validated as they arrive.
  ASSERT_TRUE(PollUntil(
      [&] {
        auto c = strata_->Call(bgp + "list_rpki_caches");
        return c.ok() && StrataSpeaker::Counter(*c, "vrps_v4") == 2;
      },
      kWait))
      << Caches().dump();
  ASSERT_OK(exa.Start());
  ASSERT_OK(bird.Start());
  ASSERT_TRUE(strata_->WaitEstablished(l1.a_v4(), kWait));
  ASSERT_TRUE(strata_->WaitEstablished(l2.b_v4(), kWait));

  ASSERT_TRUE(bird.WaitForRoute(kValid, kWait).has_value()) << AllLogs();
  ASSERT_TRUE(bird.WaitForRoute(kNotFound, kWait).has_value());
  ASSERT_TRUE(PollUntil(
      [&] { return StrataSpeaker::Counter(strata_->PeerStatus(l1.a_v4()), "rpki_invalid") == 1; },
      kWait))
      << strata_->PeerStatus(l1.a_v4()).dump();
  EXPECT_FALSE(bird.FindRoute(kInvalid).has_value());
  EXPECT_EQ(StateOf(kValid), "valid");
  EXPECT_EQ(StateOf(kNotFound), "not-found");
  const json peer = strata_->PeerStatus(l1.a_v4());
  EXPECT_EQ(StrataSpeaker::Counter(peer, "rpki_valid"), 1u) << peer.dump();
  EXPECT_EQ(StrataSpeaker::Counter(peer, "rpki_not_found"), 1u) << peer.dump();
  EXPECT_EQ(StrataSpeaker::Counter(peer, "prefixes_accepted"), 2u) << peer.dump();
  const json caches = Caches();
  ASSERT_TRUE(caches.contains("caches")) << caches.dump();
  EXPECT_EQ(caches["caches"][0].value("state", ""), "RTR_ESTABLISHED") << caches.dump();

  // V's VRP now names another AS, and I's allows it: V goes, I comes.
  WriteVrps(vrps, {{"10.10.0.0/16", 24, 64999}, {"10.20.0.0/16", 24, 64666}});
  EXPECT_TRUE(bird.WaitForRouteGone(kValid, kWait)) << AllLogs();
  EXPECT_TRUE(bird.WaitForRoute(kInvalid, kWait).has_value());
  EXPECT_TRUE(bird.FindRoute(kNotFound).has_value());
  EXPECT_EQ(StateOf(kInvalid), "valid");
  const json after = strata_->PeerStatus(l1.a_v4());
  EXPECT_EQ(StrataSpeaker::Counter(after, "rpki_invalid"), 1u) << after.dump();
  EXPECT_EQ(StrataSpeaker::Counter(after, "rpki_valid"), 1u) << after.dump();

  // The cache goes: its VRPs go with it (validation off), and every route is accepted.
  ASSERT_TRUE(strata_->Call(bgp + "delete_rpki_cache?address:txt=127.0.0.1").ok());
  EXPECT_TRUE(bird.WaitForRoute(kValid, kWait).has_value());
  EXPECT_EQ(StateOf(kValid), "unverified");
  stayrtr_.Stop();
}

}  // namespace
}  // namespace strata::interop
