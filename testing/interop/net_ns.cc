#include "testing/interop/net_ns.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <sstream>
#include <thread>

namespace strata::interop {

namespace {

constexpr char kPrefix[] = "iop-";

// "iop-<pid>-<tag>" -> pid, or 0.
pid_t OwnerOf(const std::string& ns) {
  if (!ns.starts_with(kPrefix)) return 0;
  const auto dash = ns.find('-', sizeof(kPrefix) - 1);
  if (dash == std::string::npos) return 0;
  try {
    return static_cast<pid_t>(std::stol(ns.substr(sizeof(kPrefix) - 1, dash)));
  } catch (...) {
    return 0;
  }
}

}  // namespace

StatusOr<std::unique_ptr<NetNs>> NetNs::Create(const std::string& tag) {
  RemoveLeftovers();
  const std::string name = kPrefix + std::to_string(::getpid()) + "-" + tag;
  Destroy(name);  // a namespace of the same name from an earlier test of this process
  auto r = RunCommand({"ip", "netns", "add", name});
  if (!r.ok()) return Internal("ip netns add " + name + ": " + r.output);
  std::unique_ptr<NetNs> ns(new NetNs(name));
  r = ns->Exec({"ip", "link", "set", "lo", "up"});
  if (!r.ok()) return Internal("lo up in " + name + ": " + r.output);
  return ns;
}

NetNs::~NetNs() { Destroy(name_); }

std::vector<std::string> NetNs::Wrap(const std::vector<std::string>& argv) const {
  std::vector<std::string> full = {"ip", "netns", "exec", name_};
  full.insert(full.end(), argv.begin(), argv.end());
  return full;
}

CommandResult NetNs::Exec(const std::vector<std::string>& argv,
                          std::chrono::milliseconds timeout) const {
  return RunCommand(Wrap(argv), timeout);
}

void NetNs::Destroy(const std::string& name) {
  // Processes keep a namespace's interfaces alive; kill them first (twice: a daemon's children
  // may appear while the first pass runs).
  for (int pass = 0; pass < 2; ++pass) {
    const auto pids = RunCommand({"ip", "netns", "pids", name});
    if (!pids.ok()) return;  // no such namespace
    std::istringstream in(pids.output);
    pid_t pid = 0;
    bool any = false;
    while (in >> pid) {
      if (pid > 0 && pid != ::getpid()) {
        ::kill(pid, SIGKILL);
        any = true;
      }
    }
    if (!any) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  (void)RunCommand({"ip", "netns", "del", name});
}

void NetNs::RemoveLeftovers() {
  const auto list = RunCommand({"ip", "netns", "list"});
  std::istringstream in(list.output);
  std::string line;
  while (std::getline(in, line)) {
    const std::string ns = line.substr(0, line.find(' '));
    const pid_t owner = OwnerOf(ns);
    if (owner > 0 && owner != ::getpid() && ::kill(owner, 0) != 0 && errno == ESRCH) Destroy(ns);
  }
}

bool NetNs::Available() { return ::geteuid() == 0 && RunCommand({"ip", "netns", "list"}).ok(); }

}  // namespace strata::interop
