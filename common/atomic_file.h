// WriteFileAtomically: replaces a file so that a reader, or the next boot after a crash or a
// power cut, finds either the old contents or the new ones, never a mix or an empty file:
// write a temporary file beside it, fsync it, rename it over the target, fsync the directory.
// The file gets `mode` (0600 for files holding secrets such as MD5 keys) whatever the umask.
// Thread-compatible.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

#include "common/status.h"

namespace strata {

// INTERNAL naming the path and the failing step; the target is untouched on error.
Status WriteFileAtomically(const std::string& path, std::string_view contents, mode_t mode);

}  // namespace strata
