// InvalidValue: the error of a value that does not parse, INVALID_ARGUMENT "'TEXT' WHY"
// ("'10.0.0.300' is not an IP address"), for the value types' Parse functions. Built by
// appending: GCC 12 at -O3 reports a false -Wrestrict on "'" + std::string(text) + "..." (an
// insert at the front taken for an overlapping memcpy) and fails a Release build with -Werror.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace strata {

inline Status InvalidValue(std::string_view text, std::string_view why) {
  std::string m = "'";
  m.append(text);
  m.append("' ");
  m.append(why);
  return InvalidArgument(std::move(m));
}

}  // namespace strata
