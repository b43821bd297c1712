// FRR driver: bgpd alone (-Z, no kernel) or zebra and bgpd (kernel), in the foreground, bgpd as
// root (-S), zebra as the frr user, with their own config, pid files, vty sockets and zserv
// socket in the run folder.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "bench/bgp/bgp_netns.h"
#include "bench/bgp/bgp_process.h"
#include "bench/bgp/bgp_router.h"

namespace strata::bench {
namespace {

constexpr const char* kBgpd = "/usr/lib/frr/bgpd";
constexpr const char* kZebra = "/usr/lib/frr/zebra";

class FrrDriver : public RouterDriver {
 public:
  std::string name() const override { return "FRR"; }
  std::string Missing(const RouterSetup& s) const override {
    if (::access(kBgpd, X_OK) != 0) return kBgpd;
    if (s.kernel && ::access(kZebra, X_OK) != 0) return kZebra;
    return "";
  }
  Status Start(const RouterSetup& s) override {
    kernel_ = s.kernel;
    const std::string zserv = s.dir + "/zserv.api";
    if (s.kernel) {
      if (!WriteFile(s.dir + "/zebra.conf", "hostname bb-zebra\n")) {
        return Status(StatusCode::kInternal, "config");
      }
      // zebra drops to the frr user (root is not in the frrvty group): give it the folder.
      if (!Sh("chown -R frr:frr " + s.dir)) return Status(StatusCode::kInternal, "chown frr");
      if (!zebra_.Start(s.ns,
                        {kZebra, "-f", s.dir + "/zebra.conf", "-i", s.dir + "/zebra.pid",
                         "--vty_socket", s.dir, "-P", "0", "-z", zserv},
                        s.dir + "/zebra.out")) {
        return Status(StatusCode::kInternal, "cannot start zebra");
      }
      for (int i = 0; i < 250 && !std::filesystem::exists(zserv); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    }
    std::string conf = "hostname bb-bgpd\nlog file " + s.dir + "/bgpd.log warnings\n!\n";
    conf += "router bgp " + std::to_string(kRouterAs) + "\n bgp router-id " + kRouterAddr +
            "\n no bgp ebgp-requires-policy\n no bgp network import-check\n";
    const std::pair<const char*, uint32_t> peers[] = {
        {kFeederAAddr, kFeederAAs}, {kCounterAddr, kCounterAs}, {kFeederBAddr, kFeederBAs}};
    for (const auto& [addr, as] : peers) {
      conf += " neighbor " + std::string(addr) + " remote-as " + std::to_string(as) + "\n";
      conf += " neighbor " + std::string(addr) + " passive\n";
      conf += " neighbor " + std::string(addr) + " timers 80 240\n";
    }
    conf += " address-family ipv4 unicast\n";
    for (const auto& [addr, as] : peers) {
      conf += "  neighbor " + std::string(addr) + " activate\n";
      if (std::string(addr) != kCounterAddr) {
        conf += "  neighbor " + std::string(addr) + " route-map BB-DENY out\n";
      }
    }
    conf += " exit-address-family\n!\nroute-map BB-DENY deny 10\n!\n";
    if (!WriteFile(s.dir + "/bgpd.conf", conf)) return Status(StatusCode::kInternal, "config");
    std::vector<std::string> argv{
        kBgpd, "-S", "-f", s.dir + "/bgpd.conf", "-i", s.dir + "/bgpd.pid", "--vty_socket",
        s.dir, "-P", "0"};
    if (s.kernel) {
      argv.insert(argv.end(), {"-z", zserv});
    } else {
      argv.push_back("-Z");
    }
    if (!bgpd_.Start(s.ns, argv, s.dir + "/bgpd.out")) {
      return Status(StatusCode::kInternal, "cannot start bgpd");
    }
    return Status::Ok();
  }
  void Stop() override {
    bgpd_.Stop();
    zebra_.Stop();
  }
  std::vector<pid_t> pids() const override {
    if (kernel_) return {bgpd_.pid(), zebra_.pid()};
    return {bgpd_.pid()};
  }
  bool installs_kernel() const override { return kernel_; }

 private:
  ChildProcess zebra_, bgpd_;
  bool kernel_ = false;
};

}  // namespace

std::unique_ptr<RouterDriver> MakeFrrDriver() { return std::make_unique<FrrDriver>(); }

}  // namespace strata::bench
