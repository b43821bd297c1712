#include "libipc/call/atoms_json.h"

#include <charconv>
#include <string_view>

namespace strata::ipc {

namespace {

nlohmann::json ValueJson(AtomType type, const AtomValue& v) {
  return std::visit(
      [type, &v](const auto& x) -> nlohmann::json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
                      std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t> ||
                      std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
          return x;
        } else {
          return ValueToString(type, v);
        }
      },
      v);
}

bool IsIndex(std::string_view s, size_t& index) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), index);
  return !s.empty() && ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

nlohmann::json AtomsToJson(const std::vector<XrlAtom>& atoms) {
  nlohmann::json root = nlohmann::json::object();
  for (const auto& a : atoms) {
    nlohmann::json value;
    if (a.is_list()) {
      value = nlohmann::json::array();
      for (const auto& e : a.elements()) value.push_back(ValueJson(a.type(), e));
    } else {
      value = ValueJson(a.type(), a.value());
    }
    nlohmann::json* node = &root;
    std::string_view name = a.name();
    while (true) {
      const auto dot = name.find('.');
      const std::string_view head = name.substr(0, dot);
      size_t index = 0;
      nlohmann::json* next = nullptr;
      if (node->is_array() && IsIndex(head, index)) {
        while (node->size() <= index) node->push_back(nlohmann::json::object());
        next = &(*node)[index];
      } else {
        if (!node->is_object()) *node = nlohmann::json::object();
        next = &(*node)[std::string(head)];
      }
      if (dot == std::string_view::npos) {
        *next = std::move(value);
        break;
      }
      // The next segment decides: an index makes this an array.
      const std::string_view rest = name.substr(dot + 1);
      size_t ignored = 0;
      if (next->is_null()) {
        *next = IsIndex(rest.substr(0, rest.find('.')), ignored) ? nlohmann::json::array()
                                                                 : nlohmann::json::object();
      }
      node = next;
      name = rest;
    }
  }
  return root;
}

}  // namespace strata::ipc
