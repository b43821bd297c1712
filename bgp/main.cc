// strata-bgp: the BGP-4 speaker of one virtual router (Finder instance "bgp.<vr>", class "bgp").
// Wires a Router and a BgpProcess together on one io_context; exits when the Finder goes.
#include <malloc.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>

#include "bgp/process/bgp_process.h"
#include "common/log.h"
#include "common/version.h"
#include "common/vrf_name.h"
#include "libipc/common_service.h"
#include "libipc/router.h"

int main(int argc, char** argv) {
  // Keep freed memory instead of trimming the heap top back to the kernel as it frees: when a
  // peer with a full table goes, its routes are freed over seconds, and trimming (unmapping
  // pages) as they go makes event-loop handlers of 4-11 ms where they otherwise take 2-4.5 ms.
  // The memory serves the next table, as BIRD keeps its slabs (docs/bgp-memory.md).
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  CLI::App app{"strata-bgp: BGP-4 speaker for one virtual router"};
  app.set_version_flag("--version", strata::VersionString("strata-bgp"));
  strata::bgp::BgpProcess::Options opts;
  std::string finder;
  std::vector<std::string> families = {"sunix", "grpc-unix"};
  app.add_option("--vr", opts.vr, "virtual router name")->capture_default_str();
  app.add_option("--finder", finder, "Finder socket path");
  app.add_option("--rib-batch", opts.rib_batch, "routes per RIB call")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app.add_option("--rib-in-flight", opts.rib_in_flight, "RIB calls outstanding at most")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  app.add_option("--input-high-water", opts.input_high_water,
                 "changes waiting for the peers or the RIB at which the sessions stop reading")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000000));
  app.add_option("--input-low-water", opts.input_low_water,
                 "changes still waiting at which the sessions read again")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000000));
  uint32_t redist_stale_s = 120;
  uint32_t redist_settle_s = 5;
  app.add_option("--redist-stale-time", redist_stale_s,
                 "seconds redistributed routes of a dead RIB stay advertised, stale, at most")
      ->capture_default_str()
      ->check(CLI::Range(0, 3600));
  app.add_option("--redist-settle", redist_settle_s,
                 "seconds after a restarted RIB's dump before routes it lacks are withdrawn")
      ->capture_default_str()
      ->check(CLI::Range(0, 600));
  uint32_t vr_table = 0;
  std::string vrf_device;
  app.add_option("--vr-table", vr_table,
                 "the VR's kernel table: other than 0 and 254, the VR has a VRF device and every "
                 "socket binds to it")
      ->capture_default_str();
  app.add_option("--vrf-device", vrf_device, "name of the VR's VRF device (unset: the VR's name)");
  app.add_option("--listen", families, "transport families to serve on")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (opts.input_low_water > opts.input_high_water) {
    std::fprintf(stderr, "--input-low-water must not exceed --input-high-water\n");
    return 2;
  }
  opts.vrf_device = strata::VrfDeviceName(opts.vr, vr_table, vrf_device);
  opts.redist.stale_time = std::chrono::seconds(redist_stale_s);
  opts.redist.settle = std::chrono::seconds(redist_settle_s);
  if (opts.vr.empty()) {
    std::fprintf(stderr, "--vr must not be empty\n");
    return 2;
  }

  auto log = strata::MakeLogger("bgp." + opts.vr);
  boost::asio::io_context io(1);
  strata::ipc::RouterOptions ropts;
  ropts.finder_path = finder;
  ropts.listen_families = families;
  ropts.wait_for_finder = true;  // started before the Finder: wait for it
  strata::ipc::Router router(io, ropts);
  strata::bgp::BgpProcess process(router, opts);
  auto exit = [&] {
    router.Stop();
    io.stop();
  };
  strata::ipc::CommonService common(
      io, "bgp." + opts.vr,
      [&](bool graceful, std::function<void()> done) { process.PrepareStop(graceful, done); },
      exit);
  process.AddTarget(&common);
  int rc = 0;
  router.Start([&](const strata::Status& s) {
    if (!s.ok()) {
      log->error("registration failed: {}", s.ToString());
      rc = 1;
      io.stop();
      return;
    }
    log->info("registered as {}", process.instance());
    process.Started();
  });
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  // SIGTERM alone ends the sessions without a NOTIFICATION: peers with graceful restart keep
  // our routes while we are restarted (a clean stop comes as common/1.0/shutdown first).
  signals.async_wait([&](const boost::system::error_code&, int) { exit(); });
  std::signal(SIGPIPE, SIG_IGN);
  io.run();
  return rc;
}
