// strata-sh: the operator's shell. Interactive (line editing with GNU readline when built with
// it: Tab completes from the templates, `?` lists what may follow) or `-c "cmd; cmd"` for
// scripts. Operational `show` commands call the components through the Finder; configuration
// goes through the rtrmgr. Exit status: 0, else the first failing command's error code.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdlib>
#include <iostream>

#include "common/version.h"
#include "rtrmgr/config/template_tree.h"
#include "rtrmgr/sh/sh_session.h"

#ifdef STRATA_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace {

strata::rtrmgr::sh::ShSession* g_session = nullptr;

#ifdef STRATA_HAVE_READLINE
std::vector<std::string> g_matches;

char* Generator(const char*, int state) {
  if (state == 0) {
    g_matches = g_session->Complete(std::string(rl_line_buffer, rl_point));
  }
  if (static_cast<size_t>(state) >= g_matches.size()) return nullptr;
  return strdup(g_matches[static_cast<size_t>(state)].c_str());
}

char** Completion(const char* text, int, int) {
  rl_attempted_completion_over = 1;
  return rl_completion_matches(text, Generator);
}

// `?` shows help at once, without waiting for Enter.
int HelpKey(int, int) {
  std::string line(rl_line_buffer, rl_point);
  std::printf("?\n");
  g_session->Execute(line + "?");
  rl_on_new_line();
  return 0;
}

// Plain reader: scripts piped in, or a build without readline.
bool PlainReadLine(const std::string& prompt, std::string& line) {
  if (::isatty(0)) std::cout << prompt << std::flush;
  return static_cast<bool>(std::getline(std::cin, line));
}

bool ReadLine(const std::string& prompt, std::string& line) {
  if (!::isatty(0)) return PlainReadLine(prompt, line);
  char* l = readline(prompt.c_str());
  if (l == nullptr) return false;
  line = l;
  if (!line.empty()) add_history(l);
  std::free(l);
  return true;
}
#else
bool ReadLine(const std::string& prompt, std::string& line) {
  if (::isatty(0)) std::cout << prompt << std::flush;
  return static_cast<bool>(std::getline(std::cin, line));
}
#endif

}  // namespace

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
  g_session = &session;

  int rc = 0;
  if (!commands.empty()) {
    for (const auto& c : commands) {
      for (const auto& cmd : strata::rtrmgr::sh::SplitScript(c)) {
        const int r = session.Execute(cmd);
        if (r != 0 && rc == 0) rc = r;
        if (r != 0 && !keep_going) return rc;
        if (session.wants_exit()) return rc;
      }
    }
    return rc;
  }
#ifdef STRATA_HAVE_READLINE
  rl_attempted_completion_function = Completion;
  rl_bind_key('?', HelpKey);
#endif
  std::string line;
  while (!session.wants_exit() && ReadLine(session.Prompt(), line)) {
    rc = session.Execute(line);
  }
  return rc;
}
