// Strata's routing policies between real daemons: what each peer receives is what the
// policies say, also after they change at run time.
//
//   BIRD  (AS 65001) --link 1--+
//                              Strata (AS 65010) --link 2-- FRR (AS 65003, eBGP)
//   GoBGP (AS 65010) --link 3--+                   (GoBGP: iBGP, so it shows LOCAL_PREF)
//
// Policies, defined and attached with strata-call (bgp/1.0 define_policy / set_peer_policy, as
// strata-rtrmgr sends them on commit):
// - import from BIRD ("from-bird"): prefix list bird-ok = 10.1.0.0/16 ge 24 le 24 (IPv6:
//   fd00:1::/32 ge 48 le 48); with community 65001:100: LOCAL_PREF 200 and community 65010:1;
//   other bird-ok prefixes: community 65010:2; the rest is rejected.
// - export to FRR ("to-frr"): our AS prepended twice more and MED 50 on every route.
// - export to GoBGP ("to-gobgp"): only routes whose AS path matches as-path-set from-frr
//   ("^65003$") or that carry a member of community-set tagged (65010:1).
// BIRD originates A (65001:100, MED 10), B, C (a /25, outside the length range) and D (outside
// the list); FRR originates F. The tests check the peers' tables (birdc, vtysh, gobgp) as set
// up, after live redefinitions, clearing, re-attaching and sharing of statements (unconcerned
// peers get no UPDATE), and that a statement naming a missing set is refused with the old one
// left in force. Binaries: $STRATA_BIN_DIR (strata-bgp from $STRATA_BGP_BIN when set).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/frr_speaker.h"
#include "testing/interop/gobgp_speaker.h"
#include "testing/interop/interop_fixture.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

constexpr uint32_t kBirdAs = 65001;
constexpr uint32_t kFrrAs = 65003;
constexpr uint32_t kStrataAs = 65010;
// Bound of every wait for a route to come, change or go (generous: the machine may be loaded).
constexpr auto kWait = 30s;

// The prefixes of one address family.
struct Prefixes {
  std::string a, b, c, d, f;  // see the header comment
  std::string list;           // bird-ok's prefix, lengths [len, len]
  std::string len;
  std::string c_cover;  // the changed bird-ok: a exactly, and c_cover ge/le c_len
  std::string c_len;
  std::string net;  // "ipv4net" / "ipv6net"
};

Prefixes V4() {
  return {.a = "10.1.1.0/24",
          .b = "10.1.2.0/24",
          .c = "10.1.3.0/25",
          .d = "10.9.0.0/24",
          .f = "10.3.0.0/24",
          .list = "10.1.0.0/16",
          .len = "24",
          .c_cover = "10.1.3.0/24",
          .c_len = "25",
          .net = "ipv4net"};
}
Prefixes V6() {
  return {.a = "fd00:1:1::/48",
          .b = "fd00:1:2::/48",
          .c = "fd00:1:3::/56",
          .d = "fd00:9::/48",
          .f = "fd00:3::/48",
          .list = "fd00:1::/32",
          .len = "48",
          .c_cover = "fd00:1:3::/48",
          .c_len = "56",
          .net = "ipv6net"};
}

