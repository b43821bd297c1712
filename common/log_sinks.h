// The spdlog sinks behind MakeLogger (common/log.h):
//  - ReopeningFileSink: appends to a file and follows log rotation: it reopens the path when
//    told (SIGHUP, SIGUSR1) and by itself when the path no longer names the file it has open
//    (renamed or removed by logrotate), checked at most once a second while lines are written.
//  - PriorityStderrSink: standard error for systemd's journal, each line led by its syslog
//    priority ("<3>" for error, sd-daemon(3)), so `journalctl -p err` works.
//  - RecentLinesSink: the last lines logged, kept in memory for `show log` (log/1.0), whatever
//    the destination.
// Thread-safe (spdlog's mutex sinks): the FEA's FIB worker logs too.
#pragma once

#include <spdlog/sinks/base_sink.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace strata {

class ReopeningFileSink : public spdlog::sinks::base_sink<std::mutex> {
 public:
  // `check_every`: how often writing lines looks for a rotation.
  explicit ReopeningFileSink(std::string path,
                             std::chrono::milliseconds check_every = std::chrono::seconds(1));
  ~ReopeningFileSink() override;
  // Opens the path again (after a rotation). False, and the old file kept, when it cannot.
  bool Reopen();
  const std::string& path() const { return path_; }
  bool is_open() const { return fd_ >= 0; }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override;
  void flush_() override {}

 private:
  bool ReopenLocked();
  bool Rotated() const;

  std::string path_;
  std::chrono::milliseconds check_every_;
  int fd_ = -1;
  std::chrono::steady_clock::time_point next_check_;
};

class PriorityStderrSink : public spdlog::sinks::base_sink<std::mutex> {
 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override;
  void flush_() override {}
};

struct LogLine {
  int64_t unix_ns = 0;
  spdlog::level::level_enum level = spdlog::level::info;
  std::string logger;
  std::string text;
};

class RecentLinesSink : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit RecentLinesSink(size_t capacity) : capacity_(capacity) {}
  // The last `max` lines (0: all kept) of loggers under `prefix` ("" all), oldest first.
  std::vector<LogLine> Lines(size_t max, const std::string& prefix);

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override;
  void flush_() override {}

 private:
  size_t capacity_;
  std::deque<LogLine> lines_;
};

}  // namespace strata
