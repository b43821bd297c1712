// GoBGP driver: one gobgpd with a TOML config and its gRPC API on 127.0.0.1:50151 of the
// router namespace. GoBGP installs nothing into the kernel by itself (only through zebra).
#include <unistd.h>

#include "bench/bgp/bgp_netns.h"
#include "bench/bgp/bgp_process.h"
#include "bench/bgp/bgp_router.h"

namespace strata::bench {
namespace {

constexpr const char* kGobgpd = "/usr/bin/gobgpd";

std::string Neighbor(const char* addr, uint32_t as, bool export_all) {
  return std::string("[[neighbors]]\n  [neighbors.config]\n    neighbor-address = \"") + addr +
         "\"\n    peer-as = " + std::to_string(as) +
         "\n  [neighbors.timers.config]\n    hold-time = 240\n    keepalive-interval = 80\n" +
         "  [neighbors.transport.config]\n    passive-mode = true\n    local-address = \"" +
         kRouterAddr + "\"\n  [neighbors.apply-policy.config]\n    default-import-policy = " +
         "\"accept-route\"\n    default-export-policy = \"" +
         (export_all ? "accept-route" : "reject-route") + "\"\n";
}

class GobgpDriver : public RouterDriver {
 public:
  std::string name() const override { return "GoBGP"; }
  std::string Missing(const RouterSetup&) const override {
    return ::access(kGobgpd, X_OK) == 0 ? "" : kGobgpd;
  }
  Status Start(const RouterSetup& s) override {
    const std::string conf =
        "[global.config]\n  as = " + std::to_string(kRouterAs) + "\n  router-id = \"" +
        kRouterAddr + "\"\n  port = 179\n" + "  local-address-list = [\"" + kRouterAddr + "\"]\n" +
        Neighbor(kFeederAAddr, kFeederAAs, false) + Neighbor(kCounterAddr, kCounterAs, true) +
        Neighbor(kFeederBAddr, kFeederBAs, false);
    if (!WriteFile(s.dir + "/gobgpd.toml", conf)) return Status(StatusCode::kInternal, "config");
    if (!gobgpd_.Start(s.ns,
                       {kGobgpd, "-f", s.dir + "/gobgpd.toml", "-t", "toml", "-l", "warn", "-p",
                        "--api-hosts", "127.0.0.1:50151", "--pprof-disable"},
                       s.dir + "/gobgpd.out")) {
      return Status(StatusCode::kInternal, "cannot start gobgpd");
    }
    return Status::Ok();
  }
  void Stop() override { gobgpd_.Stop(); }
  std::vector<pid_t> pids() const override { return {gobgpd_.pid()}; }
  bool installs_kernel() const override { return false; }

 private:
  ChildProcess gobgpd_;
};

}  // namespace

std::unique_ptr<RouterDriver> MakeGobgpDriver() { return std::make_unique<GobgpDriver>(); }

}  // namespace strata::bench
