#include "libipc/call/xrl_caller.h"

#include <google/protobuf/dynamic_message.h>

#include <algorithm>
#include <memory>

#include "libipc/reflection.h"

namespace strata::ipc {

namespace gp = google::protobuf;

void XrlCaller::WithMethods(
    const std::string& target,
    std::function<void(StatusOr<std::vector<finder::v1::MethodSignature>>)> done) {
  if (auto it = methods_.find(target); it != methods_.end()) {
    done(it->second);
    return;
  }
  finder::v1::ListMethodsRequest req;
  req.set_target(target);
  router_.Call<finder::v1::ListMethodsRequest, finder::v1::ListMethodsReply>(
      "finder", "finder/1.0/list_methods", req,
      [this, target, done = std::move(done)](const Status& s,
                                             const finder::v1::ListMethodsReply& reply) {
        if (!s.ok()) {
          done(s);
          return;
        }
        std::vector<finder::v1::MethodSignature> methods(reply.methods().begin(),
                                                         reply.methods().end());
        methods_[target] = methods;
        done(std::move(methods));
      });
}

void XrlCaller::ListMethods(
    const std::string& target,
    std::function<void(StatusOr<std::vector<finder::v1::MethodSignature>>)> done) {
  methods_.erase(target);
  WithMethods(target, std::move(done));
}

void XrlCaller::Call(const Xrl& xrl, CallOptions opts, std::function<void(CallResult)> done) {
  if (!xrl.is_generic()) {
    done(CallResult{InvalidArgument("only generic XRLs (finder://...) can be called: method keys "
                                    "come from the Finder"),
                    {}});
    return;
  }
  WithMethods(xrl.target(), [this, xrl, opts, done = std::move(done)](
                                StatusOr<std::vector<finder::v1::MethodSignature>> methods) {
    if (!methods.ok()) {
      done(CallResult{methods.status(), {}});
      return;
    }
    const std::string path = xrl.MethodPath();
    const finder::v1::MethodSignature* sig = nullptr;
    for (const auto& m : *methods) {
      if (m.path() == path) sig = &m;
    }
    if (sig == nullptr) {
      done(CallResult{
          Status(StatusCode::kUnimplemented, "no such method '" + path + "' on " + xrl.target()),
          {}});
      return;
    }
    // "/strata.test.v1.Test/Echo" -> "strata.test.v1.Test.Echo". The entry comes from whoever
    // registered the target: anything else is an error, not a type to look up.
    const std::string& grpc_method = sig->grpc_method();
    if (grpc_method.size() < 4 || grpc_method.front() != '/' ||
        std::count(grpc_method.begin(), grpc_method.end(), '/') != 2 || grpc_method.back() == '/') {
      done(CallResult{
          Status(StatusCode::kFailedPrecondition, "the Finder's entry for " + xrl.target() +
                                                      " names no valid type for " + path + " ('" +
                                                      grpc_method + "'): not a Strata component?"),
          {}});
      return;
    }
    std::string full = grpc_method.substr(1);
    std::replace(full.begin(), full.end(), '/', '.');
    const gp::MethodDescriptor* md = gp::DescriptorPool::generated_pool()->FindMethodByName(full);
    if (md == nullptr) {
      done(CallResult{
          Status(StatusCode::kUnimplemented, "this strata-call does not know the interface of " +
                                                 path + " (" + sig->grpc_method() + ")"),
          {}});
      return;
    }
    auto* factory = gp::MessageFactory::generated_factory();
    std::unique_ptr<gp::Message> request(factory->GetPrototype(md->input_type())->New());
    if (auto s = AtomsToMessage(xrl.args(), *request); !s.ok()) {
      done(CallResult{s, {}});
      return;
    }
    router_.SendRaw(
        xrl.target(), path, request->SerializeAsString(),
        [md, factory, done](const Status& s, std::string_view bytes) {
          CallResult result{s, {}};
          if (s.ok()) {
            std::unique_ptr<gp::Message> reply(factory->GetPrototype(md->output_type())->New());
            if (!reply->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
              result.status =
                  Internal("the reply does not parse as " + md->output_type()->full_name());
            } else {
              result.atoms = MessageToAtoms(*reply);
            }
          }
          done(std::move(result));
        },
        opts);
  });
}

}  // namespace strata::ipc
