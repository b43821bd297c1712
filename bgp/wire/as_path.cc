#include "bgp/wire/as_path.h"

#include <algorithm>
#include <compare>
#include <cstdlib>
#include <iterator>

#include "bgp/wire/bgp_types.h"
#include "bgp/wire/byte_reader.h"

namespace strata::bgp {
namespace {

bool IsConfed(AsSegmentType t) {
  return t == AsSegmentType::kConfedSequence || t == AsSegmentType::kConfedSet;
}

bool IsSequence(AsSegmentType t) {
  return t == AsSegmentType::kSequence || t == AsSegmentType::kConfedSequence;
}

constexpr uint32_t kCountMask = (uint32_t{1} << 24) - 1;

AsSegmentType TypeOf(uint32_t header) { return static_cast<AsSegmentType>(header >> 24); }
uint32_t CountOf(uint32_t header) { return header & kCountMask; }

}  // namespace

AsSegmentView AsPath::Segments::Iterator::operator*() const {
  return AsSegmentView{TypeOf(*at_), std::span<const uint32_t>(at_ + 1, CountOf(*at_))};
}

AsPath::Segments::Iterator& AsPath::Segments::Iterator::operator++() {
  at_ += 1 + CountOf(*at_);
  return *this;
}

size_t AsPath::Segments::size() const { return static_cast<size_t>(std::distance(begin(), end())); }

AsSegmentView AsPath::Segments::operator[](size_t i) const {
  auto it = begin();
  std::advance(it, static_cast<std::ptrdiff_t>(i));
  return *it;
}

AsPath::AsPath(const std::vector<AsSegment>& segments) {
  for (const AsSegment& s : segments) Push(s.type, s.asns);
}

void AsPath::Push(AsSegmentType type, std::span<const uint32_t> asns) {
  if (asns.size() > kCountMask) std::abort();  // 16M ASes: no message can carry them
  words_.push_back(static_cast<uint32_t>(type) << 24 | static_cast<uint32_t>(asns.size()));
  words_.insert(words_.end(), asns.begin(), asns.end());
}

void AsPath::Append(AsSegmentType type, std::span<const uint32_t> asns) {
  if (asns.empty()) return;
  if (IsSequence(type) && !words_.empty()) {
    // The last segment's header: walk from the front (paths have a few segments).
    size_t last = 0;
    for (size_t at = 0; at < words_.size(); at += 1 + CountOf(words_[at])) last = at;
    if (TypeOf(words_[last]) == type && CountOf(words_[last]) + asns.size() <= kCountMask) {
      words_[last] += static_cast<uint32_t>(asns.size());
      words_.insert(words_.end(), asns.begin(), asns.end());
      return;
    }
  }
  Push(type, asns);
}

AsPath AsPath::Sequence(std::span<const uint32_t> asns) {
  AsPath p;
  if (!asns.empty()) p.Push(AsSegmentType::kSequence, asns);
  return p;
}

std::strong_ordering operator<=>(const AsPath& a, const AsPath& b) {
  auto ia = a.segments().begin();
  auto ib = b.segments().begin();
  const auto ea = a.segments().end();
  const auto eb = b.segments().end();
  for (; ia != ea && ib != eb; ++ia, ++ib) {
    const AsSegmentView x = *ia;
    const AsSegmentView y = *ib;
    if (auto c = x.type <=> y.type; c != 0) return c;
    if (auto c = std::lexicographical_compare_three_way(x.asns.begin(), x.asns.end(),
                                                        y.asns.begin(), y.asns.end());
        c != 0) {
      return c;
    }
  }
  return (ia != ea) <=> (ib != eb);
}

size_t AsPath::PathLength() const {
  size_t n = 0;
  for (const AsSegmentView s : segments()) {
    if (s.type == AsSegmentType::kSequence) n += s.asns.size();
    if (s.type == AsSegmentType::kSet) n += 1;
  }
  return n;
}

bool AsPath::Contains(uint32_t asn) const {
  for (const AsSegmentView s : segments()) {
    if (std::find(s.asns.begin(), s.asns.end(), asn) != s.asns.end()) return true;
  }
  return false;
}

size_t AsPath::Count(uint32_t asn) const {
  size_t n = 0;
  for (const AsSegmentView s : segments()) n += std::count(s.asns.begin(), s.asns.end(), asn);
  return n;
}

bool AsPath::HasConfedSegments() const {
  for (const AsSegmentView s : segments()) {
    if (IsConfed(s.type)) return true;
  }
  return false;
}

bool AsPath::HasTrailingConfedSegment() const {
  bool ordinary_seen = false;
  for (const AsSegmentView s : segments()) {
    if (!IsConfed(s.type)) {
      ordinary_seen = true;
    } else if (ordinary_seen) {
      return true;
    }
  }
  return false;
}

bool AsPath::NeedsAs4() const {
  for (const AsSegmentView s : segments()) {
    if (std::any_of(s.asns.begin(), s.asns.end(), [](uint32_t a) { return a > 0xffff; })) {
      return true;
    }
  }
  return false;
}

std::optional<uint32_t> AsPath::FirstAs() const {
  if (empty()) return std::nullopt;
  const AsSegmentView s = *segments().begin();
  if (s.type != AsSegmentType::kSequence || s.asns.empty()) return std::nullopt;
  return s.asns[0];
}

std::optional<uint32_t> AsPath::FirstAsAfterConfed() const {
  for (const AsSegmentView s : segments()) {
    if (IsConfed(s.type)) continue;
    if (s.type != AsSegmentType::kSequence || s.asns.empty()) return std::nullopt;
    return s.asns[0];
  }
  return std::nullopt;
}

AsPath AsPath::PrependConfed(uint32_t asn) const {
  AsPath out;
  out.Append(AsSegmentType::kConfedSequence, std::span<const uint32_t>(&asn, 1));
  for (const AsSegmentView s : segments()) out.Append(s.type, s.asns);
  return out;
}

AsPath AsPath::Prepend(uint32_t asn) const {
  AsPath out;
  out.words_.reserve(words_.size() + 2);
  out.Append(AsSegmentType::kSequence, std::span<const uint32_t>(&asn, 1));
  for (const AsSegmentView s : segments()) out.Append(s.type, s.asns);
  return out;
}

AsPath AsPath::WithoutConfed() const {
  AsPath out;
  for (const AsSegmentView s : segments()) {
    if (!IsConfed(s.type)) out.Append(s.type, s.asns);
  }
  return out;
}

std::string AsPath::ToString() const {
  std::string out;
  for (const AsSegmentView s : segments()) {
    static constexpr const char* kOpen[] = {"", "{", "", "(", "["};
    static constexpr const char* kClose[] = {"", "}", "", ")", "]"};
    const auto t = static_cast<size_t>(s.type);
    if (!out.empty()) out += ' ';
    out += kOpen[t];
    for (size_t i = 0; i < s.asns.size(); ++i) {
      if (i) out += ' ';
      out += std::to_string(s.asns[i]);
    }
    out += kClose[t];
  }
  return out;
}

StatusOr<AsPath> AsPath::Decode(std::span<const uint8_t> value, bool four_octet) {
  ByteReader r(value);
  AsPath path;
  while (!r.empty()) {
    uint8_t type = 0;
    uint8_t count = 0;
    if (!r.U8(type) || !r.U8(count)) return InvalidArgument("truncated AS_PATH segment header");
    if (type < 1 || type > 4) {
      return InvalidArgument("AS_PATH segment type " + std::to_string(type));
    }
    if (count == 0) return InvalidArgument("empty AS_PATH segment");
    path.words_.push_back(uint32_t{type} << 24 | count);
    for (int i = 0; i < count; ++i) {
      uint32_t asn = 0;
      uint16_t asn16 = 0;
      if (four_octet ? !r.U32(asn) : !r.U16(asn16)) {
        return InvalidArgument("AS_PATH segment overruns the attribute");
      }
      path.words_.push_back(four_octet ? asn : asn16);
    }
  }
  return path;
}

void AsPath::Encode(ByteWriter& w, bool four_octet) const {
  for (const AsSegmentView s : segments()) {
    for (size_t start = 0; start < s.asns.size(); start += 255) {
      const size_t n = std::min<size_t>(255, s.asns.size() - start);
      w.U8(static_cast<uint8_t>(s.type));
      w.U8(static_cast<uint8_t>(n));
      for (size_t i = start; i < start + n; ++i) {
        if (four_octet) {
          w.U32(s.asns[i]);
        } else {
          w.U16(s.asns[i] > 0xffff ? kAsTrans : static_cast<uint16_t>(s.asns[i]));
        }
      }
    }
  }
}

AsPath AsPath::MergeAs4(const AsPath& as_path, const AsPath& as4_path) {
  const size_t len = as_path.PathLength();
  const size_t len4 = as4_path.PathLength();
  if (len < len4) return as_path;
  size_t needed = len - len4;
  AsPath out;
  bool leading = true;  // only the leading confederation segments are kept (RFC 5065)
  for (const AsSegmentView s : as_path.segments()) {
    if (IsConfed(s.type)) {
      if (leading) out.Append(s.type, s.asns);
      continue;
    }
    leading = false;
    if (needed == 0) break;
    if (s.type == AsSegmentType::kSet) {
      out.Append(s.type, s.asns);
      --needed;
    } else {
      const size_t take = std::min(needed, s.asns.size());
      out.Append(s.type, s.asns.first(take));
      needed -= take;
    }
  }
  for (const AsSegmentView s : as4_path.segments()) out.Append(s.type, s.asns);
  return out;
}

}  // namespace strata::bgp
