// ByteReader: a bounds-checked cursor over untrusted bytes in network order.
//
// Every read reports failure instead of reading past the end, so decoders built on it cannot
// overrun a buffer whatever a peer sends. Reads that fail leave the cursor where it was.
// Thread-compatible; the viewed bytes must outlive the reader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace strata::bgp {

class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> data) : data_(data) {}

  size_t remaining() const { return data_.size() - pos_; }
  bool empty() const { return remaining() == 0; }
  size_t position() const { return pos_; }
  // The unread bytes.
  std::span<const uint8_t> rest() const { return data_.subspan(pos_); }

  bool U8(uint8_t& out) {
    if (remaining() < 1) return false;
    out = data_[pos_++];
    return true;
  }
  bool U16(uint16_t& out) {
    if (remaining() < 2) return false;
    out = static_cast<uint16_t>((data_[pos_] << 8) | data_[pos_ + 1]);
    pos_ += 2;
    return true;
  }
  bool U32(uint32_t& out) {
    if (remaining() < 4) return false;
    out = 0;
    for (int i = 0; i < 4; ++i) out = (out << 8) | data_[pos_ + i];
    pos_ += 4;
    return true;
  }
  bool U64(uint64_t& out) {
    if (remaining() < 8) return false;
    out = 0;
    for (int i = 0; i < 8; ++i) out = (out << 8) | data_[pos_ + i];
    pos_ += 8;
    return true;
  }
  // Takes the next n bytes as a view.
  bool Bytes(size_t n, std::span<const uint8_t>& out) {
    if (remaining() < n) return false;
    out = data_.subspan(pos_, n);
    pos_ += n;
    return true;
  }
  bool Skip(size_t n) {
    if (remaining() < n) return false;
    pos_ += n;
    return true;
  }

 private:
  std::span<const uint8_t> data_;
  size_t pos_ = 0;
};

}  // namespace strata::bgp
