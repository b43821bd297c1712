// Every XRL the templates and the policy compiler produce must build a real request of the
// interface it names (libipc/interfaces/*.proto): names, types and methods checked by
// reflection, so a template cannot drift from the protos.
#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>
#include <gtest/gtest.h>

#include <memory>

#include "libipc/interfaces/bgp.pb.h"
#include "libipc/reflection.h"
#include "rtrmgr/commit_engine.h"
#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/config_validator.h"
#include "testing/rtrmgr/config_test_util.h"

namespace strata::rtrmgr {
namespace {

namespace gp = google::protobuf;
using test_util::MustParse;
using test_util::RealTemplates;

struct NoExec : XrlExecutor {
  void Execute(const ipc::Xrl&, std::function<void(const Status&)> d) override { d(Status()); }
};

std::string Camel(const std::string& snake) {
  std::string out;
  bool up = true;
  for (char c : snake) {
    if (c == '_') {
      up = true;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

// OK if `xrl` names a method of libipc/interfaces/IFACE.proto whose request takes its atoms.
Status CheckAgainstProto(const ipc::Xrl& xrl) {
  const gp::FileDescriptor* f = gp::DescriptorPool::generated_pool()->FindFileByName(
      "libipc/interfaces/" + xrl.iface() + ".proto");
  if (f == nullptr || f->service_count() == 0) return NotFound("no interface " + xrl.iface());
  const gp::MethodDescriptor* m = f->service(0)->FindMethodByName(Camel(xrl.method()));
  if (m == nullptr) return NotFound("no method " + xrl.MethodPath());
  std::unique_ptr<gp::Message> req(
      gp::MessageFactory::generated_factory()->GetPrototype(m->input_type())->New());
  return ipc::AtomsToMessage(xrl.args(), *req);
}

constexpr const char* kFull = R"(
policy {
    policy-statement p1 {
        term t { from { route-filter 10.0.0.0/8 { le 24; } } then { action accept; metric 7; } }
    }
}
virtual-router red {
    interface lo;
    static {
        distance 5;
        route 192.0.2.0/24 { next-hop 127.0.0.1; }
        route 2001:db8::/32 { next-hop 2001:db8::1; }
        route 10.0.0.0/8 { next-hop 127.0.0.2 { weight 2; } next-hop 127.0.0.3; distance 250; }
        route 10.1.0.0/16 { interface lo; }
        route 10.2.0.0/16 { blackhole; }
        route 10.3.0.0/16 { reject prohibit; }
    }
    bgp {
        local-as 65001;
        router-id 10.0.0.1;
        listen-address 127.0.0.2;
        cluster-id 10.0.0.9;
        confederation-identifier 65100;
        confederation-members 65002 65003;
        redistribute static connected;
        import p1;
        export p1;
        network 203.0.113.0/24;
        network 2001:db8:1::/48 { next-hop 2001:db8::2; }
        peer 127.0.0.3 {
            as 65002;
            local-address 127.0.0.2;
            passive true;
            next-hop-self true;
            multihop 3;
            description "to blue";
            disable false;
            import p1;
            export p1;
        }
        peer 127.0.0.4 {
            as 65001;
            route-reflector-client true;
        }
        damping { half-life 10; suppress 3000; attribute-change-penalty 0; }
    }
}
interfaces { interface lo; }
)";

void CheckPlan(const ConfigNode& from, const ConfigNode& to) {
  NoExec exec;
  CommitHistory history("");
  CommitEngine engine(RealTemplates(), exec, history);
  auto plan = engine.Plan(from, to);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_FALSE(plan->empty());
  for (const auto& a : *plan) {
    EXPECT_TRUE(CheckAgainstProto(a.xrl).ok())
        << a.xrl.ToString() << ": " << CheckAgainstProto(a.xrl).ToString();
    if (a.undo) {
      EXPECT_TRUE(CheckAgainstProto(*a.undo).ok())
          << a.undo->ToString() << ": " << CheckAgainstProto(*a.undo).ToString();
    }
  }
}

TEST(TemplateXrlTest, EveryCreateAndUndoMatchesTheProtos) {
  ConfigNode full = MustParse(kFull);
  auto errors = ConfigValidator(RealTemplates()).Validate(full);
  for (const auto& e : errors) ADD_FAILURE() << e.ToString();
  CheckPlan(ConfigNode(), full);
  CheckPlan(full, ConfigNode());
}

TEST(TemplateXrlTest, ChangingAPeerLeafSendsChangePeer) {
  ConfigNode a = MustParse(kFull);
  std::string changed = kFull;
  changed.replace(changed.find("multihop 3"), 10, "multihop 4");
  CheckPlan(a, MustParse(changed));
  NoExec exec;
  CommitHistory history("");
  CommitEngine engine(RealTemplates(), exec, history);
  auto plan = engine.Plan(a, MustParse(changed));
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->size(), 1u);
  EXPECT_EQ((*plan)[0].xrl.method(), "change_peer");
  EXPECT_EQ((*plan)[0].xrl.FindArg("multihop_ttl")->ValueToString(), "4");
  EXPECT_EQ((*plan)[0].undo->FindArg("multihop_ttl")->ValueToString(), "3");
}

TEST(TemplateXrlTest, RouteReflectionSettingsReachTheSpeaker) {
  NoExec exec;
  CommitHistory history("");
  CommitEngine engine(RealTemplates(), exec, history);
  auto plan = engine.Plan(ConfigNode(), MustParse(kFull));
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  bool local = false;
  bool client = false;
  for (const auto& a : *plan) {
    if (a.xrl.method() == "set_local_config") {
      local = true;
      ASSERT_NE(a.xrl.FindArg("cluster_id"), nullptr) << a.xrl.ToString();
      EXPECT_EQ(a.xrl.FindArg("cluster_id")->ValueToString(), "10.0.0.9");
    }
    if (a.xrl.method() == "add_peer" && a.xrl.FindArg("peer")->ValueToString() == "127.0.0.4") {
      client = true;
      ASSERT_NE(a.xrl.FindArg("route_reflector_client"), nullptr) << a.xrl.ToString();
      EXPECT_EQ(a.xrl.FindArg("route_reflector_client")->ValueToString(), "true");
    }
  }
  EXPECT_TRUE(local);
  EXPECT_TRUE(client);
  // Taking the option away sends change_peer without it (false).
  std::string changed = kFull;
  changed.erase(changed.find("route-reflector-client true;"), 28);
  auto change = engine.Plan(MustParse(kFull), MustParse(changed));
  ASSERT_TRUE(change.ok());
  ASSERT_EQ(change->size(), 1u);
  EXPECT_EQ((*change)[0].xrl.method(), "change_peer");
  EXPECT_EQ((*change)[0].xrl.FindArg("route_reflector_client"), nullptr);
  ASSERT_TRUE(CheckAgainstProto((*change)[0].xrl).ok());
}

TEST(TemplateXrlTest, EbgpRequiresPolicyFalseRelaxesThePeerLive) {
  ConfigNode a = MustParse(kFull);
  std::string changed = kFull;
  changed.replace(changed.find("disable false;"), 14, "disable false; ebgp-requires-policy false;");
  CheckPlan(a, MustParse(changed));
  NoExec exec;
  CommitHistory history("");
  CommitEngine engine(RealTemplates(), exec, history);
  auto plan = engine.Plan(a, MustParse(changed));
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->size(), 1u);
  EXPECT_EQ((*plan)[0].xrl.method(), "change_peer");
  ASSERT_NE((*plan)[0].xrl.FindArg("ebgp_requires_policy"), nullptr);
  EXPECT_EQ((*plan)[0].xrl.FindArg("ebgp_requires_policy")->ValueToString(), "false");
  // Unset in the old config: the undo leaves it out, which the speaker takes as true.
  EXPECT_EQ((*plan)[0].undo->FindArg("ebgp_requires_policy"), nullptr);
}

TEST(TemplateXrlTest, DampingBlockSetsAndClearsDamping) {
  ConfigNode a = MustParse(kFull);
  std::string without = kFull;
  const size_t at = without.find("        damping {");
  without.erase(at, without.find('\n', at) + 1 - at);
  NoExec exec;
  CommitHistory history("");
  CommitEngine engine(RealTemplates(), exec, history);
  auto plan = engine.Plan(a, MustParse(without));
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->size(), 1u);
  EXPECT_EQ((*plan)[0].xrl.method(), "set_damping");
  EXPECT_EQ((*plan)[0].xrl.FindArg("enabled")->ValueToString(), "false");
  ASSERT_TRUE((*plan)[0].undo);
  EXPECT_EQ((*plan)[0].undo->FindArg("enabled")->ValueToString(), "true");
  EXPECT_EQ((*plan)[0].undo->FindArg("half_life")->ValueToString(), "10");
  EXPECT_EQ((*plan)[0].undo->FindArg("reuse")->ValueToString(), "750");  // the default
  EXPECT_EQ((*plan)[0].undo->FindArg("suppress")->ValueToString(), "3000");
  EXPECT_EQ((*plan)[0].undo->FindArg("attribute_change_penalty")->ValueToString(), "0");
}

TEST(TemplateXrlTest, RpkiBlockSetsTimersAndCaches) {
  ConfigNode a = MustParse(kFull);
  std::string with = kFull;
  with.insert(with.find("        damping {"),
              "        rpki { refresh 300; cache 192.0.2.50 { port 3323; preference 2; } }\n");
  NoExec exec;
  CommitHistory history("");
  CommitEngine engine(RealTemplates(), exec, history);
  auto plan = engine.Plan(a, MustParse(with));
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->size(), 2u);
  EXPECT_EQ((*plan)[0].xrl.method(), "set_rpki_timers");
  EXPECT_EQ((*plan)[0].xrl.FindArg("refresh_s")->ValueToString(), "300");
  EXPECT_EQ((*plan)[0].xrl.FindArg("expire_s")->ValueToString(), "7200");  // the default
  EXPECT_EQ((*plan)[1].xrl.method(), "add_rpki_cache");
  EXPECT_EQ((*plan)[1].xrl.FindArg("cache.address")->ValueToString(), "192.0.2.50");
  EXPECT_EQ((*plan)[1].xrl.FindArg("cache.port")->ValueToString(), "3323");
  EXPECT_EQ((*plan)[1].xrl.FindArg("cache.preference")->ValueToString(), "2");
  auto back = engine.Plan(MustParse(with), a);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_FALSE(back->empty());
  EXPECT_EQ(back->back().xrl.method(), "set_rpki");
}

