#include "rtrmgr/policy_compiler.h"

#include <gtest/gtest.h>

#include "libipc/interfaces/bgp.pb.h"
#include "libipc/reflection.h"
#include "rtrmgr/commit_engine.h"
#include "rtrmgr/config/config_validator.h"
#include "testing/rtrmgr/config_test_util.h"

namespace strata::rtrmgr {
namespace {

using test_util::MustParse;
using test_util::RealTemplates;

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
                as-path-prepend-as 64999;
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
        listen-address 127.0.0.2;
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
  EXPECT_EQ(t.prepend_as(), 64999u);
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

TEST(PolicyCompilerTest, StatementsNamedByTheVrsBgpAreReferenced) {
  std::string conf = kConfig;
  conf.replace(conf.find("        peer 127.0.0.3"), 0, "        export unused;\n");
  ConfigNode root = MustParse(conf);
  EXPECT_EQ(PolicyCompiler::Referenced(root, "red"),
            (std::vector<std::string>{"from-blue", "unused"}));
  auto plan = PolicyCompiler::Diff(MustParse(kConfig), root, 30);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->defines.size(), 1u);
  EXPECT_EQ(plan->defines[0].xrl.FindArg("name")->ValueToString(), "unused");
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

constexpr const char* kSetsConfig = R"(
policy {
    prefix-list customers {
        prefix 10.0.0.0/8 { le 24; }
        prefix 2001:db8::/32 { ge 48; le 64; }
        prefix 192.0.2.0/24;
    }
    prefix-list unused-list { prefix 198.51.100.0/24; }
    community-set blackhole { member 65535:666 65001:*; }
    ext-community-set targets { member rt:65001:1; }
    large-community-set tagged { member 65001:1:*; }
    as-path-set via-blue { regex "^65002 " "^65003$"; }
    policy-statement sets {
        term t {
            from {
                prefix-list customers;
                community-set blackhole;
                ext-community-set targets;
                ext-community soo:65001:2;
                large-community-set tagged;
                large-community 65001:*:9;
                as-path-set via-blue;
                next-hop 192.0.2.0/24 2001:db8::1/128;
                origin igp incomplete;
                rpki invalid not-found;
            }
            then {
                origin egp;
                community-replace 65001:10;
                community-delete 65001:*;
                community-delete-set blackhole;
                large-community-replace 65001:0:0;
                large-community-delete 65001:*:*;
                large-community-delete-set tagged;
                large-community-add 65001:2:3;
                ext-community-replace rt:65001:7 soo:65001:8;
                ext-community-delete rt:65001:1;
                ext-community-delete-set targets;
                ext-community-add rt:65001:5;
                action accept;
            }
        }
    }
}
virtual-router red {
    bgp {
        local-as 65001;
        router-id 10.255.0.1;
        listen-address 127.0.0.2;
        peer 127.0.0.3 { as 65002; import sets; }
    }
}
)";

TEST(PolicyCompilerTest, SetsConfigIsValid) {
  auto errors = ConfigValidator(RealTemplates()).Validate(MustParse(kSetsConfig));
  for (const auto& e : errors) ADD_FAILURE() << e.ToString();
}

TEST(PolicyCompilerTest, CompilesNamedSetsAndNewNodes) {
  auto xrl = PolicyCompiler::Compile(MustParse(kSetsConfig), "sets", "bgp.red");
  ASSERT_TRUE(xrl.ok()) << xrl.status().ToString();
  bgp::v1::DefinePolicyRequest req;
  Status s = ipc::AtomsToMessage(xrl->args(), req);
  ASSERT_TRUE(s.ok()) << s.ToString();
  // Only the sets the statement names, each once.
  ASSERT_EQ(req.prefix_lists_size(), 1);
  const auto& pl = req.prefix_lists(0);
  EXPECT_EQ(pl.name(), "customers");
  ASSERT_EQ(pl.prefixes_size(), 3);
  EXPECT_EQ(pl.prefixes(0).le(), 24u);
  EXPECT_EQ(pl.prefixes(1).prefix().addr().size(), 16u);
  EXPECT_EQ(pl.prefixes(1).ge(), 48u);
  EXPECT_EQ(pl.prefixes(2).le(), 0u);
  ASSERT_EQ(req.community_sets_size(), 1);
  EXPECT_EQ(req.community_sets(0).name(), "blackhole");
  ASSERT_EQ(req.community_sets(0).members_size(), 2);
  EXPECT_EQ(req.community_sets(0).members(1), "65001:*");
  ASSERT_EQ(req.ext_community_sets_size(), 1);
  EXPECT_EQ(req.ext_community_sets(0).members(0), "rt:65001:1");
  ASSERT_EQ(req.large_community_sets_size(), 1);
  ASSERT_EQ(req.as_path_sets_size(), 1);
  EXPECT_EQ(req.as_path_sets(0).regexes(1), "^65003$");
  const auto& t = req.terms(0);
  EXPECT_EQ(t.prefix_lists(0), "customers");
  EXPECT_EQ(t.community_sets(0), "blackhole");
  EXPECT_EQ(t.ext_community_sets(0), "targets");
  EXPECT_EQ(t.ext_communities(0), "soo:65001:2");
  EXPECT_EQ(t.large_community_sets(0), "tagged");
  EXPECT_EQ(t.large_communities(0), "65001:*:9");
  EXPECT_EQ(t.as_path_sets(0), "via-blue");
  ASSERT_EQ(t.nexthops_size(), 2);
  EXPECT_EQ(t.nexthops(1), "2001:db8::1/128");
  ASSERT_EQ(t.origins_size(), 2);
  EXPECT_EQ(t.origins(1), "incomplete");
  ASSERT_EQ(t.rpki_size(), 2);
  EXPECT_EQ(t.rpki(1), "not-found");
  EXPECT_EQ(t.set_origin(), "egp");
  EXPECT_TRUE(t.replace_communities());
  EXPECT_EQ(t.set_communities(0), "65001:10");
  EXPECT_EQ(t.delete_communities(0), "65001:*");
  EXPECT_EQ(t.delete_community_sets(0), "blackhole");
  EXPECT_TRUE(t.replace_large_communities());
  EXPECT_EQ(t.set_large_communities(0), "65001:0:0");
  EXPECT_EQ(t.delete_large_communities(0), "65001:*:*");
  EXPECT_EQ(t.delete_large_community_sets(0), "tagged");
  EXPECT_EQ(t.add_large_communities(0), "65001:2:3");
  EXPECT_TRUE(t.replace_ext_communities());
  ASSERT_EQ(t.set_ext_communities_size(), 2);
  EXPECT_EQ(t.set_ext_communities(1), "soo:65001:8");
  EXPECT_EQ(t.delete_ext_communities(0), "rt:65001:1");
  EXPECT_EQ(t.delete_ext_community_sets(0), "targets");
  EXPECT_EQ(t.add_ext_communities(0), "rt:65001:5");
  EXPECT_EQ(t.action(), bgp::v1::POLICY_ACTION_ACCEPT);
}

TEST(PolicyCompilerTest, ChangedSetRedefinesTheStatementsNamingIt) {
  std::string changed = kSetsConfig;
  changed.replace(changed.find("65535:666"), 9, "65535:667");
  auto plan = PolicyCompiler::Diff(MustParse(kSetsConfig), MustParse(changed), 30);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->defines.size(), 1u);
  EXPECT_NE(plan->defines[0].xrl.ToString().find("65535%3A667"), std::string::npos)
      << plan->defines[0].xrl.ToString();
  // A set no statement names changes nothing.
  std::string unused = kSetsConfig;
  unused.replace(unused.find("198.51.100.0/24"), 15, "198.51.101.0/24");
  plan = PolicyCompiler::Diff(MustParse(kSetsConfig), MustParse(unused), 30);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->defines.empty());
}

TEST(PolicyCompilerTest, UndefinedSetsAreRejectedAtTheirLocation) {
  std::string bad = kSetsConfig;
  bad.replace(bad.find("prefix-list customers;"), 22, "prefix-list customer;");
  bad.replace(bad.find("large-community-delete-set tagged;"), 34,
              "large-community-delete-set blackhole;");
  auto tree = ConfigParser::Parse(bad, "sets.conf");
  ASSERT_TRUE(tree.ok()) << tree.status().ToString();
  auto errors = ConfigValidator(RealTemplates()).Validate(*tree);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].ToString(),
            "sets.conf:16:29: 'customer' is not a defined 'policy prefix-list'");
  EXPECT_EQ(errors[1].ToString(),
            "sets.conf:34:44: 'blackhole' is not a defined 'policy large-community-set'");
}

}  // namespace
}  // namespace strata::rtrmgr
