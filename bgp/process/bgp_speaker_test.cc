// strata-bgp in one process (the fixture in bgp_speaker_test_fixture.h): sessions, networks,
// policies, safety options and RFC 8212 between two speakers; and the service's answers to bad
// calls. Route reflection and damping have files of their own.
#include "testing/bgp/bgp_speaker_test_fixture.h"

namespace strata::bgp::speaker_test {
namespace {

TEST_F(BgpSpeakerTest, NetworkReachesThePeerAndItsRibAndIsWithdrawn) {
  Pair(kPort);
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").size() == 1; }))
      << ::testing::PrintToString(Best("a"));
  EXPECT_EQ(Best("b"), (std::vector<std::string>{"10.1.0.0/16 [65001]"}));
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b", "ebgp").size() == 1; }));
  EXPECT_EQ(RibTable("b", "ebgp"), (std::vector<std::string>{"10.1.0.0/16 127.0.0.2"}));
  // Our own network is not given to our RIB.
  EXPECT_TRUE(RibTable("a", "ebgp").empty());
  EXPECT_EQ(Best("a"), (std::vector<std::string>{"10.1.0.0/16 []"}));
  bpb::ListPeersReply peers;
  ASSERT_TRUE(Bgp("a", "list_peers", bpb::ListPeersRequest(), &peers).ok());
  ASSERT_EQ(peers.peers_size(), 1);
  EXPECT_EQ(peers.peers(0).prefixes_advertised(), 1u);
  EXPECT_EQ(peers.peers(0).families(0), "ipv4-unicast");

  ASSERT_TRUE(Network("a", "10.1.0.0/16", false).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").empty() && RibTable("b", "ebgp").empty(); }));
}

TEST_F(BgpSpeakerTest, ImportPolicyChangeReevaluatesReceivedRoutes) {
  Pair(kPort + 1);
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(Network("a", "10.2.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b", "ebgp").size() == 2; }));

  bpb::DefinePolicyRequest p;
  p.set_name("in");
  p.set_default_action(bpb::POLICY_ACTION_ACCEPT);
  auto* t = p.add_terms();
  t->set_name("drop-10.1");
  ipc::PrefixToProto(P("10.1.0.0/16"), t->add_prefixes()->mutable_prefix());
  t->set_action(bpb::POLICY_ACTION_REJECT);
  ASSERT_TRUE(DefinePolicy(p, "b").ok());
  ASSERT_TRUE(SetPolicy("b", "127.0.0.2", "import", "in").ok());
  // Re-evaluated in the background: wait for it.
  ASSERT_TRUE(env_.RunUntil([&] {
    return Best("b") == std::vector<std::string>{"10.2.0.0/16 [65001]"};
  })) << ::testing::PrintToString(Best("b"));
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b", "ebgp").size() == 1; }));

  // Redefining the statement in use re-evaluates: now it raises LOCAL_PREF instead.
  t->set_action(bpb::POLICY_ACTION_ACCEPT);
  t->set_set_local_pref(200);
  ASSERT_TRUE(DefinePolicy(p, "b").ok());
  ASSERT_TRUE(env_.RunUntil([&] {
    return Best("b") ==
           std::vector<std::string>{"10.1.0.0/16 [65001] lp 200", "10.2.0.0/16 [65001]"};
  })) << ::testing::PrintToString(Best("b"));
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b", "ebgp").size() == 2; }));

