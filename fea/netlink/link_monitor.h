// LinkMonitor: follows the kernel's interfaces and addresses and keeps an InterfaceTable equal
// to them.
//
// Start() subscribes to the link and IPv4/IPv6 address multicast groups first, then dumps
// links and addresses into InterfaceTable::Sync(), so no change between the two is lost (an
// event that repeats the dump is a no-op). Events then apply one by one. When the kernel drops
// events (ENOBUFS on the monitor socket) the monitor dumps again and Syncs, which also catches
// removals it missed. Malformed messages are counted and skipped.
// Threading: the io_context thread.
#pragma once

#include <memory>

#include "common/asio.h"
#include "common/log.h"
#include "fea/interface_table.h"
#include "fea/netlink/nl_socket.h"

namespace strata::fea::netlink {

class LinkMonitor {
 public:
  LinkMonitor(boost::asio::io_context& io, InterfaceTable& table);
  ~LinkMonitor();

  Status Start();
  // Dumps links and addresses and Syncs the table.
  Status Resync();
  uint64_t bad_messages() const { return bad_messages_; }
  uint64_t overflows() const { return overflows_; }

 private:
  void OnMessage(const nlmsghdr* nlh);

  boost::asio::io_context& io_;
  InterfaceTable& table_;
  std::shared_ptr<spdlog::logger> log_;
  std::unique_ptr<NlSocket> events_;
  std::unique_ptr<NlSocket> requests_;
  uint64_t bad_messages_ = 0;
  uint64_t overflows_ = 0;
};

}  // namespace strata::fea::netlink
