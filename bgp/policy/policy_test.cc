// The policy evaluator: every match condition, every action, term order and default actions.
#include "bgp/policy/policy.h"

#include <gtest/gtest.h>

#include "bgp/policy/policy_hook.h"

namespace strata::bgp {
namespace {

IpPrefix P(std::string_view s) { return *IpPrefix::Parse(s); }
IpAddr A(std::string_view s) { return *IpAddr::Parse(s); }

PathAttributes Attrs(std::vector<uint32_t> path = {65002, 65003}) {
  PathAttributes a;
  a.origin = Origin::kIgp;
  a.as_path = AsPath::Sequence(std::move(path));
  a.next_hop = A("192.0.2.1");
  return a;
}

PolicySubject Subject(std::string_view prefix, std::optional<IpAddr> neighbor = A("192.0.2.1")) {
  PolicySubject s;
  s.prefix = P(prefix);
  s.neighbor = neighbor;
  s.local_as = 65001;
  return s;
}

PolicyTerm Term(PolicyAction action) {
  PolicyTerm t;
  t.action = action;
  return t;
}

Policy One(PolicyTerm t, PolicyAction def = PolicyAction::kReject) {
  Policy p;
  p.name = "p";
  p.terms.push_back(std::move(t));
  p.default_action = def;
  return p;
}

bool Accepts(const Policy& p, std::string_view prefix, PathAttributes a = Attrs()) {
  return EvaluatePolicy(p, Subject(prefix), a);
}

TEST(PrefixMatchTest, ExactWhenNoBounds) {
  PrefixMatch m{P("10.0.0.0/8")};
  EXPECT_TRUE(m.Matches(P("10.0.0.0/8")));
  EXPECT_FALSE(m.Matches(P("10.1.0.0/16")));
  EXPECT_FALSE(m.Matches(P("11.0.0.0/8")));
  EXPECT_FALSE(m.Matches(P("::/0")));
}

TEST(PrefixMatchTest, GeLeRange) {
  PrefixMatch m{P("10.0.0.0/8"), 16, 24};
  EXPECT_FALSE(m.Matches(P("10.0.0.0/8")));
  EXPECT_TRUE(m.Matches(P("10.1.0.0/16")));
  EXPECT_TRUE(m.Matches(P("10.1.2.0/24")));
  EXPECT_FALSE(m.Matches(P("10.1.2.128/25")));
  EXPECT_FALSE(m.Matches(P("11.1.0.0/16")));
}

TEST(PrefixMatchTest, UnsetBoundsAreThePrefixLengthAndWidth) {
  PrefixMatch le_only{P("10.0.0.0/8"), 0, 16};
  EXPECT_TRUE(le_only.Matches(P("10.0.0.0/8")));
  EXPECT_TRUE(le_only.Matches(P("10.1.0.0/16")));
  EXPECT_FALSE(le_only.Matches(P("10.1.1.0/24")));
  PrefixMatch ge_only{P("10.0.0.0/8"), 24, 0};
  EXPECT_TRUE(ge_only.Matches(P("10.1.1.1/32")));
  EXPECT_FALSE(ge_only.Matches(P("10.1.0.0/16")));
}

TEST(PrefixMatchTest, ValidateRejectsImpossibleBounds) {
  EXPECT_TRUE((PrefixMatch{P("10.0.0.0/8"), 16, 24}).Validate().ok());
  EXPECT_FALSE((PrefixMatch{P("10.0.0.0/8"), 4, 0}).Validate().ok());
  EXPECT_FALSE((PrefixMatch{P("10.0.0.0/8"), 24, 16}).Validate().ok());
  EXPECT_FALSE((PrefixMatch{P("10.0.0.0/8"), 0, 33}).Validate().ok());
  EXPECT_TRUE((PrefixMatch{P("2001:db8::/32"), 48, 64}).Validate().ok());
}

TEST(PolicyTest, DefaultActionDecidesWhenNoTermMatches) {
  Policy accept;
  accept.default_action = PolicyAction::kAccept;
  Policy reject;
  reject.default_action = PolicyAction::kReject;
  EXPECT_TRUE(Accepts(accept, "10.0.0.0/8"));
  EXPECT_FALSE(Accepts(reject, "10.0.0.0/8"));
  Policy next;
  next.default_action = PolicyAction::kNextTerm;  // no verdict at the end rejects
  EXPECT_FALSE(Accepts(next, "10.0.0.0/8"));
}

TEST(PolicyTest, PrefixCondition) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.prefixes = {PrefixMatch{P("10.0.0.0/8"), 8, 16}, PrefixMatch{P("192.168.0.0/16")}};
  Policy p = One(t);
  EXPECT_TRUE(Accepts(p, "10.1.0.0/16"));
  EXPECT_TRUE(Accepts(p, "192.168.0.0/16"));
  EXPECT_FALSE(Accepts(p, "192.168.1.0/24"));
}

TEST(PolicyTest, ProtocolCondition) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.protocols = {"static", "bgp"};
  PathAttributes a = Attrs();
  EXPECT_TRUE(EvaluatePolicy(One(t), Subject("10.0.0.0/8"), a));
  t.protocols = {"connected"};
  EXPECT_FALSE(EvaluatePolicy(One(t), Subject("10.0.0.0/8"), a));
}

