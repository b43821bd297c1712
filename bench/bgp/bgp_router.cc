#include "bench/bgp/bgp_router.h"

#include <fstream>

namespace strata::bench {

std::unique_ptr<RouterDriver> MakeDriver(const std::string& name) {
  if (name == "bird") return MakeBirdDriver();
  if (name == "frr") return MakeFrrDriver();
  if (name == "gobgp") return MakeGobgpDriver();
  if (name == "strata") return MakeStrataDriver();
  if (name == "relay") return MakeRelayDriver();
  return nullptr;
}

bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  return static_cast<bool>(f);
}

}  // namespace strata::bench
