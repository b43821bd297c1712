// OperatorRights: what a caller without a process secret may do, by who it is.
//
// Processes the rtrmgr starts carry a secret with rights for their template's needs. Operator
// tools (strata-call, strata-sh) carry none; a strict Finder gives them rights by the kernel's
// word on who they are (SO_PEERCRED on its Unix socket). A caller with a secret the Finder does
// not know gets nothing this way.
//   root, or the Finder's own user (the router's)  -> every method
//   a member of the configuration group            -> every method
//   a member of the show group                     -> the reading methods only
//                                                     (libipc/read_only_methods.h)
//   anyone else, or a caller over TCP              -> nothing
// Groups count as primary or supplementary (the user's entry in the group database). A group
// name that does not exist gives no one anything. Thread-compatible.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

#include "libipc/peer_credentials.h"

namespace strata::finder {

enum class CallerRights { kNone, kShow, kAll };

const char* CallerRightsName(CallerRights r);

class OperatorRights {
 public:
  OperatorRights() = default;
  // Looks the groups up by name now; empty names are no group.
  OperatorRights(const std::string& config_group, const std::string& show_group);

  CallerRights Of(const std::optional<ipc::PeerCredentials>& caller) const;

  bool has_config_group() const { return config_gid_.has_value(); }
  bool has_show_group() const { return show_gid_.has_value(); }

 private:
  std::optional<gid_t> config_gid_;
  std::optional<gid_t> show_gid_;
};

}  // namespace strata::finder
