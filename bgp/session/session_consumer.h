// SessionConsumer: where a BGP session delivers what it receives; the route pipeline implements
// it (PeerIn for UPDATEs, the export side for refresh requests and flow control).
//
// Contract: called on the session's io_context thread. Between OnSessionEstablished and
// OnSessionDown, every UPDATE of the session arrives in order through OnUpdate. OnSessionDown
// ends the session; whether its routes go at once or stay stale (graceful restart, RFC 4724) is
// the consumer's decision.
// A callback may call the session's send methods, Start and Stop, but must not destroy the
// session (post that instead).
#pragma once

#include <string_view>

#include "bgp/wire/codec_options.h"
#include "bgp/wire/route_refresh.h"
#include "bgp/wire/update_decoder.h"

namespace strata::bgp {

class SessionConsumer {
 public:
  virtual ~SessionConsumer() = default;

  // The session reached Established with these parameters (families, codec options).
  virtual void OnSessionEstablished(const NegotiatedSession& session) = 0;
  // A decoded UPDATE whose RFC 7606 outcome is none, attribute-discard or treat-as-withdraw:
  // use Announcements() and Withdrawals(). Session-reset and afi-safi-disable outcomes end the
  // session instead and are not delivered. End-of-RIB markers are delivered (end_of_rib set).
  virtual void OnUpdate(UpdateDecodeResult&& update) = 0;
  // A ROUTE-REFRESH for a negotiated family (subtype normal, BoRR or EoRR).
  virtual void OnRouteRefresh(const RouteRefreshMessage& request) = 0;
  // The Established session ended; `reason` is for logs.
  virtual void OnSessionDown(std::string_view reason) = 0;
  // The write queue passed its high-water mark: stop sending UPDATEs until OnWritable.
  virtual void OnWriteBlocked() = 0;
  // The write queue drained below its low-water mark.
  virtual void OnWritable() = 0;
  // Every whole message of one read from the connection has been delivered: the place to
  // start work the messages made due (the speaker runs its pending pipeline slice here rather
  // than after the next poll of its sockets).
  virtual void OnInputDone() {}
};

}  // namespace strata::bgp
