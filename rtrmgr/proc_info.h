// ProcInfo: what /proc says about a process: its start time (to tell a pid from a recycled one),
// its executable and its resident memory. Linux only. Free functions; thread-safe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace strata::rtrmgr {

// Field 22 of /proc/PID/stat: clock ticks after boot at which the process started. nullopt if
// the process does not exist (or is a zombie being reaped).
std::optional<uint64_t> ProcStartTime(pid_t pid);
// When the process started, on the steady clock (from its start time and /proc/uptime).
std::optional<std::chrono::steady_clock::time_point> ProcStartedAt(pid_t pid);
// The target of /proc/PID/exe ("" if unreadable).
std::string ProcExe(pid_t pid);
// VmRSS of /proc/PID/status in kB (nullopt if unreadable).
std::optional<uint64_t> ProcRssKb(pid_t pid);

}  // namespace strata::rtrmgr
