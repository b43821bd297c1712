// BIRD 2 driver: one bird process, foreground, with its own config, control socket and pid file.
#include <unistd.h>

#include "bench/bgp/bgp_netns.h"
#include "bench/bgp/bgp_process.h"
#include "bench/bgp/bgp_router.h"

namespace strata::bench {
namespace {

constexpr const char* kBird = "/usr/sbin/bird";

std::string Peer(const std::string& name, const char* addr, uint32_t as, bool export_all) {
  return "protocol bgp " + name + " {\n  local " + kRouterAddr + " as " +
         std::to_string(kRouterAs) + ";\n  neighbor " + addr + " as " + std::to_string(as) +
         ";\n  passive on;\n  hold time 240;\n  ipv4 { import all; export " +
         (export_all ? "all" : "none") + "; };\n}\n";
}

class BirdDriver : public RouterDriver {
 public:
  std::string name() const override { return "BIRD"; }
  std::string Missing(const RouterSetup&) const override {
    return ::access(kBird, X_OK) == 0 ? "" : kBird;
  }
  Status Start(const RouterSetup& s) override {
    kernel_ = s.kernel;
    std::string conf = "log \"" + s.dir + "/bird.log\" { warning, error, fatal };\n" +
                       "router id " + kRouterAddr + ";\nprotocol device { }\n";
    if (s.kernel) {
      conf += "protocol kernel { ipv4 { import none; export all; }; learn off; }\n";
    }
    conf += Peer("feeder_a", kFeederAAddr, kFeederAAs, false) +
            Peer("counter", kCounterAddr, kCounterAs, true) +
            Peer("feeder_b", kFeederBAddr, kFeederBAs, false);
    if (!WriteFile(s.dir + "/bird.conf", conf)) return Status(StatusCode::kInternal, "config");
    if (!bird_.Start(s.ns,
                     {kBird, "-f", "-c", s.dir + "/bird.conf", "-s", s.dir + "/bird.ctl", "-P",
                      s.dir + "/bird.pid"},
                     s.dir + "/bird.out")) {
      return Status(StatusCode::kInternal, "cannot start bird");
    }
    return Status::Ok();
  }
  void Stop() override { bird_.Stop(); }
  std::vector<pid_t> pids() const override { return {bird_.pid()}; }
  bool installs_kernel() const override { return kernel_; }

 private:
  ChildProcess bird_;
  bool kernel_ = false;
};

}  // namespace

std::unique_ptr<RouterDriver> MakeBirdDriver() { return std::make_unique<BirdDriver>(); }

}  // namespace strata::bench
