// MessageHeader: the 19-byte header every BGP message starts with (RFC 4271 4.1), its checks
// (RFC 4271 6.1) and the helpers that frame an outgoing message.
//
// A stream reader calls DecodeHeader on the first 19 bytes it has, learns the message length,
// and waits for the rest. KEEPALIVE, which is nothing but a header, is encoded here too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "bgp/wire/bgp_types.h"
#include "bgp/wire/byte_writer.h"
#include "bgp/wire/wire_result.h"

namespace strata::bgp {

struct MessageHeader {
  uint16_t length = 0;  // of the whole message, header included
  MessageType type = MessageType::kKeepalive;
};

// Checks the marker (Connection Not Synchronized), the type (Bad Message Type) and the length
// against the type's minimum and `max_message_size` (Bad Message Length; OPEN and KEEPALIVE are
// held to 4096 even with extended messages, RFC 8654). Fewer than 19 bytes is Bad Message Length.
WireResult<MessageHeader> DecodeHeader(std::span<const uint8_t> bytes, size_t max_message_size);

// The smallest valid length of a message of this type, header included.
size_t MinMessageLength(MessageType type);

// Starts a message in `w`: marker, a length placeholder and the type.
void BeginMessage(ByteWriter& w, MessageType type);
// Patches the length of the message that starts at offset `start`. REQUIRES: it fits 16 bits.
void FinishMessage(ByteWriter& w, size_t start = 0);

std::vector<uint8_t> EncodeKeepalive();

}  // namespace strata::bgp
