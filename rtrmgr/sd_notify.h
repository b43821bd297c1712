// SdNotify: tells systemd (Type=notify units) how the router is doing, by the datagram
// protocol of sd_notify(3) on $NOTIFY_SOCKET: READY=1 once the boot configuration is applied,
// RELOADING=1 / READY=1 around a SIGHUP reload, STOPPING=1 at shutdown, STATUS=... lines shown
// by `systemctl status`. Without $NOTIFY_SOCKET (not under systemd) it does nothing. Written
// here rather than linking libsystemd: the protocol is one sendto(2). Thread-compatible.
#pragma once

#include <string>

namespace strata::rtrmgr {

// Sends `state` ("READY=1\nSTATUS=up, revision 3"); false when not under systemd or on error.
bool SdNotify(const std::string& state);

}  // namespace strata::rtrmgr
