// FinderRegistry: the Finder's state, apart from any I/O so it can be tested alone.
//
// It holds the registered targets (class, instance, endpoints, methods and their keys), which
// connection registered each one, who resolved what (to invalidate their caches), lifetime
// watches, and the access rules per process secret. Connections are opaque ids; every change
// that other components must hear of is returned as a list of Notices for the caller to send.
// Nothing is kept on disk: a restarted Finder gets its state back from the components, which
// register again offering the keys they hold and re-establish their watches, and from the
// rtrmgr, which sets the permissions again (see docs/ipc.md, "When the Finder restarts").
// Threading: single-threaded (the Finder's io_context thread).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/status.h"
#include "finder/operator_rights.h"
#include "libipc/interfaces/finder.pb.h"

namespace strata::finder {

using ConnId = uint64_t;

// A message the Finder must push to a connection.
struct Notice {
  ConnId conn = 0;
  std::string watcher;  // the target on that connection that receives it
  enum class Kind { kBirth, kDeath, kInvalidate } kind = Kind::kBirth;
  std::string class_name;
  std::string instance_name;
  std::string incarnation;  // of the target born or dead
};

struct Permissions {
  std::set<std::string> targets;  // instance or class names, "*" for any
  std::set<std::string> methods;  // "iface/version/method", "*" for any
};

class FinderRegistry {
 public:
  // `admin_secret` unlocks SetPermissions (empty: nobody may). In strict mode a secret with no
  // permissions resolves nothing; otherwise such a caller may resolve everything.
  FinderRegistry(std::string admin_secret, bool strict);

  // A request carrying keys (a component re-registering after a Finder restart) keeps them, so
  // its callers' cached resolutions stay valid; methods without a well-formed key get new ones.
  // A live name is never taken over (ALREADY_EXISTS), and a name the admin gave a secret
  // (SetPermissions' owned_names) is registered only with that secret (PERMISSION_DENIED).
  // Method paths must read "iface/version/method" and gRPC names "/pkg.Service/Method".
  StatusOr<v1::RegisterTargetReply> Register(ConnId conn, const v1::RegisterTargetRequest& req,
                                             std::vector<Notice>& notices);
  Status Unregister(ConnId conn, const std::string& instance, std::vector<Notice>& notices);
  // Drops every target and watch of a connection that went away.
  void ConnectionClosed(ConnId conn, std::vector<Notice>& notices);

  // A caller whose secret has rights is held to them. Any other caller: in permissive mode
  // resolves everything; in strict mode what `caller` (OperatorRights, by its credentials)
  // allows: every target, with the keys of every method (kAll), of the reading ones (kShow),
  // or nothing (kNone: PERMISSION_DENIED).
  StatusOr<v1::ResolveTargetReply> Resolve(ConnId conn, const v1::ResolveTargetRequest& req,
                                           CallerRights caller = CallerRights::kNone);
  v1::ListTargetsReply ListTargets() const;
  StatusOr<v1::ListMethodsReply> ListMethods(const std::string& target) const;

  Status WatchClass(ConnId conn, const std::string& watcher, const std::string& class_name,
                    std::vector<Notice>& notices);
  Status UnwatchClass(ConnId conn, const std::string& watcher, const std::string& class_name);
  Status WatchInstance(ConnId conn, const std::string& watcher, const std::string& instance,
                       std::vector<Notice>& notices);
  Status UnwatchInstance(ConnId conn, const std::string& watcher, const std::string& instance);

  // Also makes the secret the owner of `owned_names`; a holder of one of them under another
  // secret is dropped (its name is appended to `evicted`, the deaths to `notices`).
  Status SetPermissions(const v1::SetPermissionsRequest& req, std::vector<Notice>& notices,
                        std::vector<std::string>* evicted = nullptr);
  // OK if `admin_secret` is the Finder's (and one is set).
  Status CheckAdmin(const std::string& admin_secret) const;
  bool HasPermissions(const std::string& secret) const { return permissions_.contains(secret); }

  // Methods the Finder itself serves, listed like a target's ("finder/1.0/resolve_target"...).
  void set_own_methods(std::vector<v1::MethodSignature> methods) {
    own_methods_ = std::move(methods);
  }
  size_t target_count() const { return targets_.size(); }

 private:
  struct Entry {
    ConnId conn = 0;
    v1::RegisterTargetRequest info;
    std::map<std::string, std::string> keys;  // method path -> key
    std::set<ConnId> resolvers;
    uint64_t order = 0;  // registration order: a class resolves to its oldest instance
    std::string secret;  // the registrant's
  };
  struct Watch {
    ConnId conn;
    std::string watcher;
    friend auto operator<=>(const Watch&, const Watch&) = default;
  };

  const Entry* Find(const std::string& target) const;
  Entry* Find(const std::string& target);
  void Died(const std::string& instance, std::vector<Notice>& notices);
  void Announce(const Entry& e, Notice::Kind kind, std::vector<Notice>& notices) const;
  bool MayResolve(const std::string& secret, const Entry& e, CallerRights caller) const;
  bool MayCall(const std::string& secret, const std::string& path, CallerRights caller) const;

  std::string admin_secret_;
  bool strict_;
  uint64_t next_order_ = 1;
  std::map<std::string, Entry> targets_;  // by instance name
  std::map<std::string, std::set<Watch>> class_watches_;
  std::map<std::string, std::set<Watch>> instance_watches_;
  std::map<std::string, Permissions> permissions_;  // by secret
  std::map<std::string, std::string> owners_;       // instance name -> the secret owning it
  std::vector<v1::MethodSignature> own_methods_;
};

// 16 bytes from the kernel's random source.
std::string RandomKey();
// Target, class and instance names: [A-Za-z0-9_.-]+, at most 128 characters.
bool ValidTargetName(const std::string& name);
// "iface/version/method" of [A-Za-z0-9_.]; "/pkg.Service/Method" likewise.
bool ValidMethodPath(const std::string& path);
bool ValidGrpcMethod(const std::string& name);

}  // namespace strata::finder
