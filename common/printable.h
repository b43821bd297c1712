// Printable: text from outside (a peer's shutdown communication, names in messages) made safe
// to put in a log line or on an operator's terminal. Valid UTF-8 is kept as it is, except that
// control characters (C0, DEL, C1), backslash and double quote are escaped; bytes that are not
// valid UTF-8 become \xNN. So a peer cannot start a new log line, move the cursor or change the
// terminal's colours. Threading: pure function.
#pragma once

#include <string>
#include <string_view>

namespace strata {

std::string Printable(std::string_view text);

}  // namespace strata
