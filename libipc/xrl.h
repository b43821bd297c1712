// Xrl: a call in its text form, generic or resolved.
//
//   generic:   finder://TARGET/IFACE/VERSION/METHOD?NAME:TYPE=VALUE&...
//   resolved:  PROTOCOL://ENDPOINT/IFACE/VERSION/METHOD?...
// PROTOCOL ([a-z0-9-]+) is the transport family ("sunix", "stcp", "grpc-unix", "grpc-tcp",
// "inproc"); ENDPOINT is percent-encoded (a Unix socket path has slashes:
// "sunix://%2Frun%2Fstrata%2Ffinder.sock/..."); when printing, ':', '[' and ']' are left as they
// are so "stcp://127.0.0.1:4000/..." stays readable. TARGET is a component instance or class name
// ([A-Za-z0-9_.-]+). IFACE and METHOD are [A-Za-z0-9_]+, VERSION is digits '.' digits. The '?' and
// the arguments are optional; argument names are unique within one XRL. Thread-compatible value
// type.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "libipc/xrl_atom.h"

namespace strata::ipc {

class Xrl {
 public:
  Xrl() = default;
  Xrl(std::string protocol, std::string target, std::string iface, std::string version,
      std::string method, std::vector<XrlAtom> args = {});

  // On error the message starts "position N: expected ..." with N the 0-based offset in `text`.
  static StatusOr<Xrl> Parse(std::string_view text);

  const std::string& protocol() const { return protocol_; }  // "finder" when generic
  const std::string& target() const { return target_; }      // target or endpoint (decoded)
  const std::string& iface() const { return iface_; }
  const std::string& version() const { return version_; }
  const std::string& method() const { return method_; }
  const std::vector<XrlAtom>& args() const { return args_; }
  bool is_generic() const { return protocol_ == "finder"; }

  // "iface/version/method", the key the Finder and receivers index methods by.
  std::string MethodPath() const;
  // The argument named `name`, or nullptr.
  const XrlAtom* FindArg(std::string_view name) const;

  // The text form; Parse(ToString()) == *this.
  std::string ToString() const;

  friend bool operator==(const Xrl&, const Xrl&) = default;

 private:
  std::string protocol_ = "finder";
  std::string target_;
  std::string iface_;
  std::string version_;
  std::string method_;
  std::vector<XrlAtom> args_;
};

// Prints atoms as `name:type=value` joined by '&' (the reply form strata-call prints).
std::string AtomsToString(const std::vector<XrlAtom>& atoms);
// Parses `a:u32=1&b:txt=x`; an empty string is an empty list.
StatusOr<std::vector<XrlAtom>> ParseAtoms(std::string_view text, size_t offset = 0);

}  // namespace strata::ipc
