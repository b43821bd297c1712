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

std::string String(const nlattr* a) {
  auto p = Payload(a);
  const auto* s = reinterpret_cast<const char*>(p.data());
  return std::string(s, strnlen(s, p.size()));
}

// IFLA_LINKINFO: the kind, and a VRF's table from IFLA_INFO_DATA.
Status ParseLinkKind(const nlattr* linkinfo, LinkInfo& l) {
  std::array<const nlattr*, IFLA_INFO_MAX + 1> info{};
  if (!ParseAttrs(mnl_attr_get_payload(linkinfo), mnl_attr_get_payload_len(linkinfo), info)) {
    return Status(StatusCode::kDataLoss, "malformed IFLA_LINKINFO");
  }
  if (info[IFLA_INFO_KIND] != nullptr) l.kind = String(info[IFLA_INFO_KIND]);
  if (l.kind != "vrf" || info[IFLA_INFO_DATA] == nullptr) return Status();
  std::array<const nlattr*, IFLA_VRF_MAX + 1> vrf{};
  const nlattr* data = info[IFLA_INFO_DATA];
  if (!ParseAttrs(mnl_attr_get_payload(data), mnl_attr_get_payload_len(data), vrf)) {
    return Status(StatusCode::kDataLoss, "malformed VRF attributes");
  }
  if (vrf[IFLA_VRF_TABLE] != nullptr) {
    if (mnl_attr_get_payload_len(vrf[IFLA_VRF_TABLE]) != 4) {
      return Status(StatusCode::kDataLoss, "IFLA_VRF_TABLE of the wrong length");
    }
    l.vrf_table = mnl_attr_get_u32(vrf[IFLA_VRF_TABLE]);
  }
  return Status();
}

nlmsghdr* PutLinkHeader(uint8_t* buf, uint16_t type, uint16_t flags, uint32_t seq,
                        uint32_t ifindex) {
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf);
  nlh->nlmsg_type = type;
  nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
  nlh->nlmsg_seq = seq;
  auto* ifi = static_cast<ifinfomsg*>(mnl_nlmsg_put_extra_header(nlh, sizeof(ifinfomsg)));
  ifi->ifi_family = AF_UNSPEC;
  ifi->ifi_index = static_cast<int>(ifindex);
  return nlh;
}

void PutVrfKind(nlmsghdr* nlh, uint32_t table) {
  nlattr* linkinfo = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
  mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "vrf");
  nlattr* data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
  mnl_attr_put_u32(nlh, IFLA_VRF_TABLE, table);
  mnl_attr_nest_end(nlh, data);
  mnl_attr_nest_end(nlh, linkinfo);
}

void Append(std::vector<uint8_t>& out, const nlmsghdr* nlh) {
  const auto* p = reinterpret_cast<const uint8_t*>(nlh);
  out.insert(out.end(), p, p + nlh->nlmsg_len);
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
    l.name = String(tb[IFLA_IFNAME]);
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
  if (tb[IFLA_MASTER] != nullptr) {
    if (mnl_attr_get_payload_len(tb[IFLA_MASTER]) != 4) {
      return Status(StatusCode::kDataLoss, "IFLA_MASTER of the wrong length");
    }
    l.master = mnl_attr_get_u32(tb[IFLA_MASTER]);
  }
  if (tb[IFLA_IFALIAS] != nullptr) l.alias = String(tb[IFLA_IFALIAS]);
  if (tb[IFLA_LINKINFO] != nullptr) {
    if (Status s = ParseLinkKind(tb[IFLA_LINKINFO], l); !s.ok()) return s;
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
  if (link.master != 0) mnl_attr_put_u32(nlh, IFLA_MASTER, link.master);
  if (!link.alias.empty()) mnl_attr_put_strz(nlh, IFLA_IFALIAS, link.alias.substr(0, 128).c_str());
  if (link.kind == "vrf") {
    PutVrfKind(nlh, link.vrf_table);
  } else if (!link.kind.empty()) {
    nlattr* linkinfo = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
    mnl_attr_put_strz(nlh, IFLA_INFO_KIND, link.kind.substr(0, 32).c_str());
    mnl_attr_nest_end(nlh, linkinfo);
  }
  out.insert(out.end(), buf.data(), buf.data() + nlh->nlmsg_len);
}

void AppendVrfCreate(std::vector<uint8_t>& out, const std::string& name, uint32_t table,
                     uint32_t seq) {
  alignas(nlmsghdr) std::array<uint8_t, 256> buf{};
  nlmsghdr* nlh = PutLinkHeader(buf.data(), RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, seq, 0);
  mnl_attr_put_strz(nlh, IFLA_IFNAME, name.substr(0, IFNAMSIZ - 1).c_str());
  PutVrfKind(nlh, table);
  Append(out, nlh);
}

void AppendLinkSet(std::vector<uint8_t>& out, const LinkSet& set, uint32_t seq) {
  alignas(nlmsghdr) std::array<uint8_t, 512> buf{};
  nlmsghdr* nlh = PutLinkHeader(buf.data(), RTM_NEWLINK, 0, seq, set.ifindex);
  if (set.ifindex == 0)
    mnl_attr_put_strz(nlh, IFLA_IFNAME, set.name.substr(0, IFNAMSIZ - 1).c_str());
  if (set.up) {
    auto* ifi = static_cast<ifinfomsg*>(mnl_nlmsg_get_payload(nlh));
    ifi->ifi_flags = IFF_UP;
    ifi->ifi_change = IFF_UP;
  }
  if (set.master) mnl_attr_put_u32(nlh, IFLA_MASTER, *set.master);
  if (set.alias) mnl_attr_put_strz(nlh, IFLA_IFALIAS, set.alias->substr(0, 128).c_str());
  Append(out, nlh);
}

void AppendLinkDelete(std::vector<uint8_t>& out, uint32_t ifindex, uint32_t seq) {
  alignas(nlmsghdr) std::array<uint8_t, 64> buf{};
  Append(out, PutLinkHeader(buf.data(), RTM_DELLINK, 0, seq, ifindex));
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
