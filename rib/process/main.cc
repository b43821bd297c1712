// strata-rib: the RIB of one virtual router (Finder instance "rib.<vr>", class "rib").
// Wires a Router and a RibProcess together on one io_context; exits when the Finder goes.
#include <CLI/CLI.hpp>
#include <csignal>

#include "common/log.h"
#include "common/version.h"
#include "libipc/common_service.h"
#include "libipc/router.h"
#include "rib/process/rib_process.h"

int main(int argc, char** argv) {
  CLI::App app{"strata-rib: routing information base for one virtual router"};
  app.set_version_flag("--version", strata::VersionString("strata-rib"));
  strata::rib::RibProcess::Options opts;
  std::string finder;
  std::vector<std::string> families = {"sunix", "grpc-unix"};
  std::vector<std::string> distances;
  uint32_t restart_seconds = 120;
  uint32_t max_deferral_seconds = 3600;
  uint32_t recovery_seconds = 120;
  app.add_option("--vr", opts.vr, "virtual router name")->capture_default_str();
  app.add_option("--finder", finder, "Finder socket path");
  app.add_option("--table-id", opts.table_id, "kernel routing table of this VR (0: none)")
      ->capture_default_str();
  app.add_option("--fea", opts.fea_target, "FEA target")->capture_default_str();
  app.add_option("--admin-distance", distances,
                 "default admin distance of a protocol, PROTOCOL=DISTANCE (0-255)");
  app.add_option(
         "--restart-timeout", restart_seconds,
         "seconds a graceful-restart protocol has to re-announce its routes, unless it gave "
         "its own restart time")
      ->capture_default_str();
  app.add_option("--max-restart-deferral", max_deferral_seconds,
                 "at most this many seconds of stale routes kept for a graceful-restart protocol "
                 "that came back and defers its route selection")
      ->capture_default_str()
      ->check(CLI::Range(1u, 86400u));
  app.add_flag("--await-config", opts.await_config,
               "the table is complete only once the rtrmgr says config_complete (it starts the "
               "RIB so)");
  app.add_option("--recovery-time", recovery_seconds,
                 "after a start while the FEA holds the VR's routes: seconds the table waits at "
                 "most for its configuration and owners before it is sent (a restarting owner's "
                 "selection deferral extends it)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 86400u));
  app.add_option("--fea-in-flight", opts.fea_max_in_flight, "FEA calls outstanding at most")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  app.add_option("--fea-batch", opts.rib.fea.max_batch, "route changes per FEA call")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app.add_option("--listen", families, "transport families to serve on")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (opts.vr.empty()) {
    std::fprintf(stderr, "--vr must not be empty\n");
    return 2;
  }
  opts.restart_timeout = std::chrono::seconds(restart_seconds);
  opts.max_restart_deferral = std::chrono::seconds(max_deferral_seconds);
  opts.recovery_time = std::chrono::seconds(recovery_seconds);
  for (const std::string& d : distances) {
    const auto eq = d.find('=');
    unsigned long value = 0;
    try {
      value = eq == std::string::npos ? 256 : std::stoul(d.substr(eq + 1));
    } catch (const std::exception&) {
      value = 256;
    }
    if (eq == 0 || value > strata::rib::kMaxAdminDistance) {
      std::fprintf(stderr, "--admin-distance wants PROTOCOL=DISTANCE (0-255), not '%s'\n",
                   d.c_str());
      return 2;
    }
    opts.default_distances[d.substr(0, eq)] = static_cast<uint32_t>(value);
  }

  auto log = strata::MakeLogger("rib." + opts.vr);
  boost::asio::io_context io(1);
  strata::ipc::RouterOptions ropts;
  ropts.finder_path = finder;
  ropts.listen_families = families;
  ropts.wait_for_finder = true;  // started before the Finder: wait for it
  strata::ipc::Router router(io, ropts);
  strata::rib::RibProcess process(router, opts);
  auto exit = [&] {
    router.Stop();
    io.stop();
  };
  strata::ipc::CommonService common(io, "rib." + opts.vr, nullptr, exit);
  process.AddTarget(common);
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
  signals.async_wait([&](const boost::system::error_code&, int) { exit(); });
  std::signal(SIGPIPE, SIG_IGN);
  io.run();
  return rc;
}
