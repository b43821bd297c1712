// RibNexthopOracle: the pipeline's NexthopOracle over the RIB's interest registration
// (rib/1.0/register_interest, XORP paper 5.2.1), and the rib_client/1.0 service that hears the
// RIB's invalidations.
//
// Each asked next hop is registered with rib.<vr>; the reply (route, metric, the subnet over which
// the answer holds, and for a connected route its subnet and our address on it) goes to the
// listener (the NexthopCache). rib_client/1.0/interest_invalidated
// drops the answer for a subnet; the cache then asks again. (The zero address, our own next hop,
// never gets here: the nexthop resolver treats it as usable at once.)
// RIB lifetime: while rib.<vr> is not up, questions wait (their routes stay held). When it dies,
// every answer it gave is invalidated (the cache keeps them as stale and asks again); when it
// comes back, every waiting question is sent. A failed call is retried after a second.
// Redistribution methods of rib_client/1.0 go to the RibRedistClient (set_redist); without one
// they answer FAILED_PRECONDITION.
// Threading: the io_context thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "bgp/pipeline/nexthop_oracle.h"
#include "common/log.h"
#include "libipc/interfaces/rib_client.strata.h"
#include "libipc/router.h"

namespace strata::bgp {

class RibRedistClient;

class RibNexthopOracle : public NexthopOracle, public rib_client::v1::RibClientHandler {
 public:
  struct Counters {
    uint64_t registrations_sent = 0;
    uint64_t answers = 0;
    uint64_t invalidations = 0;
    uint64_t calls_failed = 0;
  };

  // `client` is our instance (where invalidations are sent).
  RibNexthopOracle(ipc::Router& router, std::string rib_target, std::string client);
  ~RibNexthopOracle() override;

  void set_listener(NexthopListener* listener) override { listener_ = listener; }
  void register_interest(const IpAddr& nexthop) override;
  void deregister_interest(const IpPrefix& covering) override;

  // Finder lifetime event of the RIB instance.
  void rib_event(bool alive);
  // Forgets every question and answer (the pipeline is being rebuilt).
  void reset();
  // Where redist_add / redist_delete go (null: nowhere).
  void set_redist(RibRedistClient* redist) { redist_ = redist; }

  void InterestInvalidated(const rib_client::v1::InterestInvalidatedRequest& request,
                           ipc::Responder<rib_client::v1::InterestInvalidatedReply> reply) override;
  void RedistAdd(const rib_client::v1::RedistAddRequest& request,
                 ipc::Responder<rib_client::v1::RedistAddReply> reply) override;
  void RedistDelete(const rib_client::v1::RedistDeleteRequest& request,
                    ipc::Responder<rib_client::v1::RedistDeleteReply> reply) override;
  void RedistDumpDone(const rib_client::v1::RedistDumpDoneRequest& request,
                      ipc::Responder<rib_client::v1::RedistDumpDoneReply> reply) override;

  bool rib_up() const { return rib_up_; }
  size_t waiting() const { return wanted_.size(); }
  size_t answered() const { return answered_.size(); }
  const Counters& counters() const { return counters_; }

 private:
  void send(const IpAddr& nexthop);
  void schedule_retry();
  // A connected route's subnet and our address on it (its next hop); nothing for other routes.
  static std::optional<NexthopAnswer::Connected> ConnectedOf(const rib::v1::Route& route);

  ipc::Router& router_;
  std::string rib_target_;
  std::string client_;
  std::shared_ptr<spdlog::logger> log_;
  NexthopListener* listener_ = nullptr;
  std::set<IpAddr> wanted_;      // asked, not answered yet
  std::set<IpPrefix> answered_;  // subnets the RIB answered for and may invalidate
  bool rib_up_ = false;
  uint64_t generation_ = 0;  // bumped when the RIB dies: older replies are ignored
  bool retry_pending_ = false;
  Counters counters_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  RibRedistClient* redist_ = nullptr;
};

}  // namespace strata::bgp
