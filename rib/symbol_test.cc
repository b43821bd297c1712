#include "rib/symbol.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

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

TEST(SymbolTest, IsFourBytesAndKeepsManyNamesApart) {
  EXPECT_EQ(sizeof(Symbol), 4u);
  // Enough names to fill more than one chunk of the pool; earlier names stay where they were.
  const Symbol first("if-first");
  const std::string* first_copy = &first.str();
  std::vector<Symbol> many;
  for (int i = 0; i < 3000; ++i) many.emplace_back("if-" + std::to_string(i));
  for (int i = 0; i < 3000; ++i) {
    EXPECT_EQ(many[i].str(), "if-" + std::to_string(i));
    EXPECT_EQ(many[i], Symbol("if-" + std::to_string(i)));
  }
  EXPECT_FALSE(many[0] == many[1]);
  EXPECT_EQ(&first.str(), first_copy);
  EXPECT_EQ(first.str(), "if-first");
}

}  // namespace
}  // namespace strata::rib
