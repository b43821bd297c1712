// PeerIn: a peer's Adj-RIB-In, the head of its input branch and the only place its routes live.
//
// The session's received routes enter here (announce / withdraw, or add_route / delete_route
// with no caller); PeerIn keeps one route per prefix and sends add, replace (a new announcement
// of a held prefix) or delete downstream. When the peering goes down, take_routes() hands the
// whole table to a DeletionStage plumbed directly below and PeerIn starts empty, so the peer can
// come back at once (XORP paper 5.1.2). Lookups answer from the table.
//
// Graceful restart (RFC 4724): instead, the table may be kept when the session goes. A held
// route is stale when it came from another session than the current one (set_session): a new
// session (or none) makes every held route stale in O(1), a re-announcement replaces a stale
// route by a fresh one, and take_stale() hands the stale routes of a family to a DeletionStage.
// Long-lived graceful restart (RFC 9494 4.2): mark_llgr_stale() re-announces the stale routes of
// a family with the LLGR_STALE community and hands over those carrying NO_LLGR instead.
// Route origin validation (RFC 6811): with an OriginValidation set, each stored route is stamped
// with its state first (BgpRoute::rov); Revalidate() re-stamps a held route after a VRP change,
// sending a replace when the state differs.
// Threading: single-threaded.
#pragma once

#include <cstddef>
#include <iterator>
#include <optional>
#include <string>

#include "bgp/pipeline/bgp_stage.h"
#include "bgp/pipeline/origin_validation.h"
#include "common/route_trie.h"

namespace strata::bgp {

using RouteTable = RouteTrie<BgpRouteRef>;

class PeerIn : public BgpStage {
 public:
  explicit PeerIn(PeerId id) : id_(id) {}

  std::string name() const override { return "peer-in:" + std::to_string(id_); }

  // Stores and sends the route (replace if the prefix is held). REQUIRES: route->peer->id == id.
  void announce(const BgpRouteRef& route);
  // Withdraws the held route of the prefix; false if none was held (a harmless peer quirk).
  bool withdraw(const IpPrefix& prefix);

  // Entry points for the stage interface (caller is null): same as announce / withdraw.
  void add_route(const BgpRouteRef& route, BgpStage* caller) override;
  void delete_route(const BgpRouteRef& route, BgpStage* caller) override;
  BgpRouteRef lookup_route(const IpPrefix& prefix) const override;
  void prefetch(std::span<const IpPrefix> prefixes) override;
  void replace_parent(BgpStage* /*old_parent*/, BgpStage* /*new_parent*/) override {}

  // Hands over every route without sending anything; PeerIn is empty afterwards.
  RouteTable take_routes();

  // The session whose routes are fresh (null while down): every route now held becomes stale.
  void set_session(PeerRef session);
  // Hands over the stale routes of `family` (every family if unset) without sending anything.
  RouteTable take_stale(std::optional<Family> family);
  // Routes held from an earlier session.
  size_t stale() const { return stale_; }
  // Sends a replace of each stale route of `family` (every family if unset) with LLGR_STALE
  // added, and hands over (without sending anything) those carrying NO_LLGR.
  RouteTable mark_llgr_stale(std::optional<Family> family);
  // Stale routes carrying LLGR_STALE (marked here, or so received).
  size_t llgr_stale() const { return llgr_stale_; }

  // Route origin validation of the routes stored from now on (null: none, unverified).
  // REQUIRES: outlives this PeerIn or is reset first.
  void set_origin_validation(const OriginValidation* rov) { rov_ = rov; }
  // Validates the held route of `prefix` again: if its state changed, the held route becomes a
  // copy with the new state and a replace goes downstream. True if it changed.
  bool Revalidate(const IpPrefix& prefix);

  // Held routes in RovState `s`.
  size_t rov_count(RovState s) const { return rov_counts_[static_cast<size_t>(s)]; }

  PeerId id() const { return id_; }
  size_t size() const { return table_.size(); }
  RouteTable& table() { return table_; }

 private:
  bool is_stale(const BgpRoute& r) const { return r.peer != session_; }

  PeerId id_;
  RouteTable table_;
  PeerRef session_;
  const OriginValidation* rov_ = nullptr;
  size_t stale_ = 0;
  size_t rov_counts_[4] = {};       // held routes by RovState
  size_t with_llgr_community_ = 0;  // held routes carrying LLGR_STALE, stale or not
  size_t llgr_stale_ = 0;
  void forget(const BgpRoute& old);  // counters of a route leaving the table
};

}  // namespace strata::bgp