  bpb::ListPeersReply peers;
  ASSERT_TRUE(Bgp("b", "list_peers", bpb::ListPeersRequest(), &peers).ok());
  EXPECT_EQ(peers.peers(0).import_policy(), "in");
  EXPECT_EQ(peers.peers(0).prefixes_accepted(), 2u);
  // In use: cannot be deleted.
  bpb::DeletePolicyRequest del;
  del.set_name("in");
  EXPECT_EQ(
      (Bgp<bpb::DeletePolicyRequest, bpb::DeletePolicyReply>("b", "delete_policy", del)).code(),
      StatusCode::kFailedPrecondition);
}

TEST_F(BgpSpeakerTest, ExportPolicyChangeReevaluatesAdvertisements) {
  Pair(kPort + 2);
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(Network("a", "10.3.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").size() == 2; }));
  bpb::DefinePolicyRequest p;
  p.set_name("out");
  p.set_default_action(bpb::POLICY_ACTION_REJECT);
  auto* t = p.add_terms();
  ipc::PrefixToProto(P("10.0.0.0/8"), t->add_prefixes()->mutable_prefix());
  t->mutable_prefixes(0)->set_le(16);
  // Export policies see the route as the peer gets it: our AS is already prepended.
  t->set_as_path_regex("^65001$");  // only our own routes
  t->set_prepend_count(2);
  t->add_add_communities("65001:42");
  t->set_action(bpb::POLICY_ACTION_ACCEPT);
  auto* deny = p.add_terms();
  ipc::PrefixToProto(P("10.3.0.0/16"), deny->add_prefixes()->mutable_prefix());
  deny->set_action(bpb::POLICY_ACTION_REJECT);
  // Term order: 10.3/16 matches the first term and is accepted.
  ASSERT_TRUE(DefinePolicy(p, "a").ok());
  ASSERT_TRUE(SetPolicy("a", "127.0.0.3", "export", "out").ok());
  ASSERT_TRUE(env_.RunUntil([&] {
    return Best("b") == std::vector<std::string>{"10.1.0.0/16 [65001 65001 65001]",
                                                 "10.3.0.0/16 [65001 65001 65001]"};
  })) << ::testing::PrintToString(Best("b"));
  bpb::ListRoutesRequest lr;
  ipc::PrefixToProto(P("10.1.0.0/16"), lr.mutable_prefix());
  bpb::ListRoutesReply routes;
  ASSERT_TRUE(Bgp("b", "list_routes", lr, &routes).ok());
  ASSERT_EQ(routes.routes_size(), 1);
  EXPECT_EQ(routes.routes(0).communities(0), "65001:42");
  EXPECT_EQ(routes.routes(0).reason(), "only-route");

  // Swap the terms: now 10.3/16 is rejected and withdrawn from b.
  std::swap(*p.mutable_terms(0), *p.mutable_terms(1));
  ASSERT_TRUE(DefinePolicy(p, "a").ok());
  ASSERT_TRUE(env_.RunUntil(
      [&] { return Best("b") == std::vector<std::string>{"10.1.0.0/16 [65001 65001 65001]"}; }));
  bpb::ClearPeerPolicyRequest clear;
  ipc::AddrToProto(A("127.0.0.3"), clear.mutable_peer());
  clear.set_direction("export");
  ASSERT_TRUE(Bgp("a", "clear_peer_policy", clear).ok());
  ASSERT_TRUE(env_.RunUntil([&] {
    return Best("b") == std::vector<std::string>{"10.1.0.0/16 [65001]", "10.3.0.0/16 [65001]"};
  }));
}

TEST_F(BgpSpeakerTest, SessionComesBackAfterReset) {
  Pair(kPort + 3);
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b", "ebgp").size() == 1; }));
  bpb::PeerRequest req;
  ipc::AddrToProto(A("127.0.0.3"), req.mutable_peer());
  ASSERT_TRUE(Bgp("a", "disable_peer", req).ok());
  ASSERT_TRUE(env_.RunUntil([&] {
    return PeerState("b", "127.0.0.2") != "Established" && RibTable("b", "ebgp").empty();
  }));
  ASSERT_TRUE(Bgp("a", "enable_peer", req).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("b", "ebgp").size() == 1; }, 10s));
  auto updates_out = [&] {
    bpb::ListPeersReply peers;
    EXPECT_TRUE(Bgp("a", "list_peers", bpb::ListPeersRequest(), &peers).ok());
    return peers.peers(0).updates_out();
  };
  const uint64_t before = updates_out();
  bpb::SoftResetPeerRequest soft;
  ipc::AddrToProto(A("127.0.0.2"), soft.mutable_peer());
  soft.set_direction("both");
  ASSERT_TRUE(Bgp("b", "soft_reset_peer", soft).ok());
  // b's ROUTE-REFRESH makes a send its Adj-RIB-Out again.
  ASSERT_TRUE(env_.RunUntil([&] { return updates_out() > before; }));
  EXPECT_EQ(Best("b"), (std::vector<std::string>{"10.1.0.0/16 [65001]"}));
  bpb::GetStatsReply stats;
  ASSERT_TRUE((Bgp<bpb::GetStatsRequest, bpb::GetStatsReply>("b", "get_stats", {}, &stats)).ok());
  EXPECT_EQ(stats.peers(), 1u);
  EXPECT_EQ(stats.peers_established(), 1u);
  EXPECT_EQ(stats.prefixes(), 1u);
  EXPECT_EQ(stats.rib_routes_sent(), 3u);  // added, deleted on the disable, added again
}