TEST(PolicyTest, CommunityCondition) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.communities = {*ParseCommunity("65001:100"), *ParseCommunity("65001:200")};
  PathAttributes a = Attrs();
  EXPECT_FALSE(Accepts(One(t), "10.0.0.0/8", a));
  a.communities = {*ParseCommunity("65001:200")};
  EXPECT_TRUE(Accepts(One(t), "10.0.0.0/8", a));
}

TEST(PolicyTest, AsPathRegexSearchesThePathText) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.as_path_regex = "^65002 ";
  t.as_path_re = *CompileAsPathRegex(*t.as_path_regex);
  EXPECT_TRUE(Accepts(One(t), "10.0.0.0/8", Attrs({65002, 65003})));
  EXPECT_FALSE(Accepts(One(t), "10.0.0.0/8", Attrs({65003, 65002})));
  t.as_path_re = *CompileAsPathRegex("^$");
  EXPECT_TRUE(Accepts(One(t), "10.0.0.0/8", Attrs({})));
  EXPECT_FALSE(Accepts(One(t), "10.0.0.0/8", Attrs({65002})));
  t.as_path_re = *CompileAsPathRegex("(^| )65003$");
  EXPECT_TRUE(Accepts(One(t), "10.0.0.0/8", Attrs({65002, 65003})));
}

TEST(PolicyTest, BadRegexIsAnError) {
  auto re = CompileAsPathRegex("(65001");
  ASSERT_FALSE(re.ok());
  EXPECT_EQ(re.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(re.status().message().find("(65001"), std::string::npos);
}

TEST(PolicyTest, NeighborCondition) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.neighbors = {A("192.0.2.9"), A("192.0.2.1")};
  PathAttributes a = Attrs();
  EXPECT_TRUE(EvaluatePolicy(One(t), Subject("10.0.0.0/8", A("192.0.2.1")), a));
  EXPECT_FALSE(EvaluatePolicy(One(t), Subject("10.0.0.0/8", A("192.0.2.2")), a));
  EXPECT_FALSE(EvaluatePolicy(One(t), Subject("10.0.0.0/8", std::nullopt), a));
}

TEST(PolicyTest, EveryGivenConditionMustHold) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.prefixes = {PrefixMatch{P("10.0.0.0/8"), 0, 24}};
  t.neighbors = {A("192.0.2.1")};
  PathAttributes a = Attrs();
  EXPECT_TRUE(EvaluatePolicy(One(t), Subject("10.1.0.0/16", A("192.0.2.1")), a));
  EXPECT_FALSE(EvaluatePolicy(One(t), Subject("10.1.0.0/16", A("192.0.2.2")), a));
  EXPECT_FALSE(EvaluatePolicy(One(t), Subject("11.0.0.0/8", A("192.0.2.1")), a));
}

