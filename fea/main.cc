// strata-fea: the forwarding engine abstraction (class "fea", sole instance). Wires the
// netlink link monitor, the interface table, the VR table with the shared FIB, kernel route
// programming and the fea/1.0 service together; see fea/README.md for the data flow.
#include <CLI/CLI.hpp>
#include <csignal>

#include "common/log.h"
#include "common/version.h"
#include "fea/fea_service.h"
#include "fea/interface_table.h"
#include "fea/kernel_routes.h"
#include "fea/netlink/link_monitor.h"
#include "fea/netlink/netlink_link_kernel.h"
#include "fea/netlink/netlink_route_kernel.h"
#include "fea/vr_table.h"
#include "fea/vrf_devices.h"
#include "libipc/common_service.h"
#include "libipc/profile/profile_service.h"
#include "libipc/router.h"

int main(int argc, char** argv) {
  CLI::App app{"strata-fea: interfaces, the shared multi-VR FIB and kernel routes"};
  app.set_version_flag("--version", strata::VersionString("strata-fea"));
  std::string finder;
  bool no_kernel = false;
  bool no_nexthop_objects = false;
  unsigned proto_num = 201;
  uint32_t kernel_metric = 20;
  uint32_t grace_ms = 60000;
  uint32_t await_config_ms = 0;
  std::vector<std::string> families = {"sunix"};
  app.add_option("--finder", finder, "Finder socket path");
  app.add_flag("--no-kernel", no_kernel,
               "program no kernel routes (unprivileged runs, tests); interfaces are still read");
  app.add_flag("--no-nexthop-objects", no_nexthop_objects,
               "spell each kernel route's gateway out instead of sharing nexthop objects");
  app.add_option("--proto-num", proto_num, "rtm_protocol of Strata's kernel routes")
      ->check(CLI::Range(5, 254))
      ->capture_default_str();
  app.add_option("--kernel-metric", kernel_metric, "kernel priority of Strata's routes")
      ->capture_default_str();
  app.add_option("--grace-ms", grace_ms,
                 "how long routes left by a previous run wait for the RIB before removal")
      ->capture_default_str();
  app.add_option("--await-config-ms", await_config_ms,
                 "RIBs wait for the rtrmgr's config_complete before sending routes, at most this "
                 "many ms (0: no wait; strata-rtrmgr sets it)")
      ->capture_default_str();
  app.add_option("--listen", families, "transport families to serve on")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  auto log = strata::MakeLogger("fea");
  boost::asio::io_context io(1);
  strata::ipc::RouterOptions opts;
  opts.finder_path = finder;
  opts.listen_families = families;
  opts.wait_for_finder = true;  // started before the Finder: wait for it
  strata::ipc::Router router(io, opts);

  strata::fea::InterfaceTable interfaces;
  strata::fea::VrTable vrs(interfaces);
  std::unique_ptr<strata::fea::netlink::NetlinkRouteKernel> route_kernel;
  std::unique_ptr<strata::fea::netlink::NetlinkLinkKernel> link_kernel;
  std::unique_ptr<strata::fea::netlink::LinkMonitor> monitor;
  if (!no_kernel) {
    auto lk = strata::fea::netlink::NetlinkLinkKernel::Open(static_cast<uint8_t>(proto_num));
    if (!lk.ok()) {
      log->error("cannot open netlink: {}", lk.status().ToString());
      return 1;
    }
    link_kernel = std::move(*lk);
    auto k = strata::fea::netlink::NetlinkRouteKernel::Open(
        {.nexthop_objects = !no_nexthop_objects, .protocol = static_cast<uint8_t>(proto_num)});
    if (!k.ok()) {
      log->error("cannot open netlink: {}", k.status().ToString());
      return 1;
    }
    route_kernel = std::move(*k);
  }
  strata::fea::KernelRoutesOptions kopts;
  kopts.protocol = static_cast<uint8_t>(proto_num);
  kopts.metric = kernel_metric;
  strata::fea::KernelRoutes kernel(route_kernel.get(), vrs, kopts);
  strata::fea::VrRecovery::Options ropts;
  ropts.grace = std::chrono::milliseconds(grace_ms);
  ropts.await_config = std::chrono::milliseconds(await_config_ms);
  strata::fea::FeaService service(io, router, interfaces, vrs, kernel, ropts);
  // VRs with a kernel table get a Linux VRF device (none with --no-kernel).
  strata::fea::VrfDevices vrf(link_kernel.get(), interfaces);
  service.set_vrf_devices(&vrf);
  auto exit = [&] {
    router.Stop();
    io.stop();
  };
  // A clean stop (common/1.0/shutdown, not graceful) takes Strata's routes, nexthop objects and
  // VRF devices out of the kernel; SIGTERM alone leaves them, so that forwarding goes on while
  // the FEA is restarted and the next one adopts them.
  strata::ipc::CommonService common(
      io, "fea",
      [&](bool graceful, std::function<void()> done) {
        if (!graceful) {
          kernel.RemoveAll();
          vrf.RemoveAll();
        }
        done();
      },
      exit);
  // After the service, so that the first snapshot reaches its change callback. Reading links
  // needs no privilege, so --no-kernel keeps it.
  monitor = std::make_unique<strata::fea::netlink::LinkMonitor>(io, interfaces);
  if (strata::Status s = monitor->Start(); !s.ok()) {
    log->error("cannot follow interfaces: {}", s.ToString());
    return 1;
  }
  log->info("{} interfaces; kernel routes {}", interfaces.List("").size(),
            no_kernel ? std::string("off (--no-kernel)")
                      : fmt::format("carry protocol {} and metric {}", proto_num, kernel_metric));
  if (route_kernel != nullptr) {
    if (route_kernel->nexthop_objects()) {
      log->info("kernel routes through nexthop objects ({} adopted from a previous run)",
                route_kernel->nexthop_object_count());
    } else {
      log->info("kernel routes spell their gateways out ({})",
                no_nexthop_objects ? "--no-nexthop-objects" : "the kernel has no nexthop objects");
    }
  }

  strata::ipc::Target& target = router.AddTarget("fea", "fea", true);
  target.Serve(service);
  target.Serve(common);
  target.Serve(strata::ipc::ProfileService::ForProcess());
  int rc = 0;
  router.Start([&](const strata::Status& s) {
    if (!s.ok()) {
      log->error("registration failed: {}", s.ToString());
      rc = 1;
      io.stop();
      return;
    }
    log->info("registered as fea");
  });
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code&, int) {
    // Kernel routes stay installed: forwarding continues while the FEA restarts.
    exit();
  });
  std::signal(SIGPIPE, SIG_IGN);
  io.run();
  return rc;
}