// define_policy arguments of from-bird. `changed`: bird-ok is A exactly plus C's range (so B is
// rejected and C accepted) and the LOCAL_PREF set is 300.
std::string ImportPolicy(const Prefixes& p, bool changed) {
  const std::string pl = "&prefix_lists.0.prefixes.";
  std::string s = "name:txt=from-bird&prefix_lists.0.name:txt=bird-ok";
  if (changed) {
    s += pl + "0.prefix:" + p.net + "=" + p.a;
    s += pl + "1.prefix:" + p.net + "=" + p.c_cover + pl + "1.ge:u32=" + p.c_len + pl +
         "1.le:u32=" + p.c_len;
  } else {
    s += pl + "0.prefix:" + p.net + "=" + p.list + pl + "0.ge:u32=" + p.len + pl +
         "0.le:u32=" + p.len;
  }
  s += "&terms.0.name:txt=preferred&terms.0.prefix_lists:list<txt>=bird-ok"
       "&terms.0.communities:list<txt>=65001:100&terms.0.set_local_pref:u32=";
  s += changed ? "300" : "200";
  s += "&terms.0.add_communities:list<txt>=65010:1&terms.0.action:txt=POLICY_ACTION_ACCEPT"
       "&terms.1.name:txt=rest&terms.1.prefix_lists:list<txt>=bird-ok"
       "&terms.1.add_communities:list<txt>=65010:2&terms.1.action:txt=POLICY_ACTION_ACCEPT"
       "&default_action:txt=POLICY_ACTION_REJECT";
  return s;
}

std::string FrrExportPolicy(uint32_t prepend, uint32_t med) {
  return "name:txt=to-frr&terms.0.name:txt=all&terms.0.prepend_count:u32=" +
         std::to_string(prepend) + "&terms.0.set_med:u32=" + std::to_string(med) +
         "&terms.0.action:txt=POLICY_ACTION_ACCEPT&default_action:txt=POLICY_ACTION_ACCEPT";
}

// `tagged`: the member of community-set tagged.
std::string GobgpExportPolicy(const std::string& tagged = "65010:1") {
  return "name:txt=to-gobgp&as_path_sets.0.name:txt=from-frr"
         "&as_path_sets.0.regexes:list<txt>=^65003$"
         "&community_sets.0.name:txt=tagged&community_sets.0.members:list<txt>=" +
         tagged +
         "&terms.0.name:txt=via-frr&terms.0.as_path_sets:list<txt>=from-frr"
         "&terms.0.action:txt=POLICY_ACTION_ACCEPT"
         "&terms.1.name:txt=tagged&terms.1.community_sets:list<txt>=tagged"
         "&terms.1.action:txt=POLICY_ACTION_ACCEPT&default_action:txt=POLICY_ACTION_REJECT";
}

// A list_peers counter; proto3's JSON leaves out zeros, so a missing one is 0 (tests compare
// counters they have seen above zero). No peer entry at all fails the test.
uint64_t Counter(const json& peer, const std::string& key) {
  if (!peer.is_object()) {
    ADD_FAILURE() << "no list_peers entry for the peer (looking for " << key << ")";
    return 0;
  }
  return StrataSpeaker::Counter(peer, key);
}

// UPDATEs GoBGP has received from `neighbor` (`gobgp neighbor X -j`).
std::optional<uint64_t> GobgpUpdatesIn(GobgpSpeaker& g, const std::string& neighbor) {
  const auto r = g.Gobgp({"neighbor", neighbor, "-j"});
  if (!r.ok()) return std::nullopt;
  const json j = json::parse(r.output, nullptr, false);
  if (!j.is_object() || !j.contains("state")) return std::nullopt;
  const json& m = j["state"].value("messages", json::object());
  if (!m.contains("received")) return std::nullopt;
  return m["received"].value("update", uint64_t{0});
}

// True when `prefix` does not show up at `s` within `window` (a route that is not sent).
bool StaysAbsent(BgpSpeaker& s, const std::string& prefix, std::chrono::milliseconds window) {
  return !PollUntil([&] { return s.FindRoute(prefix).has_value(); }, window);
}

class PolicyInteropTest : public InteropTest {
 protected:
  void SetUp() override {
    InteropTest::SetUp();
    if (IsSkipped()) return;
    RequireBinary("/usr/sbin/bird");
    RequireBinary("/usr/lib/frr/bgpd");
    RequireBinary("/usr/bin/gobgpd");
    RequireBinary("/usr/bin/gobgp");
  }

