#include "testing/interop/veth_link.h"

#include <unistd.h>

namespace strata::interop {

StatusOr<std::unique_ptr<VethLink>> VethLink::Create(const NetNs& a, const NetNs& b, int n) {
  if (n < 0 || n > 255) return InvalidArgument("link number out of range");
  // Created in A's namespace directly so a failed test never leaves one in the root namespace.
  const std::string base = "iop" + std::to_string(::getpid() % 100000) + "l" + std::to_string(n);
  const std::string a_if = base + "a";
  const std::string b_if = base + "b";
  std::unique_ptr<VethLink> link(new VethLink(a.name(), n, a_if, b_if));
  const std::string sn = std::to_string(n);
  const std::vector<std::vector<std::string>> steps = {
      {"ip", "-n", a.name(), "link", "add", a_if, "type", "veth", "peer", "name", b_if, "netns",
       b.name()},
      // No duplicate address detection: addresses, link-local ones too, are usable at once.
      {"ip", "netns", "exec", a.name(), "sysctl", "-qw", "net.ipv6.conf." + a_if + ".accept_dad=0"},
      {"ip", "netns", "exec", b.name(), "sysctl", "-qw", "net.ipv6.conf." + b_if + ".accept_dad=0"},
      {"ip", "-n", a.name(), "addr", "add", "10.200." + sn + ".1/24", "dev", a_if},
      {"ip", "-n", b.name(), "addr", "add", "10.200." + sn + ".2/24", "dev", b_if},
      {"ip", "-n", a.name(), "addr", "add", "fd00:200:" + sn + "::1/64", "dev", a_if, "nodad"},
      {"ip", "-n", b.name(), "addr", "add", "fd00:200:" + sn + "::2/64", "dev", b_if, "nodad"},
      {"ip", "-n", a.name(), "link", "set", a_if, "up"},
      {"ip", "-n", b.name(), "link", "set", b_if, "up"},
  };
  for (const auto& s : steps) {
    const auto r = RunCommand(s);
    if (!r.ok()) return Internal(JoinArgs(s) + ": " + r.output);
  }
  return link;
}

VethLink::~VethLink() { (void)RunCommand({"ip", "-n", a_ns_, "link", "del", a_if_}); }

}  // namespace strata::interop
