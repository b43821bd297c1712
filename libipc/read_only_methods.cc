#include "libipc/read_only_methods.h"

#include <array>

namespace strata::ipc {

bool IsReadOnlyMethod(std::string_view path) {
  const auto slash = path.rfind('/');
  if (slash == std::string_view::npos) return false;
  const std::string_view method = path.substr(slash + 1);
  const std::string_view verb = method.substr(0, method.find('_'));
  static constexpr std::array<std::string_view, 7> kReading = {"get",   "list", "lookup", "explain",
                                                               "check", "ping", "echo"};
  for (std::string_view r : kReading) {
    if (verb == r) return true;
  }
  return false;
}

}  // namespace strata::ipc
