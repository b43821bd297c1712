#include "finder/finder_registry.h"

#include <sys/random.h>

#include <algorithm>

#include "libipc/frame.h"
#include "libipc/read_only_methods.h"

namespace strata::finder {

std::string RandomKey() {
  std::string key(ipc::kKeyBytes, '\0');
  size_t got = 0;
  while (got < key.size()) {
    const ssize_t n = ::getrandom(key.data() + got, key.size() - got, 0);
    if (n > 0) got += static_cast<size_t>(n);
  }
  return key;
}

bool ValidTargetName(const std::string& name) {
  if (name.empty() || name.size() > 128) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
  });
}

bool ValidMethodPath(const std::string& path) {
  if (path.empty() || path.size() > 256) return false;
  const auto a = path.find('/');
  const auto b = a == std::string::npos ? a : path.find('/', a + 1);
  if (a == 0 || b == std::string::npos || b == a + 1 || b + 1 >= path.size()) return false;
  if (path.find('/', b + 1) != std::string::npos) return false;
  return std::all_of(path.begin(), path.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '/';
  });
}

bool ValidGrpcMethod(const std::string& name) {
  if (name.size() < 4 || name.size() > 256 || name.front() != '/') return false;
  const auto slash = name.find('/', 1);
  if (slash == std::string::npos || slash == 1 || slash + 1 >= name.size()) return false;
  if (name.find('/', slash + 1) != std::string::npos) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '/';
  });
}

FinderRegistry::FinderRegistry(std::string admin_secret, bool strict)
    : admin_secret_(std::move(admin_secret)), strict_(strict) {}

const FinderRegistry::Entry* FinderRegistry::Find(const std::string& target) const {
  return const_cast<FinderRegistry*>(this)->Find(target);
}

FinderRegistry::Entry* FinderRegistry::Find(const std::string& target) {
  if (auto it = targets_.find(target); it != targets_.end()) return &it->second;
  Entry* oldest = nullptr;
  for (auto& [name, e] : targets_) {
    if (e.info.class_name() == target && (oldest == nullptr || e.order < oldest->order)) {
      oldest = &e;
    }
  }
  return oldest;
}

StatusOr<v1::RegisterTargetReply> FinderRegistry::Register(ConnId conn,
                                                           const v1::RegisterTargetRequest& req,
                                                           std::vector<Notice>& notices) {
  if (!ValidTargetName(req.class_name())) {
    return InvalidArgument("bad class name '" + req.class_name() + "'");
  }
  if (!ValidTargetName(req.instance_name())) {
    return InvalidArgument("bad instance name '" + req.instance_name() + "'");
  }
  if (req.instance_name() == "finder" || req.class_name() == "finder") {
    return AlreadyExists("'finder' is the Finder's own name");
  }
  if (auto owner = owners_.find(req.instance_name());
      owner != owners_.end() && owner->second != req.secret()) {
    return PermissionDenied("the name '" + req.instance_name() +
                            "' belongs to the process started for it; this process's secret is "
                            "not that one");
  }
  if (targets_.count(req.instance_name()) != 0) {
    return AlreadyExists("instance '" + req.instance_name() + "' is already registered");
  }
  for (const auto& m : req.methods()) {
    if (!ValidMethodPath(m.path())) {
      return InvalidArgument("bad method path '" + m.path() + "' (iface/version/method)");
    }
    if (!m.grpc_method().empty() && !ValidGrpcMethod(m.grpc_method())) {
      return InvalidArgument("bad gRPC method name '" + m.grpc_method() + "' of " + m.path());
    }
  }
  for (const auto& [name, e] : targets_) {
    if (e.info.class_name() != req.class_name()) continue;
    if (e.info.sole_instance()) {
      return AlreadyExists("class '" + req.class_name() + "' is sole-instance and '" + name +
                           "' is already running");
    }
    if (req.sole_instance()) {
      return AlreadyExists("cannot register '" + req.instance_name() +
                           "' as the sole instance of '" + req.class_name() + "': '" + name +
                           "' is already running");
    }
  }
  Entry e;
  e.conn = conn;
  e.info = req;
  e.secret = req.secret();
  e.info.clear_secret();
  e.info.clear_keys();
  e.order = next_order_++;
  std::map<std::string, std::string> offered;
  for (const auto& k : req.keys()) {
    if (k.key().size() == ipc::kKeyBytes) offered[k.path()] = k.key();
  }
  v1::RegisterTargetReply reply;
  for (const auto& m : req.methods()) {
    auto o = offered.find(m.path());
    const std::string key = o != offered.end() ? o->second : RandomKey();
    e.keys[m.path()] = key;
    auto* k = reply.add_keys();
    k->set_path(m.path());
    k->set_key(key);
  }
  auto& stored = targets_[req.instance_name()] = std::move(e);
  Announce(stored, Notice::Kind::kBirth, notices);
  return reply;
}