  std::string BirdAddr() const { return v6_ ? l1_->a_v6() : l1_->a_v4(); }
  std::string FrrAddr() const { return v6_ ? l2_->b_v6() : l2_->b_v4(); }
  std::string GobgpAddr() const { return v6_ ? l3_->a_v6() : l3_->a_v4(); }
  std::string StrataOnGobgpLink() const { return v6_ ? l3_->b_v6() : l3_->b_v4(); }
  std::string Type() const { return v6_ ? "ipv6" : "ipv4"; }

  Neighbor Peer(const std::string& addr, uint32_t as, const std::string& local) const {
    return Neighbor{
        .address = addr, .remote_as = as, .local_address = local, .ipv4 = !v6_, .ipv6 = v6_};
  }

  // Namespaces, links and speakers; Strata starts first and gets its policies before the
  // others start, so every route it ever sends went through them.
  void StartAll(bool v6) {
    v6_ = v6;
    p_ = v6 ? V6() : V4();
    NetNs& bns = AddNs("b");
    NetNs& sns = AddNs("s");
    NetNs& fns = AddNs("f");
    NetNs& gns = AddNs("g");
    l1_ = &AddLink(bns, sns, 1);
    l2_ = &AddLink(sns, fns, 2);
    l3_ = &AddLink(gns, sns, 3);
    const std::string s1 = v6 ? l1_->b_v6() : l1_->b_v4();
    const std::string s2 = v6 ? l2_->a_v6() : l2_->a_v4();
    const std::string s3 = v6 ? l3_->b_v6() : l3_->b_v4();
    bird_ = &AddSpeaker<BirdSpeaker>(
        bns, SpeakerConfig{.name = "bird",
                           .local_as = kBirdAs,
                           .router_id = "10.255.0.1",
                           .neighbors = {Peer(s1, kStrataAs, BirdAddr())},
                           .routes = {{.prefix = p_.a, .communities = {"65001:100"}, .med = 10},
                                      {.prefix = p_.b},
                                      {.prefix = p_.c},
                                      {.prefix = p_.d}}});
    frr_ = &AddSpeaker<FrrSpeaker>(
        fns, SpeakerConfig{.name = "frr",
                           .local_as = kFrrAs,
                           .router_id = "10.255.0.3",
                           .neighbors = {Peer(s2, kStrataAs, FrrAddr())},
                           .routes = {{.prefix = p_.f, .communities = {"65003:300"}}}});
    gobgp_ = &AddSpeaker<GobgpSpeaker>(
        gns, SpeakerConfig{.name = "gobgp",
                           .local_as = kStrataAs,
                           .router_id = "10.255.0.4",
                           .neighbors = {Peer(s3, kStrataAs, GobgpAddr())}});
    strata_ = &AddSpeaker<StrataSpeaker>(
        sns,
        SpeakerConfig{.name = "strata",
                      .local_as = kStrataAs,
                      .router_id = "10.255.0.10",
                      .neighbors = {Peer(BirdAddr(), kBirdAs, s1), Peer(FrrAddr(), kFrrAs, s2),
                                    Peer(GobgpAddr(), kStrataAs, s3)}},
        StrataBinariesFromEnv());
    ASSERT_OK(strata_->Start());
    ASSERT_OK(Define(ImportPolicy(p_, false)));
    ASSERT_OK(Define(FrrExportPolicy(2, 50)));
    ASSERT_OK(Define(GobgpExportPolicy()));
    ASSERT_OK(Attach(BirdAddr(), "import", "from-bird"));
    ASSERT_OK(Attach(FrrAddr(), "export", "to-frr"));
    ASSERT_OK(Attach(GobgpAddr(), "export", "to-gobgp"));
    ASSERT_OK(bird_->Start());
    ASSERT_OK(frr_->Start());
    ASSERT_OK(gobgp_->Start());
    for (const auto& n : {BirdAddr(), FrrAddr(), GobgpAddr()}) {
      ASSERT_TRUE(strata_->WaitEstablished(n, kWait)) << n;
    }
  }

