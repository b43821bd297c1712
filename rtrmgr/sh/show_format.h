// ShowFormat: the text form of `show` replies: a table per listing, "key: value" lines for a
// single record. Replies arrive as JSON (libipc/call/atoms_json.h), the same data `--json`
// prints, so the two forms cannot disagree. Stateless.
#pragma once

#include <string>
#include <vector>

#include "common/json.h"
#include "rtrmgr/sh/sh_command.h"

namespace strata::rtrmgr::sh {

class ShowFormat {
 public:
  static std::string Format(ShowRequest::Kind kind, const nlohmann::json& reply);
  // Columns of the objects in `rows`; a column is a key, or "a.b" into a nested object.
  static std::string Table(const nlohmann::json& rows, const std::vector<std::string>& columns);
  // `show log`: one "TIME LEVEL [LOGGER] TEXT" line per log/1.0 line (local time, as the
  // processes write their logs).
  static std::string LogLines(const nlohmann::json& lines);
  // A value as one cell: strings bare, arrays joined by ',', objects compact.
  static std::string Cell(const nlohmann::json& value);
};

}  // namespace strata::rtrmgr::sh
