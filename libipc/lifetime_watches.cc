#include "libipc/lifetime_watches.h"

#include <set>

namespace strata::ipc {

void LifetimeWatches::Add(bool is_class, std::string name, LifetimeCallback cb) {
  auto w = std::make_shared<Watch>();
  w->is_class = is_class;
  w->name = std::move(name);
  w->cb = std::move(cb);
  watches_.push_back(std::move(w));
}

void LifetimeWatches::Deliver(const std::string& class_name, const std::string& instance,
                              const std::string& incarnation, bool alive) {
  // Copy: a callback may add watches.
  auto watches = watches_;
  for (auto& w : watches) {
    if ((w->is_class ? class_name : instance) != w->name) continue;
    auto it = w->members.find(instance);
    if (!alive) {
      if (it == w->members.end()) continue;
      w->members.erase(it);
      w->cb(class_name, instance, false);
      continue;
    }
    if (it == w->members.end()) {
      w->members[instance] = Member{class_name, incarnation, true};
      w->cb(class_name, instance, true);
      continue;
    }
    it->second.confirmed = true;
    if (it->second.incarnation == incarnation) continue;  // re-announced by a new Finder
    it->second.incarnation = incarnation;
    w->cb(class_name, instance, false);
    w->cb(class_name, instance, true);
  }
}

bool LifetimeWatches::Replaces(const std::string& instance, const std::string& incarnation) const {
  for (const auto& w : watches_) {
    auto it = w->members.find(instance);
    if (it != w->members.end() && it->second.incarnation != incarnation) return true;
  }
  return false;
}

void LifetimeWatches::BeginResync() {
  for (auto& w : watches_) {
    for (auto& [name, m] : w->members) m.confirmed = false;
  }
}

std::vector<std::string> LifetimeWatches::EndResync() {
  std::set<std::string> gone;
  auto watches = watches_;
  for (auto& w : watches) {
    std::vector<std::pair<std::string, std::string>> dead;  // instance, class
    for (const auto& [name, m] : w->members) {
      if (!m.confirmed) dead.emplace_back(name, m.class_name);
    }
    for (const auto& [name, cls] : dead) {
      w->members.erase(name);
      gone.insert(name);
      w->cb(cls, name, false);
    }
  }
  return {gone.begin(), gone.end()};
}

std::vector<std::pair<bool, std::string>> LifetimeWatches::List() const {
  std::vector<std::pair<bool, std::string>> out;
  for (const auto& w : watches_) out.emplace_back(w->is_class, w->name);
  return out;
}

}  // namespace strata::ipc
