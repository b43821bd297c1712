#include "bgp/session/asio_address.h"

#include <array>

namespace strata::bgp {

boost::asio::ip::address ToAsio(const IpAddr& a) {
  if (a.is_v4()) return boost::asio::ip::address_v4(a.v4_host_order());
  boost::asio::ip::address_v6::bytes_type b;
  std::copy(a.bytes().begin(), a.bytes().end(), b.begin());
  return boost::asio::ip::address_v6(b);
}

IpAddr FromAsio(const boost::asio::ip::address& a) {
  if (a.is_v4()) return IpAddr::V4(a.to_v4().to_uint());
  const auto v6 = a.to_v6();
  if (v6.is_v4_mapped()) {
    return IpAddr::V4(boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6).to_uint());
  }
  const auto b = v6.to_bytes();
  std::array<uint8_t, 16> bytes;
  std::copy(b.begin(), b.end(), bytes.begin());
  return IpAddr::V6(bytes);
}

}  // namespace strata::bgp
