// Conversions between bgp.proto messages and the speaker's core types. Only BgpService and these
// functions see the generated types; every conversion of untrusted input returns an error value
// that names the field. Threading: pure functions.
#pragma once

#include <optional>
#include <string_view>

#include "bgp/policy/policy.h"
#include "bgp/process/bgp_speaker.h"
#include "libipc/interfaces/bgp.pb.h"

namespace strata::bgp {

// An unset (empty) address is nullopt; a malformed one is an error.
StatusOr<std::optional<IpAddr>> OptionalAddrFromProto(const common::v1::IpAddress& a,
                                                      std::string_view field);
StatusOr<IpAddr> RequiredAddrFromProto(const common::v1::IpAddress& a, std::string_view field);

StatusOr<LocalConfig> LocalConfigFromProto(const v1::SetLocalConfigRequest& r);
// The session settings of add_peer / change_peer (local AS and router id filled in later).
StatusOr<PeerSettings> PeerSettingsFromProto(const v1::AddPeerRequest& r);
StatusOr<Policy> PolicyFromProto(const v1::DefinePolicyRequest& r);

}  // namespace strata::bgp
