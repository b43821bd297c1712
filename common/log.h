// Logging: one spdlog logger per component, named after the process instance and the component
// ("bgp.red.session"), so that lines of two VRs can be told apart in one file or journal.
//
// Each process sets itself up from the environment strata-rtrmgr gives it (all optional):
//   STRATA_LOG_INSTANCE   the process instance ("bgp.red"): component "bgp.session" logs as
//                         "bgp.red.session", "bgp" as "bgp.red", "ipc" as "bgp.red.ipc";
//                         unset (a process started by hand, a test): names as given
//   STRATA_LOG_LEVEL      LogLevels text ("info", "debug,bgp.red.session=trace"); a bad value
//                         is reported on stderr and info used (never silently "off")
//   STRATA_LOG_FILE       append to this file, following its rotation; else
//   STRATA_LOG_SYSLOG=1   syslog(3), facility daemon (journald reads it too); else
//   standard error        with each line's priority when it is systemd's journal
//                         ($JOURNAL_STREAM), in colour on a terminal
// InitLogging() sets the same explicitly (strata-rtrmgr, from its command line). Every line also
// goes to a ring of the last lines (RecentLogLines, served as log/1.0 for `show log`). Levels
// change at run time (SetLogLevels), for loggers made before and after.
// Call MakeLogger once per component and keep the pointer. Thread-safe.
#pragma once

#include <spdlog/spdlog.h>

#include <memory>
#include <string>
#include <vector>

#include "common/log_levels.h"
#include "common/log_sinks.h"
#include "common/status.h"

namespace strata {

std::shared_ptr<spdlog::logger> MakeLogger(const std::string& component);

struct LogOptions {
  std::string instance;  // "" : names as given
  std::string file;      // "" : syslog or standard error
  bool syslog = false;
  std::string syslog_ident = "strata";
  LogLevels levels;
};

// INTERNAL when the file cannot be opened (logging then goes to standard error).
Status InitLogging(const LogOptions& options);
// The environment's setup (above), as InitLogging would take it; its error is a bad level.
StatusOr<LogOptions> LogOptionsFromEnvironment();

void SetLogLevels(const LogLevels& levels);
LogLevels CurrentLogLevels();
// Opens the log file again (after logrotate moved it); false without a file or on failure.
bool ReopenLogFile();
// The last `max` lines (0: all kept) of loggers named `prefix` or below it ("" all).
std::vector<LogLine> RecentLogLines(size_t max, const std::string& prefix);
// The loggers made so far, by name.
std::vector<std::string> LoggerNames();
// The name MakeLogger gives `component` in process `instance`.
std::string LoggerName(const std::string& instance, const std::string& component);

}  // namespace strata