TEST_F(BgpSpeakerTest, IbgpPeerGetsExternalRoutesAndOursWithUsableNexthops) {
  Pair(kPort + 6);
  env_.StartRib("c");
  AddLoopbackIgp("c");
  StartBgp("c");
  ASSERT_TRUE(SetLocal("c", 65001, "127.0.0.4", kPort + 6).ok());
  ASSERT_TRUE(AddPeer("c", "127.0.0.2", 65001, "127.0.0.4", kPort + 6).ok());
  ASSERT_TRUE(AddPeer("a", "127.0.0.4", 65001, "127.0.0.2", kPort + 6).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return PeerState("c", "127.0.0.2") == "Established"; }, 10s));
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(Network("b", "10.2.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return RibTable("c", "ibgp").size() == 2; }))
      << ::testing::PrintToString(Best("c"));
  // iBGP: no prepend, LOCAL_PREF sent; b's route keeps b's next hop, ours gets a's address.
  EXPECT_EQ(Best("c"),
            (std::vector<std::string>{"10.1.0.0/16 [] lp 100", "10.2.0.0/16 [65002] lp 100"}));
  EXPECT_EQ(RibTable("c", "ibgp"),
            (std::vector<std::string>{"10.1.0.0/16 127.0.0.2", "10.2.0.0/16 127.0.0.3"}));
  EXPECT_TRUE(RibTable("c", "ebgp").empty());
  // b hears a's network once, not c's copy (iBGP-learned routes are not sent on by c).
  EXPECT_EQ(Best("b"), (std::vector<std::string>{"10.1.0.0/16 [65001]", "10.2.0.0/16 []"}));
}

TEST_F(BgpSpeakerTest, BadCallsGetErrorsAndChangeNothing) {
  env_.StartRib("a");
  StartBgp("a");
  auto code = [](const Status& s) { return s.code(); };
  // Before set_local_config.
  EXPECT_EQ(code(AddPeer("a", "127.0.0.3", 65002, "127.0.0.2", kPort + 4)),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(code(Network("a", "10.0.0.0/8")), StatusCode::kFailedPrecondition);
  EXPECT_EQ(code(SetLocal("a", 0, "127.0.0.2", kPort + 4)), StatusCode::kInvalidArgument);
  bpb::SetLocalConfigRequest v6id;
  v6id.set_local_as(65001);
  ipc::AddrToProto(A("2001:db8::1"), v6id.mutable_router_id());
  EXPECT_EQ(code(Bgp<bpb::SetLocalConfigRequest, bpb::SetLocalConfigReply>("a", "set_local_config",
                                                                           v6id)),
            StatusCode::kInvalidArgument);
  bpb::SetLocalConfigRequest badport;
  badport.set_local_as(65001);
  ipc::AddrToProto(A("127.0.0.2"), badport.mutable_router_id());
  badport.set_port(70000);
  EXPECT_EQ(code(Bgp<bpb::SetLocalConfigRequest, bpb::SetLocalConfigReply>("a", "set_local_config",
                                                                           badport)),
            StatusCode::kInvalidArgument);
  ASSERT_TRUE(SetLocal("a", 65001, "127.0.0.2", kPort + 4).ok());

  // Peers.
  bpb::AddPeerRequest bad_addr;
  bad_addr.mutable_peer()->set_addr(std::string("\x01\x02\x03", 3));
  bad_addr.set_peer_as(65002);
  Status s = Bgp<bpb::AddPeerRequest, bpb::AddPeerReply>("a", "add_peer", bad_addr);
  EXPECT_EQ(code(s), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("peer"), std::string::npos) << s.message();
  bpb::AddPeerRequest no_as;
  ipc::AddrToProto(A("127.0.0.3"), no_as.mutable_peer());
  EXPECT_EQ(code(Bgp<bpb::AddPeerRequest, bpb::AddPeerReply>("a", "add_peer", no_as)),
            StatusCode::kInvalidArgument);
  bpb::AddPeerRequest bad_hold = no_as;
  bad_hold.set_peer_as(65002);
  bad_hold.set_hold_time(2);
  EXPECT_EQ(code(Bgp<bpb::AddPeerRequest, bpb::AddPeerReply>("a", "add_peer", bad_hold)),
            StatusCode::kInvalidArgument);
  bpb::AddPeerRequest mixed = no_as;
  mixed.set_peer_as(65002);
  ipc::AddrToProto(A("2001:db8::1"), mixed.mutable_local_address());
  EXPECT_EQ(code(Bgp<bpb::AddPeerRequest, bpb::AddPeerReply>("a", "add_peer", mixed)),
            StatusCode::kInvalidArgument);
  ASSERT_TRUE(AddPeer("a", "127.0.0.3", 65002, "127.0.0.2", kPort + 4).ok());
  EXPECT_EQ(code(AddPeer("a", "127.0.0.3", 65002, "127.0.0.2", kPort + 4)),
            StatusCode::kAlreadyExists);
  bpb::PeerRequest unknown;
  ipc::AddrToProto(A("127.0.0.9"), unknown.mutable_peer());
  EXPECT_EQ(code(Bgp("a", "delete_peer", unknown)), StatusCode::kNotFound);
  EXPECT_EQ(code(Bgp("a", "reset_peer", unknown)), StatusCode::kNotFound);
  EXPECT_EQ(code(Bgp("a", "delete_peer", bpb::PeerRequest())), StatusCode::kInvalidArgument);
  bpb::SoftResetPeerRequest soft;
  ipc::AddrToProto(A("127.0.0.3"), soft.mutable_peer());
  soft.set_direction("sideways");
  EXPECT_EQ(code(Bgp("a", "soft_reset_peer", soft)), StatusCode::kInvalidArgument);
  soft.set_direction("in");
  EXPECT_EQ(code(Bgp("a", "soft_reset_peer", soft)), StatusCode::kFailedPrecondition);

  // Networks.
  bpb::NetworkRequest host_bits;
  host_bits.mutable_prefix()->set_addr(std::string("\x0a\x01\x00\x00", 4));
  host_bits.mutable_prefix()->set_len(8);
  EXPECT_EQ(code(Bgp<bpb::NetworkRequest, bpb::NetworkReply>("a", "add_network", host_bits)),
            StatusCode::kInvalidArgument);
  bpb::NetworkRequest wrong_nh;
  ipc::PrefixToProto(P("10.0.0.0/8"), wrong_nh.mutable_prefix());
  ipc::AddrToProto(A("2001:db8::1"), wrong_nh.mutable_nexthop());
  EXPECT_EQ(code(Bgp<bpb::NetworkRequest, bpb::NetworkReply>("a", "add_network", wrong_nh)),
            StatusCode::kInvalidArgument);
  ASSERT_TRUE(Network("a", "10.0.0.0/8").ok());
  EXPECT_EQ(code(Network("a", "10.0.0.0/8")), StatusCode::kAlreadyExists);
  EXPECT_EQ(code(Network("a", "11.0.0.0/8", false)), StatusCode::kNotFound);

  // Policies.
  bpb::DefinePolicyRequest bad_re;
  bad_re.set_name("p");
  bad_re.add_terms()->set_as_path_regex("(65001");
  s = DefinePolicy(bad_re, "a");
  EXPECT_EQ(code(s), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("as_path_regex"), std::string::npos) << s.message();
  bpb::DefinePolicyRequest bad_range;
  bad_range.set_name("p");
  auto* pm = bad_range.add_terms()->add_prefixes();
  ipc::PrefixToProto(P("10.0.0.0/16"), pm->mutable_prefix());
  pm->set_ge(8);
  EXPECT_EQ(code(DefinePolicy(bad_range, "a")), StatusCode::kInvalidArgument);
  bpb::DefinePolicyRequest bad_comm;
  bad_comm.set_name("p");
  bad_comm.add_terms()->add_add_communities("65536:1");
  EXPECT_EQ(code(DefinePolicy(bad_comm, "a")), StatusCode::kInvalidArgument);
  bpb::DefinePolicyRequest unnamed;
  EXPECT_EQ(code(DefinePolicy(unnamed, "a")), StatusCode::kInvalidArgument);
  EXPECT_EQ(code(SetPolicy("a", "127.0.0.3", "import", "p")), StatusCode::kNotFound);
  bpb::DefinePolicyRequest good;
  good.set_name("p");
  good.set_default_action(bpb::POLICY_ACTION_ACCEPT);
  ASSERT_TRUE(DefinePolicy(good, "a").ok());
  EXPECT_EQ(code(SetPolicy("a", "127.0.0.3", "inbound", "p")), StatusCode::kInvalidArgument);
  EXPECT_EQ(code(SetPolicy("a", "127.0.0.9", "import", "p")), StatusCode::kNotFound);
  bpb::DeletePolicyRequest del;
  del.set_name("nope");
  EXPECT_EQ(code(Bgp<bpb::DeletePolicyRequest, bpb::DeletePolicyReply>("a", "delete_policy", del)),
            StatusCode::kNotFound);

  // Shows.
  bpb::ListPeersRequest lp;
  ipc::AddrToProto(A("127.0.0.9"), lp.mutable_peer());
  bpb::ListPeersReply peers;
  EXPECT_EQ(code(Bgp("a", "list_peers", lp, &peers)), StatusCode::kNotFound);

  // Nothing the bad calls named exists; the good ones are intact.
  ASSERT_TRUE(Bgp("a", "list_peers", bpb::ListPeersRequest(), &peers).ok());
  ASSERT_EQ(peers.peers_size(), 1);
  EXPECT_EQ((*ipc::AddrFromProto(peers.peers(0).peer(), "p")).ToString(), "127.0.0.3");
  EXPECT_EQ(peers.peers(0).import_policy(), "");
  BgpSpeaker& sp = procs_["a"]->speaker();
  EXPECT_EQ(sp.networks().size(), 1u);
  EXPECT_EQ(sp.policies().size(), 1u);
  EXPECT_EQ(sp.local_config()->local_as, 65001u);
  EXPECT_EQ(sp.listen_ports(), std::vector<uint16_t>{kPort + 4});
}

TEST_F(BgpSpeakerTest, NewAsRebuildsThePipelineKeepingPeersNetworksAndPolicies) {
  env_.StartRib("a");
  StartBgp("a");
  ASSERT_TRUE(SetLocal("a", 65001, "127.0.0.2", kPort + 7).ok());
  ASSERT_TRUE(AddPeer("a", "127.0.0.3", 65002, "127.0.0.2", kPort + 7).ok());
  ASSERT_TRUE(Network("a", "10.0.0.0/8").ok());
  bpb::DefinePolicyRequest p;
  p.set_name("p");
  ASSERT_TRUE(DefinePolicy(p, "a").ok());
  ASSERT_TRUE(SetPolicy("a", "127.0.0.3", "export", "p").ok());
  ASSERT_TRUE(SetLocal("a", 65003, "127.0.0.2", kPort + 7).ok());
  BgpSpeaker& sp = procs_["a"]->speaker();
  EXPECT_EQ(sp.local_config()->local_as, 65003u);
  ASSERT_EQ(sp.peers().size(), 1u);
  const BgpPeer& peer = *sp.peers().begin()->second;
  EXPECT_EQ(peer.settings().session.local_as, 65003u);
  EXPECT_EQ(peer.settings().export_policy, "p");
  EXPECT_EQ(Best("a"), (std::vector<std::string>{"10.0.0.0/8 []"}));
}

TEST_F(BgpSpeakerTest, ListenerThatCannotBindIsAnErrorAndKeepsTheOldOne) {
  env_.StartRib("a");
  StartBgp("a");
  StartBgp("b");
  ASSERT_TRUE(SetLocal("a", 65001, "127.0.0.2", kPort + 5).ok());
  // The same address and port again, from another speaker: refused, nothing changes.
  Status s = SetLocal("b", 65002, "127.0.0.2", kPort + 5);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  EXPECT_FALSE(procs_["b"]->speaker().configured());
  EXPECT_EQ(procs_["a"]->speaker().listen_ports(), std::vector<uint16_t>{kPort + 5});
}

// A peer on the speaker's own listening socket would connect to itself, over and over: refused
// by add_peer (listening on one address, or on any: then any address of the host), and a new
// listener that would take an existing peer's connections is refused by set_local_config. A
// speaker moves from one address to any on the same port (the old listener closes first).
TEST_F(BgpSpeakerTest, PeerOnItsOwnListenerIsRefused) {
  const Adjust kNoLocal = [](bpb::AddPeerRequest& r) { r.clear_local_address(); };
  env_.StartRib("a");
  StartBgp("a");
  ASSERT_TRUE(SetLocal("a", 65001, "127.0.0.2", kPort + 6).ok());
  Status s = AddPeer("a", "127.0.0.2", 65002, "127.0.0.1", kPort + 6, kNoLocal);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("own listening socket: it would connect to itself"), std::string::npos)
      << s.message();
  ASSERT_TRUE(
      AddPeer("a", "127.0.0.2", 65002, "127.0.0.1", kPort + 7, kNoLocal).ok());  // another port
  ASSERT_TRUE(
      AddPeer("a", "127.0.0.3", 65003, "127.0.0.1", kPort + 6, kNoLocal).ok());  // another address
  s = SetLocal("a", 65001, "127.0.0.2", kPort + 7);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  EXPECT_EQ(procs_["a"]->speaker().listen_ports(), std::vector<uint16_t>{kPort + 6});
  // Listening on any address: every address of the host is the speaker's own.
  s = SetLocal("a", 65001, "127.0.0.2", kPort + 6,
               [](bpb::SetLocalConfigRequest& r) { r.clear_listen_address(); });
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();  // 127.0.0.3 is local
  bpb::PeerRequest other;
  ipc::AddrToProto(A("127.0.0.3"), other.mutable_peer());
  ASSERT_TRUE(Bgp("a", "delete_peer", other).ok());
  s = SetLocal("a", 65001, "127.0.0.2", kPort + 6,
               [](bpb::SetLocalConfigRequest& r) { r.clear_listen_address(); });
  ASSERT_TRUE(s.ok()) << s.ToString();
  s = AddPeer("a", "127.0.0.1", 65004, "127.0.0.1", kPort + 6, kNoLocal);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  EXPECT_TRUE(AddPeer("a", "203.0.113.200", 65004, "127.0.0.1", kPort + 6, kNoLocal)
                  .ok());  // not this host
}

// Listening on any address takes both families on one port: ::1 is this host's too.
TEST_F(BgpSpeakerTest, AnyAddressListensOnBothFamiliesOnOnePort) {
  env_.StartRib("a");
  StartBgp("a");
  ASSERT_TRUE(SetLocal("a", 65001, "127.0.0.2", kPort + 91, [](bpb::SetLocalConfigRequest& r) {
                r.clear_listen_address();
              }).ok());
  EXPECT_EQ(procs_["a"]->speaker().listen_ports(), (std::vector<uint16_t>{kPort + 91, kPort + 91}));
  const Status s = AddPeer("a", "::1", 65004, "::1", kPort + 91,
                           [](bpb::AddPeerRequest& r) { r.clear_local_address(); });
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
}

// IPv6 routes on an IPv4 session go with the configured IPv6 next hop (ipv6-next-hop), which
// list_peers shows; without one, the session's interface (lo) has no usable IPv6 address (::1
// is loopback), so none is sent, while IPv4 routes still are. (b reaches 2001:db8::a by an IGP
// route, over a multihop session: a single-hop peer's next hop must be on a connected subnet.)
TEST_F(BgpSpeakerTest, Ipv6RoutesOnAnIpv4SessionGoWithTheIpv6NextHop) {
  for (const char* vr : {"a", "b"}) {
    env_.StartRib(vr);
    AddLoopbackIgp(vr);
  }
  StartBgp("a");
  StartBgp("b");
  ConfigureSide("a", kPort + 90, nullptr, [](bpb::AddPeerRequest& r) {
    ipc::AddrToProto(A("2001:db8::a"), r.mutable_ipv6_next_hop());
  });
  ConfigureSide("b", kPort + 90, nullptr, [](bpb::AddPeerRequest& r) { r.set_multihop_ttl(2); });
  ASSERT_TRUE(RibStatic("b", "2001:db8::/64", "::1").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return PairEstablished(); }, 10s));
  ASSERT_TRUE(Network("a", "2001:db8:100::/48").ok());
  ASSERT_TRUE(Network("b", "2001:db8:200::/48").ok());
  ASSERT_TRUE(Network("b", "10.2.0.0/16").ok());
  // Every route either side received, with its next hop.
  auto received = [&](const std::string& vr) {
    bpb::ListRoutesRequest req;
    ipc::AddrToProto(A(Addr(Other(vr))), req.mutable_peer());
    bpb::ListRoutesReply rep;
    EXPECT_TRUE(Bgp(vr, "list_routes", req, &rep).ok());
    std::vector<std::string> out;
    for (const auto& r : rep.routes()) {
      out.push_back((*ipc::PrefixFromProto(r.prefix(), "p")).ToString() + " " +
                    (*ipc::AddrFromProto(r.nexthop(), "n")).ToString());
    }
    return out;
  };
  ASSERT_TRUE(env_.RunUntil([&] { return received("b").size() == 1 && received("a").size() == 1; }))
      << ::testing::PrintToString(received("b")) << ::testing::PrintToString(received("a"));
  EXPECT_EQ(received("b"), (std::vector<std::string>{"2001:db8:100::/48 2001:db8::a"}));
  EXPECT_EQ(received("a"), (std::vector<std::string>{"10.2.0.0/16 127.0.0.3"}));
  EXPECT_EQ((*ipc::AddrFromProto(Peer("a", Addr("b")).other_family_next_hop(), "n")).ToString(),
            "2001:db8::a");
  EXPECT_FALSE(Peer("b", Addr("a")).has_other_family_next_hop());
}

