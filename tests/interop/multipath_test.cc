// Equal-cost multipath end to end: two BIRD upstreams announce one prefix with equal attributes
// and Strata installs one kernel route with two next hops; a withdrawal leaves one.
//
//   BIRD A (AS 65001) .1.1 --link 1-- .1.2 Strata (AS 65000) .2.2 --link 2-- .2.1 BIRD B (AS 65002)
//
// Strata is a whole router under strata-rtrmgr (VR "mp", kernel table 100) with
// `multipath { maximum-paths 4; multiple-as true; }`: the two paths come from different
// neighbouring ASes with AS paths of equal length (65001 7 and 65002 7), so only the relaxed
// rule makes them equal. Checks: the RIB's route carries both next hops, strata-bgp marks the
// second path "multipath", `ip route show table 100` holds one route with two next hops, a
// third peer's view (BIRD A) still gets one path; BIRD B's withdrawal leaves one next hop, its
// return brings two again, and multiple-as off leaves one. Binaries: $STRATA_BIN_DIR.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "testing/interop/bird_speaker.h"
#include "testing/interop/interop_fixture.h"
#include "testing/interop/strata_router.h"
#include "testing/interop/strata_speaker.h"

namespace strata::interop {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

constexpr const char* kPrefix = "10.200.9.0/24";

constexpr const char* kRouterConfig = R"(
interfaces {
    interface @TO_A@ { description "to BIRD A"; }
    interface @TO_B@ { description "to BIRD B"; }
}
policy {
    policy-statement accept-all {
        term all { then { action accept; } }
    }
}
virtual-router mp {
    table-id 100;
    interface @TO_A@;
    interface @TO_B@;
    bgp {
        local-as 65000;
        router-id 10.255.0.10;
        multipath {
            maximum-paths 4;
            multiple-as @RELAX@;
        }
        peer @A@ {
            as 65001;
            local-address @LOCAL_A@;
            hold-time 9;
            import accept-all;
            export accept-all;
        }
        peer @B@ {
            as 65002;
            local-address @LOCAL_B@;
            hold-time 9;
            import accept-all;
            export accept-all;
        }
    }
}
)";

class MultipathTest : public InteropTest {
 protected:
  void SetUp() override {
    InteropTest::SetUp();
    if (IsSkipped()) return;
    RequireBinary("/usr/sbin/bird");
    if (IsSkipped()) return;
    bins_ = StrataBinariesFromEnv();
    bin_dir_ = std::filesystem::path(bins_.finder).parent_path().string();
    for (const char* b : {"strata-rtrmgr", "strata-fea", "strata-rib", "strata-bgp"}) {
      RequireBinary(bin_dir_ + "/" + b);
    }
    if (IsSkipped()) return;
    a_ns_ = &AddNs("a");
    strata_ns_ = &AddNs("s");
    b_ns_ = &AddNs("b");
    a_link_ = &AddLink(*a_ns_, *strata_ns_, 1);  // BIRD A .1, Strata .2
    b_link_ = &AddLink(*b_ns_, *strata_ns_, 2);  // BIRD B .1, Strata .2
    const std::string strata_dir = dir() + "/strata";
    std::filesystem::create_directories(strata_dir);
    router_ = std::make_unique<StrataRouter>(*strata_ns_, strata_dir, bin_dir_);
  }
  void TearDown() override {
    if (router_) {
      router_->Stop();
      if (HasFailure()) std::cerr << router_->Logs("mp");
    }
    InteropTest::TearDown();
  }

  BirdSpeaker& AddBird(NetNs& ns, VethLink& link, const std::string& name, uint32_t as) {
    return AddSpeaker<BirdSpeaker>(
        ns, SpeakerConfig{
                .name = name,
                .local_as = as,
                .router_id = link.a_v4(),
                .neighbors = {Neighbor{
                    .address = link.b_v4(), .remote_as = 65000, .local_address = link.a_v4()}},
                .routes = {{.prefix = kPrefix, .as_path = {7}}}});
  }

