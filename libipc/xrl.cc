#include "libipc/xrl.h"

#include <unordered_set>
#include <utility>

namespace strata::ipc {
namespace {

constexpr std::string_view kFinderProtocol = "finder";

Status ErrorAt(size_t pos, std::string_view what) {
  return InvalidArgument("position " + std::to_string(pos) + ": expected " + std::string(what));
}

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsProtocolChar(char c) { return (c >= 'a' && c <= 'z') || IsDigit(c) || c == '-'; }
bool IsTargetChar(char c) { return IsAlnum(c) || c == '_' || c == '.' || c == '-'; }
bool IsIdentChar(char c) { return IsAlnum(c) || c == '_'; }
bool IsEndpointChar(char c) { return c != '/' && c != '?' && c != '#'; }

// Percent-encodes an endpoint but keeps ':', '[' and ']' (host:port) readable.
std::string EncodeEndpoint(std::string_view endpoint) {
  std::string out;
  size_t start = 0;
  for (size_t i = 0; i <= endpoint.size(); ++i) {
    if (i == endpoint.size() || endpoint[i] == ':' || endpoint[i] == '[' || endpoint[i] == ']') {
      out += PercentEncode(endpoint.substr(start, i - start));
      if (i < endpoint.size()) out += endpoint[i];
      start = i + 1;
    }
  }
  return out;
}

// A left-to-right reader over the XRL text that knows its position.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  size_t pos() const { return pos_; }
  bool at_end() const { return pos_ == text_.size(); }
  char peek() const { return text_[pos_]; }

  template <typename Pred>
  std::string_view Scan(Pred pred) {
    const size_t start = pos_;
    while (pos_ < text_.size() && pred(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  // Consumes `lit` if the text continues with it.
  bool Consume(std::string_view lit) {
    if (!text_.substr(pos_).starts_with(lit)) return false;
    pos_ += lit.size();
    return true;
  }
  std::string_view Rest() {
    const std::string_view rest = text_.substr(pos_);
    pos_ = text_.size();
    return rest;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

Xrl::Xrl(std::string protocol, std::string target, std::string iface, std::string version,
         std::string method, std::vector<XrlAtom> args)
    : protocol_(std::move(protocol)),
      target_(std::move(target)),
      iface_(std::move(iface)),
      version_(std::move(version)),
      method_(std::move(method)),
      args_(std::move(args)) {}

StatusOr<Xrl> Xrl::Parse(std::string_view text) {
  Cursor in(text);
  Xrl x;

  const std::string_view protocol = in.Scan(IsProtocolChar);
  if (protocol.empty()) return ErrorAt(in.pos(), "a protocol name ([a-z0-9-]+, e.g. 'finder')");
  if (!in.Consume("://")) return ErrorAt(in.pos(), "'://' after the protocol");
  x.protocol_ = std::string(protocol);

  if (protocol == kFinderProtocol) {
    const std::string_view target = in.Scan(IsTargetChar);
    if (target.empty()) return ErrorAt(in.pos(), "a target name ([A-Za-z0-9_.-]+)");
    x.target_ = std::string(target);
  } else {
    const size_t endpoint_pos = in.pos();
    const std::string_view endpoint = in.Scan(IsEndpointChar);
    if (endpoint.empty()) return ErrorAt(endpoint_pos, "an endpoint");
    auto decoded = PercentDecode(endpoint, endpoint_pos);
    if (!decoded.ok()) return decoded.status();
    x.target_ = std::move(*decoded);
  }
  if (!in.Consume("/")) return ErrorAt(in.pos(), "'/' after the target");

  const std::string_view iface = in.Scan(IsIdentChar);
  if (iface.empty()) return ErrorAt(in.pos(), "an interface name ([A-Za-z0-9_]+)");
  if (!in.Consume("/")) return ErrorAt(in.pos(), "'/' after the interface name");
  x.iface_ = std::string(iface);

  const size_t version_pos = in.pos();
  if (in.Scan(IsDigit).empty()) return ErrorAt(in.pos(), "a version (MAJOR.MINOR)");
  if (!in.Consume(".")) return ErrorAt(in.pos(), "'.' and a minor version number");
  if (in.Scan(IsDigit).empty()) return ErrorAt(in.pos(), "a minor version number");
  x.version_ = std::string(text.substr(version_pos, in.pos() - version_pos));
  if (!in.Consume("/")) return ErrorAt(in.pos(), "'/' after the version");

  const std::string_view method = in.Scan(IsIdentChar);
  if (method.empty()) return ErrorAt(in.pos(), "a method name ([A-Za-z0-9_]+)");
  x.method_ = std::string(method);

  if (in.at_end()) return x;
  if (!in.Consume("?")) return ErrorAt(in.pos(), "'?' or the end of the XRL after the method");
  const size_t args_pos = in.pos();
  auto args = ParseAtoms(in.Rest(), args_pos);
  if (!args.ok()) return args.status();
  x.args_ = std::move(*args);
  return x;
}

std::string Xrl::MethodPath() const { return iface_ + "/" + version_ + "/" + method_; }

const XrlAtom* Xrl::FindArg(std::string_view name) const {
  for (const XrlAtom& a : args_) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

std::string Xrl::ToString() const {
  std::string out = protocol_ + "://" + EncodeEndpoint(target_) + "/" + MethodPath();
  if (!args_.empty()) out += "?" + AtomsToString(args_);
  return out;
}

std::string AtomsToString(const std::vector<XrlAtom>& atoms) {
  std::string out;
  for (size_t i = 0; i < atoms.size(); ++i) {
    if (i > 0) out += '&';
    out += atoms[i].ToString();
  }
  return out;
}

StatusOr<std::vector<XrlAtom>> ParseAtoms(std::string_view text, size_t offset) {
  std::vector<XrlAtom> atoms;
  if (text.empty()) return atoms;
  std::unordered_set<std::string_view> names;
  size_t start = 0;
  while (true) {
    const size_t amp = text.find('&', start);
    const size_t end = amp == std::string_view::npos ? text.size() : amp;
    auto atom = XrlAtom::Parse(text.substr(start, end - start), offset + start);
    if (!atom.ok()) return atom.status();
    // The name is a prefix of the piece just parsed, so a view into `text` outlives the set.
    const std::string_view name = text.substr(start, atom->name().size());
    if (!names.insert(name).second) {
      return ErrorAt(offset + start,
                     "a unique argument name ('" + std::string(name) + "' appears twice)");
    }
    atoms.push_back(std::move(*atom));
    if (amp == std::string_view::npos) return atoms;
    start = amp + 1;
  }
}

}  // namespace strata::ipc