TEST(PolicyTest, ActionsChangeAttributes) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.set_local_pref = 200;
  t.set_med = 50;
  t.set_nexthop = A("198.51.100.1");
  t.add_communities = {*ParseCommunity("65001:7"), *ParseCommunity("65001:3")};
  t.prepend_count = 2;
  PathAttributes a = Attrs({65002});
  a.communities = {*ParseCommunity("65001:7")};
  ASSERT_TRUE(EvaluatePolicy(One(t), Subject("10.0.0.0/8"), a));
  EXPECT_EQ(a.local_pref, 200u);
  EXPECT_EQ(a.med, 50u);
  EXPECT_EQ(a.next_hop, A("198.51.100.1"));
  EXPECT_EQ(a.communities,
            (std::vector<uint32_t>{*ParseCommunity("65001:3"), *ParseCommunity("65001:7")}));
  EXPECT_EQ(a.as_path->ToString(), "65001 65001 65002");
}

TEST(PolicyTest, PrependsAnyAsTheGivenNumberOfTimes) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.prepend_count = 3;
  t.prepend_as = 64999;
  PathAttributes a = Attrs({65002});
  ASSERT_TRUE(EvaluatePolicy(One(t), Subject("10.0.0.0/8"), a));
  EXPECT_EQ(a.as_path->ToString(), "64999 64999 64999 65002");
}

TEST(PolicyTest, NexthopOfAnotherFamilyIsNotSet) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.set_nexthop = A("198.51.100.1");
  PathAttributes a = Attrs();
  a.next_hop = A("2001:db8::1");
  ASSERT_TRUE(EvaluatePolicy(One(t), Subject("2001:db8::/32"), a));
  EXPECT_EQ(a.next_hop, A("2001:db8::1"));
}

TEST(PolicyTest, TermsInOrderFirstVerdictWins) {
  Policy p;
  p.name = "order";
  PolicyTerm reject_10 = Term(PolicyAction::kReject);
  reject_10.prefixes = {PrefixMatch{P("10.0.0.0/8"), 0, 32}};
  PolicyTerm accept_all = Term(PolicyAction::kAccept);
  p.terms = {reject_10, accept_all};
  EXPECT_FALSE(Accepts(p, "10.1.0.0/16"));
  EXPECT_TRUE(Accepts(p, "11.0.0.0/8"));
  std::swap(p.terms[0], p.terms[1]);
  EXPECT_TRUE(Accepts(p, "10.1.0.0/16"));
}

TEST(PolicyTest, NextTermKeepsChangesAndLaterTermsSeeThem) {
  Policy p;
  p.name = "chain";
  PolicyTerm tag = Term(PolicyAction::kNextTerm);
  tag.add_communities = {*ParseCommunity("65001:1")};
  tag.set_med = 10;
  PolicyTerm on_tag = Term(PolicyAction::kAccept);
  on_tag.communities = {*ParseCommunity("65001:1")};
  on_tag.set_local_pref = 300;
  p.terms = {tag, on_tag};
  p.default_action = PolicyAction::kReject;
  PathAttributes a = Attrs();
  ASSERT_TRUE(EvaluatePolicy(p, Subject("10.0.0.0/8"), a));
  EXPECT_EQ(a.med, 10u);
  EXPECT_EQ(a.local_pref, 300u);
}

// The copy-on-write form: no copy for terms without actions, the same outcome as in place when
// a term changes attributes that a later term matches on.
TEST(PolicyTest, CopyOnWriteEvaluationCopiesOnlyWhenATermActs) {
  std::optional<PathAttributes> changed;
  const PathAttributes in = Attrs();
  EXPECT_TRUE(EvaluatePolicy(One(Term(PolicyAction::kAccept)), Subject("10.0.0.0/8"), in, changed));
  EXPECT_FALSE(changed.has_value());
  EXPECT_FALSE(
      EvaluatePolicy(One(Term(PolicyAction::kNextTerm)), Subject("10.0.0.0/8"), in, changed));
  EXPECT_FALSE(changed.has_value());

  Policy p;
  p.name = "chain";
  PolicyTerm tag = Term(PolicyAction::kNextTerm);
  tag.add_communities = {*ParseCommunity("65001:1")};
  PolicyTerm on_tag = Term(PolicyAction::kAccept);
  on_tag.communities = {*ParseCommunity("65001:1")};
  on_tag.set_local_pref = 300;
  p.terms = {tag, on_tag};
  ASSERT_TRUE(EvaluatePolicy(p, Subject("10.0.0.0/8"), in, changed));
  ASSERT_TRUE(changed.has_value());
  PathAttributes in_place = in;
  ASSERT_TRUE(EvaluatePolicy(p, Subject("10.0.0.0/8"), in_place));
  EXPECT_EQ(*changed, in_place);
  EXPECT_EQ(changed->local_pref, 300u);
  EXPECT_EQ(in, Attrs());  // the input is untouched
}

