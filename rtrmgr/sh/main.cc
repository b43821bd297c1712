// strata-sh: the operator's shell. Interactive (interactive.h: line editing, Tab, `?`, Ctrl-C)
// or `-c "cmd; cmd"` for scripts. Operational commands call the components through the
// Finder; configuration goes through the rtrmgr (sh_session.h). Exit status: 0, else the first
// failing command's error code.
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdlib>
#include <iostream>

#include "common/version.h"
#include "rtrmgr/config/template_tree.h"
#include "rtrmgr/sh/interactive.h"
#include "rtrmgr/sh/sh_session.h"

int main(int argc, char** argv) {
  CLI::App app{"strata-sh: show and configure the router"};
  app.set_version_flag("--version", strata::VersionString("strata-sh"));
  std::vector<std::string> commands;
  std::string finder;
  std::string template_dir = strata::rtrmgr::TemplateTree::DefaultDirectory();
  bool keep_going = false;
  app.add_option("-c,--command", commands, "run these commands (';' separates) and exit");
  app.add_option("--finder", finder, "Finder socket (default $STRATA_FINDER or the run dir)");
  app.add_option("--templates", template_dir, "template directory")->capture_default_str();
  app.add_flag("-k,--keep-going", keep_going, "with -c, go on after a failed command");
  CLI11_PARSE(app, argc, argv);

  // The IPC layer's warnings (a lost Finder, reconnect attempts) are for daemons' logs: the
  // shell reports a failed command itself. STRATA_LOG_LEVEL still overrides.
  ::setenv("STRATA_LOG_LEVEL", "error", 0);
  auto templates = strata::rtrmgr::TemplateTree::LoadDirectory(template_dir);
  if (!templates.ok()) {
    std::cerr << "strata-sh: templates: " << templates.status().message() << "\n";
    return 2;
  }
  std::signal(SIGPIPE, SIG_IGN);
  boost::asio::io_context io(1);
  strata::ipc::RouterOptions ro;
  ro.finder_path = finder;
  ro.listen_families = {};
  strata::ipc::Router router(io, ro);
  bool started = false;
  strata::Status start_status;
  router.Start([&](const strata::Status& s) {
    start_status = s;
    started = true;
  });
  while (!started) {
    if (io.run_one() == 0) io.restart();
  }
  if (!start_status.ok()) {
    std::cerr << "strata-sh: cannot reach the Finder (is strata-rtrmgr running? STRATA_RUN_DIR?): "
              << start_status.message() << "\n";
    return static_cast<int>(start_status.code());
  }
  strata::rtrmgr::sh::ShSession session(io, router, *templates, std::cout, std::cerr);
  if (commands.empty()) return strata::rtrmgr::sh::RunInteractive(io, session);
  int rc = 0;
  for (const auto& c : commands) {
    for (const auto& cmd : strata::rtrmgr::sh::SplitScript(c)) {
      const int r = strata::rtrmgr::sh::RunCommand(io, session, cmd);
      if (r != 0 && rc == 0) rc = r;
      if (session.interrupted() || session.wants_exit()) return rc;
      if (r != 0 && !keep_going) return rc;
    }
  }
  return rc;
}
