#include "bench/bgp/bgp_kernel_routes.h"

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "bench/bgp/bgp_netns.h"

namespace strata::bench {

long CountKernelRoutes(const std::string& ns) {
  thread_local std::string entered;
  if (entered != ns) {
    if (!BenchNetwork::Enter(ns)) return -1;
    entered = ns;
  }
  const int fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (fd < 0) return -1;
  struct {
    nlmsghdr nh;
    rtmsg rt;
  } req{};
  req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(rtmsg));
  req.nh.nlmsg_type = RTM_GETROUTE;
  req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
  req.nh.nlmsg_seq = 1;
  req.rt.rtm_family = AF_INET;
  long count = 0;
  if (::send(fd, &req, req.nh.nlmsg_len, 0) < 0) {
    ::close(fd);
    return -1;
  }
  std::vector<char> buf(1 << 20);
  bool done = false;
  while (!done) {
    const ssize_t r = ::recv(fd, buf.data(), buf.size(), 0);
    if (r <= 0) {
      count = -1;
      break;
    }
    int len = static_cast<int>(r);
    for (auto* nh = reinterpret_cast<nlmsghdr*>(buf.data()); NLMSG_OK(nh, len);
         nh = NLMSG_NEXT(nh, len)) {
      if (nh->nlmsg_type == NLMSG_DONE || nh->nlmsg_type == NLMSG_ERROR) {
        done = true;
        break;
      }
      if (nh->nlmsg_type != RTM_NEWROUTE) continue;
      const auto* rt = static_cast<const rtmsg*>(NLMSG_DATA(nh));
      if (rt->rtm_table == RT_TABLE_MAIN && rt->rtm_protocol != RTPROT_KERNEL) ++count;
    }
  }
  ::close(fd);
  return count;
}

}  // namespace strata::bench
