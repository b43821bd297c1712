// Which methods only read: the ones an operator with `show` rights may call.
//
// Strata's interfaces name methods verb first (GoBGP's style): get_, list_, lookup_, explain_,
// check_, ping, echo only read state; every other verb (add, delete, set, commit, enable,
// clear, reset, shutdown...) changes it. The Finder hands a show-only operator the keys of the
// reading methods alone, and components log changing calls made from outside the rtrmgr. A new
// reading verb must be added here, or show-only operators will not get it (the safe side).
// Pure function; thread-safe.
#pragma once

#include <string_view>

namespace strata::ipc {

// `path` is "iface/version/method".
bool IsReadOnlyMethod(std::string_view path);

}  // namespace strata::ipc
