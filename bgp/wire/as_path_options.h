// AsPathOptions: the per-neighbor AS path knobs operators know from FRR and Junos, and the path
// edits they make.
//
// - allowas-in N: a received path may hold our AS up to N times (a hub-and-spoke or a
//   site-to-site VPN where every site has the same AS); the RFC 4271 9.1.2 loop check otherwise.
// - remove-private-as [all] [replace-as] (eBGP export, FRR semantics): private and reserved ASes
//   (RFC 6996: 64512-65534, 4200000000-4294967294; RFC 7300: 65535, 4294967295) leave the path
//   before our AS is prepended. Without `all` only a path made of private ASes alone is touched;
//   with `all` every private AS goes. `replace-as` puts our AS in place of each instead of
//   removing it. The peer's own AS is never removed or replaced (its loop check needs it).
// - local-as AS [no-prepend] [replace-as] (migration, FRR/Junos semantics): the OPEN to the peer
//   carries AS; received paths get AS prepended unless no-prepend; sent paths start with AS, then
//   our real AS unless replace-as.
// Pure functions and a value type; thread-compatible.
#pragma once

#include <cstdint>

#include "bgp/wire/as_path.h"

namespace strata::bgp {

enum class RemovePrivateAs : uint8_t {
  kOff,
  kIfAllPrivate,  // `remove-private-as`: only when every AS of the path is private
  kAll,           // `remove-private-as all`
};

struct AsPathOptions {
  uint8_t allowas_in = 0;  // times our AS may appear in a received path (0: none, RFC 4271)
  RemovePrivateAs remove_private_as = RemovePrivateAs::kOff;
  bool remove_private_replace_as = false;  // replace private ASes by ours instead of removing
  uint32_t local_as = 0;                   // 0: none; else the AS this peer sees us as
  bool local_as_no_prepend = false;        // do not prepend local_as to received paths
  bool local_as_replace_as = false;        // send only local_as, not our real AS as well
  friend bool operator==(const AsPathOptions&, const AsPathOptions&) = default;
};

// RFC 6996 private and RFC 7300 last ASes, 2- and 4-octet.
bool IsPrivateAs(uint32_t asn);

// True when the path has at least one AS and every AS in it is private.
bool AllPrivate(const AsPath& path);

// `path` after remove-private-as for a peer in `peer_as`, our AS being `local_as`.
AsPath RemovePrivateAses(const AsPath& path, RemovePrivateAs mode, bool replace_as,
                         uint32_t local_as, uint32_t peer_as);

// The path as sent to an external peer: `local_as` (our AS as the peer sees it, see AsSeenBy)
// prepended, with the options' local-as in front of it (alone under replace-as).
AsPath PrependOwnAs(const AsPath& path, uint32_t local_as, const AsPathOptions& options);

}  // namespace strata::bgp
