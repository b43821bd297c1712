#include "libipc/frame.h"

#include <algorithm>
#include <cstring>

namespace strata::ipc {
namespace frame_internal {

void PutU16(std::string& out, uint16_t v) {
  char b[2] = {static_cast<char>(v), static_cast<char>(v >> 8)};
  out.append(b, 2);
}

void PutU32(std::string& out, uint32_t v) {
  char b[4];
  for (int i = 0; i < 4; ++i) b[i] = static_cast<char>(v >> (8 * i));
  out.append(b, 4);
}

void PutU64(std::string& out, uint64_t v) {
  char b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>(v >> (8 * i));
  out.append(b, 8);
}

void PatchU32(std::string& out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + i] = static_cast<char>(v >> (8 * i));
}

}  // namespace frame_internal

namespace {

// A bounds-checked little-endian reader over one frame's bytes.
class Reader {
 public:
  explicit Reader(std::string_view b) : b_(b) {}
  bool U8(uint8_t& v) { return Fixed(v, 1); }
  bool U16(uint16_t& v) { return Fixed(v, 2); }
  bool U32(uint32_t& v) { return Fixed(v, 4); }
  bool U64(uint64_t& v) { return Fixed(v, 8); }
  bool Bytes(size_t n, std::string_view& v) {
    if (b_.size() - pos_ < n) return false;
    v = b_.substr(pos_, n);
    pos_ += n;
    return true;
  }
  std::string_view Rest() { return b_.substr(pos_); }

 private:
  template <typename T>
  bool Fixed(T& v, size_t n) {
    if (b_.size() - pos_ < n) return false;
    uint64_t x = 0;
    for (size_t i = 0; i < n; ++i) x |= uint64_t{static_cast<uint8_t>(b_[pos_ + i])} << (8 * i);
    v = static_cast<T>(x);
    pos_ += n;
    return true;
  }
  std::string_view b_;
  size_t pos_ = 0;
};

}  // namespace

FrameHead PeekFrame(std::string_view buf) {
  FrameHead h;
  Reader r(buf);
  if (!r.U32(h.length)) return h;
  h.have_length = true;
  uint8_t kind = 0;
  uint64_t id = 0;
  uint16_t mlen = 0;
  if (!r.U8(kind) || kind != static_cast<uint8_t>(FrameKind::kCall) || !r.U64(id) || !r.U16(mlen) ||
      size_t{mlen} + 11 > h.length || !r.Bytes(mlen, h.method)) {
    return h;
  }
  h.have_method = true;
  return h;
}

StatusOr<size_t> ParseFrame(std::string_view buf, FrameKind& kind, CallFrame& call,
                            ReplyFrame& reply, uint32_t max_frame_bytes) {
  if (buf.size() < 4) return size_t{0};
  uint32_t len = 0;
  Reader head(buf.substr(0, 4));
  head.U32(len);
  const uint32_t limit = std::min(max_frame_bytes, kMaxFrameBytes);
  if (len > limit) {
    return ResourceExhausted("frame of " + std::to_string(len) + " bytes exceeds the limit of " +
                             std::to_string(limit));
  }
  if (buf.size() - 4 < len) return size_t{0};
  Reader r(buf.substr(4, len));
  uint8_t k = 0;
  uint64_t id = 0;
  if (!r.U8(k) || !r.U64(id)) return InvalidArgument("truncated frame header");
  if (k == static_cast<uint8_t>(FrameKind::kCall)) {
    uint16_t mlen = 0;
    uint8_t klen = 0;
    call = CallFrame{};
    call.id = id;
    if (!r.U16(mlen) || !r.Bytes(mlen, call.method) || !r.U8(klen) || !r.Bytes(klen, call.key)) {
      return InvalidArgument("truncated call frame");
    }
    call.payload = r.Rest();
    kind = FrameKind::kCall;
  } else if (k == static_cast<uint8_t>(FrameKind::kReply)) {
    uint32_t code = 0;
    uint32_t mlen = 0;
    reply = ReplyFrame{};
    reply.id = id;
    if (!r.U32(code) || !r.U32(mlen) || !r.Bytes(mlen, reply.message)) {
      return InvalidArgument("truncated reply frame");
    }
    if (code > static_cast<uint32_t>(StatusCode::kUnauthenticated)) code = 2;  // UNKNOWN
    reply.code = static_cast<StatusCode>(code);
    reply.payload = r.Rest();
    kind = FrameKind::kReply;
  } else {
    return InvalidArgument("unknown frame kind " + std::to_string(k));
  }
  return size_t{4} + len;
}

}  // namespace strata::ipc
