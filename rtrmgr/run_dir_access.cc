#include "rtrmgr/run_dir_access.h"

#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace strata::rtrmgr {

Status OpenRunDirToGroup(const std::string& dir, const std::string& group) {
  gid_t gid = 0;
  bool found = false;
  if (!group.empty()) {
    std::vector<char> buf(16384);
    struct group g {};
    struct group* result = nullptr;
    if (::getgrnam_r(group.c_str(), &g, buf.data(), buf.size(), &result) == 0 &&
        result != nullptr) {
      gid = result->gr_gid;
      found = true;
    }
  }
  if (!found) {
    ::chmod(dir.c_str(), 0700);
    if (group.empty()) return Status();
    return NotFound("no group '" + group + "': only root reaches the router's sockets in " + dir +
                    " (groupadd " + group + " to let operators in)");
  }
  if (::chown(dir.c_str(), static_cast<uid_t>(-1), gid) != 0 || ::chmod(dir.c_str(), 02710) != 0) {
    return Internal("cannot open " + dir + " to group '" + group + "': " + std::strerror(errno));
  }
  return Status();
}

}  // namespace strata::rtrmgr