TEST(TemplateXrlTest, RedistributeSetsAndClearsTheProtocols) {
  ConfigNode a = MustParse(kFull);
  std::string one = kFull;
  one.replace(one.find("redistribute static connected;"), 30, "redistribute static;");
  std::string none = kFull;
  none.erase(none.find("        redistribute static connected;\n"), 39);
  NoExec exec;
  CommitHistory history("");
  CommitEngine engine(RealTemplates(), exec, history);
  auto change = engine.Plan(a, MustParse(one));
  ASSERT_TRUE(change.ok()) << change.status().ToString();
  ASSERT_EQ(change->size(), 1u);
  EXPECT_EQ((*change)[0].xrl.method(), "set_redistribute");
  EXPECT_TRUE(CheckAgainstProto((*change)[0].xrl).ok());
  bgp::v1::SetRedistributeRequest req;
  ASSERT_TRUE(ipc::AtomsToMessage((*change)[0].xrl.args(), req).ok());
  EXPECT_EQ(std::vector<std::string>(req.protocols().begin(), req.protocols().end()),
            std::vector<std::string>{"static"});
  ASSERT_TRUE((*change)[0].undo);
  bgp::v1::SetRedistributeRequest undo;
  ASSERT_TRUE(ipc::AtomsToMessage((*change)[0].undo->args(), undo).ok());
  EXPECT_EQ(undo.protocols_size(), 2);

  auto off = engine.Plan(a, MustParse(none));
  ASSERT_TRUE(off.ok()) << off.status().ToString();
  ASSERT_EQ(off->size(), 1u);
  EXPECT_EQ((*off)[0].xrl.method(), "set_redistribute");
  bgp::v1::SetRedistributeRequest cleared;
  ASSERT_TRUE(ipc::AtomsToMessage((*off)[0].xrl.args(), cleared).ok());
  EXPECT_EQ(cleared.protocols_size(), 0);  // off
}

