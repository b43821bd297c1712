// FakeLinkKernel: an in-memory LinkKernel for tests, with the Linux behaviour VrfDevices relies
// on: CreateVrf fails (EEXIST) for a name taken; deleting a VRF device releases its slaves;
// SetMaster of an unknown link or master fails. Like the kernel, it reports link changes later:
// they queue up until Deliver() hands them to an InterfaceTable (what the link monitor does).
// Records every call in `calls`, e.g. "create red 100", "master 3 7", "delete 7",
// "guard+ 100", "guard- 100", "up 7", "rule+ eth1 100". With `no_vrf` it is a kernel without
// VRF devices.
// Threading: single-threaded test code.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "fea/interface_table.h"
#include "fea/link_kernel.h"

namespace strata::fea {

class FakeLinkKernel : public LinkKernel {
 public:
  // A link that exists before the test (an interface, or a VRF device made by someone else);
  // reported at the next Deliver().
  void AddLink(const LinkInfo& link) {
    links[link.ifindex] = link;
    next_index_ = std::max(next_index_, link.ifindex + 1);
    pending_.push_back(link.ifindex);
  }
  void RemoveLinkFromOutside(uint32_t ifindex) { Delete(ifindex); }

  StatusOr<uint32_t> CreateVrf(const std::string& name, uint32_t table,
                               const std::string& alias) override {
    calls.push_back("create " + name + " " + std::to_string(table));
    if (no_vrf) return Unimplemented("EOPNOTSUPP");
    for (const auto& [i, l] : links) {
      if (l.name == name) return AlreadyExists("EEXIST");
    }
    LinkInfo l;
    l.ifindex = next_index_++;
    l.name = name;
    l.admin_up = true;
    l.carrier = true;
    l.kind = "vrf";
    l.vrf_table = table;
    l.alias = alias;
    links[l.ifindex] = l;
    pending_.push_back(l.ifindex);
    return l.ifindex;
  }
  Status SetUp(uint32_t ifindex) override {
    calls.push_back("up " + std::to_string(ifindex));
    auto it = links.find(ifindex);
    if (it == links.end()) return NotFound("ENODEV");
    it->second.admin_up = true;
    pending_.push_back(ifindex);
    return Status();
  }
  Status SetMaster(uint32_t ifindex, uint32_t master) override {
    calls.push_back("master " + std::to_string(ifindex) + " " + std::to_string(master));
    auto it = links.find(ifindex);
    if (it == links.end() || (master != 0 && !links.contains(master))) return NotFound("ENODEV");
    it->second.master = master;
    pending_.push_back(ifindex);
    return Status();
  }
  Status DeleteLink(uint32_t ifindex) override {
    calls.push_back("delete " + std::to_string(ifindex));
    if (!links.contains(ifindex)) return NotFound("ENODEV");
    Delete(ifindex);
    return Status();
  }
  Status AddGuard(uint32_t table) override {
    calls.push_back("guard+ " + std::to_string(table));
    guards.insert(table);
    return Status();
  }
  Status DeleteGuard(uint32_t table) override {
    calls.push_back("guard- " + std::to_string(table));
    guards.erase(table);
    return Status();
  }

  Status AddIifRule(const std::string& iif, uint32_t table) override {
    calls.push_back("rule+ " + iif + " " + std::to_string(table));
    rules.insert({iif, table});
    return Status();
  }
  Status DeleteIifRule(const std::string& iif, uint32_t table) override {
    calls.push_back("rule- " + iif + " " + std::to_string(table));
    rules.erase({iif, table});
    return Status();
  }

  // Reports the queued changes to `table`, in order (links as they are now).
  void Deliver(InterfaceTable& table) {
    auto todo = std::move(pending_);
    pending_.clear();
    for (uint32_t index : todo) {
      auto it = links.find(index);
      if (it == links.end()) {
        table.RemoveLink(index);
      } else {
        table.UpdateLink(it->second);
      }
    }
  }

  std::map<uint32_t, LinkInfo> links;
  std::set<uint32_t> guards;
  std::set<std::pair<std::string, uint32_t>> rules;  // iif rules
  bool no_vrf = false;  // a kernel without VRF devices: CreateVrf is UNIMPLEMENTED
  std::vector<std::string> calls;

 private:
  void Delete(uint32_t ifindex) {
    links.erase(ifindex);
    pending_.push_back(ifindex);
    for (auto& [i, l] : links) {
      if (l.master == ifindex) {
        l.master = 0;
        pending_.push_back(i);
      }
    }
  }

  std::vector<uint32_t> pending_;
  uint32_t next_index_ = 1;
};

}  // namespace strata::fea
