// RibRedistClient: strata-bgp's subscription to the RIB's redistribution (rib/1.0/enable_redist
// with client = our target): the routes of the configured protocols ("static", "connected") come
// as rib_client/1.0/redist_add / redist_delete and are handed to the speaker (RedistAdd /
// RedistDelete). set_protocols changes or (empty) ends the subscription (its routes withdrawn).
// The protocols subscribed are those asked explicitly (set_protocols, `redistribute`) and those
// the export policies match on (set_policy_protocols, XORP semantics: an export policy with
// `from { protocol static; }` brings the RIB's static routes); a route is withdrawn once neither
// names its protocol. A change of the union re-subscribes without a flap: the routes of protocols
// still wanted stay (stale) and those the new dump does not send are swept at its end.
// When the RIB dies (Finder death notice) its routes are kept, stale and still advertised
// (RedistStale); when it is (back) up we subscribe again, and once its dump is complete
// (rib_client/1.0/redist_dump_done) and `settle` has passed, only the routes it did not send
// again are withdrawn: peers see just the differences. Routes still stale `stale_time` after the
// death (the RIB did not come back) are withdrawn. A failed enable_redist is retried every second.
// Threading: the io_context thread. REQUIRES: router and speaker outlive this object.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bgp/process/bgp_speaker.h"
#include "bgp/process/redist_stale.h"
#include "libipc/interfaces/rib_client.strata.h"
#include "libipc/router.h"

namespace strata::bgp {

// Redistributed routes across a RIB restart (RibRedistClient).
struct RedistTimers {
  // How long routes of a dead RIB are kept at most (like BGP's restart time, RFC 4724).
  std::chrono::milliseconds stale_time{120000};
  // After the new RIB's dump: time for its configuration to come back (rtrmgr replays the
  // static routes, the FEA reports connected ones) before the stale routes are swept.
  std::chrono::milliseconds settle{5000};
};

class RibRedistClient {
 public:
  RibRedistClient(ipc::Router& router, std::string rib_target, std::string client,
                  BgpSpeaker& speaker, RedistTimers timers = {});
  ~RibRedistClient();

  // The protocols to redistribute explicitly (empty: none).
  void set_protocols(std::vector<std::string> protocols);
  // The protocols the export policies match on (empty: none).
  void set_policy_protocols(std::vector<std::string> protocols);
  // The union subscribed.
  const std::vector<std::string>& protocols() const { return protocols_; }
  void rib_event(bool alive);
  std::optional<uint64_t> subscription() const { return id_; }
  // Routes kept from a RIB that went away, not (yet) sent by the new one.
  size_t stale() const { return stale_.size(); }

  // rib_client/1.0 redistribution calls (served by RibNexthopOracle's handler).
  Status redist_add(const rib_client::v1::RedistAddRequest& request);
  Status redist_delete(const rib_client::v1::RedistDeleteRequest& request);
  Status redist_dump_done(const rib_client::v1::RedistDumpDoneRequest& request);

 private:
  // Subscribes to the union of explicit_ and policy_ when it changed.
  void apply();
  void enable();
  void disable();
  void withdraw_all();
  // Withdraws the routes whose protocol is no longer subscribed.
  void withdraw_unwanted();
  // The RIB is gone: what it gave becomes stale, withdrawn at the latest after stale_time.
  void keep_stale();
  // Withdraws the stale routes (`why` is logged) and stops both timers.
  void sweep(const char* why);
  void start_timer(std::unique_ptr<boost::asio::steady_timer>& timer,
                   std::chrono::milliseconds after, const char* why);
  bool ours(uint64_t id) const { return id_ ? *id_ == id : enabling_; }
  void schedule_retry();

  ipc::Router& router_;
  std::string rib_target_;
  std::string client_;
  BgpSpeaker& speaker_;
  std::shared_ptr<spdlog::logger> log_;
  std::vector<std::string> explicit_;  // sorted, unique
  std::vector<std::string> policy_;
  std::vector<std::string> protocols_;  // their union
  bool rib_up_ = false;
  bool enabling_ = false;
  uint64_t generation_ = 0;  // replies of older enable calls are ignored
  std::optional<uint64_t> id_;
  std::set<IpPrefix> given_;  // prefixes handed to the speaker
  RedistTimers timers_;
  RedistStale stale_;
  std::unique_ptr<boost::asio::steady_timer> stale_timer_;   // stale_time from the death
  std::unique_ptr<boost::asio::steady_timer> settle_timer_;  // settle from the dump's end
  std::unique_ptr<boost::asio::steady_timer> retry_;
  bool sweep_at_dump_ = false;  // a re-subscription to a live RIB: sweep at its dump's end
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::bgp
