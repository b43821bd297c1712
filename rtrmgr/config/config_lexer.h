// ConfigLexer: splits configuration and template text into words, quoted strings and the
// punctuation `{`, `}` and `;`, skipping white space and comments (`#` and `//` to the end of the
// line, `/* ... */`). A comment starts only where a token could start, so `a#b` and
// `finder://x` inside a word are words. Quoted strings take the escapes \" \\ \n \t and \xHH and
// may not span lines. The text must be UTF-8 (RFC 3629), and so must every string once its
// escapes are decoded: values cross IPC as protobuf strings. Input is untrusted: every problem is
// an error value naming file:line:column, never an assert. Thread-compatible.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "rtrmgr/config/config_node.h"

namespace strata::rtrmgr {

struct ConfigToken {
  enum class Kind { kWord, kString, kOpenBrace, kCloseBrace, kSemicolon, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;  // the word, or the string's decoded contents
  SourcePos pos;
};

class ConfigLexer {
 public:
  // REQUIRES: `text` outlives the lexer.
  ConfigLexer(std::string_view text, std::string file);

  // The next token; kEnd at the end (and again on every later call).
  StatusOr<ConfigToken> Next();

  // True if `c` may appear in an unquoted word.
  static bool IsWordChar(unsigned char c);

 private:
  Status Error(const SourcePos& pos, std::string_view reason) const;
  SourcePos Here() const;
  void Advance();
  // Skips white space and comments; fails on an unterminated /* comment.
  Status SkipSpace();
  StatusOr<ConfigToken> LexString();
  // Fails naming the first byte of the text that is not UTF-8.
  Status CheckUtf8();

  std::string_view text_;
  std::string file_;
  size_t i_ = 0;
  int line_ = 1;
  int column_ = 1;
  bool checked_utf8_ = false;
};

}  // namespace strata::rtrmgr
