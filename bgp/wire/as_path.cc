#include "bgp/wire/as_path.h"

#include <algorithm>

#include "bgp/wire/bgp_types.h"
#include "bgp/wire/byte_reader.h"

namespace strata::bgp {
namespace {

bool IsConfed(AsSegmentType t) {
  return t == AsSegmentType::kConfedSequence || t == AsSegmentType::kConfedSet;
}

// Appends `seg`, merging it into a preceding sequence of the same type.
void AppendSegment(std::vector<AsSegment>& out, AsSegment seg) {
  if (seg.asns.empty()) return;
  if (!out.empty() && out.back().type == seg.type &&
      (seg.type == AsSegmentType::kSequence || seg.type == AsSegmentType::kConfedSequence)) {
    out.back().asns.insert(out.back().asns.end(), seg.asns.begin(), seg.asns.end());
    return;
  }
  out.push_back(std::move(seg));
}

}  // namespace

AsPath AsPath::Sequence(std::vector<uint32_t> asns) {
  if (asns.empty()) return AsPath();
  return AsPath({AsSegment{AsSegmentType::kSequence, std::move(asns)}});
}

size_t AsPath::PathLength() const {
  size_t n = 0;
  for (const auto& s : segments_) {
    if (s.type == AsSegmentType::kSequence) n += s.asns.size();
    if (s.type == AsSegmentType::kSet) n += 1;
  }
  return n;
}

bool AsPath::Contains(uint32_t asn) const {
  return std::any_of(segments_.begin(), segments_.end(), [asn](const AsSegment& s) {
    return std::find(s.asns.begin(), s.asns.end(), asn) != s.asns.end();
  });
}

bool AsPath::HasConfedSegments() const {
  return std::any_of(segments_.begin(), segments_.end(),
                     [](const AsSegment& s) { return IsConfed(s.type); });
}

bool AsPath::NeedsAs4() const {
  return std::any_of(segments_.begin(), segments_.end(), [](const AsSegment& s) {
    return std::any_of(s.asns.begin(), s.asns.end(), [](uint32_t a) { return a > 0xffff; });
  });
}

std::optional<uint32_t> AsPath::FirstAs() const {
  if (segments_.empty() || segments_[0].type != AsSegmentType::kSequence ||
      segments_[0].asns.empty()) {
    return std::nullopt;
  }
  return segments_[0].asns[0];
}

std::optional<uint32_t> AsPath::FirstAsAfterConfed() const {
  auto it = std::find_if(segments_.begin(), segments_.end(),
                         [](const AsSegment& s) { return !IsConfed(s.type); });
  if (it == segments_.end() || it->type != AsSegmentType::kSequence || it->asns.empty()) {
    return std::nullopt;
  }
  return it->asns[0];
}

AsPath AsPath::PrependConfed(uint32_t asn) const {
  std::vector<AsSegment> out;
  AppendSegment(out, AsSegment{AsSegmentType::kConfedSequence, {asn}});
  for (const auto& s : segments_) AppendSegment(out, s);
  return AsPath(std::move(out));
}

AsPath AsPath::Prepend(uint32_t asn) const {
  std::vector<AsSegment> out;
  AppendSegment(out, AsSegment{AsSegmentType::kSequence, {asn}});
  for (const auto& s : segments_) AppendSegment(out, s);
  return AsPath(std::move(out));
}

AsPath AsPath::WithoutConfed() const {
  std::vector<AsSegment> out;
  for (const auto& s : segments_) {
    if (!IsConfed(s.type)) AppendSegment(out, s);
  }
  return AsPath(std::move(out));
}

std::string AsPath::ToString() const {
  std::string out;
  for (const auto& s : segments_) {
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
  std::vector<AsSegment> segments;
  while (!r.empty()) {
    uint8_t type = 0;
    uint8_t count = 0;
    if (!r.U8(type) || !r.U8(count)) return InvalidArgument("truncated AS_PATH segment header");
    if (type < 1 || type > 4) {
      return InvalidArgument("AS_PATH segment type " + std::to_string(type));
    }
    if (count == 0) return InvalidArgument("empty AS_PATH segment");
    AsSegment seg{static_cast<AsSegmentType>(type), {}};
    seg.asns.reserve(count);
    for (int i = 0; i < count; ++i) {
      uint32_t asn = 0;
      uint16_t asn16 = 0;
      if (four_octet ? !r.U32(asn) : !r.U16(asn16)) {
        return InvalidArgument("AS_PATH segment overruns the attribute");
      }
      seg.asns.push_back(four_octet ? asn : asn16);
    }
    segments.push_back(std::move(seg));
  }
  return AsPath(std::move(segments));
}

void AsPath::Encode(ByteWriter& w, bool four_octet) const {
  for (const auto& s : segments_) {
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
  std::vector<AsSegment> out;
  for (const auto& s : as_path.segments()) {
    if (needed == 0 && !IsConfed(s.type)) break;
    if (IsConfed(s.type)) {
      AppendSegment(out, s);
    } else if (s.type == AsSegmentType::kSet) {
      AppendSegment(out, s);
      --needed;
    } else {
      const size_t take = std::min(needed, s.asns.size());
      AppendSegment(
          out, AsSegment{s.type, std::vector<uint32_t>(s.asns.begin(), s.asns.begin() + take)});
      needed -= take;
    }
  }
  for (const auto& s : as4_path.segments()) AppendSegment(out, s);
  return AsPath(std::move(out));
}

}  // namespace strata::bgp
