// define_policy's named sets and newer term fields: resolution and errors that name the field.
#include "bgp/process/policy_proto_convert.h"

#include <gtest/gtest.h>

#include "bgp/process/bgp_proto_convert.h"
#include "libipc/common_convert.h"

namespace strata::bgp {
namespace {

IpPrefix P(std::string_view s) { return *IpPrefix::Parse(s); }

v1::DefinePolicyRequest WithSets() {
  v1::DefinePolicyRequest r;
  r.set_name("p");
  auto* pl = r.add_prefix_lists();
  pl->set_name("nets");
  auto* m = pl->add_prefixes();
  ipc::PrefixToProto(P("10.0.0.0/8"), m->mutable_prefix());
  m->set_le(24);
  ipc::PrefixToProto(P("2001:db8::/32"), pl->add_prefixes()->mutable_prefix());
  auto* cs = r.add_community_sets();
  cs->set_name("cust");
  cs->add_members("65000:*");
  auto* es = r.add_ext_community_sets();
  es->set_name("rts");
  es->add_members("rt:65000:1");
  auto* ls = r.add_large_community_sets();
  ls->set_name("big");
  ls->add_members("65000:1:*");
  auto* as = r.add_as_path_sets();
  as->set_name("via");
  as->add_regexes("^65002 ");
  return r;
}

TEST(PolicyProtoConvertTest, ResolvesSetsIntoTheTerm) {
  v1::DefinePolicyRequest r = WithSets();
  v1::PolicyTerm* t = r.add_terms();
  t->set_name("t");
  t->add_prefix_lists("nets");
  t->add_community_sets("cust");
  t->add_ext_community_sets("rts");
  t->add_large_community_sets("big");
  t->add_as_path_sets("via");
  t->add_nexthops("192.0.2.0/24");
  t->add_nexthops("2001:db8::1");
  t->add_origins("egp");
  t->add_rpki("invalid");
  t->add_rpki("notfound");
  t->set_set_origin("incomplete");
  t->set_replace_communities(true);
  t->add_delete_community_sets("cust");
  t->add_add_large_communities("1:2:3");
  t->add_add_ext_communities("soo:65000:9");
  t->set_replace_ext_communities(true);
  t->add_set_ext_communities("rt:65000:3");
  auto p = PolicyFromProto(r);
  ASSERT_TRUE(p.ok()) << p.status().message();
  const PolicyTerm& term = p->terms.at(0);
  ASSERT_EQ(term.prefixes.size(), 2u);
  EXPECT_EQ(term.prefixes[0].le, 24u);
  EXPECT_EQ(term.community_patterns,
            std::vector<CommunityPattern>{*ParseCommunityPattern("65000:*")});
  EXPECT_EQ(term.ext_communities, std::vector<uint64_t>{*ParseExtCommunity("rt:65000:1")});
  EXPECT_EQ(term.large_communities.size(), 1u);
  EXPECT_EQ(term.as_path_res.size(), 1u);
  EXPECT_EQ(term.nexthops, (std::vector<IpPrefix>{P("192.0.2.0/24"), P("2001:db8::1/128")}));
  EXPECT_EQ(term.origins, std::vector<Origin>{Origin::kEgp});
  EXPECT_EQ(term.rpki, (std::vector<RovState>{RovState::kInvalid, RovState::kNotFound}));
  EXPECT_EQ(term.set_origin, Origin::kIncomplete);
  ASSERT_TRUE(term.replace_communities.has_value());
  EXPECT_TRUE(term.replace_communities->empty());
  EXPECT_EQ(term.delete_communities.size(), 1u);
  EXPECT_EQ(term.add_large_communities, (std::vector<LargeCommunity>{{1, 2, 3}}));
  EXPECT_EQ(term.add_ext_communities.size(), 1u);
  ASSERT_TRUE(term.replace_ext_communities.has_value());
  EXPECT_EQ(*term.replace_ext_communities, std::vector<uint64_t>{*ParseExtCommunity("rt:65000:3")});
}

void ExpectError(const v1::DefinePolicyRequest& r, const std::string& message) {
  auto p = PolicyFromProto(r);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(), message);
}

TEST(PolicyProtoConvertTest, UndefinedSetNamesTheField) {
  v1::DefinePolicyRequest r = WithSets();
  r.add_terms()->add_prefix_lists("nets");
  v1::PolicyTerm* t = r.add_terms();
  t->set_name("t2");
  t->add_community_sets("nope");
  ExpectError(r, "terms.1 (t2).community_sets: no community set 'nope'");
  t->clear_community_sets();
  t->add_delete_large_community_sets("cust");  // a standard set, not a large one
  ExpectError(r, "terms.1 (t2).delete_large_community_sets: no large community set 'cust'");
}

TEST(PolicyProtoConvertTest, BadSetsNameTheSet) {
  v1::DefinePolicyRequest r = WithSets();
  r.mutable_community_sets(0)->add_members("65000:x");
  ExpectError(r,
              "community_sets.0 (cust).members: community pattern '65000:x' is not ASN:VALUE "
              "(0-65535 or * each)");
  r = WithSets();
  r.add_prefix_lists()->set_name("nets");
  ExpectError(r, "prefix_lists.1 (nets): defined twice");
  r = WithSets();
  r.mutable_prefix_lists(0)->mutable_prefixes(0)->set_le(40);
  ExpectError(r, "prefix_lists.0 (nets).prefixes: prefix match 10.0.0.0/8: ge/le beyond 32");
  r = WithSets();
  r.mutable_as_path_sets(0)->add_regexes("(");
  auto p = PolicyFromProto(r);
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(p.status().message().starts_with("as_path_sets.0 (via).regexes: "));
}

TEST(PolicyProtoConvertTest, BadTermValuesNameTheField) {
  v1::DefinePolicyRequest r = WithSets();
  v1::PolicyTerm* t = r.add_terms();
  t->set_set_origin("bgp");
  ExpectError(r, "terms.0.set_origin: origin 'bgp' is not igp, egp or incomplete");
  t->clear_set_origin();
  t->add_set_communities("65000:1");
  ExpectError(r, "terms.0.set_communities: given without replace_communities");
  t->clear_set_communities();
  t->add_set_ext_communities("rt:65000:3");
  ExpectError(r, "terms.0.set_ext_communities: given without replace_ext_communities");
  t->set_replace_ext_communities(true);
  t->set_set_ext_communities(0, "rt:bad");
  EXPECT_FALSE(PolicyFromProto(r).ok());
  t->clear_set_ext_communities();
  t->clear_replace_ext_communities();
  t->add_nexthops("192.0.2.1/8");
  ExpectError(r, "terms.0.nexthops: 192.0.2.1/8 has host bits set (did you mean 192.0.0.0/8?)");
  t->clear_nexthops();
  t->add_add_large_communities("1:*:3");
  ExpectError(r,
              "terms.0.add_large_communities: large community '1:*:3' is not "
              "GLOBAL:LOCAL1:LOCAL2 (32-bit numbers)");
}

}  // namespace
}  // namespace strata::bgp