TEST(PolicyTest, RejectingTermStillEndsEvaluation) {
  Policy p;
  p.name = "r";
  PolicyTerm reject = Term(PolicyAction::kReject);
  reject.protocols = {"bgp"};
  p.terms = {reject};
  p.default_action = PolicyAction::kAccept;
  EXPECT_FALSE(Accepts(p, "10.0.0.0/8"));
}

TEST(CommunityTest, ParseAndFormat) {
  EXPECT_EQ(*ParseCommunity("65001:100"), (65001u << 16) | 100u);
  EXPECT_EQ(*ParseCommunity("no-export"), 0xFFFFFF01u);
  EXPECT_EQ(*ParseCommunity("4259840100"), 4259840100u);
  EXPECT_EQ(CommunityToString((65001u << 16) | 100u), "65001:100");
  EXPECT_FALSE(ParseCommunity("65536:1").ok());
  EXPECT_FALSE(ParseCommunity("1:").ok());
  EXPECT_FALSE(ParseCommunity("a:b").ok());
  EXPECT_FALSE(ParseCommunity("").ok());
}

// The hooks given to the pipeline.
BgpRouteRef Route(std::string_view prefix, PathAttributes a, std::string_view from = "192.0.2.1") {
  auto peer = NewPeerInfo();
  peer->id = 1;
  peer->address = A(from);
  return MakeRoute(P(prefix), AttributeSet::Make(std::move(a)), peer);
}

TEST(PolicyHookTest, ImportHookRejectsChangesOrPassesTheSameRoute) {
  Policy p;
  p.name = "imp";
  PolicyTerm drop = Term(PolicyAction::kReject);
  drop.prefixes = {PrefixMatch{P("10.0.0.0/8"), 0, 32}};
  PolicyTerm pref = Term(PolicyAction::kAccept);
  pref.prefixes = {PrefixMatch{P("20.0.0.0/8")}};
  pref.set_local_pref = 250;
  p.terms = {drop, pref};
  p.default_action = PolicyAction::kAccept;
  RoutePolicy hook = MakeImportHook(std::make_shared<const Policy>(p), 65001);
  EXPECT_EQ(hook(Route("10.1.0.0/16", Attrs())), nullptr);
  BgpRouteRef plain = Route("30.0.0.0/8", Attrs());
  EXPECT_EQ(hook(plain), plain);
  BgpRouteRef changed = hook(Route("20.0.0.0/8", Attrs()));
  ASSERT_NE(changed, nullptr);
  EXPECT_EQ(changed->path().local_pref, 250u);
  EXPECT_EQ(MakeImportHook(nullptr, 65001), nullptr);
}

// Operators' views name the term that decided, or the default action.
TEST(PolicyHookTest, ExplainNamesTheDecidingTerm) {
  Policy p;
  p.name = "in";
  PolicyTerm tag = Term(PolicyAction::kNextTerm);
  tag.name = "tag";
  tag.add_communities = {1};
  PolicyTerm bogons = Term(PolicyAction::kReject);
  bogons.name = "bogons";
  bogons.prefixes = {PrefixMatch{P("10.0.0.0/8"), 8, 32}};
  p.terms = {tag, bogons};
  p.default_action = PolicyAction::kReject;
  EXPECT_EQ(ExplainPolicy(p, 65001, Route("10.1.0.0/16", Attrs())), "policy in term bogons");
  EXPECT_EQ(ExplainPolicy(p, 65001, Route("20.0.0.0/8", Attrs())), "policy in default action");
  std::optional<PathAttributes> changed;
  const PolicyTerm* term = &tag;
  EXPECT_FALSE(EvaluatePolicy(p, Subject("10.1.0.0/16"), Attrs(), changed, &term));
  EXPECT_EQ(term, &p.terms[1]);
}

