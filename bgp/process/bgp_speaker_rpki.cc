// BgpSpeaker's RPKI route origin validation: the RTR client and the VRP table.
#include <vector>

#include "bgp/process/bgp_speaker.h"

namespace strata::bgp {

Status BgpSpeaker::SetRpki(std::vector<RtrCacheConfig> caches, RtrTimers timers) {
  if (Status s = ValidateRtrTimers(timers); !s.ok()) return s;
  rpki_timers_ = timers;
  if (caches.empty()) {
    rpki_caches_.clear();
    if (!rtr_) return Status::Ok();
    rtr_.reset();  // stops and joins RTRlib's threads
    vrps_.Clear();
    if (pipeline_) pipeline_->set_vrps(nullptr);
    log_->info("rpki: origin validation off");
    return Status::Ok();
  }
  if (rtr_ && rtr_->timers() == timers && rpki_caches_ == caches) return Status::Ok();
  auto client = std::make_unique<RtrClient>(
      io_, [this, alive = std::weak_ptr<bool>(alive_)](std::vector<VrpUpdate> updates) {
        if (alive.lock()) ApplyVrpUpdates(updates);
      });
  if (Status s = client->Configure(caches, timers); !s.ok()) return s;
  // The old sessions' VRPs go with them; the new ones arrive as updates.
  rpki_caches_ = std::move(caches);
  rtr_ = std::move(client);
  const bool had = vrps_.size() > 0;
  vrps_.Clear();
  if (pipeline_) {
    if (!pipeline_->origin_validation()) {
      pipeline_->set_vrps(&vrps_);
    } else if (had) {
      const IpPrefix all[] = {IpPrefix::Default(Family::kIpv4), IpPrefix::Default(Family::kIpv6)};
      pipeline_->vrps_changed(all);
    }
  }
  log_->info("rpki: {} cache(s), refresh {} s, retry {} s, expire {} s", rpki_caches_.size(),
             timers.refresh_s, timers.retry_s, timers.expire_s);
  return Status::Ok();
}

void BgpSpeaker::ApplyVrpUpdates(const std::vector<VrpUpdate>& updates) {
  std::vector<IpPrefix> changed;
  for (const VrpUpdate& u : updates) {
    if (u.added ? vrps_.Add(u.vrp) : vrps_.Remove(u.vrp)) changed.push_back(u.vrp.prefix);
  }
  if (changed.empty()) return;
  log_->debug("rpki: {} VRP changes, {} VRPs", changed.size(), vrps_.size());
  if (pipeline_) pipeline_->vrps_changed(changed);
}

}  // namespace strata::bgp
