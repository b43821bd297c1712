#include "testing/interop/bgp_speaker.h"

#include <fstream>
#include <sstream>

namespace strata::interop {

std::string Route::ToString() const {
  std::ostringstream s;
  s << prefix << " via " << (nexthop.empty() ? "-" : nexthop) << " as_path [";
  for (size_t i = 0; i < as_path.size(); ++i) s << (i ? " " : "") << as_path[i];
  s << "]";
  if (!confed_path.empty()) {
    s << " confed [";
    for (size_t i = 0; i < confed_path.size(); ++i) s << (i ? " " : "") << confed_path[i];
    s << "]";
  }
  if (med) s << " med " << *med;
  if (local_pref) s << " local_pref " << *local_pref;
  for (const auto& c : communities) s << " community " << c;
  for (const auto& c : large_communities) s << " large " << c;
  if (originator_id) s << " originator " << *originator_id;
  for (const auto& c : cluster_list) s << " cluster " << c;
  return s.str();
}

bool BgpSpeaker::WaitEstablished(const std::string& neighbor, std::chrono::milliseconds limit) {
  return PollUntil([&] { return Established(neighbor); }, limit);
}

std::optional<Route> BgpSpeaker::FindRoute(const std::string& prefix) {
  auto routes = ReceivedRoutes();
  if (!routes.ok()) return std::nullopt;
  for (const auto& r : *routes) {
    if (r.prefix == prefix) return r;
  }
  return std::nullopt;
}

std::optional<Route> BgpSpeaker::WaitForRoute(const std::string& prefix,
                                              std::chrono::milliseconds limit,
                                              const std::function<bool(const Route&)>& accept) {
  std::optional<Route> found;
  PollUntil(
      [&] {
        found = FindRoute(prefix);
        return found.has_value() && (!accept || accept(*found));
      },
      limit);
  if (found && accept && !accept(*found)) return std::nullopt;
  return found;
}

bool BgpSpeaker::WaitForRouteGone(const std::string& prefix, std::chrono::milliseconds limit) {
  return PollUntil(
      [&] {
        auto routes = ReceivedRoutes();
        if (!routes.ok()) return false;
        for (const auto& r : *routes) {
          if (r.prefix == prefix) return false;
        }
        return true;
      },
      limit);
}

std::string BgpSpeaker::ReadFileTail(const std::string& name, size_t max) const {
  std::ifstream f(dir_ + "/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string s = ss.str();
  if (s.size() > max) s = "..." + s.substr(s.size() - max);
  return s;
}

}  // namespace strata::interop
