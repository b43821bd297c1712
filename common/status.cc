#include "common/status.h"

#include <array>

namespace strata {

std::string_view StatusCodeName(StatusCode code) {
  static constexpr std::array<std::string_view, 17> kNames = {"OK",
                                                              "CANCELLED",
                                                              "UNKNOWN",
                                                              "INVALID_ARGUMENT",
                                                              "DEADLINE_EXCEEDED",
                                                              "NOT_FOUND",
                                                              "ALREADY_EXISTS",
                                                              "PERMISSION_DENIED",
                                                              "RESOURCE_EXHAUSTED",
                                                              "FAILED_PRECONDITION",
                                                              "ABORTED",
                                                              "OUT_OF_RANGE",
                                                              "UNIMPLEMENTED",
                                                              "INTERNAL",
                                                              "UNAVAILABLE",
                                                              "DATA_LOSS",
                                                              "UNAUTHENTICATED"};
  auto i = static_cast<size_t>(code);
  if (i < kNames.size()) return kNames[i];
  return "UNKNOWN_CODE";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string s(StatusCodeName(code_));
  if (!message_.empty()) {
    s += ": ";
    s += message_;
  }
  return s;
}

}  // namespace strata
