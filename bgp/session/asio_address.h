// Conversions between Strata's IpAddr and Boost.Asio addresses, for the socket side of the
// session layer. An IPv4-mapped IPv6 address (from a dual-stack listener) converts to IPv4.
#pragma once

#include "common/asio.h"
#include "common/ip_addr.h"

namespace strata::bgp {

boost::asio::ip::address ToAsio(const IpAddr& a);
IpAddr FromAsio(const boost::asio::ip::address& a);

}  // namespace strata::bgp
