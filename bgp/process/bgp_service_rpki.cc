// BgpService's RPKI methods: set_rpki, list_rpki_caches.
#include "bgp/process/bgp_service.h"

namespace strata::bgp {

namespace {

StatusOr<RtrCacheConfig> CacheFromProto(const v1::RpkiCache& c, const std::string& field) {
  if (c.address().empty()) return InvalidArgument(field + ".address: empty");
  if (c.port() > 65535) return InvalidArgument(field + ".port: above 65535");
  if (c.preference() > 255) return InvalidArgument(field + ".preference: 1..255");
  RtrCacheConfig cc;
  cc.address = c.address();
  cc.port = c.port() == 0 ? 323 : static_cast<uint16_t>(c.port());
  cc.preference = c.preference() == 0 ? 1 : static_cast<uint8_t>(c.preference());
  return cc;
}

template <typename Request>
RtrTimers TimersFromProto(const Request& r) {
  RtrTimers t;
  if (r.refresh_s() != 0) t.refresh_s = r.refresh_s();
  if (r.retry_s() != 0) t.retry_s = r.retry_s();
  if (r.expire_s() != 0) t.expire_s = r.expire_s();
  return t;
}

}  // namespace

void BgpService::SetRpki(const v1::SetRpkiRequest& request,
                         ipc::Responder<v1::SetRpkiReply> reply) {
  std::vector<RtrCacheConfig> caches;
  for (int i = 0; i < request.caches_size(); ++i) {
    auto c = CacheFromProto(request.caches(i), "caches." + std::to_string(i));
    if (!c.ok()) return reply.Fail(c.status());
    caches.push_back(*c);
  }
  if (Status s = speaker_.SetRpki(std::move(caches), TimersFromProto(request)); !s.ok()) {
    return reply.Fail(s);
  }
  reply(v1::SetRpkiReply());
}

void BgpService::AddRpkiCache(const v1::AddRpkiCacheRequest& request,
                              ipc::Responder<v1::AddRpkiCacheReply> reply) {
  auto c = CacheFromProto(request.cache(), "cache");
  if (!c.ok()) return reply.Fail(c.status());
  std::vector<RtrCacheConfig> caches = speaker_.rpki_caches();
  std::erase_if(caches, [&](const RtrCacheConfig& o) { return o.address == c->address; });
  caches.push_back(*c);
  if (Status s = speaker_.SetRpki(std::move(caches), speaker_.rpki_timers()); !s.ok()) {
    return reply.Fail(s);
  }
  reply(v1::AddRpkiCacheReply());
}

void BgpService::DeleteRpkiCache(const v1::DeleteRpkiCacheRequest& request,
                                 ipc::Responder<v1::DeleteRpkiCacheReply> reply) {
  std::vector<RtrCacheConfig> caches = speaker_.rpki_caches();
  if (std::erase_if(caches,
                    [&](const RtrCacheConfig& o) { return o.address == request.address(); }) == 0) {
    return reply.Fail(NotFound("no RPKI cache " + request.address()));
  }
  if (Status s = speaker_.SetRpki(std::move(caches), speaker_.rpki_timers()); !s.ok()) {
    return reply.Fail(s);
  }
  reply(v1::DeleteRpkiCacheReply());
}

void BgpService::SetRpkiTimers(const v1::SetRpkiTimersRequest& request,
                               ipc::Responder<v1::SetRpkiTimersReply> reply) {
  if (Status s = speaker_.SetRpki(speaker_.rpki_caches(), TimersFromProto(request)); !s.ok()) {
    return reply.Fail(s);
  }
  reply(v1::SetRpkiTimersReply());
}

void BgpService::ListRpkiCaches(const v1::ListRpkiCachesRequest& /*request*/,
                                ipc::Responder<v1::ListRpkiCachesReply> reply) {
  v1::ListRpkiCachesReply out;
  out.set_enabled(speaker_.rpki_enabled());
  out.set_vrps_v4(speaker_.vrps().v4_count());
  out.set_vrps_v6(speaker_.vrps().v6_count());
  if (const RtrClient* rtr = speaker_.rtr()) {
    out.set_refresh_s(rtr->timers().refresh_s);
    out.set_retry_s(rtr->timers().retry_s);
    out.set_expire_s(rtr->timers().expire_s);
    for (const RtrClient::CacheStatus& c : rtr->caches()) {
      v1::RpkiCacheStatus* s = out.add_caches();
      s->mutable_cache()->set_address(c.config.address);
      s->mutable_cache()->set_port(c.config.port);
      s->mutable_cache()->set_preference(c.config.preference);
      s->set_state(c.state);
      s->set_group_active(c.group_active);
      s->set_vrps(c.vrps);
      s->set_updates(c.updates);
      s->set_session_id(c.session_id);
      s->set_serial(c.serial);
      s->set_version(c.version);
    }
  }
  if (BgpPipeline* pl = speaker_.pipeline()) {
    const RovRevalidator::Stats& st = pl->revalidator().stats();
    out.set_revalidation_walks(st.ranges);
    out.set_revalidated_routes(st.changed);
    out.set_revalidation_pending(pl->revalidator().pending());
  }
  reply(std::move(out));
}

}  // namespace strata::bgp
