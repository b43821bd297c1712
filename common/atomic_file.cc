#include "common/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace strata {
namespace {

Status Fail(const std::string& what, const std::string& path) {
  return Internal(what + " " + path + ": " + std::strerror(errno));
}

std::string DirOf(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

Status WriteFileAtomically(const std::string& path, std::string_view contents, mode_t mode) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return Fail("cannot create", tmp);
  Status s;
  if (::fchmod(fd, mode) != 0) s = Fail("cannot set the mode of", tmp);
  for (size_t done = 0; s.ok() && done < contents.size();) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      s = Fail("cannot write", tmp);
      break;
    }
    done += static_cast<size_t>(n);
  }
  if (s.ok() && ::fsync(fd) != 0) s = Fail("cannot sync", tmp);
  if (::close(fd) != 0 && s.ok()) s = Fail("cannot close", tmp);
  if (s.ok() && ::rename(tmp.c_str(), path.c_str()) != 0) s = Fail("cannot rename over", path);
  if (!s.ok()) {
    ::unlink(tmp.c_str());
    return s;
  }
  // The rename is durable once the directory is.
  const int dir = ::open(DirOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return Status::Ok();
}

}  // namespace strata