void FinderRegistry::Announce(const Entry& e, Notice::Kind kind,
                              std::vector<Notice>& notices) const {
  auto add = [&](const std::set<Watch>& watches) {
    for (const auto& w : watches) {
      notices.push_back(Notice{w.conn, w.watcher, kind, e.info.class_name(), e.info.instance_name(),
                               e.info.incarnation()});
    }
  };
  if (auto it = class_watches_.find(e.info.class_name()); it != class_watches_.end()) {
    add(it->second);
  }
  if (auto it = instance_watches_.find(e.info.instance_name()); it != instance_watches_.end()) {
    add(it->second);
  }
}

void FinderRegistry::Died(const std::string& instance, std::vector<Notice>& notices) {
  auto it = targets_.find(instance);
  if (it == targets_.end()) return;
  Entry e = std::move(it->second);
  targets_.erase(it);
  for (ConnId r : e.resolvers) {
    if (r == e.conn) continue;
    notices.push_back(Notice{r, "", Notice::Kind::kInvalidate, e.info.class_name(), instance,
                             e.info.incarnation()});
  }
  Announce(e, Notice::Kind::kDeath, notices);
}

Status FinderRegistry::Unregister(ConnId conn, const std::string& instance,
                                  std::vector<Notice>& notices) {
  auto it = targets_.find(instance);
  if (it == targets_.end()) return NotFound("no such target '" + instance + "'");
  if (it->second.conn != conn) {
    return PermissionDenied("'" + instance + "' was registered by another process");
  }
  Died(instance, notices);
  return Status();
}

void FinderRegistry::ConnectionClosed(ConnId conn, std::vector<Notice>& notices) {
  std::vector<std::string> gone;
  for (const auto& [name, e] : targets_) {
    if (e.conn == conn) gone.push_back(name);
  }
  // Watches first: a dying process is not told of its own death.
  for (auto* watches : {&class_watches_, &instance_watches_}) {
    for (auto it = watches->begin(); it != watches->end();) {
      std::erase_if(it->second, [conn](const Watch& w) { return w.conn == conn; });
      it = it->second.empty() ? watches->erase(it) : std::next(it);
    }
  }
  for (auto& [name, e] : targets_) e.resolvers.erase(conn);
  for (const auto& name : gone) Died(name, notices);
}

bool FinderRegistry::MayResolve(const std::string& secret, const Entry& e,
                                CallerRights caller) const {
  auto it = permissions_.find(secret);
  if (it == permissions_.end()) return !strict_ || caller != CallerRights::kNone;
  const auto& t = it->second.targets;
  return t.count("*") != 0 || t.count(e.info.instance_name()) != 0 ||
         t.count(e.info.class_name()) != 0;
}

bool FinderRegistry::MayCall(const std::string& secret, const std::string& path,
                             CallerRights caller) const {
  auto it = permissions_.find(secret);
  if (it == permissions_.end()) {
    if (!strict_ || caller == CallerRights::kAll) return true;
    return caller == CallerRights::kShow && ipc::IsReadOnlyMethod(path);
  }
  const auto& m = it->second.methods;
  return m.count("*") != 0 || m.count(path) != 0;
}

StatusOr<v1::ResolveTargetReply> FinderRegistry::Resolve(ConnId conn,
                                                         const v1::ResolveTargetRequest& req,
                                                         CallerRights caller) {
  Entry* e = Find(req.target());
  if (e == nullptr) return NotFound("no such target '" + req.target() + "'");
  if (!MayResolve(req.secret(), *e, caller)) {
    return PermissionDenied("this process may not call '" + req.target() + "'");
  }
  e->resolvers.insert(conn);
  v1::ResolveTargetReply reply;
  reply.set_instance_name(e->info.instance_name());
  reply.set_class_name(e->info.class_name());
  *reply.mutable_endpoints() = e->info.endpoints();
  for (const auto& m : e->info.methods()) {
    auto* r = reply.add_methods();
    r->set_path(m.path());
    r->set_grpc_method(m.grpc_method());
    if (MayCall(req.secret(), m.path(), caller)) r->set_key(e->keys[m.path()]);
  }
  return reply;
}

