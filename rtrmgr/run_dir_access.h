// OpenRunDirToGroup: lets the operators' group reach the router's sockets, and no one else.
//
// The run directory is made 0700 (common/private_dir.h). When the operators' group exists it
// becomes root:GROUP 02710: members may enter (not list or write), and sockets made in it
// get the group (setgid directory) and mode 0660 (libipc/socket_files.h SocketFileMode). What
// a member may call once connected is the strict Finder's business (finder/operator_rights.h).
// Without the group (or with an empty name) the directory stays 0700: root only.
#pragma once

#include <string>

#include "common/status.h"

namespace strata::rtrmgr {

// REQUIRES: `dir` exists and is this user's (EnsurePrivateDir passed).
[[nodiscard]] Status OpenRunDirToGroup(const std::string& dir, const std::string& group);

}  // namespace strata::rtrmgr
