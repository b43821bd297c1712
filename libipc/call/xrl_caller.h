// XrlCaller: calls any method of any target from its text form, as strata-call does.
//
// It asks the Finder for the target's method list (which names each method's protobuf type),
// builds the request from the atoms by reflection, sends it through the Router, and turns the
// reply back into atoms. Threading: the Router's io_context thread.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "libipc/interfaces/finder.pb.h"
#include "libipc/router.h"
#include "libipc/xrl.h"

namespace strata::ipc {

struct CallResult {
  Status status;
  std::vector<XrlAtom> atoms;  // the reply's fields
};

class XrlCaller {
 public:
  explicit XrlCaller(Router& router) : router_(router) {}

  // Calls `xrl` (generic form). `done` runs once.
  void Call(const Xrl& xrl, CallOptions opts, std::function<void(CallResult)> done);
  // The methods of `target`, with argument and return signatures.
  void ListMethods(const std::string& target,
                   std::function<void(StatusOr<std::vector<finder::v1::MethodSignature>>)> done);

 private:
  void WithMethods(const std::string& target,
                   std::function<void(StatusOr<std::vector<finder::v1::MethodSignature>>)> done);
  Router& router_;
  std::map<std::string, std::vector<finder::v1::MethodSignature>> methods_;
};

}  // namespace strata::ipc
