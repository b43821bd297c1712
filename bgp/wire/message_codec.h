// DecodeMessage: one entry point that turns a complete BGP message into its typed form.
//
// The speaker's reader frames the TCP stream with DecodeHeader (message_header.h), then hands
// each whole message here. Header, OPEN, NOTIFICATION and ROUTE-REFRESH errors come back as the
// NOTIFICATION to send; UPDATE errors are inside UpdateDecodeResult, since most of them do not
// end the session (RFC 7606).
#pragma once

#include <span>
#include <variant>

#include "bgp/wire/codec_options.h"
#include "bgp/wire/message_header.h"
#include "bgp/wire/notification.h"
#include "bgp/wire/open_message.h"
#include "bgp/wire/route_refresh.h"
#include "bgp/wire/update_decoder.h"
#include "bgp/wire/wire_result.h"

namespace strata::bgp {

struct KeepaliveMessage {};

// A received NOTIFICATION (distinct from the error side of WireResult, which is one to send).
struct ReceivedNotification {
  NotificationMessage notification;
};

using Message = std::variant<OpenMessage, UpdateDecodeResult, ReceivedNotification,
                             KeepaliveMessage, RouteRefreshMessage>;

// `message` must be exactly one message, header included; its length field must match.
// A NOTIFICATION too short to hold code and subcode decodes as Cease with no subcode.
WireResult<Message> DecodeMessage(std::span<const uint8_t> message, const CodecOptions& options);

}  // namespace strata::bgp