TEST(PolicyHookTest, ExportHookGivesOwnRoutesTheSessionAddress) {
  ExportSelf self;
  self.v4 = A("127.0.0.2");
  RoutePolicy hook = MakeExportHook(nullptr, 65001, self);
  PathAttributes own = Attrs({});
  own.next_hop = IpAddr::Zero(Family::kIpv4);
  BgpRouteRef out = hook(Route("10.0.0.0/8", own, "0.0.0.0"));
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->path().next_hop, A("127.0.0.2"));
  // No IPv6 address on the session: an own IPv6 route cannot be advertised.
  PathAttributes own6 = Attrs({});
  own6.next_hop = IpAddr::Zero(Family::kIpv6);
  EXPECT_EQ(hook(Route("2001:db8::/32", own6, "0.0.0.0")), nullptr);
  // Families not negotiated are not sent.
  self.ipv4 = false;
  EXPECT_EQ(MakeExportHook(nullptr, 65001, self)(Route("10.0.0.0/8", Attrs())), nullptr);
}

// The protocol match: own routes redistributed from the RIB carry their protocol
// (PathAttributes::local_protocol: "static", "connected"); networks and peers' routes are "bgp".
TEST(PolicyHookTest, ExportHookProtocolMatchSeesRedistributedProtocol) {
  Policy p;
  p.name = "redist";
  PolicyTerm st = Term(PolicyAction::kAccept);
  st.protocols = {"static"};
  st.set_med = 1;
  PolicyTerm conn = Term(PolicyAction::kAccept);
  conn.protocols = {"connected"};
  conn.set_med = 2;
  PolicyTerm bgp = Term(PolicyAction::kAccept);
  bgp.protocols = {"bgp"};
  bgp.set_med = 3;
  p.terms = {st, conn, bgp};
  p.default_action = PolicyAction::kReject;
  ExportSelf self;
  self.v4 = A("127.0.0.2");
  RoutePolicy hook = MakeExportHook(std::make_shared<const Policy>(p), 65001, self);
  auto from = [](std::string_view protocol, std::string_view peer) {
    PathAttributes a = Attrs();
    a.local_protocol() = std::string(protocol);
    return Route("10.1.0.0/16", a, peer);
  };
  auto med = [&](const BgpRouteRef& r) -> std::optional<uint32_t> {
    BgpRouteRef out = hook(r);
    if (!out) return std::nullopt;
    return out->path().med;
  };
  EXPECT_EQ(RouteProtocol(*from("static", "0.0.0.0")), "static");
  EXPECT_EQ(RouteProtocol(*from("", "0.0.0.0")), "bgp");
  EXPECT_EQ(med(from("static", "0.0.0.0")), 1u);
  EXPECT_EQ(med(from("connected", "0.0.0.0")), 2u);
  EXPECT_EQ(med(from("", "0.0.0.0")), 3u);    // an own network
  EXPECT_EQ(med(from("", "192.0.2.1")), 3u);  // from a peer
  // Only "static" accepted: the connected route and the bgp ones are rejected.
  p.terms = {st};
  RoutePolicy only_static = MakeExportHook(std::make_shared<const Policy>(p), 65001, self);
  EXPECT_NE(only_static(from("static", "0.0.0.0")), nullptr);
  EXPECT_EQ(only_static(from("connected", "0.0.0.0")), nullptr);
  EXPECT_EQ(only_static(from("", "0.0.0.0")), nullptr);
  // Attribute sets differing only in the protocol are different sets.
  PathAttributes s1 = Attrs(), s2 = Attrs();
  s1.local_protocol() = "static";
  EXPECT_NE(s1, s2);
  EXPECT_NE(s1.Hash(), s2.Hash());
}

// Matches and actions on next hop, ORIGIN, community patterns and sets, extended and large
// communities.

CommunityPattern CP(std::string_view s) { return *ParseCommunityPattern(s); }
LargeCommunity LC(std::string_view s) { return *ParseLargeCommunity(s); }
LargeCommunityPattern LP(std::string_view s) { return *ParseLargeCommunityPattern(s); }
uint64_t EC(std::string_view s) { return *ParseExtCommunity(s); }

