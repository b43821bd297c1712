// NexthopOracle: how the pipeline learns whether a BGP next hop is reachable and at what IGP cost.
//
// The process implements it over the RIB's interest registration (XORP paper 5.2.1): the answer
// for one address is the route matching it and the largest subnet over which that answer holds,
// so one answer serves every next hop inside `covering`; when the RIB's routing changes there,
// it sends an invalidation for the subnet and the asker re-registers. Answers and invalidations
// are asynchronous (they may also come synchronously from inside register_interest).
// FakeNexthopOracle (fake_nexthop_oracle.h) implements it for tests.
// Threading: all calls on the pipeline's thread.
#pragma once

#include <cstdint>
#include <optional>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"

namespace strata::bgp {

struct NexthopAnswer {
  IpPrefix covering;        // the answer holds for every address inside
  bool resolvable = false;  // false: no route to the next hop
  uint32_t metric = 0;      // IGP metric of the route, if resolvable
  // Set when the route is a directly connected subnet of ours: the subnet, and our own address
  // on it. A next hop that is our address, or the subnet's network or broadcast address, is not
  // usable; one from a single-hop external peer must be on such a subnet (RFC 4271 6.3).
  struct Connected {
    IpPrefix subnet;
    IpAddr local;
    friend bool operator==(const Connected&, const Connected&) = default;
  };
  std::optional<Connected> connected;
  friend bool operator==(const NexthopAnswer&, const NexthopAnswer&) = default;
};

// What the oracle calls back (implemented by NexthopCache).
class NexthopListener {
 public:
  virtual ~NexthopListener() = default;
  // The answer to register_interest(nexthop).
  virtual void nexthop_answer(const IpAddr& nexthop, const NexthopAnswer& answer) = 0;
  // A previously answered covering subnet is no longer valid; its registration is dropped.
  virtual void nexthop_invalidated(const IpPrefix& covering) = 0;
};

class NexthopOracle {
 public:
  virtual ~NexthopOracle() = default;
  // Set once by the pipeline before any registration.
  virtual void set_listener(NexthopListener* listener) = 0;
  // Asks for the route to nexthop; answered through the listener.
  virtual void register_interest(const IpAddr& nexthop) = 0;
  // No next hop inside this answered subnet is of interest any more.
  virtual void deregister_interest(const IpPrefix& covering) = 0;
};

}  // namespace strata::bgp
