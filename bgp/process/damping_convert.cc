#include "bgp/process/damping_convert.h"

#include <algorithm>
#include <string>

#include "libipc/common_convert.h"

namespace strata::bgp {

namespace {

Status CheckRange(uint32_t v, uint32_t lo, uint32_t hi, const char* field) {
  if (v < lo || v > hi) {
    return InvalidArgument(std::string(field) + ": " + std::to_string(v) + " is not in " +
                           std::to_string(lo) + ".." + std::to_string(hi));
  }
  return Status::Ok();
}

uint32_t OrDefault(uint32_t v, uint32_t def) { return v == 0 ? def : v; }

}  // namespace

StatusOr<std::optional<DampingParams>> DampingParamsFromProto(const v1::SetDampingRequest& r) {
  if (!r.enabled()) return std::optional<DampingParams>();
  const DampingParams d;
  const auto minutes = [](std::chrono::seconds s) {
    return static_cast<uint32_t>(std::chrono::duration_cast<std::chrono::minutes>(s).count());
  };
  const uint32_t half_life = OrDefault(r.half_life(), minutes(d.half_life));
  const uint32_t max_suppress = OrDefault(r.max_suppress(), minutes(d.max_suppress));
  DampingParams p;
  p.reuse = OrDefault(r.reuse(), d.reuse);
  p.suppress = OrDefault(r.suppress(), d.suppress);
  p.withdraw_penalty = OrDefault(r.withdraw_penalty(), d.withdraw_penalty);
  if (r.has_attribute_change_penalty()) p.attribute_change_penalty = r.attribute_change_penalty();
  for (Status s :
       {CheckRange(half_life, 1, 45, "half_life"), CheckRange(p.reuse, 1, 20000, "reuse"),
        CheckRange(p.suppress, 1, 20000, "suppress"),
        CheckRange(max_suppress, 1, 720, "max_suppress"),
        CheckRange(p.withdraw_penalty, 1, 20000, "withdraw_penalty"),
        CheckRange(p.attribute_change_penalty, 0, 20000, "attribute_change_penalty")}) {
    if (!s.ok()) return s;
  }
  p.half_life = std::chrono::minutes(half_life);
  p.max_suppress = std::chrono::minutes(max_suppress);
  if (Status s = ValidateDampingParams(p); !s.ok()) return s;
  return std::optional<DampingParams>(p);
}

void DampedRouteToProto(const IpAddr& peer, const DampingStage::Entry& e, v1::DampedRoute* out) {
  ipc::PrefixToProto(e.prefix, out->mutable_prefix());
  ipc::AddrToProto(peer, out->mutable_peer());
  out->set_penalty(static_cast<uint32_t>(std::min(e.penalty + 0.5, 4294967295.0)));
  out->set_suppressed(e.suppressed);
  out->set_reuse_in_s(
      static_cast<uint32_t>(std::chrono::ceil<std::chrono::seconds>(e.reuse_in).count()));
  out->set_flaps(e.flaps);
  out->set_withdrawn(e.withdrawn);
}

}  // namespace strata::bgp
