#include "rtrmgr/config/config_lexer.h"

#include <cstdio>
#include <utility>

#include "common/utf8.h"

namespace strata::rtrmgr {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsSpace(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

ConfigLexer::ConfigLexer(std::string_view text, std::string file)
    : text_(text), file_(std::move(file)) {}

bool ConfigLexer::IsWordChar(unsigned char c) {
  return c > 0x20 && c != 0x7f && c != '{' && c != '}' && c != ';' && c != '"';
}

Status ConfigLexer::Error(const SourcePos& pos, std::string_view reason) const {
  return InvalidArgument(pos.ToString() + ": " + std::string(reason));
}

SourcePos ConfigLexer::Here() const { return SourcePos{file_, line_, column_}; }

void ConfigLexer::Advance() {
  if (text_[i_] == '\n') {
    ++line_;
    column_ = 1;
  } else {
    ++column_;
  }
  ++i_;
}

Status ConfigLexer::SkipSpace() {
  while (i_ < text_.size()) {
    char c = text_[i_];
    if (IsSpace(static_cast<unsigned char>(c))) {
      Advance();
    } else if (c == '#' || text_.substr(i_, 2) == "//") {
      while (i_ < text_.size() && text_[i_] != '\n') Advance();
    } else if (text_.substr(i_, 2) == "/*") {
      SourcePos start = Here();
      Advance();
      Advance();
      while (i_ < text_.size() && text_.substr(i_, 2) != "*/") Advance();
      if (i_ >= text_.size()) return Error(start, "unterminated comment");
      Advance();
      Advance();
    } else {
      break;
    }
  }
  return Status::Ok();
}

StatusOr<ConfigToken> ConfigLexer::LexString() {
  ConfigToken tok{ConfigToken::Kind::kString, "", Here()};
  Advance();  // opening quote
  while (true) {
    if (i_ >= text_.size() || text_[i_] == '\n') return Error(tok.pos, "unterminated string");
    char c = text_[i_];
    if (c == '"') {
      Advance();
      if (auto bad = FirstInvalidUtf8(tok.text)) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "0x%02x", static_cast<unsigned char>(tok.text[*bad]));
        return Error(tok.pos, std::string("string is not valid UTF-8 (its byte ") +
                                  std::to_string(*bad + 1) + " is " + buf + ")");
      }
      return tok;
    }
    if (c != '\\') {
      tok.text += c;
      Advance();
      continue;
    }
    SourcePos esc = Here();
    Advance();
    if (i_ >= text_.size()) return Error(tok.pos, "unterminated string");
    char e = text_[i_];
    Advance();
    switch (e) {
      case '"':
      case '\\':
        tok.text += e;
        break;
      case 'n':
        tok.text += '\n';
        break;
      case 't':
        tok.text += '\t';
        break;
      case 'x': {
        int hi = i_ < text_.size() ? HexDigit(text_[i_]) : -1;
        int lo = i_ + 1 < text_.size() ? HexDigit(text_[i_ + 1]) : -1;
        if (hi < 0 || lo < 0) return Error(esc, "bad escape: \\x needs two hex digits");
        tok.text += static_cast<char>(hi * 16 + lo);
        Advance();
        Advance();
        break;
      }
      default:
        return Error(esc, "bad escape '\\" + std::string(1, e) + "' in string");
    }
  }
}

Status ConfigLexer::CheckUtf8() {
  checked_utf8_ = true;
  const auto bad = FirstInvalidUtf8(text_);
  if (!bad) return Status::Ok();
  SourcePos pos{file_, 1, 1};
  for (size_t k = 0; k < *bad; ++k) {
    if (text_[k] == '\n') {
      ++pos.line;
      pos.column = 1;
    } else {
      ++pos.column;
    }
  }
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", static_cast<unsigned char>(text_[*bad]));
  return Error(pos, std::string("not valid UTF-8 (byte ") + buf + ")");
}

StatusOr<ConfigToken> ConfigLexer::Next() {
  if (!checked_utf8_) {
    if (Status s = CheckUtf8(); !s.ok()) return s;
  }
  if (Status s = SkipSpace(); !s.ok()) return s;
  if (i_ >= text_.size()) return ConfigToken{ConfigToken::Kind::kEnd, "", Here()};
  SourcePos pos = Here();
  unsigned char c = static_cast<unsigned char>(text_[i_]);
  auto punct = [&](ConfigToken::Kind kind) {
    ConfigToken tok{kind, std::string(1, static_cast<char>(c)), pos};
    Advance();
    return tok;
  };
  switch (c) {
    case '{':
      return punct(ConfigToken::Kind::kOpenBrace);
    case '}':
      return punct(ConfigToken::Kind::kCloseBrace);
    case ';':
      return punct(ConfigToken::Kind::kSemicolon);
    case '"':
      return LexString();
    default:
      break;
  }
  if (!IsWordChar(c)) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", c);
    return Error(pos, std::string("unexpected character ") + buf);
  }
  ConfigToken tok{ConfigToken::Kind::kWord, "", pos};
  while (i_ < text_.size() && IsWordChar(static_cast<unsigned char>(text_[i_]))) {
    tok.text += text_[i_];
    Advance();
  }
  return tok;
}

}  // namespace strata::rtrmgr