  std::string RouterConfig(bool relax) const {
    std::string c = kRouterConfig;
    for (const auto& [key, value] :
         std::vector<std::pair<std::string, std::string>>{{"@TO_A@", a_link_->b_ifname()},
                                                          {"@TO_B@", b_link_->b_ifname()},
                                                          {"@A@", a_link_->a_v4()},
                                                          {"@B@", b_link_->a_v4()},
                                                          {"@LOCAL_A@", a_link_->b_v4()},
                                                          {"@LOCAL_B@", b_link_->b_v4()},
                                                          {"@RELAX@", relax ? "true" : "false"}}) {
      for (size_t at; (at = c.find(key)) != std::string::npos;) c.replace(at, key.size(), value);
    }
    return c;
  }
  json Call(const std::string& xrl) { return router_->Call(xrl); }
  bool BothEstablished() {
    const json j = Call("finder://bgp.mp/bgp/1.0/list_peers");
    if (!j.is_object()) return false;
    int up = 0;
    for (const auto& p : j.value("peers", json::array()))
      up += p.value("state", "") == "Established";
    return up == 2;
  }
  json RibRoute() {
    const json j = Call("finder://rib.mp/rib/1.0/list_routes");
    if (!j.is_object()) return nullptr;
    for (const auto& r : j.value("routes", json::array())) {
      if (r.value("prefix", "") == kPrefix) return r;
    }
    return nullptr;
  }
  // The number of other next hops of the RIB's route (-1: no route).
  int RibMultipath() {
    const json r = RibRoute();
    if (!r.is_object()) return -1;
    return static_cast<int>(r.value("multipath", json::array()).size());
  }
  std::string KernelRoute() {
    return strata_ns_
        ->Exec({"sh", "-c", std::string("ip route show table 100 proto 201 ") + kPrefix})
        .output;
  }
  static size_t Count(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
  }
  // Kernel table 100 holds the prefix through exactly these routers.
  bool KernelVia(const std::vector<std::string>& routers) {
    const std::string r = KernelRoute();
    if (r.find(kPrefix) == std::string::npos) return false;
    for (const std::string& via : routers) {
      if (r.find("via " + via + " ") == std::string::npos) return false;
    }
    return Count(r, "via ") == routers.size();
  }
  StrataBinaries bins_;
  std::string bin_dir_;
  std::unique_ptr<StrataRouter> router_;
  NetNs* a_ns_ = nullptr;
  NetNs* strata_ns_ = nullptr;
  NetNs* b_ns_ = nullptr;
  VethLink* a_link_ = nullptr;
  VethLink* b_link_ = nullptr;
};

TEST_F(MultipathTest, TwoUpstreamsMakeOneKernelRouteWithTwoNextHops) {
  auto& bird_a = AddBird(*a_ns_, *a_link_, "bird-a", 65001);
  auto& bird_b = AddBird(*b_ns_, *b_link_, "bird-b", 65002);
  ASSERT_OK(bird_a.Start());
  ASSERT_OK(bird_b.Start());
  ASSERT_OK(router_->Start(RouterConfig(true)));
  ASSERT_TRUE(PollUntil([&] { return BothEstablished(); }, 40s));
  const std::string via_a = a_link_->a_v4();
  const std::string via_b = b_link_->a_v4();

  // One kernel route, two next hops.
  ASSERT_TRUE(PollUntil([&] { return KernelVia({via_a, via_b}); }, 20s)) << KernelRoute();
  EXPECT_EQ(Count(KernelRoute(), "nexthop via"), 2u) << KernelRoute();
  // The RIB's route carries the second next hop; strata-bgp marks the second path.
  EXPECT_EQ(RibMultipath(), 1) << RibRoute().dump();
  const json ex =
      Call(std::string("finder://bgp.mp/bgp/1.0/explain_prefix?prefix:ipv4net=") + kPrefix);
  ASSERT_TRUE(ex.is_object());
  std::vector<std::string> fates;
  for (const auto& p : ex.value("paths", json::array())) fates.push_back(p.value("fate", ""));
  EXPECT_EQ(fates, (std::vector<std::string>{"ROUTE_FATE_BEST", "ROUTE_FATE_MULTIPATH"}))
      << ex.dump();
  // `show route` marks it.
  const auto sh = router_->Exec({"strata-sh", "-c", "show route vr mp"});
  EXPECT_NE(sh.output.find("multipath"), std::string::npos) << sh.output;

  // BIRD B withdraws: one next hop left; it announces again: two.
  ASSERT_OK(bird_b.Withdraw(kPrefix));
  EXPECT_TRUE(PollUntil([&] { return KernelVia({via_a}); }, 20s)) << KernelRoute();
  EXPECT_TRUE(PollUntil([&] { return RibMultipath() == 0; }, 5s)) << RibRoute().dump();
  ASSERT_OK(bird_b.Announce({.prefix = kPrefix, .as_path = {7}}));
  EXPECT_TRUE(PollUntil([&] { return KernelVia({via_a, via_b}); }, 20s)) << KernelRoute();

  // Without multiple-as the two neighbouring ASes do not share: one next hop.
  const json off = Call("finder://bgp.mp/bgp/1.0/set_multipath?ebgp_paths:u32=4");
  EXPECT_TRUE(off.is_object()) << "set_multipath failed";
  EXPECT_TRUE(PollUntil([&] { return KernelVia({via_a}) || KernelVia({via_b}); }, 20s))
      << KernelRoute();
}

}  // namespace
}  // namespace strata::interop
