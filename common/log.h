// Logging: one spdlog logger per component, writing to stderr with the component name.
//
// Call MakeLogger("rib.red") once per component and keep the pointer; the level comes from
// STRATA_LOG_LEVEL (trace, debug, info, warn, error, off; default info).
#pragma once

#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace strata {

std::shared_ptr<spdlog::logger> MakeLogger(const std::string& component);

}  // namespace strata
