#include "common/log_sinks.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace strata {
namespace {

void WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // nowhere to report a failing log; the line is lost
    data += n;
    size -= static_cast<size_t>(n);
  }
}

// RFC 5424 severities, as sd-daemon(3) prefixes them.
int Priority(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace:
    case spdlog::level::debug:
      return 7;
    case spdlog::level::info:
      return 6;
    case spdlog::level::warn:
      return 4;
    case spdlog::level::err:
      return 3;
    case spdlog::level::critical:
      return 2;
    default:
      return 6;
  }
}

bool Under(const std::string& name, const std::string& prefix) {
  return prefix.empty() || name == prefix ||
         (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
          name[prefix.size()] == '.');
}

}  // namespace

ReopeningFileSink::ReopeningFileSink(std::string path, std::chrono::milliseconds check_every)
    : path_(std::move(path)), check_every_(check_every) {
  std::lock_guard lock(mutex_);
  ReopenLocked();
}

ReopeningFileSink::~ReopeningFileSink() {
  if (fd_ >= 0) ::close(fd_);
}

bool ReopeningFileSink::Reopen() {
  std::lock_guard lock(mutex_);
  return ReopenLocked();
}

bool ReopeningFileSink::ReopenLocked() {
  // O_APPEND: every process of the router may append to the same file, line by line.
  const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
  if (fd < 0) return false;
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
  next_check_ = std::chrono::steady_clock::now() + check_every_;
  return true;
}

bool ReopeningFileSink::Rotated() const {
  struct stat by_path {};
  struct stat open {};
  if (::stat(path_.c_str(), &by_path) != 0) return true;  // moved away or removed
  if (::fstat(fd_, &open) != 0) return true;
  return by_path.st_ino != open.st_ino || by_path.st_dev != open.st_dev;
}

void ReopeningFileSink::sink_it_(const spdlog::details::log_msg& msg) {
  const auto now = std::chrono::steady_clock::now();
  if (fd_ < 0 || (now >= next_check_ && Rotated())) {
    ReopenLocked();
  } else if (now >= next_check_) {
    next_check_ = now + check_every_;
  }
  if (fd_ < 0) return;
  spdlog::memory_buf_t line;
  formatter_->format(msg, line);
  WriteAll(fd_, line.data(), line.size());
}

void PriorityStderrSink::sink_it_(const spdlog::details::log_msg& msg) {
  spdlog::memory_buf_t line;
  const std::string prio = "<" + std::to_string(Priority(msg.level)) + ">";
  line.append(prio.data(), prio.data() + prio.size());
  formatter_->format(msg, line);
  WriteAll(2, line.data(), line.size());
}

void RecentLinesSink::sink_it_(const spdlog::details::log_msg& msg) {
  LogLine l;
  l.unix_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(msg.time.time_since_epoch()).count();
  l.level = msg.level;
  l.logger.assign(msg.logger_name.data(), msg.logger_name.size());
  l.text.assign(msg.payload.data(), msg.payload.size());
  lines_.push_back(std::move(l));
  while (lines_.size() > capacity_) lines_.pop_front();
}

std::vector<LogLine> RecentLinesSink::Lines(size_t max, const std::string& prefix) {
  std::lock_guard lock(mutex_);
  std::vector<LogLine> out;
  for (auto it = lines_.rbegin(); it != lines_.rend() && (max == 0 || out.size() < max); ++it) {
    if (Under(it->logger, prefix)) out.push_back(*it);
  }
  return {out.rbegin(), out.rend()};
}

}  // namespace strata
