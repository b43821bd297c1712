#include "common/log_levels.h"

#include <algorithm>

namespace strata {
namespace {

struct Named {
  std::string_view name;
  spdlog::level::level_enum level;
};
constexpr Named kLevels[] = {
    {"trace", spdlog::level::trace},       {"debug", spdlog::level::debug},
    {"info", spdlog::level::info},         {"warning", spdlog::level::warn},
    {"warn", spdlog::level::warn},         {"error", spdlog::level::err},
    {"critical", spdlog::level::critical}, {"off", spdlog::level::off},
};

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '-' || c == '_';
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// `name` is `prefix` or lies under it.
bool Covers(std::string_view prefix, std::string_view name) {
  return name.size() >= prefix.size() && name.substr(0, prefix.size()) == prefix &&
         (name.size() == prefix.size() || name[prefix.size()] == '.');
}

}  // namespace

StatusOr<spdlog::level::level_enum> LogLevels::ParseLevel(std::string_view name) {
  for (const Named& n : kLevels) {
    if (n.name == name) return n.level;
  }
  return InvalidArgument("'" + std::string(name) +
                         "' is not a log level (trace, debug, info, warning, error, critical, "
                         "off)");
}

std::string_view LogLevels::LevelName(spdlog::level::level_enum level) {
  for (const Named& n : kLevels) {
    if (n.level == level) return n.name;
  }
  return "info";
}

StatusOr<LogLevels> LogLevels::Parse(std::string_view spec) {
  LogLevels out;
  bool fallback_set = false;
  size_t start = 0;
  while (start <= spec.size()) {
    const size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string_view part = Trim(spec.substr(start, comma - start));
    start = comma + 1;
    if (part.empty()) {
      if (comma == spec.size()) break;
      return InvalidArgument("log levels '" + std::string(spec) + "': an empty entry");
    }
    const size_t eq = part.find('=');
    if (eq == std::string_view::npos) {
      if (fallback_set) {
        return InvalidArgument("log levels '" + std::string(spec) + "': two levels for all");
      }
      auto level = ParseLevel(part);
      if (!level.ok()) return level.status();
      out.fallback = *level;
      fallback_set = true;
      continue;
    }
    const std::string_view name = Trim(part.substr(0, eq));
    if (name.empty() || !std::all_of(name.begin(), name.end(), IsNameChar)) {
      return InvalidArgument("'" + std::string(name) +
                             "' is not a logger name (letters, digits, '.', '-', '_')");
    }
    auto level = ParseLevel(Trim(part.substr(eq + 1)));
    if (!level.ok()) return level.status();
    out.components.emplace_back(std::string(name), *level);
  }
  return out;
}

spdlog::level::level_enum LogLevels::For(std::string_view name) const {
  size_t best = 0;
  spdlog::level::level_enum level = fallback;
  for (const auto& [prefix, l] : components) {
    if (Covers(prefix, name) && prefix.size() >= best) {
      best = prefix.size();
      level = l;
    }
  }
  return level;
}

std::string LogLevels::ToString() const {
  std::string out(LevelName(fallback));
  for (const auto& [name, level] : components)
    out += "," + name + "=" + std::string(LevelName(level));
  return out;
}

}  // namespace strata
