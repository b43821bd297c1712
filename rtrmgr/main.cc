// strata-rtrmgr: the router manager. Reads the configuration, starts the Finder and the
// processes the configuration needs, applies it by XRLs, supervises the processes and serves
// strata-sh (rtrmgr/1.0). `--check FILE` only validates. See docs/operator-guide.md.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/log.h"
#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/config_validator.h"
#include "rtrmgr/router_manager.h"

namespace {

std::string OwnDir() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : p.parent_path().string();
}

std::string DefaultTemplateDir() {
  if (const char* d = std::getenv("STRATA_TEMPLATE_DIR"); d != nullptr && *d != '\0') return d;
  return STRATA_TEMPLATE_DIR_DEFAULT;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"strata-rtrmgr: starts, configures and supervises the router's processes"};
  std::string config_file;
  std::string check_file;
  std::string template_dir = DefaultTemplateDir();
  std::string bin_dir;
  std::string run_dir;
  std::string state_dir;
  std::string log_dir;
  std::string log_level;
  bool no_kernel = false;
  uint32_t max_crashes = 5;
  uint32_t window_s = 60;
  uint32_t backoff_ms = 500;
  bool graceful_stop = false;
  uint32_t liveness_interval_ms = 5000;
  uint32_t liveness_timeout_ms = 30000;
  std::vector<std::string> nice_args = {"rib=10", "fea=10"};
  app.add_option("-c,--config", config_file, "configuration file to run");
  app.add_option("--check", check_file, "validate FILE, print its errors and exit");
  app.add_option("--templates", template_dir, "template directory")->capture_default_str();
  app.add_option("--bin-dir", bin_dir,
                 "where the strata-* binaries are (default $STRATA_BIN_DIR, else beside this one)");
  app.add_option("--run-dir", run_dir, "sockets directory (default $STRATA_RUN_DIR)");
  app.add_option("--state-dir", state_dir,
                 "where committed configurations are kept (default RUN_DIR/state)");
  app.add_option("--log-dir", log_dir, "write each process's output to DIR/INSTANCE.log");
  app.add_option("--log-level", log_level, "log level of every process (trace..off)");
  app.add_flag("--no-kernel", no_kernel, "run the FEA without programming kernel routes");
  bool no_nexthop_objects = false;
  app.add_flag("--no-nexthop-objects", no_nexthop_objects,
               "the FEA spells each kernel route's gateway out instead of sharing nexthop objects");
  app.add_option("--max-crashes", max_crashes, "crashes within the window that give up")
      ->capture_default_str();
  app.add_option("--crash-window", window_s, "seconds")->capture_default_str();
  app.add_option("--restart-backoff-ms", backoff_ms, "first restart delay, doubled per crash")
      ->capture_default_str();
  app.add_flag(
      "--graceful-stop", graceful_stop,
      "on SIGTERM/SIGINT leave Strata's kernel routes (and BGP peers helping) for the next "
      "start to adopt; without it a stop removes them");
  app.add_option("--liveness-interval-ms", liveness_interval_ms,
                 "ping each process (common/1.0/get_status) this often")
      ->capture_default_str()
      ->check(CLI::Range(100u, 3600000u));
  app.add_option("--liveness-timeout-ms", liveness_timeout_ms,
                 "a process that leaves a ping unanswered this long is hung: killed and restarted "
                 "(0: no pings)")
      ->capture_default_str();
  app.add_option("--nice", nice_args,
                 "PROCESS=N: start that process at nice increment N over the rtrmgr (higher yields "
                 "the CPU to the others; repeat; given "
                 "at all, it replaces the default; rib=0 fea=0 runs all alike)")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  std::map<std::string, int> nice;
  for (const std::string& a : nice_args) {
    const auto eq = a.find('=');
    int n = 0;
    const char* first = eq == std::string::npos ? nullptr : a.data() + eq + 1;
    const auto [end, ec] = first ? std::from_chars(first, a.data() + a.size(), n)
                                 : std::from_chars_result{nullptr, std::errc::invalid_argument};
    if (eq == 0 || ec != std::errc() || end != a.data() + a.size() || n < -20 || n > 19) {
      std::fprintf(stderr, "strata-rtrmgr: --nice %s: want PROCESS=N with N in -20..19\n",
                   a.c_str());
      return 2;
    }
    nice[a.substr(0, eq)] = n;
  }

  auto templates = strata::rtrmgr::TemplateTree::LoadDirectory(template_dir);
  if (!templates.ok()) {
    std::fprintf(stderr, "strata-rtrmgr: templates: %s\n", templates.status().message().c_str());
    return 2;
  }
  strata::rtrmgr::ConfigValidator validator(*templates);
  if (!check_file.empty()) {
    strata::Status s = validator.ValidateFile(check_file);
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.message().c_str());
      return 1;
    }
    std::printf("%s: configuration OK\n", check_file.c_str());
    return 0;
  }
  if (config_file.empty()) {
    std::fprintf(stderr, "strata-rtrmgr: give -c FILE (or --check FILE)\n");
    return 2;
  }
  auto boot = strata::rtrmgr::ConfigParser::ParseFile(config_file);
  if (!boot.ok()) {
    std::fprintf(stderr, "%s\n", boot.status().message().c_str());
    return 1;
  }
  if (strata::Status s = validator.Check(*boot); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }

  if (!log_level.empty()) ::setenv("STRATA_LOG_LEVEL", log_level.c_str(), 1);
  if (!run_dir.empty()) ::setenv("STRATA_RUN_DIR", run_dir.c_str(), 1);
  ::unsetenv("STRATA_FINDER");  // the processes find the Finder we start
  ::unsetenv("STRATA_SECRET");
  if (bin_dir.empty()) {
    const char* b = std::getenv("STRATA_BIN_DIR");
    bin_dir = b != nullptr && *b != '\0' ? b : OwnDir();
  }
  auto log = strata::MakeLogger("rtrmgr");
  strata::rtrmgr::RouterManager::Options opts;
  opts.catalog.bin_dir = bin_dir;
  opts.catalog.log_dir = log_dir;
  opts.catalog.fea_no_kernel = no_kernel;
  opts.catalog.fea_nexthop_objects = !no_nexthop_objects;
  opts.catalog.nice = nice;
  // malloc on transparent huge pages unless the operator set the tunables (even to "").
  if (std::getenv("GLIBC_TUNABLES") == nullptr)
    opts.catalog.glibc_tunables = "glibc.malloc.hugetlb=1";
  opts.catalog.admin_secret = strata::rtrmgr::ProcessCatalog::NewSecret();
  opts.state_dir = state_dir.empty() ? strata::ipc::DefaultRunDir() + "/state" : state_dir;
  opts.supervisor.restart.max_crashes = static_cast<int>(max_crashes);
  opts.supervisor.restart.window = std::chrono::seconds(window_s);
  opts.supervisor.restart.initial_backoff = std::chrono::milliseconds(backoff_ms);
  opts.graceful_stop = graceful_stop;
  opts.liveness.interval = std::chrono::milliseconds(liveness_interval_ms);
  opts.liveness.timeout = std::chrono::milliseconds(liveness_timeout_ms);
  if (!log_dir.empty()) std::filesystem::create_directories(log_dir);

  std::signal(SIGPIPE, SIG_IGN);
  boost::asio::io_context io(1);
  strata::rtrmgr::RouterManager manager(io, *templates, opts);
  int rc = 0;
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int sig) {
    if (ec) return;
    log->info("signal {}: shutting down", sig);
    manager.Shutdown([&] { io.stop(); });
  });
  manager.Start(std::move(*boot), [&](const strata::Status& s) {
    if (s.ok()) {
      log->info("router is up (revision {})", manager.engine().revision());
      return;
    }
    log->error("cannot start the router: {}", s.ToString());
    rc = 1;
    manager.Shutdown([&] { io.stop(); });
  });
  io.run();
  return rc;
}
