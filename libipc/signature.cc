#include "libipc/signature.h"

#include <vector>

namespace strata::ipc {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

FieldKind KindOf(const FieldDescriptor* field) {
  if (field->type() != FieldDescriptor::TYPE_MESSAGE) return FieldKind::kScalar;
  const std::string& name = field->message_type()->full_name();
  if (name == "strata.common.v1.IpAddress") return FieldKind::kAddress;
  if (name == "strata.common.v1.IpPrefix") return FieldKind::kPrefix;
  if (name == "strata.common.v1.MacAddress") return FieldKind::kMac;
  return FieldKind::kMessage;
}

std::string ElementTypeName(const FieldDescriptor* field) {
  switch (KindOf(field)) {
    case FieldKind::kAddress:
      return "ipv4|ipv6";
    case FieldKind::kPrefix:
      return "ipv4net|ipv6net";
    case FieldKind::kMac:
      return "mac";
    case FieldKind::kMessage:
      return "message";
    case FieldKind::kScalar:
      break;
  }
  switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return "i32";
    case FieldDescriptor::CPPTYPE_UINT32:
      return "u32";
    case FieldDescriptor::CPPTYPE_INT64:
      return "i64";
    case FieldDescriptor::CPPTYPE_UINT64:
      return "u64";
    case FieldDescriptor::CPPTYPE_BOOL:
      return "bool";
    case FieldDescriptor::CPPTYPE_STRING:
      return field->type() == FieldDescriptor::TYPE_BYTES ? "binary" : "txt";
    case FieldDescriptor::CPPTYPE_ENUM:
      return "txt";
    default:
      return "unsupported";
  }
}

namespace {

void Collect(const Descriptor* d, const std::string& prefix, int depth,
             std::vector<std::string>& out) {
  if (depth > 8) {  // recursive message types: stop rather than loop
    out.push_back(prefix + "...");
    return;
  }
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    const std::string name = prefix + f->name();
    if (KindOf(f) == FieldKind::kMessage) {
      Collect(f->message_type(), name + (f->is_repeated() ? ".N." : "."), depth + 1, out);
    } else if (f->is_repeated()) {
      out.push_back(name + ":list<" + ElementTypeName(f) + ">");
    } else {
      out.push_back(name + ":" + ElementTypeName(f));
    }
  }
}

}  // namespace

std::string MessageSignature(const Descriptor* message) {
  std::vector<std::string> parts;
  Collect(message, "", 0, parts);
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += '&';
    out += p;
  }
  return out;
}

}  // namespace strata::ipc
