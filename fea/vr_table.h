// VrTable: the virtual routers and their routes, the source of truth for show commands and
// for the kernel (KernelRoutes reads the wanted routes from here), and the writer of the shared
// multi-VR FIB (one Fib4 and one Fib6, one FIB VR id per VR).
//
// Contract of Apply(): the whole batch is validated first (VR known, op given, prefix of a valid
// length without host bits; a unicast route has next hops, of the prefix's family, each on an
// interface bound to the VR, weights 0..256; a blackhole, unreachable or prohibit route has
// none, and a change with neither a type nor next hops is a blackhole); any error is returned
// naming the entry ("changes[3]: ...") and nothing is applied. Then the changes apply in order: add
// and replace both install the route (replacing any previous one); delete of an absent prefix is a
// no-op. The FIB holds the first next hop of an ECMP route (it forwards to one next hop per
// prefix); routes that drop (blackhole, unreachable, prohibit) hold a next hop with no address and
// no interface.
//
// Resync: BeginResync() marks every route of the VR stale; routes added or replaced before
// EndResync() are fresh again; EndResync() removes the stale ones.
// Threading: the io_context thread (the FIB's writer API).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "absl/container/btree_map.h"
#include "absl/container/flat_hash_set.h"
#include "common/status.h"
#include "fea/fib/multi_vr_fib.h"
#include "fea/interface_table.h"
#include "fea/route_types.h"

namespace strata::fea {

struct Vr {
  std::string name;
  fib::VrId id = 0;
  uint32_t table_id = 0;  // 0: not installed in the kernel
  // A B-tree: sorted like a std::map without a node (and its 32-byte header) per route: a full
  // table is 1M, and the map was the FEA's largest memory and insert cost (15% of its CPU).
  absl::btree_map<IpPrefix, FeaRoute> routes;
  bool resyncing = false;
  // During a resync: prefixes re-sent since BeginResync.
  absl::flat_hash_set<IpPrefix, std::hash<IpPrefix>> fresh;
};

class VrTable {
 public:
  explicit VrTable(const InterfaceTable& interfaces);
  ~VrTable();

  // Idempotent for the same table id; ALREADY_EXISTS with another one.
  Status AddVr(const std::string& name, uint32_t table_id);
  // Removes the VR and its routes. NOT_FOUND if unknown.
  Status DeleteVr(const std::string& name);
  // Gives an existing VR another kernel table (0: none); its routes stay. NotFound for an
  // unknown VR, AlreadyExists if another VR has the table.
  Status SetTable(const std::string& name, uint32_t table_id);
  const Vr* Find(const std::string& name) const;
  std::vector<const Vr*> List() const;

  // An entry that failed validation: its index in the batch and why.
  struct Refusal {
    size_t index = 0;
    Status why;
  };
  // Validates then applies `changes` (see the contract above). Returns the prefixes whose route
  // changed, in order, without duplicates. When validation fails and `refused` is given, it gets
  // every invalid entry, not only the first (the status still names the first).
  StatusOr<std::vector<IpPrefix>> Apply(const std::string& vr, std::span<const RouteChange> changes,
                                        std::vector<Refusal>* refused = nullptr);

  Status BeginResync(const std::string& vr);
  // Returns the prefixes removed because they were not re-sent.
  StatusOr<std::vector<IpPrefix>> EndResync(const std::string& vr);

  // The FIB's answer for `addr` in `vr`, with the route it came from; nullopt for no route.
  StatusOr<std::optional<FeaRoute>> Lookup(const std::string& vr, const IpAddr& addr) const;
  // Routes of `vr` within `within` (all if nullopt), in prefix order, at most `limit` (0: all).
  StatusOr<std::vector<const FeaRoute*>> ListRoutes(const std::string& vr,
                                                    const std::optional<IpPrefix>& within,
                                                    size_t limit) const;

  fib::FibStats Stats4() const { return fib4_.Stats(); }
  fib::FibStats Stats6() const { return fib6_.Stats(); }

 private:
  StatusOr<FeaRoute> Validate(const Vr& vr, const RouteChange& change) const;
  Status Install(Vr& vr, FeaRoute route);
  void Remove(Vr& vr, const IpPrefix& prefix);

  const InterfaceTable& interfaces_;
  std::map<std::string, std::unique_ptr<Vr>> vrs_;
  std::vector<fib::VrId> free_ids_;
  fib::VrId next_id_ = 0;
  fib::Fib4 fib4_;
  fib::Fib6 fib6_;
  std::unique_ptr<fib::Fib4::ReaderSlot> slot4_;
  std::unique_ptr<fib::Fib6::ReaderSlot> slot6_;
};

}  // namespace strata::fea
