// AttrTable: strict netlink attribute parsing shared by the codecs. libmnl's mnl_attr_parse
// stops silently at an attribute whose length runs past the message; here that is an error,
// as is any attribute shorter than its header. Header-only; thread-safe.
#pragma once

#include <libmnl/libmnl.h>

#include <array>
#include <cstddef>
#include <cstdint>

namespace strata::fea::netlink {

// Fills tb[type] for each attribute in payload[0, len) (types beyond N are ignored). False
// when the attributes do not exactly tile the payload.
template <size_t N>
bool ParseAttrs(const void* payload, size_t len, std::array<const nlattr*, N>& tb) {
  const auto* p = static_cast<const uint8_t*>(payload);
  size_t off = 0;
  while (off + sizeof(nlattr) <= len) {
    const auto* a = reinterpret_cast<const nlattr*>(p + off);
    if (a->nla_len < sizeof(nlattr) || off + a->nla_len > len) return false;
    const size_t type = mnl_attr_get_type(a);
    if (type < N) tb[type] = a;
    off += MNL_ALIGN(a->nla_len);
  }
  return off >= len;
}

// The attributes after a family header of `hdr_len` bytes.
template <size_t N>
bool ParseMessageAttrs(const nlmsghdr* nlh, size_t hdr_len, std::array<const nlattr*, N>& tb) {
  const size_t payload = nlh->nlmsg_len - NLMSG_HDRLEN;
  if (payload < MNL_ALIGN(hdr_len)) return false;
  return ParseAttrs(static_cast<const uint8_t*>(mnl_nlmsg_get_payload(nlh)) + MNL_ALIGN(hdr_len),
                    payload - MNL_ALIGN(hdr_len), tb);
}

}  // namespace strata::fea::netlink
