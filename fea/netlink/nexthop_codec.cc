#include "fea/netlink/nexthop_codec.h"

#include <libmnl/libmnl.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <array>

#include "fea/netlink/attr_table.h"

namespace strata::fea::netlink {
namespace {

nlmsghdr* PutHeader(std::array<uint8_t, 128>& buf, uint16_t type, uint16_t flags, uint32_t seq,
                    uint8_t family, uint8_t protocol) {
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = type;
  nlh->nlmsg_flags = flags;
  nlh->nlmsg_seq = seq;
  auto* nhm = static_cast<nhmsg*>(mnl_nlmsg_put_extra_header(nlh, sizeof(nhmsg)));
  nhm->nh_family = family;
  nhm->nh_protocol = protocol;
  return nlh;
}

void Append(std::vector<uint8_t>& out, const nlmsghdr* nlh) {
  const auto* p = reinterpret_cast<const uint8_t*>(nlh);
  out.insert(out.end(), p, p + nlh->nlmsg_len);
}

}  // namespace

void AppendNexthopAdd(std::vector<uint8_t>& out, const NexthopObject& nh, uint32_t seq) {
  alignas(nlmsghdr) std::array<uint8_t, 128> buf{};
  nlmsghdr* nlh =
      PutHeader(buf, RTM_NEWNEXTHOP, NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL, seq,
                nh.gateway.is_v4() ? AF_INET : AF_INET6, nh.protocol);
  mnl_attr_put_u32(nlh, NHA_ID, nh.id);
  mnl_attr_put_u32(nlh, NHA_OIF, nh.ifindex);
  const auto b = nh.gateway.bytes();
  mnl_attr_put(nlh, NHA_GATEWAY, b.size(), b.data());
  Append(out, nlh);
}

void AppendNexthopDelete(std::vector<uint8_t>& out, uint32_t id, uint32_t seq) {
  alignas(nlmsghdr) std::array<uint8_t, 128> buf{};
  nlmsghdr* nlh = PutHeader(buf, RTM_DELNEXTHOP, NLM_F_REQUEST | NLM_F_ACK, seq, AF_UNSPEC, 0);
  mnl_attr_put_u32(nlh, NHA_ID, id);
  Append(out, nlh);
}

void AppendNexthopDump(std::vector<uint8_t>& out, uint32_t seq) {
  alignas(nlmsghdr) std::array<uint8_t, 128> buf{};
  Append(out, PutHeader(buf, RTM_GETNEXTHOP, NLM_F_REQUEST | NLM_F_DUMP, seq, AF_UNSPEC, 0));
}

StatusOr<std::optional<NexthopObject>> ParseNexthopMessage(const nlmsghdr* nlh) {
  if (nlh->nlmsg_type != RTM_NEWNEXTHOP) {
    return Status(StatusCode::kDataLoss, "not a nexthop message");
  }
  if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(nhmsg))) {
    return Status(StatusCode::kDataLoss, "nexthop message too short");
  }
  const auto* nhm = static_cast<const nhmsg*>(mnl_nlmsg_get_payload(nlh));
  std::array<const nlattr*, NHA_MAX + 1> tb{};
  if (!ParseMessageAttrs(nlh, sizeof(nhmsg), tb)) {
    return Status(StatusCode::kDataLoss, "malformed nexthop attributes");
  }
  const nlattr* id = tb[NHA_ID];
  if (id == nullptr || mnl_attr_get_payload_len(id) != 4) {
    return Status(StatusCode::kDataLoss, "nexthop without a 4-byte NHA_ID");
  }
  if (nhm->nh_family != AF_INET && nhm->nh_family != AF_INET6) {
    return std::optional<NexthopObject>();
  }
  if (tb[NHA_GROUP] != nullptr || tb[NHA_BLACKHOLE] != nullptr || tb[NHA_FDB] != nullptr ||
      tb[NHA_ENCAP] != nullptr || tb[NHA_GATEWAY] == nullptr || tb[NHA_OIF] == nullptr) {
    return std::optional<NexthopObject>();
  }
  if (mnl_attr_get_payload_len(tb[NHA_OIF]) != 4) {
    return Status(StatusCode::kDataLoss, "bad NHA_OIF");
  }
  const size_t want = nhm->nh_family == AF_INET ? 4 : 16;
  if (mnl_attr_get_payload_len(tb[NHA_GATEWAY]) != want) {
    return Status(StatusCode::kDataLoss, "NHA_GATEWAY of the wrong length");
  }
  NexthopObject nh;
  nh.id = mnl_attr_get_u32(id);
  nh.protocol = nhm->nh_protocol;
  nh.ifindex = mnl_attr_get_u32(tb[NHA_OIF]);
  auto gw =
      IpAddr::FromBytes({static_cast<const uint8_t*>(mnl_attr_get_payload(tb[NHA_GATEWAY])), want});
  if (!gw.ok()) return gw.status();
  nh.gateway = *gw;
  return std::optional<NexthopObject>(nh);
}

}  // namespace strata::fea::netlink