  Status Define(const std::string& args) {
    auto r = strata_->Call(strata_->bgp_target() + "define_policy?" + args);
    return r.ok() ? Status::Ok() : r.status();
  }
  Status Attach(const std::string& peer, const std::string& direction, const std::string& name) {
    auto r = strata_->Call(strata_->bgp_target() + "set_peer_policy?peer:" + Type() + "=" + peer +
                           "&direction:txt=" + direction + "&policy:txt=" + name);
    return r.ok() ? Status::Ok() : r.status();
  }

  // Waits until Strata has BIRD's four routes (accepted or not) and the initial routes reached
  // FRR and GoBGP; then checks every table against the policies.
  void CheckInitialPolicies() {
    ASSERT_TRUE(PollUntil(
        [&] { return Counter(strata_->PeerStatus(BirdAddr()), "prefixes_received") == 4; }, kWait))
        << strata_->PeerStatus(BirdAddr()).dump();
    const json bird_peer = strata_->PeerStatus(BirdAddr());
    EXPECT_EQ(Counter(bird_peer, "prefixes_accepted"), 2u) << bird_peer.dump();
    EXPECT_EQ(bird_peer.value("import_policy", ""), "from-bird");

    // Strata's own table: LOCAL_PREF and communities set on import, C and D rejected.
    auto a = strata_->WaitForRoute(p_.a, kWait);
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(a->local_pref, 200u) << a->ToString();
    EXPECT_THAT(a->communities, ElementsAre("65001:100", "65010:1"));
    auto b = strata_->WaitForRoute(p_.b, kWait);
    ASSERT_TRUE(b.has_value());
    EXPECT_THAT(b->communities, ElementsAre("65010:2"));
    EXPECT_NE(b->local_pref, 200u) << b->ToString();
    EXPECT_FALSE(strata_->FindRoute(p_.c).has_value());
    EXPECT_FALSE(strata_->FindRoute(p_.d).has_value());

    // FRR: A and B, each with our AS three times, MED 50 (BIRD's MED 10 replaced) and the
    // communities of the import policy.
    auto fa = frr_->WaitForRoute(p_.a, kWait);
    ASSERT_TRUE(fa.has_value());
    EXPECT_THAT(fa->as_path, ElementsAre(kStrataAs, kStrataAs, kStrataAs, kBirdAs));
    EXPECT_EQ(fa->med, 50u) << fa->ToString();
    EXPECT_THAT(fa->communities, ElementsAre("65001:100", "65010:1"));
    EXPECT_FALSE(fa->local_pref.has_value()) << "LOCAL_PREF leaked to eBGP: " << fa->ToString();
    auto fb = frr_->WaitForRoute(p_.b, kWait);
    ASSERT_TRUE(fb.has_value());
    EXPECT_THAT(fb->as_path, ElementsAre(kStrataAs, kStrataAs, kStrataAs, kBirdAs));
    EXPECT_EQ(fb->med, 50u) << fb->ToString();
    EXPECT_THAT(fb->communities, ElementsAre("65010:2"));
    EXPECT_FALSE(frr_->FindRoute(p_.c).has_value());
    EXPECT_FALSE(frr_->FindRoute(p_.d).has_value());

    // GoBGP (iBGP): A through the community set, with LOCAL_PREF 200; F through the AS path
    // set; B (accepted by Strata, with 65010:2 only) is not sent.
    auto ga = gobgp_->WaitForRoute(p_.a, kWait);
    ASSERT_TRUE(ga.has_value());
    EXPECT_EQ(ga->local_pref, 200u) << ga->ToString();
    EXPECT_THAT(ga->as_path, ElementsAre(kBirdAs));
    EXPECT_THAT(ga->communities, ElementsAre("65001:100", "65010:1"));
    EXPECT_EQ(ga->med, 10u) << ga->ToString();  // BIRD's: FRR's export MED is FRR's alone
    EXPECT_EQ(ga->nexthop, BirdAddr());
    auto gf = gobgp_->WaitForRoute(p_.f, kWait);
    ASSERT_TRUE(gf.has_value());
    EXPECT_THAT(gf->as_path, ElementsAre(kFrrAs));
    EXPECT_THAT(gf->communities, ElementsAre("65003:300"));
    EXPECT_TRUE(StaysAbsent(*gobgp_, p_.b, 2s));
    EXPECT_FALSE(gobgp_->FindRoute(p_.c).has_value());
    EXPECT_FALSE(gobgp_->FindRoute(p_.d).has_value());

    // BIRD has no export policy (ebgp_requires_policy is off in the harness): F, prepended once.
    auto bf = bird_->WaitForRoute(p_.f, kWait);
    ASSERT_TRUE(bf.has_value());
    EXPECT_THAT(bf->as_path, ElementsAre(kStrataAs, kFrrAs));
  }

