#include "fea/netlink/link_monitor.h"

#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "fea/netlink/link_codec.h"
#include "fea/netlink/route_codec.h"

namespace strata::fea::netlink {

LinkMonitor::LinkMonitor(boost::asio::io_context& io, InterfaceTable& table)
    : io_(io), table_(table), log_(MakeLogger("fea.links")) {}

LinkMonitor::~LinkMonitor() = default;

Status LinkMonitor::Start() {
  auto events = NlSocket::Open(RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR);
  if (!events.ok()) return events.status();
  auto requests = NlSocket::Open(0);
  if (!requests.ok()) return requests.status();
  events_ = std::move(*events);
  requests_ = std::move(*requests);
  events_->StartReading(
      io_, [this](const nlmsghdr* nlh) { OnMessage(nlh); },
      [this](const Status& s) {
        if (s.code() != StatusCode::kResourceExhausted) {
          log_->error("link monitor stopped: {}", s.ToString());
          return;
        }
        ++overflows_;
        log_->warn("kernel dropped link events; dumping again");
        if (Status r = Resync(); !r.ok()) log_->error("link resync failed: {}", r.ToString());
      });
  return Resync();
}

Status LinkMonitor::Resync() {
  std::vector<LinkInfo> links;
  std::vector<AddrInfo> addrs;
  std::vector<uint8_t> req;
  uint32_t seq = requests_->NextSeq();
  AppendDumpRequest(req, RTM_GETLINK, AF_UNSPEC, seq);
  Status s = requests_->Dump(req, seq, [&](const nlmsghdr* nlh) -> Status {
    auto l = ParseLinkMessage(nlh);
    if (!l.ok()) {
      ++bad_messages_;
      return Status();
    }
    links.push_back(std::move(*l));
    return Status();
  });
  if (!s.ok()) return s;
  req.clear();
  seq = requests_->NextSeq();
  AppendDumpRequest(req, RTM_GETADDR, AF_UNSPEC, seq);
  s = requests_->Dump(req, seq, [&](const nlmsghdr* nlh) -> Status {
    auto a = ParseAddrMessage(nlh);
    if (a.ok()) addrs.push_back(*a);
    return Status();
  });
  if (!s.ok()) return s;
  table_.Sync(links, addrs);
  return Status();
}

void LinkMonitor::OnMessage(const nlmsghdr* nlh) {
  switch (nlh->nlmsg_type) {
    case RTM_NEWLINK:
    case RTM_DELLINK: {
      auto l = ParseLinkMessage(nlh);
      if (!l.ok()) {
        ++bad_messages_;
        log_->warn("bad link message: {}", l.status().ToString());
        return;
      }
      if (nlh->nlmsg_type == RTM_NEWLINK) {
        table_.UpdateLink(*l);
      } else {
        table_.RemoveLink(l->ifindex);
      }
      return;
    }
    case RTM_NEWADDR:
    case RTM_DELADDR: {
      auto a = ParseAddrMessage(nlh);
      if (!a.ok()) {
        if (a.status().code() != StatusCode::kUnimplemented) ++bad_messages_;
        return;
      }
      if (nlh->nlmsg_type == RTM_NEWADDR) {
        table_.AddAddress(*a);
      } else {
        table_.RemoveAddress(*a);
      }
      return;
    }
    default:
      return;
  }
}

}  // namespace strata::fea::netlink
