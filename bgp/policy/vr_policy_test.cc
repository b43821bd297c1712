#include "bgp/policy/vr_policy.h"

#include <gtest/gtest.h>

namespace strata::bgp {
namespace {

PolicyRef Make(const std::string& name, std::vector<std::vector<std::string>> term_protocols) {
  Policy p;
  p.name = name;
  for (auto& protocols : term_protocols) {
    PolicyTerm t;
    t.protocols = std::move(protocols);
    t.action = PolicyAction::kAccept;
    p.terms.push_back(std::move(t));
  }
  return std::make_shared<const Policy>(std::move(p));
}

TEST(VrPolicyTest, PeerWithoutOwnPolicyInheritsTheVrs) {
  const PolicyRef vr = Make("vr-out", {});
  const EffectivePolicy e = ResolvePolicy({}, {"vr-out", vr});
  EXPECT_EQ(e.name, "vr-out");
  EXPECT_EQ(e.policy, vr);
  EXPECT_TRUE(e.inherited);
}

TEST(VrPolicyTest, PeersOwnPolicyReplacesTheVrs) {
  const PolicyRef own = Make("own", {});
  const PolicyRef vr = Make("vr-out", {});
  const EffectivePolicy e = ResolvePolicy({"own", own}, {"vr-out", vr});
  EXPECT_EQ(e.name, "own");
  EXPECT_EQ(e.policy, own);
  EXPECT_FALSE(e.inherited);
}

TEST(VrPolicyTest, NoPolicyAnywhereIsNone) {
  const EffectivePolicy e = ResolvePolicy({}, {});
  EXPECT_TRUE(e.name.empty());
  EXPECT_EQ(e.policy, nullptr);
  EXPECT_FALSE(e.inherited);
}

TEST(VrPolicyTest, OwnPolicyWithoutVrPolicyIsNotInherited) {
  const PolicyRef own = Make("own", {});
  const EffectivePolicy e = ResolvePolicy({"own", own}, {});
  EXPECT_EQ(e.policy, own);
  EXPECT_FALSE(e.inherited);
}

TEST(VrPolicyTest, VrPoliciesAtPicksTheDirection) {
  VrPolicies v;
  v.at(PolicyDirection::kImport).name = "in";
  v.at(PolicyDirection::kExport).name = "out";
  EXPECT_EQ(v.import_policy.name, "in");
  EXPECT_EQ(v.export_policy.name, "out");
}

TEST(VrPolicyTest, ExportProtocolsAreTheNonBgpProtocolsMatchedSortedOnce) {
  const std::vector<PolicyRef> policies = {
      Make("a", {{"static"}, {"bgp"}}),
      Make("b", {{"connected", "static"}}),
      nullptr,  // a peer without a policy
      Make("c", {{}}),
  };
  EXPECT_EQ(ExportProtocols(policies), (std::vector<std::string>{"connected", "static"}));
}

TEST(VrPolicyTest, PoliciesMatchingOnlyBgpOrNothingNeedNoRedistribution) {
  EXPECT_TRUE(ExportProtocols({Make("a", {{"bgp"}}), Make("b", {{}})}).empty());
  EXPECT_TRUE(ExportProtocols({}).empty());
}

}  // namespace
}  // namespace strata::bgp
