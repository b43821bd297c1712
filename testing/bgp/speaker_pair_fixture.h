// SpeakerPairTest: strata-bgp in one process for the process tests (the speaker tests through
// BgpSpeakerTest, graceful_restart_process_test.cc, redistribute_process_test.cc): BgpProcesses
// with their RIBs (RibProcess) on one BgpTestEnv, peering over real TCP on loopback, driven
// through bgp/1.0 and rib/1.0 calls. The usual pair: bgp.a AS 65001 on 127.0.0.2 and bgp.b
// AS 65002 on 127.0.0.3 (Addr, As); each test picks its own port.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bgp/process/bgp_process.h"
#include "libipc/interfaces/bgp.strata.h"
#include "libipc/interfaces/rib.strata.h"
#include "testing/bgp/bgp_test_env.h"

namespace strata::bgp::speaker_test {

using namespace std::chrono_literals;
namespace bpb = strata::bgp::v1;
namespace rpb = strata::rib::v1;

inline IpPrefix P(std::string_view s) { return *IpPrefix::Parse(s); }
inline IpAddr A(std::string_view s) { return *IpAddr::Parse(s); }

class SpeakerPairTest : public ::testing::Test {
 protected:
  using OptionsAdjust = std::function<void(BgpProcess::Options&)>;
  using LocalAdjust = std::function<void(bpb::SetLocalConfigRequest&)>;
  using Adjust = std::function<void(bpb::AddPeerRequest&)>;

  void SetUp() override;
  void TearDown() override;

  // The pair's addresses and AS numbers: "a" 127.0.0.2 AS 65001, "b" 127.0.0.3 AS 65002.
  static std::string Addr(const std::string& vr);
  static uint32_t As(const std::string& vr);
  static std::string Other(const std::string& vr) { return vr == "a" ? "b" : "a"; }

  // bgp.<vr> on its own router; `adjust` changes its options first.
  BgpProcess& StartBgp(const std::string& vr, const OptionsAdjust& adjust = nullptr);
  // The process dies: no NOTIFICATION unless its connections are still up, its target goes.
  void KillBgp(const std::string& vr);

  // A typed call to `target` (e.g. "rib.a"), waited for.
  template <typename Req, typename Rep>
  Status Call(const std::string& target, const std::string& path, const Req& req,
              Rep* out = nullptr) {
    auto [s, rep] = env_.Call<Req, Rep>(*client_, target, path, req);
    if (out) *out = rep;
    return s;
  }
  // A bgp/1.0 call to bgp.<vr>.
  template <typename Req, typename Rep = bpb::PeerReply>
  Status Bgp(const std::string& vr, const std::string& method, const Req& req, Rep* out = nullptr) {
    return Call<Req, Rep>("bgp." + vr, "bgp/1.0/" + method, req, out);
  }

  Status SetLocal(const std::string& vr, uint32_t as, std::string_view addr, uint16_t port,
                  const LocalAdjust& adjust = nullptr);
  Status AddPeer(const std::string& vr, std::string_view peer, uint32_t as, std::string_view local,
                 uint16_t port, const Adjust& adjust = nullptr);
  // set_local_config and add_peer of one side of the a/b pair.
  void ConfigureSide(const std::string& vr, uint16_t port, const LocalAdjust& local = nullptr,
                     const Adjust& peer = nullptr);

  // The peer's status; empty when bgp.<vr> does not answer or does not have it.
  bpb::PeerStatus Peer(const std::string& vr, std::string_view peer);
  // Its FSM state, "?" when unknown.
  std::string PeerState(const std::string& vr, std::string_view peer);
  // a and b have each other Established.
  bool PairEstablished();
  Status Network(const std::string& vr, std::string_view prefix, bool add = true);

  // rib.<vr>'s routes of `protocol`.
  rpb::ListRoutesReply RibRoutes(const std::string& vr, const std::string& protocol);
  // An IGP origin table "static" in rib.<vr>.
  void AddStaticTable(const std::string& vr);
  // A route of the "static" table in rib.<vr> added, or deleted when !add.
  Status RibStatic(const std::string& vr, std::string_view prefix, std::string_view nexthop,
                   bool add = true);
  // An IGP route to the loopback peers (127.0.0.0/8 via 127.0.0.1), so their next hops resolve.
  void AddLoopbackIgp(const std::string& vr);
  // rib.a and rib.b with their loopback IGP route, then bgp.a and bgp.b (`adjust` for both).
  void StartPair(const OptionsAdjust& adjust = nullptr);

  BgpTestEnv env_;
  ipc::Router* client_ = nullptr;
  std::map<std::string, std::unique_ptr<BgpProcess>> procs_;
};

}  // namespace strata::bgp::speaker_test
