#include "libipc/socket_files.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

namespace strata::ipc {
namespace {

// Alive, not a zombie: a process that died and is not reaped yet (its parent, or init, has not
// waited for it) answers kill(0) but holds no socket.
bool ProcessExists(pid_t pid) {
  if (::kill(pid, 0) != 0 && errno != EPERM) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const auto paren = line.rfind(')');  // the command name may hold anything
  return paren == std::string::npos || paren + 2 >= line.size() || line[paren + 2] != 'Z';
}

template <typename Pred>
size_t RemoveMatching(const std::string& run_dir, Pred pred) {
  size_t removed = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(run_dir, ec)) {
    const pid_t pid = SocketFilePid(entry.path().filename().string());
    if (pid == 0 || !pred(pid)) continue;
    std::error_code rm;
    if (entry.is_socket(rm) && std::filesystem::remove(entry.path(), rm)) ++removed;
  }
  return removed;
}

}  // namespace

std::string SocketFilePath(const std::string& run_dir, const std::string& name, pid_t pid,
                           bool grpc) {
  return run_dir + "/" + name + "." + std::to_string(pid) + (grpc ? ".grpc.sock" : ".sock");
}

pid_t SocketFilePid(const std::string& file_name) {
  std::string_view s = file_name;
  for (std::string_view suffix : {".grpc.sock", ".sock"}) {
    if (s.size() > suffix.size() && s.ends_with(suffix)) {
      s.remove_suffix(suffix.size());
      break;
    }
  }
  if (s.size() == file_name.size()) return 0;
  const auto dot = s.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == s.size()) return 0;
  pid_t pid = 0;
  const char* first = s.data() + dot + 1;
  const char* last = s.data() + s.size();
  auto [end, err] = std::from_chars(first, last, pid);
  if (err != std::errc() || end != last || pid <= 0) return 0;
  return pid;
}

size_t RemoveSocketFiles(const std::string& run_dir, pid_t pid) {
  return RemoveMatching(run_dir, [pid](pid_t p) { return p == pid; });
}

size_t RemoveStaleSocketFiles(const std::string& run_dir) {
  return RemoveMatching(run_dir, [](pid_t p) { return !ProcessExists(p); });
}

mode_t SocketFileMode(const std::string& path) {
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0 && (st.st_mode & S_IXGRP) != 0) return 0660;
  return 0600;
}

void SetCloseOnExec(int fd) {
  const int flags = ::fcntl(fd, F_GETFD);
  if (flags >= 0) ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

}  // namespace strata::ipc