// The VR's import / export: set_default_policy after the statement is defined; removing it
// clears it, then deletes the statement no longer named anywhere.
TEST(TemplateXrlTest, VrPoliciesSetAndClearTheDefaultPolicy) {
  constexpr const char* kBase = R"(
policy {
    policy-statement p1 { term t { from { protocol static; } then { action accept; } } }
}
virtual-router red {
    bgp {
        local-as 65001;
        router-id 10.0.0.1;
        listen-address 127.0.0.2;
        peer 127.0.0.3 { as 65002; }
    }
}
)";
  std::string with = kBase;
  with.replace(with.find("        peer 127.0.0.3"), 0, "        export p1;\n");
  ConfigNode base = MustParse(kBase);
  ConfigNode exported = MustParse(with);
  EXPECT_TRUE(ConfigValidator(RealTemplates()).Validate(exported).empty());
  CheckPlan(base, exported);
  CheckPlan(exported, base);
  NoExec exec;
  CommitHistory history("");
  CommitEngine engine(RealTemplates(), exec, history);
  auto on = engine.Plan(base, exported);
  ASSERT_TRUE(on.ok()) << on.status().ToString();
  std::vector<std::string> methods;
  for (const auto& a : *on) methods.push_back(a.xrl.method());
  EXPECT_EQ(methods, (std::vector<std::string>{"define_policy", "set_default_policy"}));
  bgp::v1::SetDefaultPolicyRequest req;
  ASSERT_TRUE(ipc::AtomsToMessage(on->back().xrl.args(), req).ok());
  EXPECT_EQ(req.direction(), "export");
  EXPECT_EQ(req.policy(), "p1");
  ASSERT_TRUE(on->back().undo);
  EXPECT_EQ(on->back().undo->method(), "clear_default_policy");

  auto off = engine.Plan(exported, base);
  ASSERT_TRUE(off.ok()) << off.status().ToString();
  methods.clear();
  for (const auto& a : *off) methods.push_back(a.xrl.method());
  EXPECT_EQ(methods, (std::vector<std::string>{"clear_default_policy", "delete_policy"}));
}

TEST(TemplateXrlTest, ExampleConfigPlansInOrder) {
  auto tree = ConfigParser::ParseFile(test_util::SourceDir() + "/examples/strata.conf");
  ASSERT_TRUE(tree.ok()) << tree.status().ToString();
  EXPECT_TRUE(ConfigValidator(RealTemplates()).Check(*tree).ok());
  CheckPlan(ConfigNode(), *tree);
  NoExec exec;
  CommitHistory history("");
  CommitEngine engine(RealTemplates(), exec, history);
  auto plan = engine.Plan(ConfigNode(), *tree);
  ASSERT_TRUE(plan.ok());
  // Per speaker: policies and local config before networks and peers, peers before their
  // policies.
  for (const std::string vr : {"red", "blue"}) {
    std::vector<std::string> methods;
    for (const auto& a : *plan) {
      if (a.instance == "bgp." + vr) methods.push_back(a.xrl.method());
    }
    EXPECT_EQ(methods, (std::vector<std::string>{"define_policy", "set_local_config", "add_network",
                                                 "add_peer", "set_peer_policy", "set_peer_policy"}))
        << vr;
  }
}

}  // namespace
}  // namespace strata::rtrmgr
