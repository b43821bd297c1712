#include "bgp/pipeline/nexthop_cache.h"

namespace strata::bgp {

NexthopCache::NexthopCache(NexthopOracle& oracle) : oracle_(oracle) { oracle_.set_listener(this); }

NexthopCache::~NexthopCache() { oracle_.set_listener(nullptr); }

bool NexthopCache::used_inside(const IpPrefix& p) const {
  auto it = users_.lower_bound(p.addr());
  return it != users_.end() && p.Contains(it->first);
}

void NexthopCache::ask(const IpAddr& nexthop) {
  if (!pending_.insert(nexthop).second) return;
  oracle_.register_interest(nexthop);  // may answer synchronously
}

void NexthopCache::add_user(const IpAddr& nexthop) {
  if (users_[nexthop]++ > 0) return;
  if (!answers_.longest_match(nexthop).value) ask(nexthop);
}

void NexthopCache::remove_user(const IpAddr& nexthop) {
  auto it = users_.find(nexthop);
  if (it == users_.end() || --it->second > 0) return;
  users_.erase(it);
  auto hit = answers_.longest_match(nexthop);
  if (hit.value && !used_inside(hit.prefix)) {
    const IpPrefix covering = hit.prefix;
    answers_.erase(covering);
    oracle_.deregister_interest(covering);
  }
  drop_covered_stale();
}

std::optional<NexthopAnswer> NexthopCache::lookup(const IpAddr& nexthop) const {
  if (auto hit = answers_.longest_match(nexthop); hit.value) return *hit.value;
  if (auto hit = stale_.longest_match(nexthop); hit.value) return *hit.value;
  return std::nullopt;
}

void NexthopCache::nexthop_answer(const IpAddr& nexthop, const NexthopAnswer& answer) {
  pending_.erase(nexthop);
  const IpPrefix& c = answer.covering;
  for (auto it = pending_.lower_bound(c.addr()); it != pending_.end() && c.Contains(*it);) {
    it = pending_.erase(it);  // answered by the same subnet
  }
  if (!used_inside(c)) {  // every user went away while we waited
    answers_.erase(c);    // the oracle forgets c: an answer kept here would never be invalidated
    oracle_.deregister_interest(c);
    return;
  }
  // Next hops asked before the first answer for their subnet came back get the same answer again:
  // telling the clients again would re-evaluate every route in the subnet once per next hop.
  if (const NexthopAnswer* known = answers_.find(c); known != nullptr && *known == answer) return;
  answers_.insert(c, answer);
  drop_covered_stale();
  notify(c);
}

void NexthopCache::nexthop_invalidated(const IpPrefix& covering) {
  const NexthopAnswer* fresh = answers_.find(covering);
  if (!fresh) return;
  stale_.insert(covering, *fresh);
  answers_.erase(covering);
  std::vector<IpAddr> again;
  for (auto it = users_.lower_bound(covering.addr());
       it != users_.end() && covering.Contains(it->first); ++it) {
    again.push_back(it->first);
  }
  if (again.empty()) stale_.erase(covering);
  for (const IpAddr& nh : again) {
    if (!answers_.longest_match(nh).value) ask(nh);
  }
}

void NexthopCache::drop_covered_stale() {
  std::vector<IpPrefix> done;
  for (auto it = stale_.begin(); !it.at_end(); ++it) {
    if (!it.has_value()) continue;
    const IpPrefix& s = it.key();
    bool needed = false;
    for (auto u = users_.lower_bound(s.addr()); u != users_.end() && s.Contains(u->first); ++u) {
      if (!answers_.longest_match(u->first).value) {
        needed = true;
        break;
      }
    }
    if (!needed) done.push_back(s);
  }
  for (const IpPrefix& s : done) stale_.erase(s);
}

void NexthopCache::notify(const IpPrefix& region) {
  const std::set<NexthopClient*> clients = clients_;
  for (NexthopClient* c : clients) {
    if (clients_.contains(c)) c->nexthops_changed(region);
  }
}

}  // namespace strata::bgp
