// Symbol: an interned string (protocol and interface names in routes).
//
// Why: every stored route carries its protocol and interface name; as std::string each costs 32
// bytes per route, a million times over. A Symbol is one pointer into a process-wide pool that
// keeps one copy of each distinct name for the life of the process (names are few: one per
// protocol and interface ever seen). Equality is pointer equality; order is the strings' order.
// Converts implicitly to const std::string&. Thread-safe (the pool is locked when interning).
#pragma once

#include <compare>
#include <ostream>
#include <string>
#include <string_view>

namespace strata::rib {

class Symbol {
 public:
  Symbol() = default;                                            // ""
  Symbol(std::string_view s) : s_(Intern(s)) {}                  // NOLINT: implicit by design
  Symbol(const std::string& s) : Symbol(std::string_view(s)) {}  // NOLINT
  Symbol(const char* s) : Symbol(std::string_view(s)) {}         // NOLINT

  const std::string& str() const { return s_ ? *s_ : Empty(); }
  operator const std::string&() const { return str(); }  // NOLINT
  bool empty() const { return s_ == nullptr; }

  friend bool operator==(const Symbol& a, const Symbol& b) { return a.s_ == b.s_; }
  friend bool operator==(const Symbol& a, std::string_view b) { return a.str() == b; }
  friend bool operator==(const Symbol& a, const char* b) { return a.str() == b; }
  friend bool operator==(const Symbol& a, const std::string& b) { return a.str() == b; }
  friend std::strong_ordering operator<=>(const Symbol& a, const Symbol& b) {
    if (a.s_ == b.s_) return std::strong_ordering::equal;
    return a.str().compare(b.str()) <=> 0;
  }
  friend std::ostream& operator<<(std::ostream& os, const Symbol& s) { return os << s.str(); }

 private:
  // The pooled copy of s; null for "".
  static const std::string* Intern(std::string_view s);
  static const std::string& Empty();

  const std::string* s_ = nullptr;
};

inline std::string operator+(const std::string& a, const Symbol& b) { return a + b.str(); }
inline std::string operator+(const char* a, const Symbol& b) { return a + b.str(); }
inline std::string operator+(const Symbol& a, const std::string& b) { return a.str() + b; }
inline std::string operator+(const Symbol& a, const char* b) { return a.str() + b; }

}  // namespace strata::rib