  // The operator changes policies at run time: the import policy (prefix list and LOCAL_PREF),
  // FRR's export policy, then GoBGP's community set. Each change reaches the peers it concerns
  // and no other.
  void ChangePoliciesLive() {
    // from-bird now accepts A and C only, with LOCAL_PREF 300: B leaves FRR, C arrives there (not
    // at GoBGP: it has no 65010:1), GoBGP's A gets the new LOCAL_PREF.
    ASSERT_OK(Define(ImportPolicy(p_, true)));
    ASSERT_TRUE(frr_->WaitForRouteGone(p_.b, kWait));
    auto fc = frr_->WaitForRoute(p_.c, kWait);
    ASSERT_TRUE(fc.has_value());
    EXPECT_THAT(fc->as_path, ElementsAre(kStrataAs, kStrataAs, kStrataAs, kBirdAs));
    EXPECT_EQ(fc->med, 50u) << fc->ToString();
    EXPECT_THAT(fc->communities, ElementsAre("65010:2"));
    auto ga =
        gobgp_->WaitForRoute(p_.a, kWait, [](const Route& r) { return r.local_pref == 300u; });
    ASSERT_TRUE(ga.has_value()) << gobgp_->FindRoute(p_.a).value_or(Route{}).ToString();
    EXPECT_THAT(ga->communities, ElementsAre("65001:100", "65010:1"));
    EXPECT_FALSE(strata_->FindRoute(p_.b).has_value());
    EXPECT_FALSE(frr_->FindRoute(p_.d).has_value());
    EXPECT_TRUE(frr_->FindRoute(p_.a).has_value());
    EXPECT_TRUE(StaysAbsent(*gobgp_, p_.c, 2s));
    EXPECT_EQ(Counter(strata_->PeerStatus(BirdAddr()), "prefixes_accepted"), 2u);

    // to-frr now prepends once and sets MED 70: FRR's routes change; GoBGP and BIRD get no UPDATE.
    const uint64_t to_gobgp = Counter(strata_->PeerStatus(GobgpAddr()), "updates_out");
    const uint64_t to_bird = Counter(strata_->PeerStatus(BirdAddr()), "updates_out");
    const uint64_t to_frr = Counter(strata_->PeerStatus(FrrAddr()), "updates_out");
    const auto gobgp_in = GobgpUpdatesIn(*gobgp_, StrataOnGobgpLink());
    ASSERT_TRUE(gobgp_in.has_value());
    EXPECT_GT(*gobgp_in, 0u);
    EXPECT_GT(to_gobgp, 0u);
    EXPECT_GT(to_bird, 0u);
    const auto bird_f = bird_->FindRoute(p_.f);
    ASSERT_TRUE(bird_f.has_value());
    ASSERT_OK(Define(FrrExportPolicy(1, 70)));
    for (const std::string& prefix : {p_.a, p_.c}) {
      auto r = frr_->WaitForRoute(prefix, kWait, [](const Route& x) { return x.med == 70u; });
      ASSERT_TRUE(r.has_value()) << prefix;
      EXPECT_THAT(r->as_path, ElementsAre(kStrataAs, kStrataAs, kBirdAs)) << r->ToString();
    }
    EXPECT_GT(Counter(strata_->PeerStatus(FrrAddr()), "updates_out"), to_frr);
    EXPECT_EQ(Counter(strata_->PeerStatus(GobgpAddr()), "updates_out"), to_gobgp);
    EXPECT_EQ(Counter(strata_->PeerStatus(BirdAddr()), "updates_out"), to_bird);
    EXPECT_EQ(GobgpUpdatesIn(*gobgp_, StrataOnGobgpLink()), gobgp_in);
    ga = gobgp_->FindRoute(p_.a);
    ASSERT_TRUE(ga.has_value());
    EXPECT_EQ(ga->local_pref, 300u);
    EXPECT_EQ(ga->med, 10u) << ga->ToString();
    const auto bird_f_after = bird_->FindRoute(p_.f);
    ASSERT_TRUE(bird_f_after.has_value());
    EXPECT_EQ(bird_f_after->ToString(), bird_f->ToString());

    // community-set tagged now holds 65010:2: A leaves GoBGP, C arrives; FRR gets nothing.
    const uint64_t to_frr_now = Counter(strata_->PeerStatus(FrrAddr()), "updates_out");
    const auto frr_a = frr_->FindRoute(p_.a);
    ASSERT_TRUE(frr_a.has_value());
    ASSERT_OK(Define(GobgpExportPolicy("65010:2")));
    ASSERT_TRUE(gobgp_->WaitForRouteGone(p_.a, kWait));
    auto gc = gobgp_->WaitForRoute(p_.c, kWait);
    ASSERT_TRUE(gc.has_value());
    EXPECT_THAT(gc->communities, ElementsAre("65010:2"));
    EXPECT_EQ(gc->local_pref, 100u) << gc->ToString();
    EXPECT_TRUE(gobgp_->FindRoute(p_.f).has_value());
    EXPECT_EQ(Counter(strata_->PeerStatus(FrrAddr()), "updates_out"), to_frr_now);
    EXPECT_EQ(frr_->FindRoute(p_.a).value_or(Route{}).ToString(), frr_a->ToString());
  }

