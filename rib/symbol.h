// Symbol: an interned string (protocol and interface names in routes).
//
// Why: every stored route carries its protocol and interface name; as std::string each costs 32
// bytes per route, a million times over. A Symbol is a 32-bit index into a process-wide pool that
// keeps one copy of each distinct name for the life of the process (names are few: one per
// protocol and interface ever seen; at most 2^22). Equality is index equality; order is the
// strings' order. Converts implicitly to const std::string&. Thread-safe (the pool is locked
// when interning; reading a name takes no lock: pooled strings never move).
#pragma once

#include <compare>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace strata::rib {

class Symbol {
 public:
  Symbol() = default;                                            // ""
  Symbol(std::string_view s) : id_(Intern(s)) {}                 // NOLINT: implicit by design
  Symbol(const std::string& s) : Symbol(std::string_view(s)) {}  // NOLINT
  Symbol(const char* s) : Symbol(std::string_view(s)) {}         // NOLINT

  const std::string& str() const { return Name(id_); }
  operator const std::string&() const { return str(); }  // NOLINT
  bool empty() const { return id_ == 0; }
  // The pool index: equal for equal names (for hashing).
  uint32_t id() const { return id_; }

  friend bool operator==(const Symbol& a, const Symbol& b) { return a.id_ == b.id_; }
  friend bool operator==(const Symbol& a, std::string_view b) { return a.str() == b; }
  friend bool operator==(const Symbol& a, const char* b) { return a.str() == b; }
  friend bool operator==(const Symbol& a, const std::string& b) { return a.str() == b; }
  friend std::strong_ordering operator<=>(const Symbol& a, const Symbol& b) {
    if (a.id_ == b.id_) return std::strong_ordering::equal;
    return a.str().compare(b.str()) <=> 0;
  }
  friend std::ostream& operator<<(std::ostream& os, const Symbol& s) { return os << s.str(); }

 private:
  // The index of the pooled copy of s; 0 for "".
  static uint32_t Intern(std::string_view s);
  // The pooled string at index id ("" for 0).
  static const std::string& Name(uint32_t id);

  uint32_t id_ = 0;
};

inline std::string operator+(const std::string& a, const Symbol& b) { return a + b.str(); }
inline std::string operator+(const char* a, const Symbol& b) { return a + b.str(); }
inline std::string operator+(const Symbol& a, const std::string& b) { return a.str() + b; }
inline std::string operator+(const Symbol& a, const char* b) { return a.str() + b; }

}  // namespace strata::rib
