// Redistribution from the RIB into BGP between two in-process speakers (bgp.a AS 65001 on
// 127.0.0.2, bgp.b AS 65002 on 127.0.0.3) with real RIBs via the Finder: a static route added to
// rib.a reaches b only while a's export policy accepts `protocol static`, and is withdrawn when
// the static route is deleted or neither `redistribute` nor an export policy names static.
#include <gtest/gtest.h>

#include "bgp/process/bgp_process.h"
#include "bgp/process/test_env.h"
#include "libipc/interfaces/bgp.strata.h"
#include "libipc/interfaces/rib.strata.h"
#include "rib/proto_convert.h"

namespace strata::bgp {
namespace {

using namespace std::chrono_literals;
namespace bpb = strata::bgp::v1;
namespace rpb = strata::rib::v1;

IpPrefix P(std::string_view s) { return *IpPrefix::Parse(s); }
IpAddr A(std::string_view s) { return *IpAddr::Parse(s); }

// Port range of this test: 12450..12499.
constexpr uint16_t kPort = 12450;

class RedistributeProcessTest : public ::testing::Test {
 protected:
  void SetUp() override { client_ = &env_.NewRouter("client"); }
  void TearDown() override { procs_.clear(); }

  void StartBgp(const std::string& vr) {
    std::unique_ptr<BgpProcess> proc;
    env_.NewRouter("bgp." + vr, [&](ipc::Router& r) {
      BgpProcess::Options o;
      o.vr = vr;
      o.rib_wait = 100ms;
      proc = std::make_unique<BgpProcess>(r, o);
      proc->AddTarget();
    });
    proc->Started();
    procs_[vr] = std::move(proc);
  }
  template <typename Req, typename Rep>
  Status Call(const std::string& target, const std::string& method, const Req& req,
              Rep* out = nullptr) {
    auto [s, rep] = env_.Call<Req, Rep>(*client_, target, method, req);
    if (out) *out = rep;
    return s;
  }
  void Configure(const std::string& vr, uint16_t port) {
    const bool a = vr == "a";
    bpb::SetLocalConfigRequest lc;
    lc.set_local_as(a ? 65001 : 65002);
    rib::AddrToProto(A(a ? "127.0.0.2" : "127.0.0.3"), lc.mutable_router_id());
    rib::AddrToProto(A(a ? "127.0.0.2" : "127.0.0.3"), lc.mutable_listen_address());
    lc.set_port(port);
    ASSERT_TRUE((Call<bpb::SetLocalConfigRequest, bpb::SetLocalConfigReply>(
                     "bgp." + vr, "bgp/1.0/set_local_config", lc))
                    .ok());
    bpb::AddPeerRequest req;
    rib::AddrToProto(A(a ? "127.0.0.3" : "127.0.0.2"), req.mutable_peer());
    req.set_peer_as(a ? 65002 : 65001);
    rib::AddrToProto(A(a ? "127.0.0.2" : "127.0.0.3"), req.mutable_local_address());
    req.set_peer_port(port);
    req.set_connect_retry(1);
    req.set_ebgp_requires_policy(false);
    ASSERT_TRUE(
        (Call<bpb::AddPeerRequest, bpb::AddPeerReply>("bgp." + vr, "bgp/1.0/add_peer", req)).ok());
  }
  bool Established(const std::string& vr) {
    bpb::ListPeersReply rep;
    if (!Call("bgp." + vr, "bgp/1.0/list_peers", bpb::ListPeersRequest(), &rep).ok()) return false;
    return rep.peers_size() == 1 && rep.peers(0).state() == "Established";
  }
  Status Static(std::string_view prefix, bool add = true) {
    if (!add) {
      rpb::DeleteRoutesRequest req;
      req.set_protocol("static");
      rib::PrefixToProto(P(prefix), req.add_prefixes());
      return Call<rpb::DeleteRoutesRequest, rpb::DeleteRoutesReply>("rib.a",
                                                                    "rib/1.0/delete_routes", req);
    }
    rpb::AddRoutesRequest req;
    req.set_protocol("static");
    auto* e = req.add_routes();
    rib::PrefixToProto(P(prefix), e->mutable_prefix());
    rib::AddrToProto(A("127.0.0.2"), e->mutable_nexthop());
    return Call<rpb::AddRoutesRequest, rpb::AddRoutesReply>("rib.a", "rib/1.0/add_routes", req);
  }
  Status Network(std::string_view prefix) {
    bpb::NetworkRequest req;
    rib::PrefixToProto(P(prefix), req.mutable_prefix());
    return Call<bpb::NetworkRequest, bpb::NetworkReply>("bgp.a", "bgp/1.0/add_network", req);
  }
  Status Redistribute(const std::vector<std::string>& protocols) {
    bpb::SetRedistributeRequest req;
    for (const auto& p : protocols) req.add_protocols(p);
    return Call<bpb::SetRedistributeRequest, bpb::SetRedistributeReply>(
        "bgp.a", "bgp/1.0/set_redistribute", req);
  }
  // a's export policy "out": routes within 10.0.0.0/8 of `protocol` are accepted, others not.
  Status ExportOnly(const std::string& protocol) {
    bpb::DefinePolicyRequest def;
    def.set_name("out");
    auto* t = def.add_terms();
    auto* m = t->add_prefixes();
    rib::PrefixToProto(P("10.0.0.0/8"), m->mutable_prefix());
    m->set_ge(8);
    m->set_le(32);
    t->add_protocols(protocol);
    t->set_action(bpb::POLICY_ACTION_ACCEPT);
    def.set_default_action(bpb::POLICY_ACTION_REJECT);
    return Call<bpb::DefinePolicyRequest, bpb::DefinePolicyReply>("bgp.a", "bgp/1.0/define_policy",
                                                                  def);
  }
  // b's RIB ebgp table, prefixes.
  std::vector<std::string> RibB() {
    rpb::ListRoutesRequest req;
    req.set_protocol("ebgp");
    rpb::ListRoutesReply rep;
    (void)Call("rib.b", "rib/1.0/list_routes", req, &rep);
    std::vector<std::string> out;
    for (const auto& r : rep.routes()) {
      out.push_back((*rib::PrefixFromProto(r.prefix(), "p")).ToString());
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  void AddStaticTable(const std::string& vr) {
    rpb::AddOriginTableRequest t;
    t.set_protocol("static");
    t.set_kind(rpb::PROTOCOL_KIND_IGP);
    ASSERT_TRUE((Call<rpb::AddOriginTableRequest, rpb::AddOriginTableReply>(
                     "rib." + vr, "rib/1.0/add_origin_table", t))
                    .ok());
  }
  void Pair(uint16_t port) {
    for (const char* vr : {"a", "b"}) {
      env_.StartRib(vr);
      AddStaticTable(vr);
      StartBgp(vr);
    }
    // b resolves a's next hop (127.0.0.2) through this static route; a's own is outside 10/8.
    rpb::AddRoutesRequest lo;
    lo.set_protocol("static");
    auto* e = lo.add_routes();
    rib::PrefixToProto(P("127.0.0.0/8"), e->mutable_prefix());
    rib::AddrToProto(A("127.0.0.1"), e->mutable_nexthop());
    for (const char* vr : {"a", "b"}) {
      ASSERT_TRUE((Call<rpb::AddRoutesRequest, rpb::AddRoutesReply>(std::string("rib.") + vr,
                                                                    "rib/1.0/add_routes", lo))
                      .ok());
    }
    Configure("a", port);
    Configure("b", port);
    ASSERT_TRUE(ExportOnly("static").ok());
    bpb::SetPeerPolicyRequest sp;
    rib::AddrToProto(A("127.0.0.3"), sp.mutable_peer());
    sp.set_direction("export");
    sp.set_policy("out");
    ASSERT_TRUE(
        (Call<bpb::SetPeerPolicyRequest, bpb::PeerReply>("bgp.a", "bgp/1.0/set_peer_policy", sp))
            .ok());
    ASSERT_TRUE(env_.RunUntil([&] { return Established("a") && Established("b"); }, 15s));
  }

  BgpTestEnv env_;
  ipc::Router* client_ = nullptr;
  std::map<std::string, std::unique_ptr<BgpProcess>> procs_;
};

using V = std::vector<std::string>;

TEST_F(RedistributeProcessTest, StaticRouteAdvertisedOnlyWhileExportPolicyAcceptsStatic) {
  Pair(kPort);
  ASSERT_TRUE(Static("10.5.0.0/16").ok());   // in the RIB before redistribution is on
  ASSERT_TRUE(Network("10.9.0.0/16").ok());  // protocol "bgp": the policy rejects it
  ASSERT_TRUE(Redistribute({"static"}).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.5.0.0/16"}; }));
  ASSERT_TRUE(Static("10.6.0.0/16").ok());  // added while redistributing
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.5.0.0/16", "10.6.0.0/16"}; }));
  EXPECT_EQ(procs_["a"]->speaker().redistributed().at(P("10.5.0.0/16")).protocol, "static");

  // The static route deleted from the RIB: withdrawn.
  ASSERT_TRUE(Static("10.5.0.0/16", false).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.6.0.0/16"}; }));

  // The export policy now accepts only "bgp": the network goes, the static route not.
  ASSERT_TRUE(ExportOnly("bgp").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.9.0.0/16"}; }));
  ASSERT_TRUE(ExportOnly("static").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.6.0.0/16"}; }));

  // Redistribution off, but the export policy still names `protocol static`: still subscribed
  // (export policies subscribe by themselves), nothing changes.
  ASSERT_TRUE(Redistribute({}).ok());
  env_.Run(300ms);
  EXPECT_EQ(RibB(), V{"10.6.0.0/16"});
  // No export policy names static any more: unsubscribed, the route withdrawn and forgotten.
  ASSERT_TRUE(ExportOnly("bgp").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.9.0.0/16"}; }))
      << ::testing::PrintToString(RibB());
  ASSERT_TRUE(env_.RunUntil([&] { return procs_["a"]->speaker().redistributed().empty(); }));
}

// add_network wins over a redistributed route of the same prefix; deleting the network brings
// the redistributed one back.
TEST_F(RedistributeProcessTest, NetworkWinsOverRedistributedRoute) {
  Pair(kPort + 1);
  ASSERT_TRUE(Redistribute({"static"}).ok());
  ASSERT_TRUE(Static("10.5.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.5.0.0/16"}; }));
  ASSERT_TRUE(Network("10.5.0.0/16").ok());  // now protocol "bgp": rejected by the policy
  ASSERT_TRUE(env_.RunUntil([&] { return RibB().empty(); }));
  bpb::NetworkRequest del;
  rib::PrefixToProto(P("10.5.0.0/16"), del.mutable_prefix());
  ASSERT_TRUE(
      (Call<bpb::NetworkRequest, bpb::NetworkReply>("bgp.a", "bgp/1.0/delete_network", del)).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibB() == V{"10.5.0.0/16"}; }));
}

}  // namespace
}  // namespace strata::bgp
