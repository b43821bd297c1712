#include "rib/symbol.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

namespace strata::rib {
namespace {

TEST(SymbolTest, EqualStringsShareOneCopyAndCompareLikeStrings) {
  std::string built = "os";
  built += "pf";
  const Symbol a("ospf");
  const Symbol b(built);
  EXPECT_EQ(&a.str(), &b.str());  // interned once
  EXPECT_TRUE(a == b);
  EXPECT_TRUE(a == "ospf");
  EXPECT_TRUE(a == std::string_view("ospf"));
  EXPECT_FALSE(a == Symbol("rip"));
  EXPECT_LT(Symbol("bgp"), Symbol("ospf"));
  EXPECT_GT(Symbol("rip"), Symbol("ospf"));
  EXPECT_EQ("origin:" + a, "origin:ospf");
  std::ostringstream os;
  os << a;
  EXPECT_EQ(os.str(), "ospf");
  const std::string& as_string = a;
  EXPECT_EQ(as_string, "ospf");
  EXPECT_TRUE(std::set<std::string>{"ospf"}.contains(a));
}

TEST(SymbolTest, EmptyIsTheDefault) {
  const Symbol none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none, Symbol(""));
  EXPECT_EQ(none.str(), "");
  EXPECT_FALSE(Symbol("eth0").empty());
  EXPECT_LT(none, Symbol("eth0"));
}

}  // namespace
}  // namespace strata::rib