TEST(PolicyMatchTest, NextHopWithinPrefixOrAddress) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.nexthops = {P("192.0.2.0/24"), P("2001:db8::1/128")};
  Policy p = One(t);
  EXPECT_TRUE(Accepts(p, "10.0.0.0/8"));  // 192.0.2.1
  PathAttributes other = Attrs();
  other.next_hop = A("198.51.100.1");
  EXPECT_FALSE(Accepts(p, "10.0.0.0/8", other));
  PathAttributes v6 = Attrs();
  v6.next_hop = A("2001:db8::1");
  EXPECT_TRUE(Accepts(p, "2001:db8:1::/48", v6));
  PathAttributes none = Attrs();
  none.next_hop.reset();
  EXPECT_FALSE(Accepts(p, "10.0.0.0/8", none));
}

TEST(PolicyMatchTest, Origin) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.origins = {Origin::kEgp, Origin::kIncomplete};
  Policy p = One(t);
  EXPECT_FALSE(Accepts(p, "10.0.0.0/8"));  // igp
  PathAttributes a = Attrs();
  a.origin = Origin::kIncomplete;
  EXPECT_TRUE(Accepts(p, "10.0.0.0/8", a));
}

TEST(PolicyMatchTest, RpkiState) {
  PolicyTerm t = Term(PolicyAction::kReject);
  t.rpki = {RovState::kInvalid};
  Policy p = One(t);
  p.default_action = PolicyAction::kAccept;
  PolicySubject s = Subject("10.0.0.0/8");
  PathAttributes a = Attrs();
  EXPECT_TRUE(EvaluatePolicy(p, s, a));  // unverified
  s.rpki = RovState::kValid;
  EXPECT_TRUE(EvaluatePolicy(p, s, a));
  s.rpki = RovState::kNotFound;
  EXPECT_TRUE(EvaluatePolicy(p, s, a));
  s.rpki = RovState::kInvalid;
  EXPECT_FALSE(EvaluatePolicy(p, s, a));
  p.terms[0].rpki = {RovState::kNotFound, RovState::kInvalid};
  s.rpki = RovState::kNotFound;
  EXPECT_FALSE(EvaluatePolicy(p, s, a));
}

TEST(PolicyMatchTest, CommunityPatternsJoinExactCommunities) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.communities = {*ParseCommunity("65001:1")};
  t.community_patterns = {CP("65002:*")};
  Policy p = One(t);
  PathAttributes a = Attrs();
  EXPECT_FALSE(Accepts(p, "10.0.0.0/8", a));
  a.communities = {*ParseCommunity("65002:77")};
  EXPECT_TRUE(Accepts(p, "10.0.0.0/8", a));
  a.communities = {*ParseCommunity("65001:1")};
  EXPECT_TRUE(Accepts(p, "10.0.0.0/8", a));
  a.communities = {*ParseCommunity("65003:1")};
  EXPECT_FALSE(Accepts(p, "10.0.0.0/8", a));
}

TEST(PolicyMatchTest, ExtendedCommunities) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.ext_communities = {EC("rt:65000:1")};
  Policy p = One(t);
  PathAttributes a = Attrs();
  a.ext_communities() = {EC("soo:65000:1")};
  EXPECT_FALSE(Accepts(p, "10.0.0.0/8", a));
  a.ext_communities().push_back(EC("rt:65000:1"));
  EXPECT_TRUE(Accepts(p, "10.0.0.0/8", a));
}

TEST(PolicyMatchTest, LargeCommunityPatterns) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.large_communities = {LP("65000:*:7")};
  Policy p = One(t);
  PathAttributes a = Attrs();
  a.large_communities() = {LC("65000:1:8")};
  EXPECT_FALSE(Accepts(p, "10.0.0.0/8", a));
  a.large_communities() = {LC("65000:4000000000:7")};
  EXPECT_TRUE(Accepts(p, "10.0.0.0/8", a));
}

TEST(PolicyMatchTest, AsPathSetAnyExpression) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.as_path_res = {*CompileAsPathRegex("^65009"), *CompileAsPathRegex(" 65003$")};
  Policy p = One(t);
  EXPECT_TRUE(Accepts(p, "10.0.0.0/8"));  // 65002 65003
  EXPECT_FALSE(Accepts(p, "10.0.0.0/8", Attrs({65002, 65004})));
  EXPECT_TRUE(Accepts(p, "10.0.0.0/8", Attrs({65009})));
  t.as_path_re = *CompileAsPathRegex("^65002 65004$");  // inline expression: one more choice
  EXPECT_TRUE(Accepts(One(t), "10.0.0.0/8", Attrs({65002, 65004})));
}

