// Strata driver: strata-finder, strata-fea, strata-rib --vr bb and strata-bgp --vr bb sharing a
// run directory, configured through strata-call with the XRLs of fea/1.0 and bgp/1.0. The
// binaries come from RouterSetup::strata_bin. The FEA runs with --no-kernel unless the run asks
// for kernel installation; then VR bb is the router namespace's main table (254), as for the
// other routers. The RIB adds VR bb to the FEA itself (--table-id); the driver binds the router's
// veth interface to it, so the FEA reports the link's connected route and accepts next hops on it.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "bench/bgp_netns.h"
#include "bench/bgp_process.h"
#include "bench/bgp_router.h"

namespace strata::bench {
namespace {

using namespace std::chrono_literals;
constexpr const char* kTarget = "finder://bgp.bb/bgp/1.0/";

std::string AddPeer(const char* addr, uint32_t as) {
  return std::string(kTarget) + "add_peer?peer:ipv4=" + addr +
         "&peer_as:u32=" + std::to_string(as) + "&local_address:ipv4=" + kRouterAddr +
         "&hold_time:u32=240&passive:bool=true&ipv6_unicast:bool=false\n";
}

class StrataDriver : public RouterDriver {
 public:
  std::string name() const override { return "Strata"; }
  std::string Missing(const RouterSetup& s) const override {
    for (const char* b :
         {"strata-finder", "strata-fea", "strata-rib", "strata-bgp", "strata-call"}) {
      if (::access((s.strata_bin + "/" + b).c_str(), X_OK) != 0) return s.strata_bin + "/" + b;
    }
    return "";
  }
  Status Start(const RouterSetup& s) override {
    const std::vector<std::string> env{"STRATA_RUN_DIR=" + s.dir};
    ::unsetenv("STRATA_FINDER");
    if (!finder_.Start(s.ns, {s.strata_bin + "/strata-finder"}, s.dir + "/finder.out", env)) {
      return Status(StatusCode::kInternal, "cannot start strata-finder");
    }
    for (int i = 0; i < 250 && !std::filesystem::exists(s.dir + "/finder.sock"); ++i) {
      std::this_thread::sleep_for(20ms);
    }
    kernel_ = s.kernel;
    std::vector<std::string> fea_argv{s.strata_bin + "/strata-fea"};
    if (!s.kernel) fea_argv.push_back("--no-kernel");
    if (!fea_.Start(s.ns, fea_argv, s.dir + "/fea.out", env)) {
      return Status(StatusCode::kInternal, "cannot start strata-fea");
    }
    if (!rib_.Start(s.ns, {s.strata_bin + "/strata-rib", "--vr", "bb", "--table-id", "254"},
                    s.dir + "/rib.out", env) ||
        !bgp_.Start(s.ns, {s.strata_bin + "/strata-bgp", "--vr", "bb"}, s.dir + "/bgp.out", env)) {
      return Status(StatusCode::kInternal, "cannot start strata-rib or strata-bgp");
    }
    // The link's subnet is reachable (what the FEA's connected route would say), so that the
    // tester's next hops resolve.
    const std::string rib_script =
        "finder://rib.bb/rib/1.0/add_origin_table?protocol:txt=static&"
        "kind:txt=PROTOCOL_KIND_IGP\n"
        "finder://rib.bb/rib/1.0/add_routes?protocol:txt=static&"
        "routes.0.prefix:ipv4net=10.99.0.0/16&routes.0.nexthop:ipv4=" +
        std::string(kRouterAddr) + "\n";
    const std::string bgp_script =
        std::string(kTarget) + "set_local_config?local_as:u32=" + std::to_string(kRouterAs) +
        "&router_id:ipv4=" + kRouterAddr + "&listen_address:ipv4=" + kRouterAddr + "\n" +
        std::string(kTarget) +
        "define_policy?name:txt=bb-deny&default_action:txt=POLICY_ACTION_REJECT\n" +
        AddPeer(kFeederAAddr, kFeederAAs) + AddPeer(kCounterAddr, kCounterAs) +
        AddPeer(kFeederBAddr, kFeederBAs) + std::string(kTarget) +
        "set_peer_policy?peer:ipv4=" + kFeederAAddr + "&direction:txt=export&policy:txt=bb-deny\n" +
        std::string(kTarget) + "set_peer_policy?peer:ipv4=" + kFeederBAddr +
        "&direction:txt=export&policy:txt=bb-deny\n";
    // The namespace is bb-r<id> and the router's end of the veth bb-<id>r (bench/bgp_netns.cc).
    const std::string ifname = "bb-" + s.ns.substr(4) + "r";
    const std::string fea_script =
        "finder://fea/fea/1.0/add_vr?vr:txt=bb&table_id:u32=254\n"
        "finder://fea/fea/1.0/bind_interface?interface:txt=" +
        ifname + "&vr:txt=bb\n";
    if (Status st = RunScript(s, "fea.xrl", fea_script, env); !st.ok()) return st;
    if (Status st = RunScript(s, "rib.xrl", rib_script, env); !st.ok()) return st;
    return RunScript(s, "bgp.xrl", bgp_script, env);
  }
  void Stop() override {
    bgp_.Stop();
    rib_.Stop();
    fea_.Stop();
    finder_.Stop();
  }
  std::vector<pid_t> pids() const override {
    return {finder_.pid(), fea_.pid(), rib_.pid(), bgp_.pid()};
  }
  bool installs_kernel() const override { return kernel_; }

 private:
  // Runs strata-call -f on `script`, retrying while the target has not registered yet.
  static Status RunScript(const RouterSetup& s, const std::string& file, const std::string& script,
                          const std::vector<std::string>& env) {
    const std::string path = s.dir + "/" + file;
    if (!WriteFile(path, script)) return Status(StatusCode::kInternal, "config");
    for (int attempt = 0; attempt < 100; ++attempt) {
      ChildProcess call;
      if (!call.Start(s.ns, {s.strata_bin + "/strata-call", "-f", path}, s.dir + "/call.out",
                      env)) {
        break;
      }
      int status = 0;
      ::waitpid(call.pid(), &status, 0);
      UnregisterChild(call.pid());
      call.Forget();  // reaped here: Stop() must not signal a recycled pid
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return Status::Ok();
      if (WIFEXITED(status) && WEXITSTATUS(status) != 5 && WEXITSTATUS(status) != 14) {
        return Status(StatusCode::kInternal, "strata-call -f " + path + " failed (exit " +
                                                 std::to_string(WEXITSTATUS(status)) + ")");
      }
      std::this_thread::sleep_for(100ms);
    }
    return Status(StatusCode::kInternal, "no answer to " + path);
  }

  ChildProcess finder_, fea_, rib_, bgp_;
  bool kernel_ = false;
};

}  // namespace

std::unique_ptr<RouterDriver> MakeStrataDriver() { return std::make_unique<StrataDriver>(); }

}  // namespace strata::bench
