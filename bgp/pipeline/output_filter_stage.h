// OutputFilterStage: the output filter bank of one peer's branch, below its fanout reader.
//
// RFC 4271 rules, in order: never send a route back to the peer it came from; never send a
// route carrying LLGR_STALE to a peer that did not negotiate LLGR (RFC 9494 4.3); iBGP-learned
// routes are not sent to iBGP peers (full mesh), except as route reflection allows (RFC 4456 6):
// a route from a client goes to every iBGP peer, one from a non-client to clients only, and a
// reflected route gets ORIGINATOR_ID (the source's router id, if absent) and our CLUSTER_ID
// prepended to CLUSTER_LIST, and is not sent to the iBGP peer whose router id is its
// ORIGINATOR_ID; to an eBGP peer prepend the local AS, set the next hop to our local address, strip
// LOCAL_PREF (5.1.5), MED (5.1.4, not propagated to other ASes) and the route reflection
// attributes (RFC 4456); to an iBGP peer always send LOCAL_PREF (default 100) and, with
// next_hop_self, our address as next hop. A route whose family has no local next hop for an eBGP
// peer is not sent. With a confederation (RFC 5065 5): to a peer in another member AS our member
// AS goes in front of a leading AS_CONFED_SEQUENCE and NEXT_HOP, MED and LOCAL_PREF stay as for
// iBGP (route reflection attributes are stripped); to a peer outside, confederation segments are
// stripped and the identifier is prepended as the local AS. To an external peer, remove-private-as
// and local-as edit the path (AsPathOptions). Then the export policy hook. With
// default_originate the peer gets our own default route of each family we have a next hop of
// (OriginateDefaults, when the branch is wired; no export policy, as FRR) and never the
// Loc-RIB's. It holds
// nothing: deletes and lookups recompute the same (deterministic) result, so a delete is dropped
// iff its add was. A new export policy is applied by ChangePolicy, which re-filters what the parent
// (the fanout reader) has sent, in background slices when refilter().set_background was given a
// scheduler (PolicyRefilter): the peer sees only the differences; routes delivered meanwhile use
// the new policy at once.
// Threading: single-threaded.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "bgp/pipeline/bgp_stage.h"
#include "bgp/pipeline/peer_config.h"
#include "bgp/pipeline/policy_refilter.h"
#include "bgp/wire/confederation.h"

namespace strata::bgp {

// What route reflection needs to know beyond the peer's config.
struct ReflectionContext {
  uint32_t cluster_id = 0;  // ours, prepended to CLUSTER_LIST when reflecting
  IpAddr peer_router_id;    // the peer's BGP Identifier: it does not get routes it originated
};

class OutputFilterStage : public PassThroughStage {
 public:
  struct Counters {
    uint64_t to_source = 0;      // not sent back to the peer it came from
    uint64_t ibgp_to_ibgp = 0;   // iBGP-learned, not sent to an iBGP peer (nor reflected)
    uint64_t to_originator = 0;  // reflected route not sent to its ORIGINATOR_ID
    uint64_t no_nexthop = 0;     // no local address of the route's family
    uint64_t policy_rejected = 0;
    uint64_t llgr_stale = 0;  // LLGR_STALE route, the peer did not negotiate LLGR (RFC 9494 4.3)
    uint64_t default_replaced = 0;  // the Loc-RIB's default, not sent: default-originate
  };

  OutputFilterStage(PeerId peer, uint32_t local_as, PipelinePeerConfig config, BgpStage* parent,
                    ReflectionContext reflection = {}, Confederation confed = {});

  std::string name() const override { return "filter-out:" + std::to_string(peer_); }
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void replace_route(const BgpRouteRef& old_route, const BgpRouteRef& new_route,
                     BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;
  BgpRouteRef lookup_route(const IpPrefix& prefix) const override;

  // The route as this peer gets it, or null if it is not sent (counted when `count`).
  BgpRouteRef Transform(const BgpRouteRef& route, bool count) const;
  const Counters& counters() const { return counters_; }
  // default-originate: sends the originated default routes downstream (once the branch is
  // wired; the pipeline's peer_up calls it).
  void OriginateDefaults();

  // Replaces the export policy and sends downstream the difference it makes for each prefix
  // `next` yields (every prefix the parent may hold a route for, see PolicyRefilter::NextFn).
  // In the background if the refilter has a scheduler, else at once; lookups answer with the old
  // policy until their prefix has been re-filtered (or a message for it came).
  void ChangePolicy(RoutePolicy policy, PolicyRefilter::NextFn next);
  // Route refresh / soft reset out (RFC 2918; no Adj-RIB-Out is kept): re-sends downstream, as a
  // replace of itself, the route of each prefix of `family` (every family: nullopt) `next`
  // yields, by the same walk as a policy change (in slices; prefixes a change reaches meanwhile
  // are skipped, the change sent them). A policy change during the walk restarts it and the
  // refresh goes on to its end.
  void Refresh(std::optional<Family> family, PolicyRefilter::NextFn next);
  PolicyRefilter& refilter() { return refilter_; }
  const PolicyRefilter& refilter() const { return refilter_; }
  // For a child that needs only a delete's prefix (PeerOut: a withdrawal carries no
  // attributes). A delete of a prefix no export policy applies to is then passed on as the
  // parent's route once the checks pass, without the rewrite: the verdict is the same (the
  // rewrite never drops a route) and a withdrawal costs no new attribute set. Rule 1's "the
  // route added, or an equal one" is waived for this child only. Set by the pipeline.
  void set_withdraw_by_prefix(bool on) { withdraw_by_prefix_ = on; }

 private:
  // What the rules make of a route this peer gets: its next hop (to our address) and, when
  // reflected, the router id of its iBGP source.
  struct Export {
    std::optional<IpAddr> self;
    std::optional<IpAddr> reflect_from;
  };
  // The rules before the export policy: nullopt if the route is not sent (counted if `count`).
  std::optional<Export> verdict(const BgpRoute& route, bool count) const;
  void refilter_one(const IpPrefix& prefix, const RoutePolicy& before, const RoutePolicy& after);
  BgpRouteRef transform_with(const BgpRouteRef& route, const RoutePolicy& policy, bool count) const;
  bool ibgp() const { return config_.peer_as == local_as_; }
  std::optional<IpAddr> local_nexthop(Family f) const;
  // With default_originate, our default route as this peer gets it if `prefix` is a default
  // route we send; else null.
  BgpRouteRef originated(const IpPrefix& prefix) const;
  // `reflect_from`: the router id of the route's iBGP source when the route is reflected.
  AttributeSetPtr rewrite(const AttributeSetPtr& in, const IpAddr* self,
                          const std::optional<IpAddr>& reflect_from) const;

  PeerId peer_;
  uint32_t local_as_;
  PipelinePeerConfig config_;
  ReflectionContext reflection_;
  Confederation confed_;
  PeerType type_;  // the peer's relation to us
  bool withdraw_by_prefix_ = false;
  mutable Counters counters_;
  // One-entry memo: consecutive routes usually share their attribute set.
  mutable AttributeSetPtr memo_in_;
  mutable AttributeSetPtr memo_out_;
  mutable std::optional<IpAddr> memo_self_;
  mutable std::optional<IpAddr> memo_reflect_from_;
  // A refresh in progress (while refilter_ walks): its family, nullopt for all.
  struct RefreshState {
    std::optional<Family> family;
  };
  std::optional<RefreshState> refresh_;
  // The export policy of each prefix (config_.export_policy is not used); last: its task goes
  // first.
  PolicyRefilter refilter_;
};

}  // namespace strata::bgp
