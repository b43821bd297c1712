// strata-test-target: a component serving the `test` interface, for the demo, tests and the
// XRL benchmark. It registers with the Finder and, like every component, rides out a Finder
// restart (the Router reconnects and registers again).
#include <CLI/CLI.hpp>
#include <csignal>

#include "common/log.h"
#include "libipc/demo/test_service.h"
#include "libipc/router.h"

int main(int argc, char** argv) {
  CLI::App app{"strata-test-target: serves the test interface"};
  std::string name = "test";
  std::string cls = "test";
  std::string finder;
  std::vector<std::string> families = {"sunix", "stcp", "grpc-unix", "grpc-tcp"};
  std::vector<std::string> watch;
  app.add_option("-n,--name", name, "instance name")->capture_default_str();
  app.add_option("-c,--class", cls, "class name")->capture_default_str();
  app.add_option("--finder", finder, "Finder socket path");
  app.add_option("--listen", families, "transport families to serve on")->capture_default_str();
  app.add_option("--watch", watch, "log births and deaths of these classes");
  bool exit_registered = false;
  app.add_flag("--exit-after-registering", exit_registered,
               "print 'registered' and exit once the Finder took the name (exit 1 if refused)");
  CLI11_PARSE(app, argc, argv);

  auto log = strata::MakeLogger(name);
  boost::asio::io_context io(1);
  strata::ipc::RouterOptions opts;
  opts.finder_path = finder;
  opts.listen_families = families;
  strata::ipc::Router router(io, opts);
  strata::ipc::TestService service(io, &router);
  router.AddTarget(cls, name, false).Serve(service);
  int rc = 0;
  router.Start([&](const strata::Status& s) {
    if (!s.ok()) {
      log->error("registration failed: {}", s.ToString());
      rc = 1;
      io.stop();
      return;
    }
    log->info("registered as {} (class {})", name, cls);
    if (exit_registered) {
      std::printf("registered\n");
      router.Stop();
      io.stop();
      return;
    }
    for (const auto& w : watch) {
      router.WatchClass(w, [log](const std::string& c, const std::string& i, bool alive) {
        // One line per event, parsed by the integration tests.
        std::printf("EVENT %s %s %s\n", alive ? "birth" : "death", c.c_str(), i.c_str());
        std::fflush(stdout);
      });
    }
  });
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code&, int) {
    router.Stop();
    io.stop();
  });
  std::signal(SIGPIPE, SIG_IGN);
  io.run();
  return rc;
}
