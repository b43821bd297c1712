#include "libipc/method_naming.h"

#include <cctype>

namespace strata::ipc {

std::string SnakeCase(std::string_view camel) {
  std::string out;
  out.reserve(camel.size() + 4);
  for (size_t i = 0; i < camel.size(); ++i) {
    const char c = camel[i];
    if (std::isupper(static_cast<unsigned char>(c))) {
      const bool prev_lower_or_digit =
          i > 0 && (std::islower(static_cast<unsigned char>(camel[i - 1])) ||
                    std::isdigit(static_cast<unsigned char>(camel[i - 1])));
      const bool next_lower =
          i + 1 < camel.size() && std::islower(static_cast<unsigned char>(camel[i + 1]));
      const bool prev_upper = i > 0 && std::isupper(static_cast<unsigned char>(camel[i - 1]));
      if (i > 0 && (prev_lower_or_digit || (prev_upper && next_lower))) out.push_back('_');
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string InterfaceName(const google::protobuf::ServiceDescriptor* service) {
  return SnakeCase(service->name());
}

std::string InterfaceVersion(const google::protobuf::ServiceDescriptor* service) {
  const std::string& pkg = service->file()->package();
  const auto dot = pkg.rfind('.');
  const std::string last = dot == std::string::npos ? pkg : pkg.substr(dot + 1);
  if (last.size() >= 2 && last[0] == 'v' &&
      last.find_first_not_of("0123456789", 1) == std::string::npos) {
    return last.substr(1) + ".0";
  }
  return "0.0";
}

std::string MethodPath(const google::protobuf::MethodDescriptor* method) {
  const auto* service = method->service();
  return InterfaceName(service) + "/" + InterfaceVersion(service) + "/" + SnakeCase(method->name());
}

std::string GrpcMethodName(const google::protobuf::MethodDescriptor* method) {
  return "/" + method->service()->full_name() + "/" + method->name();
}

}  // namespace strata::ipc
