// Helpers shared by the pipeline tests: literals for addresses and prefixes, attribute and peer
// builders, and fake session and RIB sinks that apply what they receive to a table.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "bgp/pipeline/bgp_route.h"
#include "bgp/pipeline/peer_in.h"
#include "bgp/pipeline/rib_sink.h"
#include "bgp/pipeline/session_sink.h"
#include "testing/common/value_literals.h"

namespace strata::bgp::test_util {

using strata::test_util::A;
using strata::test_util::P;

struct AttrSpec {
  std::vector<uint32_t> path{};
  std::string next_hop = "192.0.2.1";
  Origin origin = Origin::kIgp;
  std::optional<uint32_t> med{};
  std::optional<uint32_t> local_pref{};
  std::optional<std::string> originator_id{};
  size_t cluster_list = 0;
};

// The prefixes a PeerIn holds, in order: a PrefixWalk for stages fed from it in tests.
inline PrefixWalk WalkOf(PeerIn& in) {
  return [&in](const std::optional<IpPrefix>& after) -> std::optional<IpPrefix> {
    const auto hit = in.table().next_after(after);
    if (!hit.value) return std::nullopt;
    return hit.prefix;
  };
}

inline AttributeSetPtr Attrs(const AttrSpec& s) {
  PathAttributes a;
  a.origin = s.origin;
  a.as_path = AsPath::Sequence(s.path);
  a.next_hop = A(s.next_hop);
  a.med = s.med;
  a.local_pref = s.local_pref;
  if (s.originator_id) a.originator_id() = A(*s.originator_id);
  for (size_t i = 0; i < s.cluster_list; ++i)
    a.cluster_list().push_back(static_cast<uint32_t>(i + 1));
  return AttributeSet::Make(std::move(a));
}

inline PeerRef Peer(PeerId id, uint32_t as, bool ibgp, const std::string& address,
                    const std::string& router_id = "") {
  auto p = NewPeerInfo();
  p->id = id;
  p->peer_as = as;
  p->ibgp = ibgp;
  p->address = A(address);
  p->router_id = A(router_id.empty() ? address : router_id);
  return p;
}

inline BgpRouteRef Route(const std::string& prefix, const AttrSpec& s, const PeerRef& peer,
                         uint32_t igp_metric = 0) {
  auto r = NewRoute();
  r->prefix = P(prefix);
  r->attrs = Attrs(s);
  r->peer = peer;
  r->igp_metric = igp_metric;
  r->resolvable = true;
  return r;
}

// A session sink that applies batches to the table the peer would hold.
class FakeSessionSink : public SessionSink {
 public:
  void send_updates(UpdateBatch batch) override {
    for (const IpPrefix& p : batch.withdrawals) table.erase(p);
    for (const AnnouncementGroup& g : batch.announcements) {
      EXPECT_EQ(g.attrs->attrs().next_hop->family(), g.family);
      for (const IpPrefix& p : g.prefixes) table[p] = g.attrs;
    }
    batches.push_back(std::move(batch));
  }
  bool busy() const override { return is_busy; }

  bool is_busy = false;
  std::map<IpPrefix, AttributeSetPtr> table;
  std::vector<UpdateBatch> batches;
};

// A RIB sink that keeps one table per origin and checks that deletes match adds (the route
// added, or one equal to it with the same annotation: bgp_stage.h, rule 1).
class FakeRibSink : public RibSink {
 public:
  static bool Same(const BgpRoute& a, const BgpRoute& b) {
    return SameRoute(a, b) && a.resolvable == b.resolvable && a.igp_metric == b.igp_metric;
  }
  void add_route(RibOrigin o, const BgpRouteRef& r, const RibMultipath& mp) override {
    auto& t = tables[static_cast<int>(o)];
    if (t.contains(r->prefix)) errors.push_back("add over " + r->ToString());
    if (other(o).contains(r->prefix)) errors.push_back("in both tables " + r->ToString());
    t[r->prefix] = r;
    set_multipath(r->prefix, mp);
  }
  void replace_route(RibOrigin o, const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     const RibMultipath& mp) override {
    auto& t = tables[static_cast<int>(o)];
    auto it = t.find(old_route->prefix);
    if (it == t.end() || !Same(*it->second, *old_route))
      errors.push_back("bad replace " + old_route->ToString());
    t[new_route->prefix] = new_route;
    set_multipath(new_route->prefix, mp);
  }
  void delete_route(RibOrigin o, const BgpRouteRef& r) override {
    auto& t = tables[static_cast<int>(o)];
    auto it = t.find(r->prefix);
    if (it == t.end() || !Same(*it->second, *r)) errors.push_back("bad delete " + r->ToString());
    t.erase(r->prefix);
    multipath.erase(r->prefix);
  }
  void end_batch() override { ++batches; }
  void attach(RibFeed* f) override { feed = f; }
  void detach(RibFeed* f) override {
    if (feed == f) feed = nullptr;
  }

  // Both tables merged.
  std::map<IpPrefix, BgpRouteRef> all() const {
    std::map<IpPrefix, BgpRouteRef> out = tables[0];
    out.insert(tables[1].begin(), tables[1].end());
    return out;
  }

  std::map<IpPrefix, BgpRouteRef> tables[2];
  // Per prefix with other multipath members: their next hops, as last given.
  std::map<IpPrefix, std::vector<IpAddr>> multipath;
  std::vector<std::string> errors;
  size_t batches = 0;
  RibFeed* feed = nullptr;

 private:
  void set_multipath(const IpPrefix& p, const RibMultipath& mp) {
    if (mp.nexthops.empty()) {
      multipath.erase(p);
    } else {
      multipath[p] = mp.nexthops;
    }
  }
  std::map<IpPrefix, BgpRouteRef>& other(RibOrigin o) {
    return tables[o == RibOrigin::kEbgp ? 1 : 0];
  }
};

}  // namespace strata::bgp::test_util