// Per-peer maximum prefixes: b allows 2 routes from a; the third tears the session down with
// Cease / Maximum Number of Prefixes Reached (RFC 4486); after the restart time it comes back.
TEST_F(BgpSpeakerTest, MaxPrefixesTearsDownAndRestartsAfterTheTimer) {
  Pair(kPort + 20, [](bpb::AddPeerRequest& r) {
    r.set_max_prefixes(2);
    r.set_max_prefixes_warning(50);
    r.set_max_prefixes_restart(2);
  });
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(Network("a", "10.2.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").size() == 2; }));
  env_.Run(200ms);
  EXPECT_EQ(PeerState("b", "127.0.0.2"), "Established");
  EXPECT_FALSE(Peer("b", "127.0.0.2").max_prefixes_exceeded());

  ASSERT_TRUE(Network("a", "10.3.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Peer("b", "127.0.0.2").max_prefixes_exceeded(); }));
  ASSERT_TRUE(env_.RunUntil([&] { return PeerState("a", "127.0.0.3") != "Established"; }));
  EXPECT_NE(PeerState("b", "127.0.0.2"), "Established");
  EXPECT_EQ(Peer("a", "127.0.0.3").last_error(),
            "NOTIFICATION received: Cease / Maximum Number of Prefixes Reached");
  // a's routes are gone from b; the one that went over the limit is listed as discarded.
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").empty(); }));
  EXPECT_EQ(Discarded("b", "127.0.0.2"),
            (std::vector<std::string>{"10.3.0.0/16 ROUTE_FATE_MAX_PREFIX"}));
  // a keeps connecting (connect_retry 1 s); b refuses until its restart timer runs out.
  ASSERT_TRUE(Network("a", "10.3.0.0/16", false).ok());
  env_.Run(1000ms);
  EXPECT_NE(PeerState("b", "127.0.0.2"), "Established");
  ASSERT_TRUE(env_.RunUntil(
      [&] {
        return PeerState("a", "127.0.0.3") == "Established" &&
               PeerState("b", "127.0.0.2") == "Established";
      },
      10s));
  EXPECT_FALSE(Peer("b", "127.0.0.2").max_prefixes_exceeded());
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").size() == 2; }));
  EXPECT_EQ(Peer("b", "127.0.0.2").established_transitions(), 2u);
}

// Without a restart time the session stays down until reset_peer.
TEST_F(BgpSpeakerTest, MaxPrefixesWithoutRestartStaysDownUntilReset) {
  Pair(kPort + 21, [](bpb::AddPeerRequest& r) { r.set_max_prefixes(1); });
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(Network("a", "10.2.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Peer("b", "127.0.0.2").max_prefixes_exceeded(); }));
  ASSERT_TRUE(Network("a", "10.2.0.0/16", false).ok());
  env_.Run(2500ms);  // two connect retries of a
  EXPECT_NE(PeerState("b", "127.0.0.2"), "Established");
  EXPECT_TRUE(Peer("b", "127.0.0.2").max_prefixes_exceeded());

  bpb::PeerRequest reset;
  ipc::AddrToProto(A("127.0.0.2"), reset.mutable_peer());
  ASSERT_TRUE(Bgp("b", "reset_peer", reset).ok());
  EXPECT_FALSE(Peer("b", "127.0.0.2").max_prefixes_exceeded());
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").size() == 1; }, 10s));
  EXPECT_EQ(PeerState("b", "127.0.0.2"), "Established");
}

// A bare session (bgp/session) playing a's part, so that it can send any AS_PATH.
class FirstAsTest : public BgpSpeakerTest {
 protected:
  void Start(uint16_t port, const Adjust& adjust_b = nullptr) {
    env_.StartRib("b");
    AddLoopbackIgp("b");
    StartBgp("b");
    ASSERT_TRUE(SetLocal("b", 65002, "127.0.0.3", port).ok());
    ASSERT_TRUE(AddPeer("b", "127.0.0.2", 65001, "127.0.0.3", port, [&](bpb::AddPeerRequest& r) {
                  r.set_passive(true);
                  if (adjust_b) adjust_b(r);
                }).ok());
    PeerConfig c;
    c.peer_address = A("127.0.0.3");
    c.peer_port = port;
    c.local_address = A("127.0.0.2");
    c.local_as = 65001;
    c.peer_as = 65002;
    c.router_id = A("10.9.9.9");
    auto s = PeerSession::Create(env_.io(), c, nullptr);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    raw_ = std::move(*s);
    raw_->Start();
    ASSERT_TRUE(env_.RunUntil([&] { return raw_->state() == SessionState::kEstablished; }, 10s));
  }
  void Send(std::string_view prefix, std::vector<uint32_t> path) {
    PathAttributes attrs;
    attrs.origin = Origin::kIgp;
    attrs.as_path = path.empty() ? AsPath() : AsPath({AsSegment{AsSegmentType::kSequence, path}});
    attrs.next_hop = A("127.0.0.2");
    const IpPrefix one[] = {P(prefix)};
    ASSERT_TRUE(raw_->Announce(attrs, kIpv4Unicast, one).ok());
  }
  void TearDown() override {
    raw_.reset();
    BgpSpeakerTest::TearDown();
  }
  std::unique_ptr<PeerSession> raw_;
};

TEST_F(FirstAsTest, EbgpPathNotStartingWithThePeerAsIsTreatedAsWithdraw) {
  Start(kPort + 22);
  Send("10.1.0.0/16", {65001, 65009});
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").size() == 1; }));
  EXPECT_EQ(Best("b"), (std::vector<std::string>{"10.1.0.0/16 [65001 65009]"}));
  // The same prefix with a path from another AS: the route is withdrawn, the session stays.
  Send("10.1.0.0/16", {65009});
  Send("10.2.0.0/16", {});
  ASSERT_TRUE(env_.RunUntil([&] { return Peer("b", "127.0.0.2").first_as_violations() == 2; }));
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").empty(); }));
  EXPECT_EQ(PeerState("b", "127.0.0.2"), "Established");
  EXPECT_EQ(raw_->state(), SessionState::kEstablished);
  EXPECT_EQ(Discarded("b", "127.0.0.2"),
            (std::vector<std::string>{"10.1.0.0/16 ROUTE_FATE_FIRST_AS",
                                      "10.2.0.0/16 ROUTE_FATE_FIRST_AS"}));
  Send("10.2.0.0/16", {65001});
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").size() == 1; }));
  EXPECT_EQ(Best("b"), (std::vector<std::string>{"10.2.0.0/16 [65001]"}));
}

TEST_F(FirstAsTest, CheckCanBeTurnedOff) {
  Start(kPort + 23, [](bpb::AddPeerRequest& r) { r.set_enforce_first_as(false); });
  Send("10.1.0.0/16", {65009});
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").size() == 1; }));
  EXPECT_EQ(Best("b"), (std::vector<std::string>{"10.1.0.0/16 [65009]"}));
  EXPECT_EQ(Peer("b", "127.0.0.2").first_as_violations(), 0u);
}

// The session options reach the session layer, and bad ones are refused naming the field.
TEST_F(BgpSpeakerTest, SafetyOptionsAreCheckedAndApplied) {
  env_.StartRib("a");
  BgpProcess& bgp = StartBgp("a");
  ASSERT_TRUE(SetLocal("a", 65001, "127.0.0.2", kPort + 24).ok());
  auto code = [](const Status& s) { return s.code(); };
  EXPECT_EQ(code(AddPeer("a", "127.0.0.3", 65002, "127.0.0.2", kPort + 24,
                         [](bpb::AddPeerRequest& r) { r.set_md5_password(std::string(81, 'x')); })),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code(AddPeer("a", "127.0.0.3", 65002, "127.0.0.2", kPort + 24,
                         [](bpb::AddPeerRequest& r) {
                           r.set_ttl_security_hops(1);
                           r.set_multihop_ttl(2);
                         })),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code(AddPeer("a", "127.0.0.3", 65002, "127.0.0.2", kPort + 24,
                         [](bpb::AddPeerRequest& r) { r.set_ttl_security_hops(255); })),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code(AddPeer("a", "127.0.0.3", 65002, "127.0.0.2", kPort + 24,
                         [](bpb::AddPeerRequest& r) { r.set_max_prefixes_warning(0); })),
            StatusCode::kInvalidArgument);
  EXPECT_TRUE(bgp.speaker().peers().empty());
  ASSERT_TRUE(AddPeer("a", "127.0.0.3", 65002, "127.0.0.2", kPort + 24, [](bpb::AddPeerRequest& r) {
                r.set_md5_password("key");
                r.set_ttl_security_hops(2);
                r.set_enforce_first_as(false);
                r.set_max_prefixes(100);
                r.set_max_prefixes_warning(90);
                r.set_max_prefixes_restart(30);
              }).ok());
  const BgpPeer* p = bgp.speaker().peer(A("127.0.0.3"));
  ASSERT_NE(p, nullptr);
  const PeerConfig& c = p->session().config();
  EXPECT_EQ(c.md5_password, "key");
  EXPECT_EQ(c.ttl_security_hops, 2);
  EXPECT_EQ(c.ttl(), 255);
  EXPECT_EQ(c.min_ttl(), 254);
  EXPECT_FALSE(c.enforce_first_as);
  EXPECT_EQ(c.max_prefixes, 100u);
  EXPECT_EQ(c.max_prefixes_warning_pct, 90);
  EXPECT_EQ(c.max_prefixes_restart, std::chrono::seconds(30));
}

// RFC 8212: b keeps the default for its eBGP peer a and has no policies: it accepts none of a's
// routes and sends a none of its own, until change_peer relaxes it.
TEST_F(BgpSpeakerTest, Rfc8212EbgpPeerWithoutPolicyGetsNothingUntilRelaxed) {
  Pair(kPort + 60, [](bpb::AddPeerRequest& r) { r.clear_ebgp_requires_policy(); });
  ASSERT_TRUE(Network("b", "10.2.0.0/16").ok());
  ASSERT_TRUE(Network("a", "10.1.0.0/16").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Peer("b", "127.0.0.2").prefixes_received() == 1; }));
  EXPECT_EQ(Peer("b", "127.0.0.2").prefixes_accepted(), 0u);
  EXPECT_EQ(Best("b"), (std::vector<std::string>{"10.2.0.0/16 []"}));
  EXPECT_EQ(Peer("b", "127.0.0.2").prefixes_advertised(), 0u);
  EXPECT_EQ(Best("a"), (std::vector<std::string>{"10.1.0.0/16 []"}));

  bpb::AddPeerRequest req;
  ipc::AddrToProto(A("127.0.0.2"), req.mutable_peer());
  req.set_peer_as(65001);
  ipc::AddrToProto(A("127.0.0.3"), req.mutable_local_address());
  req.set_peer_port(kPort + 60);
  req.set_connect_retry(1);
  req.set_ebgp_requires_policy(false);
  ASSERT_TRUE((Bgp<bpb::AddPeerRequest, bpb::AddPeerReply>("b", "change_peer", req)).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Best("a").size() == 2 && Best("b").size() == 2; }))
      << ::testing::PrintToString(Best("a")) << ::testing::PrintToString(Best("b"));
  EXPECT_EQ(PeerState("b", "127.0.0.2"), "Established");  // relaxed in place, no reset

  // Back on: a's routes leave b and b's leave a.
  req.clear_ebgp_requires_policy();
  ASSERT_TRUE((Bgp<bpb::AddPeerRequest, bpb::AddPeerReply>("b", "change_peer", req)).ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Best("a").size() == 1 && Best("b").size() == 1; }));

  // A policy in each direction lifts the default-deny for that direction.
  bpb::DefinePolicyRequest all;
  all.set_name("all");
  all.set_default_action(bpb::POLICY_ACTION_ACCEPT);
  ASSERT_TRUE(DefinePolicy(all, "b").ok());
  ASSERT_TRUE(SetPolicy("b", "127.0.0.2", "import", "all").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Best("b").size() == 2; }));
  EXPECT_EQ(Best("a").size(), 1u);
  ASSERT_TRUE(SetPolicy("b", "127.0.0.2", "export", "all").ok());
  ASSERT_TRUE(env_.RunUntil([&] { return Best("a").size() == 2; }));
}

}  // namespace
}  // namespace strata::bgp::speaker_test
