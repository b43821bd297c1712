// PrivateDir: the run and state directories Strata keeps its sockets, locks and commits in,
// made and checked before use.
//
// A directory under /tmp (the run directory of a user other than root) can be made by anyone
// first: another local user could then plant a fake finder.sock there, or read what is written.
// So a directory is used only if it is one (not a symlink), belongs to this process's user and
// is not writable by group or others; otherwise the check fails with a message saying what is
// wrong and what to do. A directory made here is 0700.
// Thread-compatible (plain file system calls).
#pragma once

#include <sys/types.h>

#include <string>

#include "common/status.h"

namespace strata {

// Creates `dir` (0700, and its missing parents) unless it exists, then checks it as above.
// `what` names it in the message ("run directory").
[[nodiscard]] Status EnsurePrivateDir(const std::string& dir, const std::string& what);

// For a client about to trust a socket in `dir`: the directory exists, is one, belongs to this
// user or to root, and is not writable by group or others.
[[nodiscard]] Status CheckTrustedDir(const std::string& dir, const std::string& what);

}  // namespace strata
