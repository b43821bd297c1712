// RemoteInterestListener: sends the RegisterStage's invalidations to the registering client's
// target as rib_client/1.0/interest_invalidated. Fire and forget: a client that died has lost
// its registrations anyway; failures are counted. Threading: the io_context thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "libipc/router.h"
#include "rib/register_stage.h"

namespace strata::rib {

class RemoteInterestListener : public InterestListener {
 public:
  // `self` is the RIB's instance name, sent so a client of several RIBs knows which one spoke.
  RemoteInterestListener(ipc::Router& router, std::string self)
      : router_(router), self_(std::move(self)) {}

  void interest_invalidated(const std::string& client, const IpPrefix& valid_subnet) override;

  uint64_t sent() const { return sent_; }
  uint64_t failed() const { return *failed_; }

 private:
  ipc::Router& router_;
  std::string self_;
  uint64_t sent_ = 0;
  std::shared_ptr<uint64_t> failed_ = std::make_shared<uint64_t>(0);
};

}  // namespace strata::rib
