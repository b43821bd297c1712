#include "bgp/wire/path_attributes.h"

#include <functional>
#include <tuple>

#include "bgp/wire/attribute_table.h"

namespace strata::bgp {
namespace {

// Mixes values into a running hash (boost::hash_combine's constant on 64 bits).
class Hasher {
 public:
  void Add(uint64_t v) { h_ ^= v + 0x9e3779b97f4a7c15ULL + (h_ << 6) + (h_ >> 2); }
  void Add(const IpAddr& a) { Add(std::hash<IpAddr>()(a)); }
  template <typename T>
  void Add(const std::optional<T>& v) {
    Add(v.has_value());
    if (v) Add(*v);
  }
  void Add(const AsPath& p) {
    for (const auto& s : p.segments()) {
      Add(static_cast<uint64_t>(s.type));
      for (uint32_t a : s.asns) Add(a);
    }
  }
  void Add(const Aggregator& a) {
    Add(a.asn);
    Add(a.address);
  }
  void Add(Origin o) { Add(static_cast<uint64_t>(o)); }
  template <typename T>
  void AddList(const std::vector<T>& v) {
    Add(v.size());
    for (const auto& x : v) Add(x);
  }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = 0;
};

}  // namespace

const RareAttributes PathAttributes::kNoRare{};

PathAttributes::PathAttributes(const PathAttributes& o)
    : origin(o.origin),
      as_path(o.as_path),
      next_hop(o.next_hop),
      med(o.med),
      local_pref(o.local_pref),
      atomic_aggregate(o.atomic_aggregate),
      communities(o.communities),
      rare_(o.rare_ && !o.rare_->empty() ? std::make_unique<RareAttributes>(*o.rare_) : nullptr) {}

PathAttributes& PathAttributes::operator=(const PathAttributes& o) {
  if (this != &o) *this = PathAttributes(o);
  return *this;
}

RareAttributes& PathAttributes::mutable_rare() {
  if (!rare_) rare_ = std::make_unique<RareAttributes>();
  return *rare_;
}

namespace {
// Every attribute in declaration order of the former all-fields struct (origin, AS path, next
// hops, MED, LOCAL_PREF, ATOMIC_AGGREGATE, AGGREGATOR, communities, ...), so that sets keep the
// order they had.
auto Fields(const PathAttributes& a) {
  const RareAttributes& r = a.rare();
  return std::tie(a.origin, a.as_path, a.next_hop, r.link_local_next_hop, a.med, a.local_pref,
                  a.atomic_aggregate, r.aggregator, a.communities, r.originator_id, r.cluster_list,
                  r.ext_communities, r.large_communities, r.unknown, r.local_protocol);
}
}  // namespace

bool operator==(const PathAttributes& a, const PathAttributes& b) { return Fields(a) == Fields(b); }

std::strong_ordering operator<=>(const PathAttributes& a, const PathAttributes& b) {
  return Fields(a) <=> Fields(b);
}

size_t PathAttributes::Hash() const {
  Hasher h;
  h.Add(origin);
  h.Add(as_path);
  h.Add(next_hop);
  h.Add(link_local_next_hop());
  h.Add(med);
  h.Add(local_pref);
  h.Add(atomic_aggregate);
  h.Add(aggregator());
  h.AddList(communities);
  h.Add(originator_id());
  h.AddList(cluster_list());
  h.AddList(ext_communities());
  h.Add(large_communities().size());
  for (const auto& c : large_communities()) {
    h.Add(c.global_admin);
    h.Add(c.local1);
    h.Add(c.local2);
  }
  h.Add(unknown().size());
  for (const auto& u : unknown()) {
    h.Add(uint64_t{u.flags} << 8 | u.code);
    for (uint8_t b : u.value) h.Add(b);
  }
  h.Add(std::hash<std::string>()(local_protocol()));
  return static_cast<size_t>(h.value());
}

std::string PathAttributes::ToString() const {
  std::string out;
  for (const AttributeHandler& handler : AttributeHandlers()) {
    if (handler.format == nullptr) continue;
    std::string part = handler.format(*this);
    if (part.empty()) continue;
    if (!out.empty()) out += ' ';
    out += part;
  }
  for (const auto& u : unknown()) {
    if (!out.empty()) out += ' ';
    out += "attr" + std::to_string(u.code) + "(" + std::to_string(u.value.size()) + " bytes)";
  }
  return out;
}

}  // namespace strata::bgp
