// Target: one component instance served by a process (XORP's component: class "rib", instance
// "rib.red"), and the table of its methods.
//
// Generated handler bases (protoc-gen-strata) bind their methods here; the Router registers the
// target with the Finder and installs the per-method keys the Finder hands back. Until then, and
// for any call without the right key, the target answers errors: a call never reaches a handler
// without the Finder's say-so. Threading: the io_context thread only.
#pragma once

#include <google/protobuf/arena.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "libipc/method_naming.h"
#include "libipc/responder.h"

namespace strata::ipc {

struct MethodEntry {
  std::string path;  // "test/1.0/echo"
  const google::protobuf::MethodDescriptor* descriptor = nullptr;
  // Builds an empty request message on `arena` (for parsing): a large request (a batch of routes)
  // then costs a few arena blocks instead of a malloc and a free per field.
  std::function<google::protobuf::Message*(google::protobuf::Arena*)> new_request;
  // Runs the handler on a parsed request.
  std::function<void(const google::protobuf::Message&, std::unique_ptr<ReplySink>)> invoke;
  std::string key;  // what callers must present; empty until registered
};

// Implemented by generated handler bases: adds their methods to a target.
class Service {
 public:
  virtual ~Service() = default;
  virtual const google::protobuf::ServiceDescriptor* GetDescriptor() const = 0;
  virtual void BindTo(class Target& target) = 0;
};

class Target {
 public:
  Target(std::string class_name, std::string instance_name, bool sole_instance);

  const std::string& class_name() const { return class_name_; }
  const std::string& instance_name() const { return instance_name_; }
  bool sole_instance() const { return sole_; }

  // Serves every method of `service`, which must outlive the target.
  void Serve(Service& service) { service.BindTo(*this); }
  // Used by generated code: binds one method with a typed handler.
  template <typename Req, typename Rep, typename Fn>
  void AddMethod(const google::protobuf::MethodDescriptor* method, Fn handler);

  // Whether callers must present keys (off only for the Finder's own target).
  void set_require_keys(bool v) { require_keys_ = v; }
  bool registered() const { return registered_; }
  // Installs the keys from the Finder's registration reply.
  void SetKeys(const std::vector<std::pair<std::string, std::string>>& path_keys);
  void ClearKeys();

  // Dispatches a serialized call: checks the method, the key and the arguments.
  void DispatchSerialized(std::string_view path, std::string_view key, std::string_view payload,
                          std::unique_ptr<ReplySink> sink);
  // Dispatches an in-process call (no serialization, no key: same process, same trust).
  void DispatchMessage(std::string_view path, const google::protobuf::Message& request,
                       std::unique_ptr<ReplySink> sink);

  const MethodEntry* FindMethod(std::string_view path) const;
  const std::map<std::string, MethodEntry, std::less<>>& methods() const { return methods_; }

 private:
  std::string class_name_;
  std::string instance_name_;
  bool sole_;
  bool require_keys_ = true;
  bool registered_ = false;
  std::map<std::string, MethodEntry, std::less<>> methods_;
};

template <typename Req, typename Rep, typename Fn>
void Target::AddMethod(const google::protobuf::MethodDescriptor* method, Fn handler) {
  MethodEntry e;
  e.descriptor = method;
  e.new_request = [](google::protobuf::Arena* arena) {
    return google::protobuf::Arena::CreateMessage<Req>(arena);
  };
  e.invoke = [handler = std::move(handler)](const google::protobuf::Message& req,
                                            std::unique_ptr<ReplySink> sink) mutable {
    handler(static_cast<const Req&>(req), Responder<Rep>(std::move(sink)));
  };
  e.path = MethodPath(method);
  methods_[e.path] = std::move(e);
}

}  // namespace strata::ipc
