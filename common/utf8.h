// UTF-8 checks for text that crosses a boundary as a protobuf `string` (configuration values,
// XRL txt atoms): protobuf refuses to serialize a string field that is not valid UTF-8, so such
// text is refused where it enters, with the place of its first bad byte.
// Valid means RFC 3629: no overlong forms, no surrogates (U+D800..U+DFFF), nothing above
// U+10FFFF. Stateless.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace strata {

// The offset of the first byte that does not start or continue a valid sequence; nullopt when
// `text` is valid UTF-8.
std::optional<size_t> FirstInvalidUtf8(std::string_view text);

}  // namespace strata
