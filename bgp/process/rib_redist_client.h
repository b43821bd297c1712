// RibRedistClient: strata-bgp's subscription to the RIB's redistribution (rib/1.0/enable_redist
// with client = our target): the routes of the configured protocols ("static", "connected") come
// as rib_client/1.0/redist_add / redist_delete and are handed to the speaker (RedistAdd /
// RedistDelete). set_protocols changes or (empty) ends the subscription; while the RIB is down
// there is none and the routes it gave are withdrawn; when it is (back) up we subscribe again and
// its dump brings them back. A failed enable_redist is retried every second.
// The protocols subscribed are those asked explicitly (set_protocols, `redistribute`) and those
// the export policies match on (set_policy_protocols, XORP semantics: an export policy with
// `from { protocol static; }` brings the RIB's static routes); a route is withdrawn once neither
// names its protocol. A change of the union re-subscribes (routes withdrawn, the dump re-adds).
// Threading: the io_context thread. REQUIRES: router and speaker outlive this object.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bgp/process/bgp_speaker.h"
#include "libipc/interfaces/rib_client.strata.h"
#include "libipc/router.h"

namespace strata::bgp {

class RibRedistClient {
 public:
  RibRedistClient(ipc::Router& router, std::string rib_target, std::string client,
                  BgpSpeaker& speaker);
  ~RibRedistClient();

  // The protocols to redistribute explicitly (empty: none).
  void set_protocols(std::vector<std::string> protocols);
  // The protocols the export policies match on (empty: none).
  void set_policy_protocols(std::vector<std::string> protocols);
  // The union subscribed.
  const std::vector<std::string>& protocols() const { return protocols_; }
  void rib_event(bool alive);
  std::optional<uint64_t> subscription() const { return id_; }

  // rib_client/1.0 redistribution calls (served by RibNexthopOracle's handler).
  Status redist_add(const rib_client::v1::RedistAddRequest& request);
  Status redist_delete(const rib_client::v1::RedistDeleteRequest& request);

 private:
  // Subscribes to the union of explicit_ and policy_ when it changed.
  void apply();
  void enable();
  void disable();
  void withdraw_all();
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
  std::unique_ptr<boost::asio::steady_timer> retry_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::bgp
