#include "rib/symbol.h"

#include <functional>
#include <mutex>
#include <set>

namespace strata::rib {

const std::string* Symbol::Intern(std::string_view s) {
  if (s.empty()) return nullptr;
  // Leaked on purpose: Symbols in static objects may outlive any pool with a destructor.
  static auto* pool = new std::set<std::string, std::less<>>();
  static auto* mu = new std::mutex();
  std::lock_guard<std::mutex> lock(*mu);
  auto it = pool->find(s);
  if (it == pool->end()) it = pool->emplace(s).first;
  return &*it;
}

const std::string& Symbol::Empty() {
  static const auto* empty = new std::string();
  return *empty;
}

}  // namespace strata::rib
