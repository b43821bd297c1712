#include "rtrmgr/policy_compiler.h"

#include <gtest/gtest.h>

#include "libipc/interfaces/bgp.pb.h"
#include "libipc/reflection.h"
#include "rtrmgr/commit_engine.h"
#include "rtrmgr/config/config_test_util.h"
#include "rtrmgr/config/config_validator.h"

namespace strata::rtrmgr {
namespace {

using testing::MustParse;
using testing::RealTemplates;

constexpr const char* kConfig = R"(
policy {
    policy-statement from-blue {
        term nets {
            from {
                prefix 198.51.100.0/24;
                route-filter 10.0.0.0/8 { ge 16; le 24; }
                protocol bgp static;
                community 65002:100;
                as-path "^65002";
                neighbor 127.0.0.3;
            }
            then {
                action accept;
                local-preference 200;
                metric 5;
                next-hop 127.0.0.9;
                community-add 65001:1 65001:2;
                as-path-prepend 2;
            }
        }
        term drop { then { action reject; } }
        default-action accept;
    }
    policy-statement unused {
        term t { then { action accept; } }
    }
}
virtual-router red {
    bgp {
        local-as 65001;
        router-id 10.255.0.1;
        peer 127.0.0.3 { as 65002; import from-blue; }
    }
}
)";

TEST(PolicyCompilerTest, ConfigIsValid) {
  auto errors = ConfigValidator(RealTemplates()).Validate(MustParse(kConfig));
  for (const auto& e : errors) ADD_FAILURE() << e.ToString();
}

TEST(PolicyCompilerTest, CompilesEveryNodeIntoDefinePolicy) {
  auto xrl = PolicyCompiler::Compile(MustParse(kConfig), "from-blue", "bgp.red");
  ASSERT_TRUE(xrl.ok()) << xrl.status().ToString();
  EXPECT_EQ(xrl->target(), "bgp.red");
  EXPECT_EQ(xrl->MethodPath(), "bgp/1.0/define_policy");
  // The atoms must build the real request message.
  bgp::v1::DefinePolicyRequest req;
  ASSERT_TRUE(ipc::AtomsToMessage(xrl->args(), req).ok())
      << ipc::AtomsToMessage(xrl->args(), req).ToString();
  EXPECT_EQ(req.name(), "from-blue");
  EXPECT_EQ(req.default_action(), bgp::v1::POLICY_ACTION_ACCEPT);
  ASSERT_EQ(req.terms_size(), 2);
  const auto& t = req.terms(0);
  EXPECT_EQ(t.name(), "nets");
  ASSERT_EQ(t.prefixes_size(), 2);
  EXPECT_EQ(t.prefixes(0).prefix().len(), 24u);
  EXPECT_EQ(t.prefixes(0).ge(), 0u);
  EXPECT_EQ(t.prefixes(1).prefix().len(), 8u);
  EXPECT_EQ(t.prefixes(1).ge(), 16u);
  EXPECT_EQ(t.prefixes(1).le(), 24u);
  ASSERT_EQ(t.protocols_size(), 2);
  EXPECT_EQ(t.protocols(0), "bgp");
  EXPECT_EQ(t.communities(0), "65002:100");
  EXPECT_EQ(t.as_path_regex(), "^65002");
  ASSERT_EQ(t.neighbors_size(), 1);
  EXPECT_EQ(t.neighbors(0).addr(), std::string("\x7f\x00\x00\x03", 4));
  EXPECT_EQ(t.action(), bgp::v1::POLICY_ACTION_ACCEPT);
  EXPECT_EQ(t.set_local_pref(), 200u);
  EXPECT_EQ(t.set_med(), 5u);
  EXPECT_EQ(t.set_nexthop().addr(), std::string("\x7f\x00\x00\x09", 4));
  ASSERT_EQ(t.add_communities_size(), 2);
  EXPECT_EQ(t.add_communities(1), "65001:2");
  EXPECT_EQ(t.prepend_count(), 2u);
  EXPECT_FALSE(req.terms(1).has_set_local_pref());
  EXPECT_EQ(req.terms(1).action(), bgp::v1::POLICY_ACTION_REJECT);
}

TEST(PolicyCompilerTest, UndefinedStatementIsNotFound) {
  EXPECT_EQ(PolicyCompiler::Compile(MustParse(kConfig), "nope", "bgp.red").status().code(),
            StatusCode::kNotFound);
}

TEST(PolicyCompilerTest, OnlyReferencedStatementsAreSentBeforeThePeerPolicy) {
  ConfigNode empty;
  struct NoExec : XrlExecutor {
    void Execute(const ipc::Xrl&, std::function<void(const Status&)> d) override { d(Status()); }
  } exec;
  CommitHistory history("");
  CommitEngine engine(RealTemplates(), exec, history);
  auto plan = engine.Plan(empty, MustParse(kConfig));
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  int define = -1, set_policy = -1, local = -1;
  for (size_t i = 0; i < plan->size(); ++i) {
    const std::string m = (*plan)[i].xrl.method();
    if (m == "define_policy") {
      EXPECT_EQ(define, -1) << "defined twice";
      define = static_cast<int>(i);
      EXPECT_EQ((*plan)[i].xrl.FindArg("name")->ValueToString(), "from-blue");
      EXPECT_EQ((*plan)[i].instance, "bgp.red");
      ASSERT_TRUE((*plan)[i].undo.has_value());
      EXPECT_EQ((*plan)[i].undo->method(), "delete_policy");
    }
    if (m == "set_peer_policy") set_policy = static_cast<int>(i);
    if (m == "set_local_config") local = static_cast<int>(i);
  }
  ASSERT_GE(define, 0);
  EXPECT_LT(define, set_policy);
  EXPECT_GE(local, 0);
}

TEST(PolicyCompilerTest, ChangedStatementIsRedefinedAndDroppedOneDeleted) {
  ConfigNode before = MustParse(kConfig);
  std::string changed = kConfig;
  changed.replace(changed.find("local-preference 200"), 20, "local-preference 300");
  auto plan = PolicyCompiler::Diff(before, MustParse(changed), 30);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->defines.size(), 1u);
  EXPECT_EQ(plan->defines[0].kind, PlanAction::Kind::kChange);
  EXPECT_NE(plan->defines[0].xrl.ToString().find("set_local_pref:u32=300"), std::string::npos);
  EXPECT_NE(plan->defines[0].undo->ToString().find("set_local_pref:u32=200"), std::string::npos);
  EXPECT_TRUE(plan->deletes.empty());

  std::string unref = kConfig;
  unref.replace(unref.find(" import from-blue;"), 18, "");
  plan = PolicyCompiler::Diff(before, MustParse(unref), 30);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->defines.empty());
  ASSERT_EQ(plan->deletes.size(), 1u);
  EXPECT_EQ(plan->deletes[0].xrl.method(), "delete_policy");
  EXPECT_EQ(plan->deletes[0].undo->method(), "define_policy");
  // No change at all: nothing to send.
  plan = PolicyCompiler::Diff(before, before, 30);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->defines.empty() && plan->deletes.empty());
}

}  // namespace
}  // namespace strata::rtrmgr
