// Lean IPC frame harness: the bytes a peer process writes to a sunix/stcp connection. Input: a
// byte stream, split into frames the way a connection reads it. Properties beyond "no crash, no
// leak, no UB": ParseFrame never claims more bytes than it has, and every frame it accepts
// re-encodes (AppendCallFrame / AppendReplyFrame) to a frame that parses to the same call, or to
// a reply of the same meaning (unknown status codes read as UNKNOWN; an OK reply's message and an
// error's payload are not part of it).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "libipc/frame.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace strata;
  using namespace strata::ipc;
  std::string_view buf(reinterpret_cast<const char*>(data), size);
  while (!buf.empty()) {
    FrameKind kind{};
    CallFrame call;
    ReplyFrame reply;
    auto used = ParseFrame(buf, kind, call, reply);
    if (!used.ok() || *used == 0) return 0;  // malformed (connection closed) or incomplete
    FUZZ_CHECK(*used <= buf.size(), "used past the end");
    std::string out;
    if (kind == FrameKind::kCall) {
      AppendCallFrame(out, call.id, call.method, call.key,
                      [&](std::string& s) { s.append(call.payload); });
    } else {
      FUZZ_CHECK(kind == FrameKind::kReply, "unknown kind accepted");
      const Status status =
          reply.code == StatusCode::kOk ? Status() : Status(reply.code, std::string(reply.message));
      AppendReplyFrame(out, reply.id, status, [&](std::string& s) { s.append(reply.payload); });
    }
    FrameKind kind2{};
    CallFrame call2;
    ReplyFrame reply2;
    auto used2 = ParseFrame(out, kind2, call2, reply2);
    FUZZ_CHECK(used2.ok() && *used2 == out.size() && kind2 == kind, "re-encoded frame differs");
    if (kind == FrameKind::kCall) {
      FUZZ_CHECK(call2.id == call.id && call2.method == call.method && call2.key == call.key &&
                     call2.payload == call.payload,
                 "re-encoded call differs");
    } else {
      // What a reply means: an error's code and message, or an OK reply's payload.
      FUZZ_CHECK(reply2.id == reply.id && reply2.code == reply.code, "re-encoded reply differs");
      if (reply.code == StatusCode::kOk) {
        FUZZ_CHECK(reply2.payload == reply.payload, "re-encoded reply payload differs");
      } else {
        FUZZ_CHECK(reply2.message == reply.message, "re-encoded reply message differs");
      }
    }
    buf.remove_prefix(*used);
  }
  return 0;
}
