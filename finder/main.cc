// strata-finder: the IPC broker. Wires options to a FinderServer and runs it.
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdlib>

#include "common/private_dir.h"
#include "common/version.h"
#include "finder/finder_server.h"
#include "libipc/common_service.h"
#include "libipc/router.h"

int main(int argc, char** argv) {
  CLI::App app{"strata-finder: resolves XRLs, hands out method keys, and watches lifetimes"};
  app.set_version_flag("--version", strata::VersionString("strata-finder"));
  strata::finder::FinderOptions opts;
  opts.socket_path = strata::ipc::DefaultFinderPath();
  app.add_option("-s,--socket", opts.socket_path, "Unix socket to listen on")
      ->capture_default_str();
  app.add_option("--tcp", opts.tcp_address, "also listen on HOST:PORT (loopback advised)");
  app.add_option("--admin-secret", opts.admin_secret,
                 "secret that may set permissions (default: $STRATA_FINDER_ADMIN_SECRET)");
  app.add_flag("--strict", opts.strict,
               "a caller without a process secret gets rights only by its credentials: root and "
               "this user all, --config-group all, --show-group the reading methods");
  app.add_option("--config-group", opts.config_group,
                 "strict: members may call every method (default: none)");
  app.add_option("--show-group", opts.show_group,
                 "strict: members may call the reading methods (get_, list_, ...; default: none)");
  unsigned await_ms = 0;
  app.add_option("--await-permissions", await_ms,
                 "hold resolutions by secrets without rights until the admin calls "
                 "permissions_complete, at most this many ms (0: never hold)")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  opts.await_permissions = std::chrono::milliseconds(await_ms);
  if (opts.admin_secret.empty()) {
    if (const char* s = std::getenv("STRATA_FINDER_ADMIN_SECRET")) opts.admin_secret = s;
  }
  const auto dir = opts.socket_path.substr(0, opts.socket_path.rfind('/'));
  if (!dir.empty()) {
    if (auto s = strata::EnsurePrivateDir(dir, "Finder's directory"); !s.ok()) {
      std::fprintf(stderr, "strata-finder: %s\n", s.message().c_str());
      return 1;
    }
  }

  boost::asio::io_context io(1);
  strata::finder::FinderServer server(io, opts);
  auto exit = [&] {
    server.Stop();
    io.stop();
  };
  strata::ipc::CommonService common(io, "finder", nullptr, exit);
  server.Serve(common);
  if (auto s = server.Start(); !s.ok()) {
    std::fprintf(stderr, "strata-finder: %s\n", s.ToString().c_str());
    return 1;
  }
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code&, int) { exit(); });
  std::signal(SIGPIPE, SIG_IGN);
  io.run();
  return 0;
}
