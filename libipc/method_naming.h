// How protobuf services map onto XRL names.
//
// package strata.rib.v1, service Rib, rpc AddRoutes  ->  rib/1.0/add_routes
// The interface is the service name in snake_case, the version comes from the package's last
// component ("v1" -> "1.0", "v2beta" is refused), the method is the rpc name in snake_case.
#pragma once

#include <google/protobuf/descriptor.h>

#include <string>
#include <string_view>

namespace strata::ipc {

std::string SnakeCase(std::string_view camel);
// "rib"
std::string InterfaceName(const google::protobuf::ServiceDescriptor* service);
// "1.0"
std::string InterfaceVersion(const google::protobuf::ServiceDescriptor* service);
// "rib/1.0/add_routes"
std::string MethodPath(const google::protobuf::MethodDescriptor* method);
// "/strata.rib.v1.Rib/AddRoutes", the gRPC name of the same method.
std::string GrpcMethodName(const google::protobuf::MethodDescriptor* method);

}  // namespace strata::ipc
