// LogLevels: how much each logger logs: a level for every logger, and levels for some
// components by name prefix ("bgp.red.session=debug" covers bgp.red.session and
// bgp.red.session.x, not bgp.red.sessions); the longest matching prefix wins.
//
// Text form (STRATA_LOG_LEVEL, --log-level, log/1.0/set_levels): "LEVEL" or
// "LEVEL,NAME=LEVEL,..." or "NAME=LEVEL,...". Levels: trace, debug, info, warning (or warn),
// error, critical, off. A typo is an error value naming what was expected: spdlog's own parser
// takes any unknown word for "off", so a typo would silence every line, fatal errors included.
// Value type.
#pragma once

#include <spdlog/common.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace strata {

struct LogLevels {
  spdlog::level::level_enum fallback = spdlog::level::info;
  std::vector<std::pair<std::string, spdlog::level::level_enum>> components;  // name -> level

  // INVALID_ARGUMENT naming the bad word.
  static StatusOr<LogLevels> Parse(std::string_view spec);
  static StatusOr<spdlog::level::level_enum> ParseLevel(std::string_view name);
  static std::string_view LevelName(spdlog::level::level_enum level);

  // The level of logger `name`.
  spdlog::level::level_enum For(std::string_view name) const;
  // The text form, which Parse reads back.
  std::string ToString() const;
  friend bool operator==(const LogLevels&, const LogLevels&) = default;
};

}  // namespace strata
