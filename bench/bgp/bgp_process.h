// ChildProcess: a router daemon started inside a network namespace, with its stdout and stderr
// in a log file; and the /proc figures the BGP benchmark reports (peak RSS, CPU seconds).
// Stop() (and the destructor) sends SIGTERM, then SIGKILL after 5 s. Not thread-safe.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace strata::bench {

class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess() { Stop(); }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // argv[0] is the binary's path. `ns` empty: the caller's namespace. extra_env "K=V" entries.
  bool Start(const std::string& ns, const std::vector<std::string>& argv, const std::string& log,
             const std::vector<std::string>& extra_env = {});
  void Stop();
  bool Running();
  pid_t pid() const { return pid_; }
  // For a caller that reaped the process itself.
  void Forget() { pid_ = -1; }

 private:
  pid_t pid_ = -1;
};

// VmHWM in kB, or 0.
long PeakRssKb(pid_t pid);
// utime + stime in seconds, or 0.
double CpuSeconds(pid_t pid);
// pid from a pid file, or -1.
pid_t ReadPidFile(const std::string& path);

}  // namespace strata::bench
