// Sample BGP messages that exercise most of the codec: an OPEN with several capabilities, the
// small fixed messages, and an UPDATE carrying every attribute the decoder knows plus an unknown
// one, with IPv4 and MP_REACH/MP_UNREACH IPv6 prefixes. Seeds for the robustness test and the
// fuzzers' corpora. Test-only; no gtest dependency.
#pragma once

#include <cstdint>
#include <vector>

#include "bgp/wire/message_codec.h"
#include "bgp/wire/update_message.h"
#include "testing/common/value_literals.h"

namespace strata::bgp::test_util {

// OPEN, KEEPALIVE, a shutdown NOTIFICATION, ROUTE-REFRESH and an IPv6 End-of-RIB, encoded.
inline std::vector<std::vector<uint8_t>> SampleControlMessages() {
  using strata::test_util::A;
  std::vector<std::vector<uint8_t>> out;
  Capabilities caps;
  caps.multiprotocol = {kIpv4Unicast, kIpv6Unicast};
  caps.route_refresh = true;
  caps.graceful_restart = GracefulRestartCapability{false, true, 90, {{kIpv6Unicast, true}}};
  caps.unknown = {RawCapability{73, {1, 2, 3}}};
  out.push_back(EncodeOpen(OpenMessage::Make(4200000000, 90, A("10.0.0.1"), caps)));
  out.push_back(EncodeKeepalive());
  out.push_back(
      EncodeNotification(MakeShutdownNotification(CeaseSubcode::kAdministrativeShutdown, "bye")));
  out.push_back(EncodeRouteRefresh(RouteRefreshMessage{kIpv6Unicast, 1}));
  out.push_back(EncodeEndOfRib(kIpv6Unicast));
  return out;
}

// An UPDATE with every known attribute (confederation, sequence and set segments), an unknown
// optional transitive one, and IPv4 and IPv6 prefixes both announced and withdrawn.
inline UpdateMessage SampleUpdate() {
  using strata::test_util::A;
  using strata::test_util::P;
  PathAttributes a;
  a.origin = Origin::kEgp;
  a.as_path = AsPath({{AsSegmentType::kConfedSequence, {64512}},
                      {AsSegmentType::kSequence, {65001, 4200000000}},
                      {AsSegmentType::kSet, {1, 2}}});
  a.next_hop = A("192.0.2.1");
  a.med = 5;
  a.local_pref = 7;
  a.atomic_aggregate = true;
  a.aggregator() = Aggregator{4200000001, A("192.0.2.9")};
  a.communities = {1, 2};
  a.originator_id() = A("10.9.9.9");
  a.cluster_list() = {3};
  a.ext_communities() = {4};
  a.large_communities() = {{5, 6, 7}};
  a.unknown() = {RawAttribute{0xe0, 99, {1, 2, 3}}};
  UpdateMessage u;
  u.attrs = a;
  u.withdrawn = {P("10.1.0.0/16"), P("0.0.0.0/0")};
  u.nlri = {P("10.2.0.0/15"), P("10.3.3.3/32")};
  u.mp_reach = MpReach{kIpv6Unicast, A("2001:db8::1"), A("fe80::1"), {P("2001:db8:5::/48")}};
  u.mp_unreach = MpUnreach{kIpv6Unicast, {P("2001:db8:6::/64"), P("::/0")}};
  return u;
}

}  // namespace strata::bgp::test_util
