// Test helpers for the RIB stage tests: terse constructors for prefixes, addresses and routes,
// and FakeFea, a FeaConsumer that applies batches to a map the way the FEA would.
// Test-only; single-threaded.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "rib/fea_consumer.h"
#include "rib/rib_route.h"
#include "testing/common/value_literals.h"

namespace strata::rib {
inline void PrintTo(const RibRoute& r, std::ostream* os) { *os << r.ToString(); }
}  // namespace strata::rib

namespace strata::rib::test_util {

using strata::test_util::A;
using strata::test_util::P;

inline RibRoute Route(std::string_view prefix, std::string_view nexthop, uint32_t metric = 0,
                      uint32_t tag = 0) {
  RibRoute r;
  r.prefix = P(prefix);
  r.set_nexthop(A(nexthop));
  r.set_metric(metric);
  r.set_tag(tag);
  return r;
}

// A route as an origin table would stamp it, for stages tested without one.
inline RouteRef Stamped(std::string_view prefix, std::string_view nexthop, std::string protocol,
                        uint32_t ad, uint32_t metric = 0, ProtocolKind kind = ProtocolKind::kIgp) {
  RibRoute r = Route(prefix, nexthop, metric);
  r.set_protocol(std::move(protocol));
  r.set_admin_distance(ad);
  r.set_kind(kind);
  return MakeRoute(std::move(r));
}

// Applies batches like the FEA; records protocol errors (e.g. a replace of an absent prefix).
class FakeFea : public FeaConsumer {
 public:
  Status push(const FeaBatch& batch) override {
    ++attempts;
    if (!up) return Unavailable("fea unreachable");
    batches.push_back(batch);
    if (batch.resync_start) table.clear();
    for (const FeaChange& c : batch.changes) {
      const bool present = table.contains(c.prefix);
      switch (c.op) {
        case FeaOp::kAdd:
          if (present) errors.push_back("add of present " + c.prefix.ToString());
          table[c.prefix] = c.route;
          break;
        case FeaOp::kReplace:
          if (!present) errors.push_back("replace of absent " + c.prefix.ToString());
          table[c.prefix] = c.route;
          break;
        case FeaOp::kDelete:
          if (!present) errors.push_back("delete of absent " + c.prefix.ToString());
          table.erase(c.prefix);
          break;
      }
    }
    return Status::Ok();
  }

  bool up = true;
  size_t attempts = 0;  // push calls, refused ones included
  std::map<IpPrefix, RouteRef> table;
  std::vector<FeaBatch> batches;
  std::vector<std::string> errors;
};

}  // namespace strata::rib::test_util
