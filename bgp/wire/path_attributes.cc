#include "bgp/wire/path_attributes.h"

#include <functional>

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

size_t PathAttributes::Hash() const {
  Hasher h;
  h.Add(origin);
  h.Add(as_path);
  h.Add(next_hop);
  h.Add(link_local_next_hop);
  h.Add(med);
  h.Add(local_pref);
  h.Add(atomic_aggregate);
  h.Add(aggregator);
  h.AddList(communities);
  h.Add(originator_id);
  h.AddList(cluster_list);
  h.AddList(ext_communities);
  h.Add(large_communities.size());
  for (const auto& c : large_communities) {
    h.Add(c.global_admin);
    h.Add(c.local1);
    h.Add(c.local2);
  }
  h.Add(unknown.size());
  for (const auto& u : unknown) {
    h.Add(uint64_t{u.flags} << 8 | u.code);
    for (uint8_t b : u.value) h.Add(b);
  }
  h.Add(std::hash<std::string>()(local_protocol));
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
  for (const auto& u : unknown) {
    if (!out.empty()) out += ' ';
    out += "attr" + std::to_string(u.code) + "(" + std::to_string(u.value.size()) + " bytes)";
  }
  return out;
}

}  // namespace strata::bgp