  bool v6_ = false;
  Prefixes p_;
  VethLink* l1_ = nullptr;
  VethLink* l2_ = nullptr;
  VethLink* l3_ = nullptr;
  BirdSpeaker* bird_ = nullptr;
  FrrSpeaker* frr_ = nullptr;
  GobgpSpeaker* gobgp_ = nullptr;
  StrataSpeaker* strata_ = nullptr;
};

TEST_F(PolicyInteropTest, ImportAndExportPoliciesShapeWhatEachPeerGetsIpv4) {
  ASSERT_NO_FATAL_FAILURE(StartAll(false));
  CheckInitialPolicies();
}

TEST_F(PolicyInteropTest, ImportAndExportPoliciesShapeWhatEachPeerGetsIpv6) {
  ASSERT_NO_FATAL_FAILURE(StartAll(true));
  CheckInitialPolicies();
}

TEST_F(PolicyInteropTest, LiveChangesReachOnlyThePeersTheyConcernIpv4) {
  ASSERT_NO_FATAL_FAILURE(StartAll(false));
  ASSERT_NO_FATAL_FAILURE(CheckInitialPolicies());
  ChangePoliciesLive();
}

TEST_F(PolicyInteropTest, LiveChangesReachOnlyThePeersTheyConcernIpv6) {
  ASSERT_NO_FATAL_FAILURE(StartAll(true));
  ASSERT_NO_FATAL_FAILURE(CheckInitialPolicies());
  ChangePoliciesLive();
}

