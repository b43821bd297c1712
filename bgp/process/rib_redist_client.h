// RibRedistClient: strata-bgp's subscription to the RIB's redistribution (rib/1.0/enable_redist
// with client = our target): the routes of the configured protocols ("static", "connected") come
// as rib_client/1.0/redist_add / redist_delete and are handed to the speaker (RedistAdd /
// RedistDelete). set_protocols changes or (empty) ends the subscription; while the RIB is down
// there is none and the routes it gave are withdrawn; when it is (back) up we subscribe again and
// its dump brings them back. A failed enable_redist is retried every second.
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

  // The protocols to redistribute (empty: none).
  void set_protocols(std::vector<std::string> protocols);
  const std::vector<std::string>& protocols() const { return protocols_; }
  void rib_event(bool alive);
  std::optional<uint64_t> subscription() const { return id_; }

  // rib_client/1.0 redistribution calls (served by RibNexthopOracle's handler).
  Status redist_add(const rib_client::v1::RedistAddRequest& request);
  Status redist_delete(const rib_client::v1::RedistDeleteRequest& request);

 private:
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
  std::vector<std::string> protocols_;
  bool rib_up_ = false;
  bool enabling_ = false;
  uint64_t generation_ = 0;  // replies of older enable calls are ignored
  std::optional<uint64_t> id_;
  std::set<IpPrefix> given_;  // prefixes handed to the speaker
  std::unique_ptr<boost::asio::steady_timer> retry_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::bgp
