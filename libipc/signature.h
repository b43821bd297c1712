// Method signatures in XRL atom terms, derived from protobuf descriptors.
//
// A request or reply message maps onto atoms field by field:
//   int32/sint32/sfixed32 i32   uint32/fixed32 u32   int64/sint64/sfixed64 i64   uint64/fixed64 u64
//   bool bool   string txt   bytes binary   enum txt (the value's name)
//   strata.common.v1.IpAddress  ipv4 or ipv6     strata.common.v1.IpPrefix  ipv4net or ipv6net
//   strata.common.v1.MacAddress mac
//   repeated scalar field       list<T>
//   other message field         its fields, named "field.sub" (nested to any depth)
//   repeated message field      its elements' fields, named "field.INDEX.sub"
// A signature prints each atom as "name:type" joined by '&', e.g.
//   "prefix:ipv4net|ipv6net&nexthop:ipv4|ipv6&metric:u32", "routes.N.prefix:ipv4net|ipv6net".
#pragma once

#include <google/protobuf/descriptor.h>

#include <string>

namespace strata::ipc {

enum class FieldKind {
  kScalar,   // maps to one atom type
  kAddress,  // strata.common.v1.IpAddress
  kPrefix,   // strata.common.v1.IpPrefix
  kMac,      // strata.common.v1.MacAddress
  kMessage,  // any other message: flattened
};

FieldKind KindOf(const google::protobuf::FieldDescriptor* field);
// "u32", "ipv4|ipv6", ... for one element of the field (not "list<...>").
std::string ElementTypeName(const google::protobuf::FieldDescriptor* field);
std::string MessageSignature(const google::protobuf::Descriptor* message);

}  // namespace strata::ipc
