#include "rtrmgr/config/config_printer.h"

#include <cstdio>

#include "rtrmgr/config/config_lexer.h"

namespace strata::rtrmgr {
namespace {

bool NeedsQuotes(std::string_view s) {
  if (s.empty() || s[0] == '#' || s.substr(0, 2) == "//" || s.substr(0, 2) == "/*") return true;
  for (char c : s) {
    if (!ConfigLexer::IsWordChar(static_cast<unsigned char>(c))) return true;
  }
  return false;
}

void AppendNode(const ConfigNode& node, int indent, std::string& out) {
  out.append(static_cast<size_t>(indent) * 4, ' ');
  out += ConfigPrinter::Statement(node);
  if (node.children().empty()) {
    out += ";\n";
    return;
  }
  out += " {\n";
  for (const auto& c : node.children()) AppendNode(c, indent + 1, out);
  out.append(static_cast<size_t>(indent) * 4, ' ');
  out += "}\n";
}

}  // namespace

std::string ConfigPrinter::Quote(std::string_view text) {
  if (!NeedsQuotes(text)) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

std::string ConfigPrinter::Statement(const ConfigNode& node) {
  std::string out = node.keyword();
  for (const auto& a : node.args()) {
    out += ' ';
    out += Quote(a.text);
  }
  return out;
}

std::string ConfigPrinter::PrintNode(const ConfigNode& node, int indent) {
  std::string out;
  AppendNode(node, indent, out);
  return out;
}

std::string ConfigPrinter::Print(const ConfigNode& root) {
  std::string out;
  for (const auto& c : root.children()) AppendNode(c, 0, out);
  return out;
}

}  // namespace strata::rtrmgr
