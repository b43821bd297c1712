// How strata-sh reads its commands.
//
// RunInteractive: at a terminal, with GNU readline's callback interface driven from the
// Router's io_context (Asio watches stdin), so Ctrl-C is a signal handled on the loop: at the
// prompt it clears the line and the session (its mode, level and candidate) stays; while a
// command runs it interrupts that command. Tab completes; `?` prints help at once, or is a plain
// character inside quotes. Ctrl-D leaves.
// RunPlain: lines from a pipe or file (or a build without readline).
// RunCommand: one command with Ctrl-C interrupting it (and only it): for `-c` and RunPlain.
// Return: the last command's status. Threading: the io_context's thread.
#pragma once

#include <string>

#include "common/asio.h"
#include "rtrmgr/sh/sh_session.h"

namespace strata::rtrmgr::sh {

int RunInteractive(boost::asio::io_context& io, ShSession& session);
int RunPlain(boost::asio::io_context& io, ShSession& session);
int RunCommand(boost::asio::io_context& io, ShSession& session, const std::string& line);

}  // namespace strata::rtrmgr::sh
