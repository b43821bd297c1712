// strata-rtrmgr: the router manager. Reads the configuration, starts the Finder and the
// processes the configuration needs, applies it by XRLs, supervises the processes and serves
// strata-sh (rtrmgr/1.0). `--check FILE` only validates. See docs/operator-guide.md.
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/log.h"
#include "common/version.h"
#include "rtrmgr/boot_config.h"
#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/config_validator.h"
#include "rtrmgr/instance_lock.h"
#include "rtrmgr/router_manager.h"
#include "rtrmgr/run_dir_access.h"
#include "rtrmgr/sd_notify.h"

namespace {

std::string OwnDir() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : p.parent_path().string();
}

// Commits outlive the process and a reboot: not under the run directory (tmpfs as root).
std::string DefaultStateDir() {
  if (const char* d = std::getenv("STRATA_STATE_DIR"); d != nullptr && *d != '\0') return d;
  if (::geteuid() == 0) return "/var/lib/strata";
  if (const char* x = std::getenv("XDG_STATE_HOME"); x != nullptr && *x == '/') {
    return std::string(x) + "/strata";
  }
  if (const char* h = std::getenv("HOME"); h != nullptr && *h == '/') {
    return std::string(h) + "/.local/state/strata";
  }
  return strata::ipc::DefaultRunDir() + "/state";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"strata-rtrmgr: starts, configures and supervises the router's processes"};
  app.set_version_flag("--version", strata::VersionString("strata-rtrmgr"));
  std::string config_file;
  std::string check_file;
  std::string template_dir = strata::rtrmgr::TemplateTree::DefaultDirectory();
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
                 "where commits are kept (default $STRATA_STATE_DIR, else /var/lib/strata as "
                 "root, ~/.local/state/strata otherwise)");
  std::string boot = "auto";
  app.add_option("--boot", boot,
                 "what a start applies: auto (the last commit, else -c FILE), commit (the last "
                 "commit), file (-c FILE, as a new revision)")
      ->check(CLI::IsMember({"auto", "commit", "file"}))
      ->capture_default_str();
  app.add_option("--log-dir", log_dir, "each process logs to DIR/INSTANCE.log");
  std::string log_file;
  app.add_option("--log-file", log_file,
                 "every process appends to FILE (reopened after a rotation; SIGUSR1 or SIGHUP "
                 "reopens it at once)");
  bool log_syslog = false;
  app.add_flag("--syslog", log_syslog, "every process logs to syslog (journald reads it too)");
  app.add_option("--log-level", log_level,
                 "log levels of every process: LEVEL[,LOGGER=LEVEL...] with LEVEL trace, debug, "
                 "info, warning, error, critical or off (default $STRATA_LOG_LEVEL, else the "
                 "configuration's system log, else info); overrides system log");
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
  std::string operator_group = "strata";
  std::string config_group = "strata-config";
  bool permissive_finder = false;
  app.add_option("--operator-group", operator_group,
                 "members may reach the router's sockets (the run directory is opened to the "
                 "group) and call its reading methods: show commands (\"\": nobody but root)")
      ->capture_default_str();
  app.add_option("--config-group", config_group,
                 "members (of --operator-group too) may also call the changing methods: "
                 "configure and commit")
      ->capture_default_str();
  app.add_flag("--permissive-finder", permissive_finder,
               "give every key to anyone who reaches the Finder (no rights by credentials)");
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
    auto report = validator.ExamineFile(check_file);
    if (!report.ok()) {
      std::fprintf(stderr, "%s\n", report.status().message().c_str());
      return 1;
    }
    if (const std::string listing = report->Listing(); !listing.empty()) {
      std::fprintf(stderr, "%s\n", listing.c_str());
    }
    if (!report->ok()) return 1;
    const size_t n = report->warnings.size();
    const std::string note =
        n == 0 ? "" : " (" + std::to_string(n) + (n == 1 ? " warning)" : " warnings)");
    std::printf("%s: configuration OK%s\n", check_file.c_str(), note.c_str());
    return 0;
  }
  if (log_level.empty()) {
    if (const char* l = std::getenv("STRATA_LOG_LEVEL")) log_level = l;
  }
  std::optional<strata::LogLevels> levels;
  if (!log_level.empty()) {
    auto parsed = strata::LogLevels::Parse(log_level);
    if (!parsed.ok()) {
      std::fprintf(stderr, "strata-rtrmgr: --log-level: %s\n", parsed.status().message().c_str());
      return 2;
    }
    levels = *parsed;
  }
  if (!log_dir.empty() && !log_file.empty()) {
    std::fprintf(stderr, "strata-rtrmgr: give --log-dir or --log-file, not both\n");
    return 2;
  }
  if (!log_dir.empty()) std::filesystem::create_directories(log_dir);
  if (!log_file.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(log_file).parent_path(), ec);
  }
  strata::LogOptions log_options;
  log_options.instance = "rtrmgr";
  log_options.file = !log_dir.empty() ? log_dir + "/rtrmgr.log" : log_file;
  log_options.syslog = log_syslog;
  log_options.syslog_ident = "strata-rtrmgr";
  log_options.levels = levels.value_or(strata::LogLevels());
  if (strata::Status s = strata::InitLogging(log_options); !s.ok()) {
    std::fprintf(stderr, "strata-rtrmgr: %s\n", s.message().c_str());
    return 2;
  }
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
  opts.catalog.log_file = log_file;
  opts.catalog.log_syslog = log_syslog;
  opts.catalog.log_levels = levels ? levels->ToString() : "";
  opts.log_levels = levels;
  opts.catalog.fea_no_kernel = no_kernel;
  opts.catalog.fea_nexthop_objects = !no_nexthop_objects;
  opts.catalog.nice = nice;
  // malloc on transparent huge pages unless the operator set the tunables (even to "").
  if (std::getenv("GLIBC_TUNABLES") == nullptr)
    opts.catalog.glibc_tunables = "glibc.malloc.hugetlb=1";
  opts.catalog.admin_secret = strata::rtrmgr::ProcessCatalog::NewSecret();
  opts.catalog.finder_strict = !permissive_finder;
  opts.catalog.config_group = config_group;
  opts.catalog.show_group = operator_group;
  opts.state_dir = state_dir.empty() ? DefaultStateDir() : state_dir;
  opts.supervisor.restart.max_crashes = static_cast<int>(max_crashes);
  opts.supervisor.restart.window = std::chrono::seconds(window_s);
  opts.supervisor.restart.initial_backoff = std::chrono::milliseconds(backoff_ms);
  opts.graceful_stop = graceful_stop;
  opts.liveness.interval = std::chrono::milliseconds(liveness_interval_ms);
  opts.liveness.timeout = std::chrono::milliseconds(liveness_timeout_ms);
  if (!log_dir.empty()) std::filesystem::create_directories(log_dir);

  // One router per run directory and per state directory.
  auto run_lock =
      strata::rtrmgr::InstanceLock::Acquire(strata::ipc::DefaultRunDir(), "run directory");
  if (!run_lock.ok()) {
    std::fprintf(stderr, "strata-rtrmgr: %s\n", run_lock.status().message().c_str());
    return 1;
  }
  if (strata::Status s =
          strata::rtrmgr::OpenRunDirToGroup(strata::ipc::DefaultRunDir(), operator_group);
      !s.ok()) {
    // No such group is the usual case on a router only root operates.
    log->log(s.code() == strata::StatusCode::kNotFound ? spdlog::level::info : spdlog::level::warn,
             "{}", s.message());
  }
  auto state_lock = strata::rtrmgr::InstanceLock::Acquire(opts.state_dir, "state directory");
  if (!state_lock.ok()) {
    std::fprintf(stderr, "strata-rtrmgr: %s\n", state_lock.status().message().c_str());
    return 1;
  }
  if (struct stat st{}; ::stat(opts.state_dir.c_str(), &st) == 0 && (st.st_mode & 077) != 0) {
    log->warn("the state directory {} is open to others (mode {:o}); its commits hold MD5 keys",
              opts.state_dir, st.st_mode & 0777);
  }

  std::signal(SIGPIPE, SIG_IGN);
  boost::asio::io_context io(1);
  strata::rtrmgr::RouterManager manager(io, *templates, opts);
  if (strata::Status s = manager.LoadHistory(); !s.ok()) {
    log->warn("commits in {}: {}", opts.state_dir, s.ToString());
  }
  auto pending = strata::rtrmgr::PendingConfirm::Load(opts.state_dir);
  if (!pending.ok()) {
    log->warn("{}; no commit is taken as waiting for confirmation", pending.status().ToString());
    pending = std::optional<strata::rtrmgr::PendingConfirm>();
  }
  const auto from = boot == "file"     ? strata::rtrmgr::BootFrom::kFile
                    : boot == "commit" ? strata::rtrmgr::BootFrom::kCommit
                                       : strata::rtrmgr::BootFrom::kAuto;
  auto plan = strata::rtrmgr::BootConfig::Choose(config_file, from, manager.history(), *pending,
                                                 *templates);
  if (!plan.ok()) {
    std::fprintf(stderr, "%s\n", plan.status().message().c_str());
    return 1;
  }
  for (const auto& n : plan->notes) log->info("{}", n);
  for (const auto& w : plan->warnings) log->warn("{}", w);

  int rc = 0;
  boost::asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);
  signals.add(SIGUSR1);
  std::function<void(const boost::system::error_code&, int)> on_signal =
      [&](const boost::system::error_code& ec, int sig) {
        if (ec) return;
        if (sig == SIGINT || sig == SIGTERM) {
          log->info("signal {}: shutting down", sig);
          strata::rtrmgr::SdNotify("STOPPING=1");
          manager.Shutdown([&] { io.stop(); });
          return;
        }
        signals.async_wait(on_signal);
        // The processes notice a rotated file by themselves; ours is reopened at once.
        if (strata::ReopenLogFile()) log->info("log file reopened");
        if (sig == SIGUSR1) return;
        if (config_file.empty()) {
          log->info("SIGHUP: no configuration file to reload (started from the last commit)");
          return;
        }
        log->info("SIGHUP: reloading {}", config_file);
        strata::rtrmgr::SdNotify("RELOADING=1");
        manager.ReloadFile(config_file, [&](const strata::Status& s) {
          if (!s.ok()) {
            log->error("reload of {} refused; the running configuration (revision {}) stays:\n{}",
                       config_file, manager.revision(), s.message());
          }
          strata::rtrmgr::SdNotify("READY=1\nSTATUS=running revision " +
                                   std::to_string(manager.revision()));
        });
      };
  signals.async_wait(on_signal);
  manager.Start(std::move(*plan), *pending, [&](const strata::Status& s) {
    if (s.ok()) {
      log->info("router is up (revision {})", manager.revision());
      strata::rtrmgr::SdNotify("READY=1\nSTATUS=running revision " +
                               std::to_string(manager.revision()));
      return;
    }
    log->error("cannot start the router: {}", s.ToString());
    rc = 1;
    manager.Shutdown([&] { io.stop(); });
  });
  io.run();
  return rc;
}
