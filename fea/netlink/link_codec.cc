#include "fea/netlink/link_codec.h"

#include <libmnl/libmnl.h>
#include <linux/if.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <array>
#include <cstring>

#include "fea/netlink/attr_table.h"

namespace strata::fea::netlink {
namespace {

std::span<const uint8_t> Payload(const nlattr* a) {
  return {static_cast<const uint8_t*>(mnl_attr_get_payload(a)), mnl_attr_get_payload_len(a)};
}

}  // namespace

StatusOr<LinkInfo> ParseLinkMessage(const nlmsghdr* nlh) {
  if (nlh->nlmsg_type != RTM_NEWLINK && nlh->nlmsg_type != RTM_DELLINK) {
    return Status(StatusCode::kDataLoss, "not a link message");
  }
  if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(ifinfomsg))) {
    return Status(StatusCode::kDataLoss, "link message too short");
  }
  const auto* ifi = static_cast<const ifinfomsg*>(mnl_nlmsg_get_payload(nlh));
  std::array<const nlattr*, IFLA_MAX + 1> tb{};
  if (!ParseMessageAttrs(nlh, sizeof(ifinfomsg), tb)) {
    return Status(StatusCode::kDataLoss, "malformed link attributes");
  }
  if (ifi->ifi_index <= 0) return Status(StatusCode::kDataLoss, "bad ifindex");
  LinkInfo l;
  l.ifindex = static_cast<uint32_t>(ifi->ifi_index);
  l.admin_up = (ifi->ifi_flags & IFF_UP) != 0;
  l.carrier = (ifi->ifi_flags & IFF_LOWER_UP) != 0;
  if (tb[IFLA_IFNAME] != nullptr) {
    auto p = Payload(tb[IFLA_IFNAME]);
    const auto* s = reinterpret_cast<const char*>(p.data());
    l.name.assign(s, strnlen(s, p.size()));
    // The kernel's names fit IFNAMSIZ with their NUL: a longer one is no interface's.
    if (l.name.size() >= IFNAMSIZ) return Status(StatusCode::kDataLoss, "link name too long");
  }
  if (l.name.empty() && nlh->nlmsg_type == RTM_NEWLINK) {
    return Status(StatusCode::kDataLoss, "link without a name");
  }
  if (tb[IFLA_MTU] != nullptr && mnl_attr_get_payload_len(tb[IFLA_MTU]) == 4) {
    l.mtu = mnl_attr_get_u32(tb[IFLA_MTU]);
  }
  if (tb[IFLA_ADDRESS] != nullptr && mnl_attr_get_payload_len(tb[IFLA_ADDRESS]) == 6) {
    auto mac = MacAddr::FromBytes(Payload(tb[IFLA_ADDRESS]));
    if (mac.ok()) l.mac = *mac;
  }
  return l;
}

StatusOr<AddrInfo> ParseAddrMessage(const nlmsghdr* nlh) {
  if (nlh->nlmsg_type != RTM_NEWADDR && nlh->nlmsg_type != RTM_DELADDR) {
    return Status(StatusCode::kDataLoss, "not an address message");
  }
  if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(ifaddrmsg))) {
    return Status(StatusCode::kDataLoss, "address message too short");
  }
  const auto* ifa = static_cast<const ifaddrmsg*>(mnl_nlmsg_get_payload(nlh));
  if (ifa->ifa_family != AF_INET && ifa->ifa_family != AF_INET6) {
    return Status(StatusCode::kUnimplemented, "address family not handled");
  }
  std::array<const nlattr*, IFA_MAX + 1> tb{};
  if (!ParseMessageAttrs(nlh, sizeof(ifaddrmsg), tb)) {
    return Status(StatusCode::kDataLoss, "malformed address attributes");
  }
  // IFA_LOCAL is the interface's own address; IFA_ADDRESS is the peer on point-to-point links.
  const nlattr* a = tb[IFA_LOCAL] != nullptr ? tb[IFA_LOCAL] : tb[IFA_ADDRESS];
  if (a == nullptr) return Status(StatusCode::kDataLoss, "address message without an address");
  const size_t want = ifa->ifa_family == AF_INET ? 4 : 16;
  if (mnl_attr_get_payload_len(a) != want) {
    return Status(StatusCode::kDataLoss, "address of the wrong length");
  }
  auto addr = IpAddr::FromBytes(Payload(a));
  if (!addr.ok()) return addr.status();
  if (ifa->ifa_prefixlen > addr->bit_length()) {
    return Status(StatusCode::kDataLoss, "bad address prefix length");
  }
  AddrInfo info;
  info.ifindex = ifa->ifa_index;
  info.address = *addr;
  info.prefix_len = ifa->ifa_prefixlen;
  return info;
}

void AppendLinkMessage(std::vector<uint8_t>& out, uint16_t type, const LinkInfo& link,
                       uint32_t seq) {
  alignas(nlmsghdr) std::array<uint8_t, 512> buf{};
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = type;
  nlh->nlmsg_seq = seq;
  auto* ifi = static_cast<ifinfomsg*>(mnl_nlmsg_put_extra_header(nlh, sizeof(ifinfomsg)));
  ifi->ifi_index = static_cast<int>(link.ifindex);
  ifi->ifi_flags =
      (link.admin_up ? unsigned{IFF_UP} : 0u) | (link.carrier ? unsigned{IFF_LOWER_UP} : 0u);
  mnl_attr_put_strz(nlh, IFLA_IFNAME, link.name.substr(0, IFNAMSIZ - 1).c_str());
  mnl_attr_put_u32(nlh, IFLA_MTU, link.mtu);
  if (link.mac) mnl_attr_put(nlh, IFLA_ADDRESS, 6, link.mac->bytes().data());
  out.insert(out.end(), buf.data(), buf.data() + nlh->nlmsg_len);
}

void AppendAddrMessage(std::vector<uint8_t>& out, uint16_t type, const AddrInfo& addr,
                       uint32_t seq) {
  alignas(nlmsghdr) std::array<uint8_t, 256> buf{};
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = type;
  nlh->nlmsg_seq = seq;
  auto* ifa = static_cast<ifaddrmsg*>(mnl_nlmsg_put_extra_header(nlh, sizeof(ifaddrmsg)));
  ifa->ifa_family = addr.address.is_v4() ? AF_INET : AF_INET6;
  ifa->ifa_prefixlen = static_cast<uint8_t>(addr.prefix_len);
  ifa->ifa_index = addr.ifindex;
  auto b = addr.address.bytes();
  mnl_attr_put(nlh, IFA_ADDRESS, b.size(), b.data());
  if (addr.address.is_v4()) mnl_attr_put(nlh, IFA_LOCAL, b.size(), b.data());
  out.insert(out.end(), buf.data(), buf.data() + nlh->nlmsg_len);
}

}  // namespace strata::fea::netlink