PathAttributes Applied(const PolicyTerm& t, PathAttributes a = Attrs()) {
  EXPECT_TRUE(EvaluatePolicy(One(t), Subject("10.0.0.0/8"), a));
  return a;
}

TEST(PolicyActionTest, SetOrigin) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.set_origin = Origin::kIncomplete;
  EXPECT_EQ(Applied(t).origin, Origin::kIncomplete);
}

TEST(PolicyActionTest, DeleteCommunitiesByPatternThenAdd) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.delete_communities = {CP("65001:*"), CP("65002:5")};
  t.add_communities = {*ParseCommunity("65001:9")};
  PathAttributes a = Attrs();
  a.communities = {*ParseCommunity("65001:1"), *ParseCommunity("65001:2"),
                   *ParseCommunity("65002:5"), *ParseCommunity("65002:6")};
  const PathAttributes out = Applied(t, a);
  EXPECT_EQ(out.communities,
            (std::vector<uint32_t>{*ParseCommunity("65001:9"), *ParseCommunity("65002:6")}));
}

TEST(PolicyActionTest, ReplaceCommunities) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.replace_communities = std::vector<uint32_t>{*ParseCommunity("65003:3")};
  PathAttributes a = Attrs();
  a.communities = {*ParseCommunity("65001:1")};
  EXPECT_EQ(Applied(t, a).communities, (std::vector<uint32_t>{*ParseCommunity("65003:3")}));
  t.replace_communities = std::vector<uint32_t>{};  // none at all
  EXPECT_TRUE(Applied(t, a).communities.empty());
}

TEST(PolicyActionTest, LargeCommunitiesReplaceDeleteAdd) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.replace_large_communities = std::vector<LargeCommunity>{LC("1:2:3"), LC("65000:1:1")};
  t.delete_large_communities = {LP("65000:*:*")};
  t.add_large_communities = {LC("65001:0:0"), LC("1:2:3")};
  PathAttributes a = Attrs();
  a.large_communities() = {LC("9:9:9")};
  EXPECT_EQ(Applied(t, a).large_communities(),
            (std::vector<LargeCommunity>{LC("1:2:3"), LC("65001:0:0")}));
}

TEST(PolicyActionTest, ExtendedCommunitiesDeleteAndAdd) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.delete_ext_communities = {EC("rt:65000:1")};
  t.add_ext_communities = {EC("rt:65000:2")};
  PathAttributes a = Attrs();
  a.ext_communities() = {EC("rt:65000:1"), EC("soo:65000:1")};
  EXPECT_EQ(Applied(t, a).ext_communities(),
            (std::vector<uint64_t>{EC("rt:65000:2"), EC("soo:65000:1")}));
}

TEST(PolicyActionTest, ExtendedCommunitiesReplaceThenDeleteThenAdd) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  t.replace_ext_communities = std::vector<uint64_t>{EC("rt:65000:7"), EC("rt:65000:8")};
  t.delete_ext_communities = {EC("rt:65000:8")};
  t.add_ext_communities = {EC("soo:65000:2")};
  PathAttributes a = Attrs();
  a.ext_communities() = {EC("rt:65000:1"), EC("soo:65000:1")};
  EXPECT_EQ(Applied(t, a).ext_communities(),
            (std::vector<uint64_t>{EC("rt:65000:7"), EC("soo:65000:2")}));
  t = Term(PolicyAction::kAccept);
  t.replace_ext_communities = std::vector<uint64_t>{};  // none at all
  EXPECT_TRUE(Applied(t, a).ext_communities().empty());
}

TEST(PolicyActionTest, NoCommunityActionLeavesOrderAlone) {
  PolicyTerm t = Term(PolicyAction::kAccept);
  PathAttributes a = Attrs();
  a.communities = {5, 3};
  EXPECT_EQ(Applied(t, a).communities, (std::vector<uint32_t>{5, 3}));
}

}  // namespace
}  // namespace strata::bgp