// A policy naming a set (or a policy) that does not exist is refused with an error naming it,
// and the policies in place keep applying: the peers' tables and UPDATE counters do not move.
TEST_F(PolicyInteropTest, PolicyNamingAMissingSetIsRejectedAndTheOldOneStays) {
  ASSERT_NO_FATAL_FAILURE(StartAll(false));
  ASSERT_NO_FATAL_FAILURE(CheckInitialPolicies());
  auto routes_of = [](BgpSpeaker& s) {
    std::vector<std::string> out;
    auto routes = s.ReceivedRoutes();
    if (routes.ok()) {
      for (const auto& r : *routes) out.push_back(r.ToString());
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  const auto frr_before = routes_of(*frr_);
  const auto gobgp_before = routes_of(*gobgp_);
  uint64_t out_before[3];
  const std::string peers[3] = {BirdAddr(), FrrAddr(), GobgpAddr()};
  for (int i = 0; i < 3; ++i) {
    out_before[i] = Counter(strata_->PeerStatus(peers[i]), "updates_out");
    EXPECT_GT(out_before[i], 0u) << peers[i];
  }

  // from-bird redefined with a term naming a prefix list that is not defined: would accept all.
  Status s = Define(
      "name:txt=from-bird&terms.0.name:txt=all&terms.0.prefix_lists:list<txt>=no-such-list"
      "&terms.0.action:txt=POLICY_ACTION_ACCEPT&default_action:txt=POLICY_ACTION_ACCEPT");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("no-such-list"), std::string::npos) << s.ToString();
  // to-gobgp redefined naming a community set that is not defined.
  s = Define(
      "name:txt=to-gobgp&terms.0.name:txt=t&terms.0.community_sets:list<txt>=no-such-set"
      "&terms.0.action:txt=POLICY_ACTION_ACCEPT&default_action:txt=POLICY_ACTION_ACCEPT");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("no-such-set"), std::string::npos) << s.ToString();
  // An AS path regex that does not compile.
  s = Define(
      "name:txt=to-gobgp&terms.0.name:txt=t&terms.0.as_path_regex:txt=(65003"
      "&terms.0.action:txt=POLICY_ACTION_ACCEPT&default_action:txt=POLICY_ACTION_ACCEPT");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  // A policy in use cannot be deleted.
  auto deleted = strata_->Call(strata_->bgp_target() + "delete_policy?name:txt=to-frr");
  EXPECT_EQ(deleted.status().code(), StatusCode::kFailedPrecondition)
      << deleted.status().ToString();
  // A peer pointed at a policy that does not exist.
  s = Attach(FrrAddr(), "export", "no-such-policy");
  EXPECT_EQ(s.code(), StatusCode::kNotFound) << s.ToString();

  EXPECT_EQ(strata_->PeerStatus(BirdAddr()).value("import_policy", ""), "from-bird");
  EXPECT_EQ(strata_->PeerStatus(FrrAddr()).value("export_policy", ""), "to-frr");
  EXPECT_EQ(strata_->PeerStatus(GobgpAddr()).value("export_policy", ""), "to-gobgp");
  EXPECT_TRUE(StaysAbsent(*frr_, p_.c, 2s));
  EXPECT_FALSE(gobgp_->FindRoute(p_.b).has_value());
  EXPECT_EQ(routes_of(*frr_), frr_before);
  EXPECT_EQ(routes_of(*gobgp_), gobgp_before);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(Counter(strata_->PeerStatus(peers[i]), "updates_out"), out_before[i]) << peers[i];
  }
  // The old policy is still the one in force: a valid redefinition still takes effect.
  ASSERT_OK(Define(ImportPolicy(p_, true)));
  EXPECT_TRUE(frr_->WaitForRouteGone(p_.b, kWait));
  EXPECT_TRUE(frr_->WaitForRoute(p_.c, kWait).has_value());
}

