// strata-bfd: Bidirectional Forwarding Detection for every VR of one forwarder (class "bfd",
// sole instance). Wires the UDP sockets, the session table and the bfd/1.0 service together; see
// bfd/README.md for the data flow.
#include <CLI/CLI.hpp>
#include <csignal>

#include "bfd/process/bfd_service.h"
#include "bfd/process/bfd_sockets.h"
#include "common/asio_clock.h"
#include "common/log.h"
#include "common/version.h"
#include "libipc/common_service.h"
#include "libipc/profile/profile_service.h"
#include "libipc/router.h"

int main(int argc, char** argv) {
  CLI::App app{"strata-bfd: BFD sessions (RFC 5880, 5881, 5883) for the other processes"};
  app.set_version_flag("--version", strata::VersionString("strata-bfd"));
  std::string finder;
  std::vector<std::string> families = {"sunix"};
  strata::bfd::BfdSockets::Options sopts;
  app.add_option("--finder", finder, "Finder socket path");
  app.add_option("--listen", families, "transport families to serve on")->capture_default_str();
  app.add_option("--port", sopts.single_hop_port, "UDP port of single-hop sessions (0: any)")
      ->capture_default_str();
  app.add_option("--multihop-port", sopts.multihop_port, "UDP port of multihop sessions (0: any)")
      ->capture_default_str();
  app.add_option("--peer-port", sopts.peer_single_hop_port,
                 "UDP port peers listen on for single-hop sessions")
      ->capture_default_str();
  app.add_option("--peer-multihop-port", sopts.peer_multihop_port,
                 "UDP port peers listen on for multihop sessions")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  auto log = strata::MakeLogger("bfd");
  boost::asio::io_context io(1);
  strata::ipc::RouterOptions opts;
  opts.finder_path = finder;
  opts.listen_families = families;
  opts.wait_for_finder = true;
  strata::ipc::Router router(io, opts);
  strata::AsioClock clock(io);

  std::unique_ptr<strata::bfd::BfdService> service;
  strata::bfd::BfdSockets sockets(io, sopts, [&](const strata::bfd::ReceivedPacket& p) {
    if (service) service->OnPacket(p);
  });
  service = std::make_unique<strata::bfd::BfdService>(router, clock, sockets);
  if (strata::Status s = sockets.Open(); !s.ok()) {
    log->error("cannot listen: {}", s.ToString());
    return 1;
  }
  auto exit = [&] {
    router.Stop();
    io.stop();
  };
  strata::ipc::CommonService common(
      io, "bfd", [](bool, std::function<void()> done) { done(); }, exit);
  strata::ipc::Target& target = router.AddTarget("bfd", "bfd", true);
  target.Serve(*service);
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
    log->info("registered as bfd");
  });
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code&, int) { exit(); });
  std::signal(SIGPIPE, SIG_IGN);
  io.run();
  return rc;
}
