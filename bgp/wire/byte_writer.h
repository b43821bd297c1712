// ByteWriter: appends integers and bytes in network order to a growing buffer.
//
// Length fields that precede their contents are written as placeholders and patched once the
// contents are known. Thread-compatible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace strata::bgp {

class ByteWriter {
 public:
  void U8(uint8_t v) { buf_.push_back(v); }
  void U16(uint16_t v) {
    buf_.push_back(static_cast<uint8_t>(v >> 8));
    buf_.push_back(static_cast<uint8_t>(v));
  }
  void U32(uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) buf_.push_back(static_cast<uint8_t>(v >> shift));
  }
  void U64(uint64_t v) {
    for (int shift = 56; shift >= 0; shift -= 8) buf_.push_back(static_cast<uint8_t>(v >> shift));
  }
  void Bytes(std::span<const uint8_t> bytes) {
    buf_.insert(buf_.end(), bytes.begin(), bytes.end());
  }

  // REQUIRES: pos + 2 <= size().
  void PatchU16(size_t pos, uint16_t v) {
    buf_[pos] = static_cast<uint8_t>(v >> 8);
    buf_[pos + 1] = static_cast<uint8_t>(v);
  }
  // REQUIRES: pos < size().
  void PatchU8(size_t pos, uint8_t v) { buf_[pos] = v; }

  // Capacity for n bytes in all (a message whose size is known or estimated: no regrowth).
  void Reserve(size_t n) { buf_.reserve(n); }
  // Empties the buffer and keeps its capacity (one writer reused for many small values).
  void Clear() { buf_.clear(); }

  size_t size() const { return buf_.size(); }
  const std::vector<uint8_t>& bytes() const { return buf_; }
  std::vector<uint8_t> Take() { return std::move(buf_); }

 private:
  std::vector<uint8_t> buf_;
};

}  // namespace strata::bgp
