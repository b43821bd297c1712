#include "finder/operator_rights.h"

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

namespace strata::finder {
namespace {

std::optional<gid_t> GroupId(const std::string& name) {
  if (name.empty()) return std::nullopt;
  std::vector<char> buf(16384);
  group g{};
  group* found = nullptr;
  if (::getgrnam_r(name.c_str(), &g, buf.data(), buf.size(), &found) != 0 || found == nullptr) {
    return std::nullopt;
  }
  return found->gr_gid;
}

// The primary and supplementary groups of `uid`, as the group database has them now.
std::vector<gid_t> GroupsOf(uid_t uid, gid_t primary) {
  std::vector<gid_t> out = {primary};
  std::vector<char> buf(16384);
  passwd pw{};
  passwd* found = nullptr;
  if (::getpwuid_r(uid, &pw, buf.data(), buf.size(), &found) != 0 || found == nullptr) return out;
  int n = 64;
  std::vector<gid_t> groups(static_cast<size_t>(n));
  if (::getgrouplist(found->pw_name, found->pw_gid, groups.data(), &n) < 0) {
    groups.resize(static_cast<size_t>(n));
    if (::getgrouplist(found->pw_name, found->pw_gid, groups.data(), &n) < 0) return out;
  }
  groups.resize(static_cast<size_t>(n));
  out.insert(out.end(), groups.begin(), groups.end());
  return out;
}

}  // namespace

const char* CallerRightsName(CallerRights r) {
  switch (r) {
    case CallerRights::kNone:
      return "no";
    case CallerRights::kShow:
      return "show";
    case CallerRights::kAll:
      return "show and configuration";
  }
  return "no";
}

OperatorRights::OperatorRights(const std::string& config_group, const std::string& show_group)
    : config_gid_(GroupId(config_group)), show_gid_(GroupId(show_group)) {}

CallerRights OperatorRights::Of(const std::optional<ipc::PeerCredentials>& caller) const {
  if (!caller) return CallerRights::kNone;
  if (caller->uid == 0 || caller->uid == ::geteuid()) return CallerRights::kAll;
  const auto groups = GroupsOf(caller->uid, caller->gid);
  auto member = [&](const std::optional<gid_t>& g) {
    return g && std::find(groups.begin(), groups.end(), *g) != groups.end();
  };
  if (member(config_gid_)) return CallerRights::kAll;
  if (member(show_gid_)) return CallerRights::kShow;
  return CallerRights::kNone;
}

}  // namespace strata::finder
