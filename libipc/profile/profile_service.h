// ProfileService: profile/1.0 over the process's Profiler (common/profiler.h). A process serves
// it on its target beside its own interfaces:  target.Serve(profile_service);
// Threading: the io_context thread.
#pragma once

#include "common/profiler.h"
#include "libipc/interfaces/profile.strata.h"

namespace strata::ipc {

class ProfileService : public profile::v1::ProfileHandler {
 public:
  explicit ProfileService(Profiler& profiler = Profiler::Get()) : profiler_(profiler) {}
  // The instance a process serves on its targets (over the process-wide Profiler).
  static ProfileService& ForProcess();

  void ListPoints(const profile::v1::ListPointsRequest& request,
                  Responder<profile::v1::ListPointsReply> reply) override;
  void Enable(const profile::v1::EnableRequest& request,
              Responder<profile::v1::EnableReply> reply) override;
  void Disable(const profile::v1::DisableRequest& request,
               Responder<profile::v1::DisableReply> reply) override;
  void GetRecords(const profile::v1::GetRecordsRequest& request,
                  Responder<profile::v1::GetRecordsReply> reply) override;

 private:
  // The named points (every point when `names` is empty); error naming the first unknown one.
  template <typename Names>
  StatusOr<std::vector<ProfilePoint*>> Select(const Names& names);

  Profiler& profiler_;
};

}  // namespace strata::ipc
