// RemoteRedistOutput: one redistribution subscription's routes, sent to the client's target as
// rib_client/1.0/redist_add, redist_delete and redist_dump_done.
//
// Changes are gathered into batches (up to max_batch routes of one kind; a change of kind sends
// the pending batch first, so order is kept) and a batch left pending is sent once the current
// event is handled (posted). Calls to one target arrive in order. A failed call is counted; the
// service disables the subscription when the client's target dies. Threading: io_context thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libipc/interfaces/rib_client.strata.h"
#include "libipc/router.h"
#include "rib/redist_stage.h"

namespace strata::rib {

class RemoteRedistOutput : public RedistOutput {
 public:
  RemoteRedistOutput(ipc::Router& router, std::string client, size_t max_batch = 256);
  ~RemoteRedistOutput() override;

  // The subscription id sent with every call; set once the RedistStage assigned it.
  void set_id(uint64_t id) { id_ = id; }
  const std::string& client() const { return client_.target(); }

  void redist_add(const RouteRef& route) override;
  void redist_delete(const RouteRef& route) override;
  void redist_dump_done() override;

  uint64_t routes_sent() const { return routes_sent_; }
  uint64_t failed() const { return *failed_; }

 private:
  enum class Kind : uint8_t { kNone, kAdd, kDelete };
  void queue(Kind kind, const RouteRef& route);
  void send();
  void schedule_send();

  ipc::Router& router_;
  rib_client::v1::RibClientClient client_;
  size_t max_batch_;
  uint64_t id_ = 0;
  Kind kind_ = Kind::kNone;
  std::vector<RouteRef> pending_;
  bool send_posted_ = false;
  uint64_t routes_sent_ = 0;
  std::shared_ptr<uint64_t> failed_ = std::make_shared<uint64_t>(0);
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace strata::rib
