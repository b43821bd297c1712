#include "rtrmgr/sh/interactive.h"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <iostream>

#ifdef STRATA_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace strata::rtrmgr::sh {

int RunCommand(boost::asio::io_context& io, ShSession& session, const std::string& line) {
  // While the command runs, Ctrl-C interrupts it; afterwards SIGINT has its default action
  // again (the signal set restores it when destroyed).
  auto sigs = std::make_shared<boost::asio::signal_set>(io, SIGINT);
  sigs->async_wait([&session](const boost::system::error_code& ec, int) {
    if (!ec) session.Interrupt();
  });
  const int rc = session.Execute(line);
  sigs->cancel();
  io.poll();  // the cancelled wait's handler
  io.restart();
  return rc;
}

int RunPlain(boost::asio::io_context& io, ShSession& session) {
  int rc = 0;
  std::string line;
  while (!session.wants_exit()) {
    if (::isatty(0)) std::cout << session.Prompt() << std::flush;
    if (!std::getline(std::cin, line)) break;
    rc = RunCommand(io, session, line);
  }
  return rc;
}

#ifndef STRATA_HAVE_READLINE
int RunInteractive(boost::asio::io_context& io, ShSession& session) {
  return RunPlain(io, session);
}
#else
namespace {

ShSession* g_session = nullptr;
std::deque<std::string> g_lines;
bool g_eof = false;
bool g_installed = false;  // readline is reading a line (the prompt is up)
std::vector<std::string> g_matches;

void OnLine(char* line) {
  if (line == nullptr) {
    g_eof = true;
  } else {
    if (*line != '\0') add_history(line);
    g_lines.emplace_back(line);
    std::free(line);
  }
  rl_callback_handler_remove();
  g_installed = false;
}

char* Generator(const char*, int state) {
  if (state == 0) g_matches = g_session->Complete(std::string(rl_line_buffer, rl_point));
  if (static_cast<size_t>(state) >= g_matches.size()) return nullptr;
  return strdup(g_matches[static_cast<size_t>(state)].c_str());
}

char** CompleteWord(const char* text, int, int) {
  rl_attempted_completion_over = 1;
  return rl_completion_matches(text, Generator);
}

// `?` shows help at once, without waiting for Enter; inside quotes it is just a character.
int HelpKey(int, int) {
  const std::string line(rl_line_buffer, rl_point);
  if (InsideQuotes(line)) {
    rl_insert_text("?");
    return 0;
  }
  std::printf("?\n");
  g_session->Execute(line + "?");
  std::fflush(stdout);
  rl_on_new_line();
  return 0;
}

}  // namespace

int RunInteractive(boost::asio::io_context& io, ShSession& session) {
  if (!::isatty(0)) return RunPlain(io, session);
  g_session = &session;
  rl_catch_signals = 0;  // SIGINT and SIGWINCH come through Asio
  rl_catch_sigwinch = 0;
  rl_attempted_completion_function = CompleteWord;
  rl_bind_key('?', HelpKey);

  boost::asio::posix::stream_descriptor in(io, ::dup(0));
  std::function<void()> wait_input = [&] {
    in.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                  [&](const boost::system::error_code& ec) {
                    if (ec) return;
                    rl_callback_read_char();
                    if (g_installed) wait_input();
                  });
  };
  boost::asio::signal_set sigs(io, SIGINT, SIGWINCH);
  std::function<void()> wait_signal = [&] {
    sigs.async_wait([&](const boost::system::error_code& ec, int sig) {
      if (ec) return;
      if (sig == SIGWINCH) {
        rl_resize_terminal();
      } else if (session.busy()) {
        session.Interrupt();
      } else if (g_installed) {
        // Ctrl-C at the prompt: drop the line, keep everything else.
        rl_callback_sigcleanup();
        rl_free_line_state();
        rl_replace_line("", 0);
        std::printf("^C\n");
        rl_on_new_line();
        rl_redisplay();
      }
      wait_signal();
    });
  };
  wait_signal();

  int rc = 0;
  while (!session.wants_exit() && !g_eof) {
    if (!g_installed) {
      rl_callback_handler_install(session.Prompt().c_str(), OnLine);
      g_installed = true;
      wait_input();
    }
    if (io.run_one() == 0) io.restart();
    while (!g_lines.empty() && !session.wants_exit()) {
      const std::string line = std::move(g_lines.front());
      g_lines.pop_front();
      rc = session.Execute(line);
    }
  }
  if (g_installed) rl_callback_handler_remove();
  if (g_eof) std::printf("\n");
  sigs.cancel();
  in.cancel();
  io.poll();
  return rc;
}
#endif

}  // namespace strata::rtrmgr::sh
