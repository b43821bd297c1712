#include "common/log.h"

#include <spdlog/sinks/dist_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/sinks/syslog_sink.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace strata {
namespace {

constexpr size_t kRecentLines = 2000;
constexpr const char* kFilePattern = "%Y-%m-%dT%H:%M:%S.%e %l [%n] %v";

// Standard error is systemd's journal when $JOURNAL_STREAM names its device and inode.
bool StderrIsJournal() {
  const char* js = std::getenv("JOURNAL_STREAM");
  if (js == nullptr) return false;
  unsigned long long dev = 0;
  unsigned long long ino = 0;
  if (std::sscanf(js, "%llu:%llu", &dev, &ino) != 2) return false;
  struct stat st {};
  return ::fstat(2, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
}

class LogState {
 public:
  static LogState& Get() {
    static LogState* state = new LogState();  // never destroyed: loggers outlive statics
    return *state;
  }

  std::shared_ptr<spdlog::logger> Make(const std::string& component) {
    std::lock_guard lock(mu_);
    EnsureLocked();
    const std::string name = LoggerName(options_.instance, component);
    if (auto existing = spdlog::get(name)) return existing;
    auto logger = std::make_shared<spdlog::logger>(name, dist_);
    logger->set_level(options_.levels.For(name));
    logger->flush_on(spdlog::level::warn);
    spdlog::register_logger(logger);
    return logger;
  }

  Status Init(const LogOptions& options) {
    std::lock_guard lock(mu_);
    return InitLocked(options);
  }

  void SetLevels(const LogLevels& levels) {
    std::lock_guard lock(mu_);
    EnsureLocked();
    options_.levels = levels;
    spdlog::apply_all(
        [&](const std::shared_ptr<spdlog::logger>& l) { l->set_level(levels.For(l->name())); });
  }

  LogLevels Levels() {
    std::lock_guard lock(mu_);
    EnsureLocked();
    return options_.levels;
  }

  bool Reopen() {
    std::lock_guard lock(mu_);
    return file_ != nullptr && file_->Reopen();
  }

  std::vector<LogLine> Recent(size_t max, const std::string& prefix) {
    std::lock_guard lock(mu_);
    EnsureLocked();
    return recent_->Lines(max, prefix);
  }

 private:
  void EnsureLocked() {
    if (dist_ != nullptr) return;
    auto env = LogOptionsFromEnvironment();
    if (!env.ok()) {
      std::fprintf(stderr, "STRATA_LOG_LEVEL: %s; logging at info\n",
                   env.status().message().c_str());
      LogOptions fallback;
      if (const char* i = std::getenv("STRATA_LOG_INSTANCE")) fallback.instance = i;
      if (const char* f = std::getenv("STRATA_LOG_FILE")) fallback.file = f;
      env = fallback;
    }
    if (Status s = InitLocked(*env); !s.ok()) {
      std::fprintf(stderr, "logging: %s; logging to standard error\n", s.message().c_str());
    }
  }

  Status InitLocked(const LogOptions& options) {
    options_ = options;
    if (dist_ == nullptr) dist_ = std::make_shared<spdlog::sinks::dist_sink_mt>();
    if (recent_ == nullptr) recent_ = std::make_shared<RecentLinesSink>(kRecentLines);
    Status status;
    spdlog::sink_ptr out;
    file_.reset();
    if (!options.file.empty()) {
      auto file = std::make_shared<ReopeningFileSink>(options.file);
      if (file->is_open()) {
        file->set_pattern(kFilePattern);
        file_ = file;
        out = file;
      } else {
        status = Internal("cannot open the log file " + options.file);
      }
    }
    if (out == nullptr && options.syslog) {
      auto sys = std::make_shared<spdlog::sinks::syslog_sink_mt>(options.syslog_ident, LOG_PID,
                                                                 LOG_DAEMON, true);
      sys->set_pattern("[%n] %v");
      out = sys;
    }
    if (out == nullptr && StderrIsJournal()) {
      out = std::make_shared<PriorityStderrSink>();
      out->set_pattern("%l [%n] %v");
    }
    if (out == nullptr) {
      out = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
      out->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ [%n] %v");
    }
    dist_->set_sinks({out, recent_});
    spdlog::apply_all([&](const std::shared_ptr<spdlog::logger>& l) {
      l->set_level(options_.levels.For(l->name()));
    });
    return status;
  }

  std::mutex mu_;
  LogOptions options_;
  std::shared_ptr<spdlog::sinks::dist_sink_mt> dist_;
  std::shared_ptr<ReopeningFileSink> file_;
  std::shared_ptr<RecentLinesSink> recent_;
};

}  // namespace

std::string LoggerName(const std::string& instance, const std::string& component) {
  if (instance.empty() || component == instance || component.rfind(instance + ".", 0) == 0) {
    return component;
  }
  // The process class: "bgp" of "bgp.red".
  const std::string cls = instance.substr(0, instance.find('.'));
  if (component == cls) return instance;
  if (component.rfind(cls + ".", 0) == 0) return instance + component.substr(cls.size());
  return instance + "." + component;
}

StatusOr<LogOptions> LogOptionsFromEnvironment() {
  LogOptions o;
  if (const char* i = std::getenv("STRATA_LOG_INSTANCE")) o.instance = i;
  if (const char* f = std::getenv("STRATA_LOG_FILE")) o.file = f;
  if (const char* s = std::getenv("STRATA_LOG_SYSLOG")) o.syslog = std::string(s) == "1";
  o.syslog_ident = o.instance.empty() ? "strata" : "strata-" + o.instance;
  if (const char* l = std::getenv("STRATA_LOG_LEVEL"); l != nullptr && *l != '\0') {
    auto levels = LogLevels::Parse(l);
    if (!levels.ok()) return levels.status();
    o.levels = *levels;
  }
  return o;
}

std::shared_ptr<spdlog::logger> MakeLogger(const std::string& component) {
  return LogState::Get().Make(component);
}

Status InitLogging(const LogOptions& options) { return LogState::Get().Init(options); }

void SetLogLevels(const LogLevels& levels) { LogState::Get().SetLevels(levels); }

LogLevels CurrentLogLevels() { return LogState::Get().Levels(); }

bool ReopenLogFile() { return LogState::Get().Reopen(); }

std::vector<LogLine> RecentLogLines(size_t max, const std::string& prefix) {
  return LogState::Get().Recent(max, prefix);
}

std::vector<std::string> LoggerNames() {
  std::vector<std::string> names;
  spdlog::apply_all([&](const std::shared_ptr<spdlog::logger>& l) {
    if (!l->name().empty()) names.push_back(l->name());  // "" is spdlog's own default logger
  });
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace strata
