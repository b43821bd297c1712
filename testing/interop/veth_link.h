// VethLink: a veth pair joining two namespaces, with an IPv4 /24 and an IPv6 /64 on it.
//
// Link `n` gets 10.200.<n>.1/24 and fd00:200:<n>::1/64 on side A, .2 and ::2 on side B (the
// namespaces are private, so concurrent tests may reuse the numbers). IPv6 addresses are added
// with nodad, so they are usable at once. Deleting one end of a veth deletes both; the destructor
// does that, and deleting either namespace does it too.
#pragma once

#include <memory>
#include <string>

#include "common/status.h"
#include "testing/interop/net_ns.h"

namespace strata::interop {

class VethLink {
 public:
  static StatusOr<std::unique_ptr<VethLink>> Create(const NetNs& a, const NetNs& b, int n);
  ~VethLink();
  VethLink(const VethLink&) = delete;
  VethLink& operator=(const VethLink&) = delete;

  std::string a_v4() const { return "10.200." + std::to_string(n_) + ".1"; }
  std::string b_v4() const { return "10.200." + std::to_string(n_) + ".2"; }
  std::string a_v6() const { return "fd00:200:" + std::to_string(n_) + "::1"; }
  std::string b_v6() const { return "fd00:200:" + std::to_string(n_) + "::2"; }
  const std::string& a_ifname() const { return a_if_; }
  const std::string& b_ifname() const { return b_if_; }

 private:
  VethLink(std::string a_ns, int n, std::string a_if, std::string b_if)
      : a_ns_(std::move(a_ns)), n_(n), a_if_(std::move(a_if)), b_if_(std::move(b_if)) {}

  std::string a_ns_;
  int n_;
  std::string a_if_;
  std::string b_if_;
};

}  // namespace strata::interop
