#include "common/private_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace strata {
namespace {

std::string Octal(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

// Checks `dir` without following a symlink in its last component.
Status Check(const std::string& dir, const std::string& what, bool root_may_own) {
  // O_PATH: a directory we may only enter (02710, the operators' case) still opens.
  const int fd = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (err == ELOOP || err == ENOTDIR) {
      return FailedPrecondition("the " + what + " " + dir +
                                " is not a directory (a symlink or a file): refusing to use it");
    }
    return FailedPrecondition("cannot open the " + what + " " + dir + ": " + std::strerror(err));
  }
  struct stat st {};
  const int rc = ::fstat(fd, &st);
  ::close(fd);
  if (rc != 0) return Internal("cannot stat the " + what + " " + dir + ": " + std::strerror(errno));
  const uid_t me = ::geteuid();
  if (st.st_uid != me && !(root_may_own && st.st_uid == 0)) {
    return FailedPrecondition("the " + what + " " + dir + " belongs to uid " +
                              std::to_string(st.st_uid) + ", not to this user (uid " +
                              std::to_string(me) +
                              "): another user may have made it first; refusing to use it "
                              "(remove it, or choose another with STRATA_RUN_DIR)");
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return FailedPrecondition("the " + what + " " + dir + " is writable by group or others (mode " +
                              Octal(st.st_mode) + "): refusing to use it (chmod go-w it)");
  }
  return Status();
}

}  // namespace

Status EnsurePrivateDir(const std::string& dir, const std::string& what) {
  namespace fs = std::filesystem;
  if (dir.empty()) return InvalidArgument("no " + what + " given");
  const fs::path parent = fs::path(dir).parent_path();
  std::error_code ec;
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return Internal("cannot create the " + what + " " + dir + ": " + std::strerror(errno));
  }
  return Check(dir, what, false);
}

Status CheckTrustedDir(const std::string& dir, const std::string& what) {
  return Check(dir, what, true);
}

}  // namespace strata
