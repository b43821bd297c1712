// NetNs: a Linux network namespace owned by a test, named "iop-<pid>-<tag>" so that concurrent
// test processes never collide and leftovers of a crashed run can be recognised and removed.
//
// The destructor kills every process still inside the namespace and deletes it, so a failing
// test leaves nothing behind. Needs root and iproute2.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "testing/interop/command.h"

namespace strata::interop {

class NetNs {
 public:
  // Creates the namespace with its loopback up. `tag`: a short name unique within the process.
  static StatusOr<std::unique_ptr<NetNs>> Create(const std::string& tag);
  ~NetNs();
  NetNs(const NetNs&) = delete;
  NetNs& operator=(const NetNs&) = delete;

  const std::string& name() const { return name_; }
  // argv prefixed with "ip netns exec <name>": ip execs the command, so a pid started from the
  // result is the command's own pid.
  std::vector<std::string> Wrap(const std::vector<std::string>& argv) const;
  CommandResult Exec(const std::vector<std::string>& argv,
                     std::chrono::milliseconds timeout = std::chrono::seconds(10)) const;

  // Deletes namespaces (and kills their processes) left by interop test processes that are no
  // longer alive. Called by Create, so every test starts clean.
  static void RemoveLeftovers();
  // True when this process may create namespaces (root and `ip netns` work).
  static bool Available();

 private:
  explicit NetNs(std::string name) : name_(std::move(name)) {}
  static void Destroy(const std::string& name);

  std::string name_;
};

}  // namespace strata::interop
