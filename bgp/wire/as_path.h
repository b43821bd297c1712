// AsPath: the AS_PATH attribute as segments of AS numbers (RFC 4271 4.3, RFC 5065 for the
// confederation segments), with its 2- and 4-octet encodings and the AS4_PATH merge of RFC 6793.
// Stored flat (one word per AS plus one per segment, short paths inline), read as views;
// AsSegment is the owning form to build one from.
//
// AS numbers are always held as 32 bits; the 2-octet form is only a wire encoding, in which an
// AS past 65535 becomes AS_TRANS. Thread-compatible, immutable once built.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

// GCC 12 warns, wrongly, that moving an InlinedVector with inline elements reads its
// uninitialized heap pointer (the union member it copies is the inline storage then).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)  // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "absl/container/inlined_vector.h"
#pragma GCC diagnostic pop
#include "bgp/wire/byte_writer.h"
#include "common/status.h"

namespace strata::bgp {

enum class AsSegmentType : uint8_t {
  kSet = 1,
  kSequence = 2,
  kConfedSequence = 3,
  kConfedSet = 4,
};

struct AsSegment {
  AsSegmentType type = AsSegmentType::kSequence;
  std::vector<uint32_t> asns;  // never empty in a decoded path
  friend auto operator<=>(const AsSegment&, const AsSegment&) = default;
};

// A segment of an AsPath, read in place.
struct AsSegmentView {
  AsSegmentType type = AsSegmentType::kSequence;
  std::span<const uint32_t> asns;
};

class AsPath {
 public:
  // The segments in order, as views (valid while the path lives and is not assigned to).
  class Segments {
   public:
    class Iterator {
     public:
      using value_type = AsSegmentView;
      using difference_type = std::ptrdiff_t;
      Iterator() = default;
      AsSegmentView operator*() const;
      Iterator& operator++();
      Iterator operator++(int) {
        Iterator old = *this;
        ++*this;
        return old;
      }
      friend bool operator==(const Iterator&, const Iterator&) = default;

     private:
      friend class Segments;
      explicit Iterator(const uint32_t* at) : at_(at) {}
      const uint32_t* at_ = nullptr;
    };
    Iterator begin() const { return Iterator(begin_); }
    Iterator end() const { return Iterator(end_); }
    bool empty() const { return begin_ == end_; }
    size_t size() const;
    // The i-th segment (linear). REQUIRES: i < size().
    AsSegmentView operator[](size_t i) const;

   private:
    friend class AsPath;
    Segments(const uint32_t* b, const uint32_t* e) : begin_(b), end_(e) {}
    const uint32_t* begin_;
    const uint32_t* end_;
  };

  AsPath() = default;
  explicit AsPath(const std::vector<AsSegment>& segments);
  static AsPath Sequence(std::span<const uint32_t> asns);
  static AsPath Sequence(std::initializer_list<uint32_t> asns) {
    return Sequence(std::span<const uint32_t>(asns.begin(), asns.size()));
  }

  Segments segments() const { return Segments(words_.data(), words_.data() + words_.size()); }
  bool empty() const { return words_.empty(); }

  // Length for best-path selection: a sequence counts its ASes, a set counts one, confederation
  // segments count nothing (RFC 4271 9.1.2.2, RFC 5065 5.3).
  size_t PathLength() const;
  bool Contains(uint32_t asn) const;
  // How many times `asn` appears, in any segment.
  size_t Count(uint32_t asn) const;
  bool HasConfedSegments() const;
  // True when a confederation segment follows an AS_SEQUENCE or AS_SET: RFC 5065 only ever
  // prepends confederation segments, so such a path is malformed (FRR refuses it too).
  bool HasTrailingConfedSegment() const;
  // True when some AS needs 4 octets.
  bool NeedsAs4() const;
  // The first AS of a leading AS_SEQUENCE (the neighbor AS), if any.
  std::optional<uint32_t> FirstAs() const;
  // The first AS after the leading confederation segments, if that is in an AS_SEQUENCE (the
  // neighbouring AS outside the confederation, RFC 5065 5.3).
  std::optional<uint32_t> FirstAsAfterConfed() const;
  // This path with `asn` put in front of the leading sequence.
  AsPath Prepend(uint32_t asn) const;
  // This path with `asn` put in front of a leading AS_CONFED_SEQUENCE (a new one if the path does
  // not start with one), as sent to a confederation peer (RFC 5065 4.1).
  AsPath PrependConfed(uint32_t asn) const;
  // This path without confederation segments.
  AsPath WithoutConfed() const;
  // "65001 65002 {65003 65004} (65010 65011) [65020]": sets in braces, confed sequences in
  // parentheses, confed sets in brackets.
  std::string ToString() const;

  // Decodes an AS_PATH or AS4_PATH value. Malformed: a segment type other than 1-4, an empty
  // segment, or a segment that overruns or leaves a trailing fragment (RFC 7606 7.2).
  static StatusOr<AsPath> Decode(std::span<const uint8_t> value, bool four_octet);
  // Segments longer than 255 ASes are split. In 2-octet form ASes past 65535 become AS_TRANS.
  void Encode(ByteWriter& w, bool four_octet) const;

  // Reconstructs the path a 2-octet speaker passed on (RFC 6793 4.2.3): if AS4_PATH is longer
  // than AS_PATH it is ignored, otherwise the leading ASes of AS_PATH that AS4_PATH lacks are put
  // in front of it.
  static AsPath MergeAs4(const AsPath& as_path, const AsPath& as4_path);

  // Segment by segment: type, then the ASes in order.
  friend std::strong_ordering operator<=>(const AsPath& a, const AsPath& b);
  friend bool operator==(const AsPath& a, const AsPath& b) { return a.words_ == b.words_; }

 private:
  // Appends a segment as it is.
  void Push(AsSegmentType type, std::span<const uint32_t> asns);
  // Appends a segment, merging it into a preceding sequence of the same type; nothing if empty.
  void Append(AsSegmentType type, std::span<const uint32_t> asns);

  // Each segment is a header word (type << 24 | number of ASes) and then its ASes. Paths of up
  // to seven ASes in one segment (most of a full table's) are held inline: no allocation.
  absl::InlinedVector<uint32_t, 8> words_;
};

}  // namespace strata::bgp
