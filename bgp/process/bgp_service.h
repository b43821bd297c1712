// BgpService: the bgp/1.0 interface (libipc/interfaces/bgp.proto) over one BgpSpeaker.
//
// The IPC boundary of strata-bgp: each handler converts its arguments into core types (a bad
// one is an INVALID_ARGUMENT naming the field), calls the speaker, whose operations check
// everything before changing anything, and answers. The show methods (list_peers, list_routes,
// get_stats, in bgp_service_show.cc; list_peer_routes, explain_prefix in bgp_service_views.cc) read
// the speaker, the pipeline and the RIB parts. Threading: the io_context thread.
#pragma once

#include "bgp/process/bfd_link.h"
#include "bgp/process/bgp_speaker.h"
#include "bgp/process/rib_ipc_sink.h"
#include "bgp/process/rib_nexthop_oracle.h"
#include "bgp/process/rib_redist_client.h"
#include "libipc/interfaces/bgp.strata.h"

namespace strata::bgp {

class BgpService : public v1::BgpHandler {
 public:
  // `sink` and `oracle` are optional (statistics; the sink also gets the restart time).
  BgpService(BgpSpeaker& speaker, RibIpcSink* sink, const RibNexthopOracle* oracle)
      : speaker_(speaker), sink_(sink), oracle_(oracle) {}

