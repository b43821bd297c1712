// LifetimeWatches: a process's lifetime watches (of classes and of instances) and what each one
// has been told, so that a Finder restart does not look like a wave of deaths and births.
//
// The Finder reports births and deaths. When it restarts, every live component registers again
// and re-establishes its watches, so a watcher would hear again the births of members it knows,
// and never the death of one that went while the Finder was away. Components act on these
// events (a RIB withdraws a protocol's routes when its owner dies), so this table delivers an
// event to a watch only when it changes what that watch knows:
//   - a birth of a known member with the same incarnation (the same process) is dropped;
//   - a birth of a known member with another incarnation (it was restarted meanwhile) is
//     delivered as its death, then its birth;
//   - a death of a member the watch does not know is dropped.
// After a reconnection BeginResync starts noting which known members are announced again;
// EndResync, called once the other components have had time to register again, reports the
// rest dead.
// Threading: single-threaded (the Router's io_context thread). Callbacks may add watches.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace strata::ipc {

using LifetimeCallback = std::function<void(const std::string& class_name,
                                            const std::string& instance_name, bool alive)>;

class LifetimeWatches {
 public:
  // A watch of a class (`is_class`) or of an instance. It hears nothing until Deliver.
  void Add(bool is_class, std::string name, LifetimeCallback cb);
  // An event from the Finder: runs the callbacks of the watches whose knowledge it changes.
  void Deliver(const std::string& class_name, const std::string& instance,
               const std::string& incarnation, bool alive);
  // Whether some watch knows `instance` alive as another incarnation than `incarnation`.
  bool Replaces(const std::string& instance, const std::string& incarnation) const;

  void BeginResync();
  // Reports dead every known member not announced since BeginResync; returns their names.
  std::vector<std::string> EndResync();

  // (is_class, name) of every watch, to re-establish them with a new Finder.
  std::vector<std::pair<bool, std::string>> List() const;

 private:
  struct Member {
    std::string class_name;
    std::string incarnation;
    bool confirmed = true;  // announced since the last BeginResync
  };
  struct Watch {
    bool is_class = false;
    std::string name;
    LifetimeCallback cb;
    std::map<std::string, Member> members;  // by instance name
  };
  std::vector<std::shared_ptr<Watch>> watches_;
};

}  // namespace strata::ipc