// Peers switched to other policies at run time: BIRD's import policy cleared (the harness turns
// RFC 8212 off, so everything is accepted unchanged) and set again; one statement made the export
// policy of FRR and GoBGP, then redefined: both get the change.
TEST_F(PolicyInteropTest, ClearingSwitchingAndSharingPoliciesAtRunTime) {
  ASSERT_NO_FATAL_FAILURE(StartAll(false));
  ASSERT_NO_FATAL_FAILURE(CheckInitialPolicies());

  auto r = strata_->Call(strata_->bgp_target() + "clear_peer_policy?peer:ipv4=" + BirdAddr() +
                         "&direction:txt=import");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(strata_->PeerStatus(BirdAddr()).value("import_policy", "?"), "");
  for (const std::string& prefix : {p_.c, p_.d}) {
    auto x = frr_->WaitForRoute(prefix, kWait);
    ASSERT_TRUE(x.has_value()) << prefix;
    EXPECT_TRUE(x->communities.empty()) << x->ToString();
    EXPECT_EQ(x->med, 50u) << x->ToString();
  }
  // A without the import policy's community: FRR sees BIRD's alone, GoBGP's export drops it.
  auto fa =
      frr_->WaitForRoute(p_.a, kWait, [](const Route& x) { return x.communities.size() == 1; });
  ASSERT_TRUE(fa.has_value()) << frr_->FindRoute(p_.a).value_or(Route{}).ToString();
  EXPECT_THAT(fa->communities, ElementsAre("65001:100"));
  ASSERT_TRUE(gobgp_->WaitForRouteGone(p_.a, kWait));
  EXPECT_TRUE(gobgp_->FindRoute(p_.f).has_value());

  ASSERT_OK(Attach(BirdAddr(), "import", "from-bird"));
  ASSERT_TRUE(frr_->WaitForRouteGone(p_.c, kWait));
  ASSERT_TRUE(frr_->WaitForRouteGone(p_.d, kWait));
  auto ga = gobgp_->WaitForRoute(p_.a, kWait);
  ASSERT_TRUE(ga.has_value());
  EXPECT_EQ(ga->local_pref, 200u) << ga->ToString();
  EXPECT_THAT(ga->communities, ElementsAre("65001:100", "65010:1"));

  // One statement for two peers.
  auto med_only = [](uint32_t med) {
    return "name:txt=med-only&terms.0.name:txt=all&terms.0.set_med:u32=" + std::to_string(med) +
           "&terms.0.action:txt=POLICY_ACTION_ACCEPT&default_action:txt=POLICY_ACTION_ACCEPT";
  };
  ASSERT_OK(Define(med_only(77)));
  ASSERT_OK(Attach(FrrAddr(), "export", "med-only"));
  ASSERT_OK(Attach(GobgpAddr(), "export", "med-only"));
  const auto med_is = [](uint32_t med) { return [med](const Route& x) { return x.med == med; }; };
  auto fb = frr_->WaitForRoute(p_.b, kWait, med_is(77));
  ASSERT_TRUE(fb.has_value()) << frr_->FindRoute(p_.b).value_or(Route{}).ToString();
  EXPECT_THAT(fb->as_path, ElementsAre(kStrataAs, kBirdAs));  // no prepending any more
  auto gb = gobgp_->WaitForRoute(p_.b, kWait, med_is(77));    // B passes now
  ASSERT_TRUE(gb.has_value()) << gobgp_->FindRoute(p_.b).value_or(Route{}).ToString();
  ASSERT_OK(Define(med_only(88)));
  for (BgpSpeaker* peer : {static_cast<BgpSpeaker*>(frr_), static_cast<BgpSpeaker*>(gobgp_)}) {
    for (const std::string& prefix : {p_.a, p_.b}) {
      EXPECT_TRUE(peer->WaitForRoute(prefix, kWait, med_is(88)).has_value())
          << peer->config().name << " " << prefix << ": "
          << peer->FindRoute(prefix).value_or(Route{}).ToString();
    }
  }
  // The statements no peer uses any more can go.
  for (const char* name : {"to-frr", "to-gobgp"}) {
    r = strata_->Call(strata_->bgp_target() + "delete_policy?name:txt=" + name);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
  }
}

}  // namespace
}  // namespace strata::interop
