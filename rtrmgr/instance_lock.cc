#include "rtrmgr/instance_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "common/private_dir.h"

namespace strata::rtrmgr {

InstanceLock::InstanceLock(InstanceLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

InstanceLock& InstanceLock::operator=(InstanceLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

InstanceLock::~InstanceLock() {
  if (fd_ >= 0) ::close(fd_);
}

StatusOr<InstanceLock> InstanceLock::Acquire(const std::string& dir, const std::string& what) {
  // A directory made here is the owner's alone (the state directory holds MD5 keys), and one
  // found here must be ours and closed to writers: another user could have made it first.
  if (Status s = EnsurePrivateDir(dir, what); !s.ok()) return s;
  const std::string path = dir + "/strata-rtrmgr.lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return Internal("cannot open " + path + ": " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    char buf[32] = {};
    const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
    ::close(fd);
    if (err != EWOULDBLOCK) return Internal("cannot lock " + path + ": " + std::strerror(err));
    std::string pid = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
    return FailedPrecondition("already running with the " + what + " " + dir +
                              (pid.empty() ? "" : " (pid " + pid + ")"));
  }
  const std::string me = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, me.data(), me.size(), 0) < 0) {
    const int err = errno;
    ::close(fd);
    return Internal("cannot write " + path + ": " + std::strerror(err));
  }
  return InstanceLock(fd);
}

}  // namespace strata::rtrmgr