  void SetLocalConfig(const v1::SetLocalConfigRequest& request,
                      ipc::Responder<v1::SetLocalConfigReply> reply) override;
  void AddPeer(const v1::AddPeerRequest& request, ipc::Responder<v1::AddPeerReply> reply) override;
  void ChangePeer(const v1::AddPeerRequest& request,
                  ipc::Responder<v1::AddPeerReply> reply) override;
  void DeletePeer(const v1::PeerRequest& request, ipc::Responder<v1::PeerReply> reply) override;
  void EnablePeer(const v1::PeerRequest& request, ipc::Responder<v1::PeerReply> reply) override;
  void DisablePeer(const v1::PeerRequest& request, ipc::Responder<v1::PeerReply> reply) override;
  void ResetPeer(const v1::PeerRequest& request, ipc::Responder<v1::PeerReply> reply) override;
  void SoftResetPeer(const v1::SoftResetPeerRequest& request,
                     ipc::Responder<v1::PeerReply> reply) override;
  void AddNetwork(const v1::NetworkRequest& request,
                  ipc::Responder<v1::NetworkReply> reply) override;
  void DeleteNetwork(const v1::NetworkRequest& request,
                     ipc::Responder<v1::NetworkReply> reply) override;
  void AddAggregate(const v1::AggregateRequest& request,
                    ipc::Responder<v1::AggregateReply> reply) override;
  void DeleteAggregate(const v1::AggregateRequest& request,
                       ipc::Responder<v1::AggregateReply> reply) override;
  void DefinePolicy(const v1::DefinePolicyRequest& request,
                    ipc::Responder<v1::DefinePolicyReply> reply) override;
  void DeletePolicy(const v1::DeletePolicyRequest& request,
                    ipc::Responder<v1::DeletePolicyReply> reply) override;
  void SetPeerPolicy(const v1::SetPeerPolicyRequest& request,
                     ipc::Responder<v1::PeerReply> reply) override;
  void ClearPeerPolicy(const v1::ClearPeerPolicyRequest& request,
                       ipc::Responder<v1::PeerReply> reply) override;
  void SetDefaultPolicy(const v1::SetDefaultPolicyRequest& request,
                        ipc::Responder<v1::SetDefaultPolicyReply> reply) override;
  void ClearDefaultPolicy(const v1::ClearDefaultPolicyRequest& request,
                          ipc::Responder<v1::ClearDefaultPolicyReply> reply) override;
  void ListPeers(const v1::ListPeersRequest& request,
                 ipc::Responder<v1::ListPeersReply> reply) override;
  void ListRoutes(const v1::ListRoutesRequest& request,
                  ipc::Responder<v1::ListRoutesReply> reply) override;
  void GetStats(const v1::GetStatsRequest& request,
                ipc::Responder<v1::GetStatsReply> reply) override;
  // What became of each route (bgp_service_views.cc).
  void ListPeerRoutes(const v1::ListPeerRoutesRequest& request,
                      ipc::Responder<v1::ListPeerRoutesReply> reply) override;
  void ExplainPrefix(const v1::ExplainPrefixRequest& request,
                     ipc::Responder<v1::ExplainPrefixReply> reply) override;
  // RPKI (bgp_service_rpki.cc).
  void SetRpki(const v1::SetRpkiRequest& request, ipc::Responder<v1::SetRpkiReply> reply) override;
  void ListRpkiCaches(const v1::ListRpkiCachesRequest& request,
                      ipc::Responder<v1::ListRpkiCachesReply> reply) override;
  void AddRpkiCache(const v1::AddRpkiCacheRequest& request,
                    ipc::Responder<v1::AddRpkiCacheReply> reply) override;
  void DeleteRpkiCache(const v1::DeleteRpkiCacheRequest& request,
                       ipc::Responder<v1::DeleteRpkiCacheReply> reply) override;
  void SetRpkiTimers(const v1::SetRpkiTimersRequest& request,
                     ipc::Responder<v1::SetRpkiTimersReply> reply) override;
  // `monitor bgp updates` (bgp_service_watch.cc): a long poll, parked in the speaker.
  void WatchUpdates(const v1::WatchUpdatesRequest& request,
                    ipc::Responder<v1::WatchUpdatesReply> reply) override;
  // Damping (bgp_service_damping.cc).
  void SetDamping(const v1::SetDampingRequest& request,
                  ipc::Responder<v1::SetDampingReply> reply) override;
  void ListDampedRoutes(const v1::ListDampedRoutesRequest& request,
                        ipc::Responder<v1::ListDampedRoutesReply> reply) override;
  void ClearDamping(const v1::ClearDampingRequest& request,
                    ipc::Responder<v1::ClearDampingReply> reply) override;
  // Redistribution from the RIB; FAILED_PRECONDITION without a RibRedistClient (set_redist).
  void SetRedistribute(const v1::SetRedistributeRequest& request,
                       ipc::Responder<v1::SetRedistributeReply> reply) override;
  void SetMultipath(const v1::SetMultipathRequest& request,
                    ipc::Responder<v1::SetMultipathReply> reply) override;
  void set_redist(RibRedistClient* redist) { redist_ = redist; }
  // BFD for peers (bgp_service_bfd.cc); FAILED_PRECONDITION without a BfdLink (set_bfd).
  void SetPeerBfd(const v1::SetPeerBfdRequest& request,
                  ipc::Responder<v1::PeerReply> reply) override;
  void ClearPeerBfd(const v1::PeerRequest& request, ipc::Responder<v1::PeerReply> reply) override;
  void set_bfd(BfdLink* bfd) { bfd_ = bfd; }

 private:
  // Runs `op` on the peer named by `peer`; answers its status.
  template <typename Fn>
  void with_peer(const common::v1::IpAddress& peer, ipc::Responder<v1::PeerReply>& reply, Fn op);
  void fill_peer(const BgpPeer& p, v1::PeerStatus* out) const;
  void fill_route(const BgpRouteRef& r, bool best, std::string_view reason,
                  v1::BgpRoute* out) const;
  // A route's path attributes: next hop, AS path, origin, MED, local pref, communities, ...
  static void fill_attributes(const PathAttributes& a, v1::BgpRoute* out);
  // A route peer `id` sent, what became of it and why.
  void fill_fate(PeerId id, const BgpPipeline::RouteFate& f, v1::PeerRoute* out) const;

  BgpSpeaker& speaker_;
  RibIpcSink* sink_;
  const RibNexthopOracle* oracle_;
  RibRedistClient* redist_ = nullptr;
  BfdLink* bfd_ = nullptr;
  // The BFD session key follows the peer's settings (local address, single or multi hop).
  Status update_bfd(const IpAddr& peer, const BfdSettings& settings);
  std::map<IpAddr, BfdSettings> bfd_settings_;
};

}  // namespace strata::bgp
