// Strata driver: the whole router as an operator runs it: strata-rtrmgr with a config file it
// writes (VR bb on the router's veth interface, three passive eBGP peers, export to the counter
// only), which starts and configures strata-finder, strata-fea, strata-rib and strata-bgp. The
// FEA runs with --no-kernel unless the run asks for kernel installation; then VR bb is the
// router namespace's main table (254), as for the other routers. The FEA reports the veth's
// connected route to the RIB, so the tester's next hops resolve. The binaries come from
// RouterSetup::strata_bin; RSS and CPU are summed over the rtrmgr and its children.
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "bench/bgp/bgp_netns.h"
#include "bench/bgp/bgp_process.h"
#include "bench/bgp/bgp_router.h"

namespace strata::bench {
namespace {

// The router under test; @IF@, @ROUTER@ and the peers' @..@ are filled in by Config().
constexpr const char* kConfig =
    R"(# strata-bgp-bench: the router under test (bench/bgp/bgp_router_strata.cc)
interfaces {
    interface @IF@ {
        address @ROUTER@/16;
    }
}
policy {
    policy-statement bb-all {
        term all {
            then {
                action accept;
            }
        }
    }
    policy-statement bb-deny {
        term all {
            then {
                action reject;
            }
        }
    }
}
virtual-router bb {
    table-id 254;
    interface @IF@;
    bgp {
        local-as @ROUTER_AS@;
        router-id @ROUTER@;
        listen-address @ROUTER@;
        peer @A@ {
            as @A_AS@;
            local-address @ROUTER@;
            hold-time 240;
            passive true;
            import bb-all;
            export bb-deny;
        }
        peer @COUNTER@ {
            as @COUNTER_AS@;
            local-address @ROUTER@;
            hold-time 240;
            passive true;
            import bb-all;
            export bb-all;
        }
        peer @B@ {
            as @B_AS@;
            local-address @ROUTER@;
            hold-time 240;
            passive true;
            import bb-all;
            export bb-deny;
        }
    }
}
)";

std::string Config(const std::string& ifname) {
  std::string c = kConfig;
  const std::pair<std::string, std::string> values[] = {
      {"@IF@", ifname},
      {"@ROUTER_AS@", std::to_string(kRouterAs)},
      {"@ROUTER@", kRouterAddr},
      {"@A_AS@", std::to_string(kFeederAAs)},
      {"@A@", kFeederAAddr},
      {"@COUNTER_AS@", std::to_string(kCounterAs)},
      {"@COUNTER@", kCounterAddr},
      {"@B_AS@", std::to_string(kFeederBAs)},
      {"@B@", kFeederBAddr},
  };
  for (const auto& [key, value] : values) {
    for (size_t at = c.find(key); at != std::string::npos; at = c.find(key, at + value.size())) {
      c.replace(at, key.size(), value);
    }
  }
  return c;
}

class StrataDriver : public RouterDriver {
 public:
  std::string name() const override { return "Strata"; }
  std::string Missing(const RouterSetup& s) const override {
    for (const char* b : {"strata-rtrmgr", "strata-finder", "strata-fea", "strata-rib",
                          "strata-bgp", "strata-profile"}) {
      if (::access((s.strata_bin + "/" + b).c_str(), X_OK) != 0) return s.strata_bin + "/" + b;
    }
    return "";
  }
  Status Start(const RouterSetup& s) override {
    setup_ = s;
    kernel_ = s.kernel;
    ::unsetenv("STRATA_FINDER");
    // The namespace is bb-r<id> and the router's end of the veth bb-<id>r (bench/bgp/bgp_netns.cc).
    const std::string ifname = "bb-" + s.ns.substr(4) + "r";
    const std::string conf = s.dir + "/strata-bench.conf";
    if (!WriteFile(conf, Config(ifname))) return Status(StatusCode::kInternal, "config");
    std::vector<std::string> argv{s.strata_bin + "/strata-rtrmgr",
                                  "-c",
                                  conf,
                                  "--bin-dir",
                                  s.strata_bin,
                                  "--state-dir",
                                  s.dir + "/state",
                                  "--log-dir",
                                  s.dir + "/logs"};
    if (!s.kernel) argv.push_back("--no-kernel");
    if (!rtrmgr_.Start(s.ns, argv, s.dir + "/rtrmgr.out", {"STRATA_RUN_DIR=" + s.dir})) {
      return Status(StatusCode::kInternal, "cannot start strata-rtrmgr");
    }
    return Status::Ok();  // the tester's sessions retry until BGP listens
  }
  void Stop() override { rtrmgr_.Stop(); }  // SIGTERM: the rtrmgr stops its processes
  std::vector<pid_t> pids() const override {
    std::vector<pid_t> out{rtrmgr_.pid()};
    for (pid_t p : ChildrenOf(rtrmgr_.pid())) out.push_back(p);
    return out;
  }
  bool installs_kernel() const override { return kernel_; }
  // strata-profile ARGS bgp.bb rib.bb fea.
  StatusOr<std::string> Profile(const std::vector<std::string>& args) override {
    std::vector<std::string> argv{setup_.strata_bin + "/strata-profile"};
    argv.insert(argv.end(), args.begin(), args.end());
    for (const char* t : {"bgp.bb", "rib.bb", "fea"}) argv.push_back(t);
    const std::string out = setup_.dir + "/profile.out";
    std::filesystem::remove(out);  // the child appends
    const int rc = RunTool(setup_, argv, out, {"STRATA_RUN_DIR=" + setup_.dir});
    std::ifstream f(out);
    std::stringstream text;
    text << f.rdbuf();
    if (rc != 0) {
      return Status(StatusCode::kInternal,
                    "strata-profile failed (exit " + std::to_string(rc) + "): " + text.str());
    }
    return text.str();
  }

 private:
  // Runs argv in the router namespace, output to `out`; its exit code (-1: did not run).
  static int RunTool(const RouterSetup& s, const std::vector<std::string>& argv,
                     const std::string& out, const std::vector<std::string>& env) {
    ChildProcess call;
    if (!call.Start(s.ns, argv, out, env)) return -1;
    int status = 0;
    ::waitpid(call.pid(), &status, 0);
    UnregisterChild(call.pid());
    call.Forget();  // reaped here: Stop() must not signal a recycled pid
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  // The processes whose parent is `parent` (from /proc/PID/stat).
  static std::vector<pid_t> ChildrenOf(pid_t parent) {
    std::vector<pid_t> out;
    if (parent <= 0) return out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
      const std::string name = e.path().filename().string();
      if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
      std::ifstream f(e.path() / "stat");
      std::string stat;
      std::getline(f, stat);
      const auto close = stat.rfind(')');  // the command may hold spaces and parentheses
      if (close == std::string::npos) continue;
      std::istringstream rest(stat.substr(close + 1));
      char state = 0;
      long ppid = 0;
      if (rest >> state >> ppid && ppid == parent)
        out.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return out;
  }

  RouterSetup setup_;
  ChildProcess rtrmgr_;
  bool kernel_ = false;
};

}  // namespace

std::unique_ptr<RouterDriver> MakeStrataDriver() { return std::make_unique<StrataDriver>(); }

}  // namespace strata::bench
