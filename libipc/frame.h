// Frames of the lean transport families ("sunix", "stcp"): protobuf payloads behind a small
// binary header on a byte stream.
//
//   u32 length of everything after this field (little endian), at most kMaxFrameBytes
//   u8  kind: 1 call, 2 reply
//   u64 call id (chosen by the caller, echoed in the reply)
//   call:  u16 method length, method ("INSTANCE/IFACE/VERSION/METHOD"), u8 key length (0 or 16),
//          key, payload (the serialized request message) to the end
//   reply: u32 status code, u32 message length, message, payload (the reply message) to the end
//
// Parsing never trusts a length: every field is bounds-checked and a bad frame is an error that
// closes the connection. Pure functions; thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace strata::ipc {

// The format's ceiling; each connection has its own, lower limit (libipc/ipc_limits.h).
inline constexpr uint32_t kMaxFrameBytes = 64u << 20;
inline constexpr size_t kKeyBytes = 16;

enum class FrameKind : uint8_t { kCall = 1, kReply = 2 };

struct CallFrame {
  uint64_t id = 0;
  std::string_view method;
  std::string_view key;
  std::string_view payload;
};

struct ReplyFrame {
  uint64_t id = 0;
  StatusCode code = StatusCode::kOk;
  std::string_view message;
  std::string_view payload;
};

// Appends a frame to `out`. The payload is produced in place by `write_payload(std::string&)`,
// which appends to the string it is given, so no temporary copy is made.
template <typename WritePayload>
void AppendCallFrame(std::string& out, uint64_t id, std::string_view method, std::string_view key,
                     WritePayload&& write_payload);
template <typename WritePayload>
void AppendReplyFrame(std::string& out, uint64_t id, const Status& status,
                      WritePayload&& write_payload);

// Splits one frame off the front of `buf`. Returns the number of bytes it used, 0 when the
// frame is not complete yet, or an error for a malformed frame (then the stream is unusable).
// `kind` says which of `call` / `reply` was filled; their views point into `buf`. A frame
// longer than `max_frame_bytes` is RESOURCE_EXHAUSTED as soon as its length prefix is in.
StatusOr<size_t> ParseFrame(std::string_view buf, FrameKind& kind, CallFrame& call,
                            ReplyFrame& reply, uint32_t max_frame_bytes = kMaxFrameBytes);

// The frame at the front of `buf`: its length (after the length field) once 4 bytes are in,
// and, for a call whose header is in up to the method, the method. Validates nothing else.
struct FrameHead {
  bool have_length = false;
  uint32_t length = 0;
  bool have_method = false;
  std::string_view method;
};
FrameHead PeekFrame(std::string_view buf);

namespace frame_internal {
void PutU16(std::string& out, uint16_t v);
void PutU32(std::string& out, uint32_t v);
void PutU64(std::string& out, uint64_t v);
void PatchU32(std::string& out, size_t at, uint32_t v);
}  // namespace frame_internal

template <typename WritePayload>
void AppendCallFrame(std::string& out, uint64_t id, std::string_view method, std::string_view key,
                     WritePayload&& write_payload) {
  using namespace frame_internal;
  const size_t start = out.size();
  PutU32(out, 0);
  out.push_back(static_cast<char>(FrameKind::kCall));
  PutU64(out, id);
  PutU16(out, static_cast<uint16_t>(method.size()));
  out.append(method);
  out.push_back(static_cast<char>(key.size()));
  out.append(key);
  write_payload(out);
  PatchU32(out, start, static_cast<uint32_t>(out.size() - start - 4));
}

template <typename WritePayload>
void AppendReplyFrame(std::string& out, uint64_t id, const Status& status,
                      WritePayload&& write_payload) {
  using namespace frame_internal;
  const size_t start = out.size();
  PutU32(out, 0);
  out.push_back(static_cast<char>(FrameKind::kReply));
  PutU64(out, id);
  PutU32(out, static_cast<uint32_t>(status.code()));
  PutU32(out, static_cast<uint32_t>(status.message().size()));
  out.append(status.message());
  if (status.ok()) write_payload(out);
  PatchU32(out, start, static_cast<uint32_t>(out.size() - start - 4));
}

}  // namespace strata::ipc
