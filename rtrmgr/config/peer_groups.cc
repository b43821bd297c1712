#include "rtrmgr/config/peer_groups.h"

#include <algorithm>
#include <string>
#include <vector>

namespace strata::rtrmgr {
namespace {

// The group's settings `peer` lacks, copied in.
void Inherit(ConfigNode& peer, const ConfigNode& group) {
  for (const ConfigNode& setting : group.children()) {
    if (setting.keyword() == "peer" || peer.FindChild(setting.keyword()) != nullptr) continue;
    peer.AddChild(setting);
  }
}

void ExpandBgp(ConfigNode& bgp, bool keep_groups) {
  std::vector<ConfigNode> out;
  std::vector<ConfigNode> nested;
  for (ConfigNode& child : bgp.mutable_children()) {
    if (child.keyword() != "group") {
      out.push_back(std::move(child));
      continue;
    }
    std::vector<ConfigNode> settings;
    for (ConfigNode& c : child.mutable_children()) {
      if (c.keyword() != "peer") {
        settings.push_back(std::move(c));
        continue;
      }
      ConfigNode member = std::move(c);
      ConfigNode ref("group", {child.first_arg()});
      ref.set_pos(child.pos());
      member.mutable_children().erase(
          std::remove_if(member.mutable_children().begin(), member.mutable_children().end(),
                         [](const ConfigNode& n) { return n.keyword() == "group"; }),
          member.mutable_children().end());
      member.AddChild(std::move(ref));
      nested.push_back(std::move(member));
    }
    child.mutable_children() = std::move(settings);
    if (keep_groups) out.push_back(std::move(child));
  }
  for (ConfigNode& n : nested) out.push_back(std::move(n));
  bgp.mutable_children() = std::move(out);
}

}  // namespace

ConfigNode PeerGroups::Expand(const ConfigNode& root, bool keep_groups) {
  ConfigNode out = root;
  for (ConfigNode& vr : out.mutable_children()) {
    if (vr.keyword() != "virtual-router") continue;
    for (ConfigNode& bgp : vr.mutable_children()) {
      if (bgp.keyword() != "bgp") continue;
      // Settings of every group, taken before the groups may go.
      std::vector<ConfigNode> groups;
      for (const ConfigNode& c : bgp.children()) {
        if (c.keyword() == "group") groups.push_back(c);
      }
      ExpandBgp(bgp, keep_groups);
      for (ConfigNode& peer : bgp.mutable_children()) {
        const ConfigNode* ref = peer.keyword() == "peer" ? peer.FindChild("group") : nullptr;
        if (ref == nullptr) continue;
        const std::string name = ref->first_arg();  // Inherit adds children: ref may move
        for (const ConfigNode& g : groups) {
          if (g.first_arg() == name) Inherit(peer, g);
        }
      }
    }
  }
  return out;
}

}  // namespace strata::rtrmgr
