#include "libipc/profile/profile_service.h"

namespace strata::ipc {

ProfileService& ProfileService::ForProcess() {
  static ProfileService* service = new ProfileService();  // never destroyed, like the Profiler
  return *service;
}

template <typename Names>
StatusOr<std::vector<ProfilePoint*>> ProfileService::Select(const Names& names) {
  if (names.empty()) return profiler_.Points();
  std::vector<ProfilePoint*> out;
  for (const std::string& n : names) {
    ProfilePoint* p = profiler_.Find(n);
    if (p == nullptr) {
      return Status(StatusCode::kNotFound, "points: no profiling point '" + n + "' here");
    }
    out.push_back(p);
  }
  return out;
}

void ProfileService::ListPoints(const profile::v1::ListPointsRequest& /*request*/,
                                Responder<profile::v1::ListPointsReply> reply) {
  profile::v1::ListPointsReply rep;
  for (const ProfilePoint* p : profiler_.Points()) {
    auto* info = rep.add_points();
    info->set_name(p->name());
    info->set_enabled(p->enabled());
    info->set_records(p->size());
    info->set_dropped(p->dropped());
  }
  reply(rep);
}

void ProfileService::Enable(const profile::v1::EnableRequest& request,
                            Responder<profile::v1::EnableReply> reply) {
  auto points = Select(request.points());
  if (!points.ok()) return reply.Fail(points.status());
  for (ProfilePoint* p : *points) p->set_enabled(true);
  reply(profile::v1::EnableReply());
}

void ProfileService::Disable(const profile::v1::DisableRequest& request,
                             Responder<profile::v1::DisableReply> reply) {
  auto points = Select(request.points());
  if (!points.ok()) return reply.Fail(points.status());
  for (ProfilePoint* p : *points) p->set_enabled(false);
  reply(profile::v1::DisableReply());
}

void ProfileService::GetRecords(const profile::v1::GetRecordsRequest& request,
                                Responder<profile::v1::GetRecordsReply> reply) {
  auto points = Select(request.points());
  if (!points.ok()) return reply.Fail(points.status());
  profile::v1::GetRecordsReply rep;
  uint64_t dropped = 0;
  for (ProfilePoint* p : *points) {
    dropped += p->dropped();
    for (ProfileRecord& r : p->Take()) {
      auto* out = rep.add_records();
      out->set_point(p->name());
      out->set_time_ns(r.time_ns);
      out->set_detail(std::move(r.detail));
    }
  }
  rep.set_dropped(dropped);
  reply(rep);
}

}  // namespace strata::ipc
