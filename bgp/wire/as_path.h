// AsPath: the AS_PATH attribute as segments of AS numbers (RFC 4271 4.3, RFC 5065 for the
// confederation segments), with its 2- and 4-octet encodings and the AS4_PATH merge of RFC 6793.
//
// AS numbers are always held as 32 bits; the 2-octet form is only a wire encoding, in which an
// AS past 65535 becomes AS_TRANS. Thread-compatible, immutable once built.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

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

class AsPath {
 public:
  AsPath() = default;
  explicit AsPath(std::vector<AsSegment> segments) : segments_(std::move(segments)) {}
  static AsPath Sequence(std::vector<uint32_t> asns);

  const std::vector<AsSegment>& segments() const { return segments_; }
  bool empty() const { return segments_.empty(); }

  // Length for best-path selection: a sequence counts its ASes, a set counts one, confederation
  // segments count nothing (RFC 4271 9.1.2.2, RFC 5065 5.3).
  size_t PathLength() const;
  bool Contains(uint32_t asn) const;
  bool HasConfedSegments() const;
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

  friend auto operator<=>(const AsPath&, const AsPath&) = default;

 private:
  std::vector<AsSegment> segments_;
};

}  // namespace strata::bgp
