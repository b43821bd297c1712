// PathAttributes: the decoded path attributes of an UPDATE (RFC 4271 5 and the RFCs of each
// attribute), one field per known attribute plus the unknown transitive ones kept raw.
//
// This is the builder form; AttributeSet (attribute_set.h) wraps it immutably with a cached hash
// so that routes can share one. The next hop of every family lives here (NEXT_HOP for IPv4, the
// MP_REACH_NLRI next hop for IPv6), so that routes of both families use one type; the UPDATE
// encoder writes it as NEXT_HOP or inside MP_REACH_NLRI according to the family.
// AS4_PATH and AS4_AGGREGATOR never appear here: they are merged on decode and generated on
// encode (RFC 6793). Thread-compatible value type; equal sets compare equal field by field.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bgp/wire/as_path.h"
#include "common/ip_addr.h"

namespace strata::bgp {

enum class Origin : uint8_t { kIgp = 0, kEgp = 1, kIncomplete = 2 };

struct Aggregator {
  uint32_t asn = 0;
  IpAddr address;  // IPv4
  friend auto operator<=>(const Aggregator&, const Aggregator&) = default;
};

struct LargeCommunity {  // RFC 8092
  uint32_t global_admin = 0;
  uint32_t local1 = 0;
  uint32_t local2 = 0;
  friend auto operator<=>(const LargeCommunity&, const LargeCommunity&) = default;
};

// An attribute we do not know, kept to pass on (optional transitive only).
struct RawAttribute {
  uint8_t flags = 0;  // as received plus the Partial bit
  uint8_t code = 0;
  std::vector<uint8_t> value;
  friend auto operator<=>(const RawAttribute&, const RawAttribute&) = default;
};

// The attributes most routes lack, kept out of line by PathAttributes (which is 128 bytes so,
// 304 with them inline: a full table has some 127,000 attribute sets).
struct RareAttributes {
  std::optional<IpAddr> link_local_next_hop;  // IPv6 only (RFC 2545)
  std::optional<Aggregator> aggregator;
  std::optional<IpAddr> originator_id;
  std::vector<uint32_t> cluster_list;
  std::vector<uint64_t> ext_communities;
  std::vector<LargeCommunity> large_communities;
  std::vector<RawAttribute> unknown;
  // Not an attribute (never encoded): the RIB protocol an own route was redistributed from
  // ("static", "connected"); empty for every other route. The policy `protocol` match sees it.
  std::string local_protocol;

  bool empty() const {
    return !link_local_next_hop && !aggregator && !originator_id && cluster_list.empty() &&
           ext_communities.empty() && large_communities.empty() && unknown.empty() &&
           local_protocol.empty();
  }
  friend auto operator<=>(const RareAttributes&, const RareAttributes&) = default;
};

// The common attributes are fields; the rare ones (RareAttributes) are reached by accessors of
// the same names: the const ones read (empty when the set has none), the others make the
// out-of-line part on first use. A copy does not carry an empty out-of-line part along.
struct PathAttributes {
  std::optional<Origin> origin;
  std::optional<AsPath> as_path;
  std::optional<IpAddr> next_hop;  // IPv4 NEXT_HOP, or the MP_REACH global next hop
  std::optional<uint32_t> med;
  std::optional<uint32_t> local_pref;
  bool atomic_aggregate = false;
  std::vector<uint32_t> communities;

  PathAttributes() = default;
  PathAttributes(const PathAttributes& o);
  PathAttributes(PathAttributes&& o) noexcept = default;
  PathAttributes& operator=(const PathAttributes& o);
  PathAttributes& operator=(PathAttributes&& o) noexcept = default;
  ~PathAttributes() = default;

#define STRATA_RARE_ATTRIBUTE(type, name)          \
  const type& name() const { return rare().name; } \
  type& name() { return mutable_rare().name; }
  STRATA_RARE_ATTRIBUTE(std::optional<IpAddr>, link_local_next_hop)
  STRATA_RARE_ATTRIBUTE(std::optional<Aggregator>, aggregator)
  STRATA_RARE_ATTRIBUTE(std::optional<IpAddr>, originator_id)
  STRATA_RARE_ATTRIBUTE(std::vector<uint32_t>, cluster_list)
  STRATA_RARE_ATTRIBUTE(std::vector<uint64_t>, ext_communities)
  STRATA_RARE_ATTRIBUTE(std::vector<LargeCommunity>, large_communities)
  STRATA_RARE_ATTRIBUTE(std::vector<RawAttribute>, unknown)
  STRATA_RARE_ATTRIBUTE(std::string, local_protocol)
#undef STRATA_RARE_ATTRIBUTE

  const RareAttributes& rare() const { return rare_ ? *rare_ : kNoRare; }
  RareAttributes& mutable_rare();
  // Frees an out-of-line part that holds nothing (AttributeSet does, before sharing a set).
  void Compact() {
    if (rare_ && rare_->empty()) rare_.reset();
  }

  size_t Hash() const;
  // "origin igp as-path 65001 65002 next-hop 192.0.2.1 med 10 ..." in type code order.
  std::string ToString() const;
  friend bool operator==(const PathAttributes& a, const PathAttributes& b);
  friend std::strong_ordering operator<=>(const PathAttributes& a, const PathAttributes& b);

 private:
  static const RareAttributes kNoRare;
  std::unique_ptr<RareAttributes> rare_;
};

}  // namespace strata::bgp
