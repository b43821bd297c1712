#include "bgp/pipeline/aggregate_stage.h"

#include <algorithm>
#include <set>

namespace strata::bgp {
namespace {

// The ASes of the leading AS_SEQUENCE of a path (confederation segments left out).
std::vector<uint32_t> LeadingSequence(const AsPath& path) {
  for (const AsSegmentView s : path.segments()) {
    if (s.type == AsSegmentType::kSequence) return {s.asns.begin(), s.asns.end()};
    break;
  }
  return {};
}

// RFC 4271 9.2.2.2: the longest common leading sequence, then an AS_SET of the other ASes.
AsPath AggregatePath(const std::vector<BgpRouteRef>& contributors) {
  std::vector<uint32_t> common;
  bool first = true;
  for (const BgpRouteRef& r : contributors) {
    const std::vector<uint32_t> seq =
        LeadingSequence(r->path().as_path.value_or(AsPath()).WithoutConfed());
    if (first) {
      common = seq;
      first = false;
      continue;
    }
    size_t n = 0;
    while (n < common.size() && n < seq.size() && common[n] == seq[n]) ++n;
    common.resize(n);
  }
  std::set<uint32_t> rest;
  for (const BgpRouteRef& r : contributors) {
    size_t skip = common.size();  // the common part is the path's first ASes
    const AsPath path = r->path().as_path.value_or(AsPath()).WithoutConfed();
    for (const AsSegmentView s : path.segments()) {
      for (uint32_t asn : s.asns) {
        if (skip > 0) {
          --skip;
          continue;
        }
        rest.insert(asn);
      }
    }
  }
  for (uint32_t asn : common) rest.erase(asn);
  std::vector<AsSegment> segs;
  if (!common.empty()) segs.push_back({AsSegmentType::kSequence, common});
  if (!rest.empty()) segs.push_back({AsSegmentType::kSet, {rest.begin(), rest.end()}});
  return AsPath(segs);
}

}  // namespace

AttributeSetPtr AggregateAttributes(const AggregateConfig& config,
                                    const std::vector<BgpRouteRef>& contributors, uint32_t local_as,
                                    const IpAddr& router_id) {
  PathAttributes a;
  Origin origin = Origin::kIgp;
  bool atomic = false;
  std::set<uint32_t> communities;
  for (const BgpRouteRef& r : contributors) {
    const PathAttributes& c = r->path();
    const Origin o = c.origin.value_or(Origin::kIncomplete);
    if (static_cast<int>(o) > static_cast<int>(origin)) origin = o;
    atomic = atomic || c.atomic_aggregate;
    communities.insert(c.communities.begin(), c.communities.end());
  }
  a.origin = origin;
  a.next_hop = IpAddr::Zero(config.prefix.family());
  a.aggregator() = Aggregator{local_as, router_id};
  if (config.as_set) {
    a.as_path = AggregatePath(contributors);
    a.atomic_aggregate = atomic;
    a.communities.assign(communities.begin(), communities.end());
  } else {
    a.as_path = AsPath();
    a.atomic_aggregate = true;
  }
  return AttributeSet::Make(std::move(a));
}

AggregateStage::AggregateStage(BgpStage* parent, TaskScheduler& scheduler, uint32_t local_as,
                               IpAddr router_id, PeerId origin, OriginateFn originate)
    : PassThroughStage(parent),
      scheduler_(scheduler),
      local_as_(local_as),
      router_id_(router_id),
      origin_(origin),
      originate_(std::move(originate)) {}

void AggregateStage::add_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  update(route->prefix, route);
}

void AggregateStage::replace_route(const BgpRouteRef& /*old_route*/, const BgpRouteRef& new_route,
                                   BgpStage* /*caller*/) {
  update(new_route->prefix, new_route);
}

void AggregateStage::delete_route(const BgpRouteRef& route, BgpStage* /*caller*/) {
  update(route->prefix, nullptr);
}

void AggregateStage::update(const IpPrefix& prefix, const BgpRouteRef& route) {
  for (auto& [agg, a] : aggregates_) {
    if (agg.len() >= prefix.len() || !agg.Contains(prefix)) continue;
    if (route && route->peer->id != origin_) {
      a.contributors[prefix] = route;
    } else if (a.contributors.erase(prefix) == 0) {
      continue;
    }
    mark(a);
  }
}

void AggregateStage::mark(Aggregate& a) {
  a.dirty = true;
  if (!task_.active()) {
    task_ = scheduler_.add("aggregates", [this] {
      flush();
      // An origination may have marked an aggregate again: another slice.
      return std::any_of(aggregates_.begin(), aggregates_.end(),
                         [](const auto& e) { return e.second.dirty; });
    });
  }
}

void AggregateStage::flush() {
  for (auto& [prefix, a] : aggregates_) {
    if (!a.dirty) continue;
    a.dirty = false;
    AttributeSetPtr attrs;
    if (!a.contributors.empty()) {
      std::vector<BgpRouteRef> routes;
      routes.reserve(a.contributors.size());
      for (const auto& [p, r] : a.contributors) routes.push_back(r);
      attrs = AggregateAttributes(a.config, routes, local_as_, router_id_);
    }
    const bool same = attrs && a.sent ? attrs->attrs() == a.sent->attrs() : attrs == a.sent;
    if (same) continue;
    a.sent = attrs;
    originate_(prefix, attrs);
  }
}

Status AggregateStage::Set(const AggregateConfig& config, const PrefixWalk& winners) {
  if (config.prefix.is_host()) {
    return InvalidArgument("aggregate " + config.prefix.ToString() + " is a host prefix");
  }
  auto [it, fresh] = aggregates_.try_emplace(config.prefix);
  Aggregate& a = it->second;
  a.config = config;
  if (fresh) {
    for (auto p = winners(config.prefix); p && config.prefix.Contains(*p); p = winners(*p)) {
      if (*p == config.prefix) continue;
      BgpRouteRef r = PassThroughStage::lookup_route(*p);
      if (r && r->peer->id != origin_) a.contributors[*p] = r;
    }
  }
  mark(a);
  return Status::Ok();
}

Status AggregateStage::Delete(const IpPrefix& prefix) {
  auto it = aggregates_.find(prefix);
  if (it == aggregates_.end()) return NotFound("no aggregate " + prefix.ToString());
  const bool sent = it->second.sent != nullptr;
  aggregates_.erase(it);
  if (sent) originate_(prefix, nullptr);
  return Status::Ok();
}

std::vector<AggregateConfig> AggregateStage::configs() const {
  std::vector<AggregateConfig> out;
  for (const auto& [p, a] : aggregates_) out.push_back(a.config);
  return out;
}

std::vector<IpPrefix> AggregateStage::summary_only() const {
  std::vector<IpPrefix> out;
  for (const auto& [p, a] : aggregates_) {
    if (a.config.summary_only) out.push_back(p);
  }
  return out;
}

size_t AggregateStage::contributors(const IpPrefix& prefix) const {
  auto it = aggregates_.find(prefix);
  return it == aggregates_.end() ? 0 : it->second.contributors.size();
}

bool AggregateStage::originated(const IpPrefix& prefix) const {
  auto it = aggregates_.find(prefix);
  return it != aggregates_.end() && it->second.sent != nullptr;
}

}  // namespace strata::bgp
