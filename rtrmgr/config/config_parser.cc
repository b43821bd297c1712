#include "rtrmgr/config/config_parser.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "rtrmgr/config/config_lexer.h"

namespace strata::rtrmgr {
namespace {

using Kind = ConfigToken::Kind;

std::string Describe(const ConfigToken& tok) {
  switch (tok.kind) {
    case Kind::kEnd:
      return "end of file";
    case Kind::kString:
      return "a quoted string";
    default:
      return "'" + tok.text + "'";
  }
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& file) : lexer_(text, file), file_(file) {}

  StatusOr<ConfigNode> ParseRoot() {
    ConfigNode root;
    root.set_pos(SourcePos{file_, 1, 1});
    if (Status s = Fill(); !s.ok()) return s;
    if (Status s = ParseBlock(root, nullptr, 0); !s.ok()) return s;
    return root;
  }

 private:
  Status Fill() {
    auto t = lexer_.Next();
    if (!t.ok()) return t.status();
    tok_ = std::move(*t);
    return Status::Ok();
  }

  static Status Error(const SourcePos& pos, const std::string& reason) {
    return InvalidArgument(pos.ToString() + ": " + reason);
  }

  // Parses statements into `parent` until its closing brace (or the end for the root).
  Status ParseBlock(ConfigNode& parent, const ConfigNode* opener, int depth) {
    while (true) {
      if (tok_.kind == Kind::kEnd) {
        if (opener == nullptr) return Status::Ok();
        return Error(opener->pos(), "unclosed '{' of '" + opener->keyword() + "'");
      }
      if (tok_.kind == Kind::kCloseBrace) {
        if (opener == nullptr) return Error(tok_.pos, "unexpected '}'");
        return Fill();
      }
      if (tok_.kind != Kind::kWord) {
        return Error(tok_.pos, "expected a keyword, found " + Describe(tok_));
      }
      ConfigNode node(tok_.text);
      node.set_pos(tok_.pos);
      if (Status s = Fill(); !s.ok()) return s;
      while (tok_.kind == Kind::kWord || tok_.kind == Kind::kString) {
        node.mutable_args().push_back(ConfigArg{tok_.text, tok_.pos});
        if (Status s = Fill(); !s.ok()) return s;
      }
      if (tok_.kind == Kind::kSemicolon) {
        if (Status s = Fill(); !s.ok()) return s;
      } else if (tok_.kind == Kind::kOpenBrace) {
        if (depth + 1 >= ConfigParser::kMaxDepth) return Error(tok_.pos, "blocks nest too deep");
        if (Status s = Fill(); !s.ok()) return s;
        if (Status s = ParseBlock(node, &node, depth + 1); !s.ok()) return s;
      } else {
        return Error(tok_.pos,
                     "expected ';' or '{' after '" + node.keyword() + "', found " + Describe(tok_));
      }
      parent.AddChild(std::move(node));
    }
  }

  ConfigLexer lexer_;
  std::string file_;
  ConfigToken tok_;
};

}  // namespace

StatusOr<ConfigNode> ConfigParser::Parse(std::string_view text, const std::string& file) {
  return Parser(text, file).ParseRoot();
}

StatusOr<std::string> ConfigParser::ReadFile(const std::string& path) {
  // A directory opens and reads as empty on Linux: it would be an empty configuration.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return InvalidArgument(path + ": is a directory, not a configuration file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound(path + ": " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return NotFound(path + ": read error");
  return ss.str();
}

StatusOr<ConfigNode> ConfigParser::ParseFile(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  return Parse(*text, path);
}

}  // namespace strata::rtrmgr