v1::ListTargetsReply FinderRegistry::ListTargets() const {
  v1::ListTargetsReply reply;
  std::set<std::string> classes;
  reply.add_instances("finder");
  classes.insert("finder");
  for (const auto& [name, e] : targets_) {
    reply.add_instances(name);
    classes.insert(e.info.class_name());
    auto* t = reply.add_targets();
    t->set_class_name(e.info.class_name());
    t->set_instance_name(name);
    t->set_sole_instance(e.info.sole_instance());
    *t->mutable_endpoints() = e.info.endpoints();
  }
  for (const auto& c : classes) reply.add_classes(c);
  return reply;
}

StatusOr<v1::ListMethodsReply> FinderRegistry::ListMethods(const std::string& target) const {
  v1::ListMethodsReply reply;
  if (target == "finder") {
    for (const auto& m : own_methods_) *reply.add_methods() = m;
    return reply;
  }
  const Entry* e = Find(target);
  if (e == nullptr) return NotFound("no such target '" + target + "'");
  *reply.mutable_methods() = e->info.methods();
  return reply;
}

Status FinderRegistry::WatchClass(ConnId conn, const std::string& watcher,
                                  const std::string& class_name, std::vector<Notice>& notices) {
  if (!ValidTargetName(class_name)) return InvalidArgument("bad class name '" + class_name + "'");
  class_watches_[class_name].insert(Watch{conn, watcher});
  for (const auto& [name, e] : targets_) {
    if (e.info.class_name() == class_name) {
      notices.push_back(
          Notice{conn, watcher, Notice::Kind::kBirth, class_name, name, e.info.incarnation()});
    }
  }
  return Status();
}

Status FinderRegistry::UnwatchClass(ConnId conn, const std::string& watcher,
                                    const std::string& class_name) {
  auto it = class_watches_.find(class_name);
  if (it == class_watches_.end() || it->second.erase(Watch{conn, watcher}) == 0) {
    return NotFound("no watch of class '" + class_name + "'");
  }
  if (it->second.empty()) class_watches_.erase(it);
  return Status();
}

Status FinderRegistry::WatchInstance(ConnId conn, const std::string& watcher,
                                     const std::string& instance, std::vector<Notice>& notices) {
  if (!ValidTargetName(instance)) return InvalidArgument("bad instance name '" + instance + "'");
  instance_watches_[instance].insert(Watch{conn, watcher});
  if (auto it = targets_.find(instance); it != targets_.end()) {
    notices.push_back(Notice{conn, watcher, Notice::Kind::kBirth, it->second.info.class_name(),
                             instance, it->second.info.incarnation()});
  }
  return Status();
}

Status FinderRegistry::UnwatchInstance(ConnId conn, const std::string& watcher,
                                       const std::string& instance) {
  auto it = instance_watches_.find(instance);
  if (it == instance_watches_.end() || it->second.erase(Watch{conn, watcher}) == 0) {
    return NotFound("no watch of instance '" + instance + "'");
  }
  if (it->second.empty()) instance_watches_.erase(it);
  return Status();
}

Status FinderRegistry::CheckAdmin(const std::string& admin_secret) const {
  if (admin_secret_.empty() || admin_secret != admin_secret_) {
    return PermissionDenied("setting permissions needs the Finder's admin secret");
  }
  return Status();
}

Status FinderRegistry::SetPermissions(const v1::SetPermissionsRequest& req,
                                      std::vector<Notice>& notices,
                                      std::vector<std::string>* evicted) {
  if (Status s = CheckAdmin(req.admin_secret()); !s.ok()) return s;
  if (req.secret().empty()) return InvalidArgument("permissions need a process secret");
  for (const auto& name : req.owned_names()) {
    if (!ValidTargetName(name)) return InvalidArgument("bad owned name '" + name + "'");
  }
  Permissions p;
  p.targets.insert(req.allowed_targets().begin(), req.allowed_targets().end());
  p.methods.insert(req.allowed_methods().begin(), req.allowed_methods().end());
  permissions_[req.secret()] = std::move(p);
  for (const auto& name : req.owned_names()) {
    owners_[name] = req.secret();
    auto it = targets_.find(name);
    if (it != targets_.end() && it->second.secret != req.secret()) {
      if (evicted != nullptr) evicted->push_back(name);
      Died(name, notices);
    }
  }
  return Status();
}

}  // namespace strata::finder
