// Relay driver: strata-bgp-relay (bench/bgp/bgp_relay_main.cc), the floor under the routers: it
// copies the feeders' UPDATEs to the counter without processing them and withdraws a feeder's
// prefixes in slices when its session ends. Its binary comes from RouterSetup::strata_bin.
#include <unistd.h>

#include "bench/bgp/bgp_netns.h"
#include "bench/bgp/bgp_process.h"
#include "bench/bgp/bgp_router.h"

namespace strata::bench {
namespace {

class RelayDriver : public RouterDriver {
 public:
  std::string name() const override { return "relay"; }
  std::string Missing(const RouterSetup& s) const override {
    const std::string bin = s.strata_bin + "/strata-bgp-relay";
    return ::access(bin.c_str(), X_OK) == 0 ? "" : bin;
  }
  Status Start(const RouterSetup& s) override {
    if (!relay_.Start(s.ns,
                      {s.strata_bin + "/strata-bgp-relay", "--listen", kRouterAddr, "--as",
                       std::to_string(kRouterAs), "--target", kCounterAddr},
                      s.dir + "/relay.out")) {
      return Status(StatusCode::kInternal, "cannot start strata-bgp-relay");
    }
    return Status::Ok();
  }
  void Stop() override { relay_.Stop(); }
  std::vector<pid_t> pids() const override { return {relay_.pid()}; }
  bool installs_kernel() const override { return false; }

 private:
  ChildProcess relay_;
};

}  // namespace

std::unique_ptr<RouterDriver> MakeRelayDriver() { return std::make_unique<RelayDriver>(); }

}  // namespace strata::bench
