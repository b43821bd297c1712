// DebugStage: a pass-through stage that traces every message and checks consistency in service.
//
// Like XORP's cache stage, it can be plumbed anywhere (e.g. after an output filter while chasing
// a bug) without changing behaviour: it forwards everything, writes one line per message to its
// trace function ("<label> add 10.0.0.0/8 from 192.0.2.1 [...]"), and keeps the prefixes it has
// passed so that it can report (and count) messages breaking rule 1 of bgp_stage.h. It holds
// route references only while plumbed, for debugging. Threading: single-threaded.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "bgp/pipeline/bgp_stage.h"

namespace strata::bgp {

class DebugStage : public PassThroughStage {
 public:
  using TraceFn = std::function<void(std::string_view)>;

  // A null trace function logs at debug level to the "bgp.debug" logger.
  DebugStage(std::string label, BgpStage* parent, TraceFn trace = nullptr);

  std::string name() const override { return "debug:" + label_; }
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;

  uint64_t messages() const { return messages_; }
  uint64_t violations() const { return violations_; }

 private:
  void trace(std::string_view op, const BgpRouteRef& route);
  void check_live(const BgpRouteRef& route);

  std::string label_;
  TraceFn trace_;
  std::unordered_map<IpPrefix, BgpRouteRef> live_;
  uint64_t messages_ = 0;
  uint64_t violations_ = 0;
};

}  // namespace strata::bgp
