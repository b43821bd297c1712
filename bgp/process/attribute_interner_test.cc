// AttributeInterner: equal attributes share one set, a set leaves the table when its last route
// lets go, and sets may outlive the interner.
#include "bgp/process/attribute_interner.h"

#include <gtest/gtest.h>

#include <vector>

namespace strata::bgp {
namespace {

PathAttributes Attrs(uint32_t first_as, uint32_t med) {
  PathAttributes a;
  a.origin = Origin::kIgp;
  a.as_path = AsPath::Sequence({first_as, 65100});
  a.next_hop = IpAddr::V4(0xC0000201);
  a.med = med;
  return a;
}

TEST(AttributeInternerTest, EqualAttributesShareOneSet) {
  AttributeInterner interner;
  AttributeSetPtr a = interner.Intern(Attrs(65001, 5));
  AttributeSetPtr b = interner.Intern(Attrs(65001, 5));
  AttributeSetPtr c = interner.Intern(Attrs(65001, 6));
  EXPECT_EQ(a.get(), b.get());
  EXPECT_NE(a.get(), c.get());
  EXPECT_EQ(a->use_count(), 2u);
  EXPECT_EQ(interner.size(), 2u);
  EXPECT_EQ(a->hash(), Attrs(65001, 5).Hash());
}

TEST(AttributeInternerTest, ASetLeavesWithItsLastReference) {
  AttributeInterner interner;
  AttributeSetPtr a = interner.Intern(Attrs(65001, 5));
  AttributeSetPtr b = a;
  a.reset();
  EXPECT_EQ(interner.size(), 1u);
  b.reset();
  EXPECT_EQ(interner.size(), 0u);
  // Interned again: a new set, alone in the table.
  AttributeSetPtr again = interner.Intern(Attrs(65001, 5));
  EXPECT_EQ(interner.size(), 1u);
  EXPECT_EQ(again->use_count(), 1u);
}

TEST(AttributeInternerTest, ManySetsComeAndGo) {
  AttributeInterner interner;
  std::vector<AttributeSetPtr> held;
  for (uint32_t i = 0; i < 5000; ++i) held.push_back(interner.Intern(Attrs(65000 + i % 1000, i)));
  EXPECT_EQ(interner.size(), 5000u);
  for (uint32_t i = 0; i < 5000; i += 2) held[i].reset();
  EXPECT_EQ(interner.size(), 2500u);
  for (uint32_t i = 1; i < 5000; i += 2) {
    EXPECT_EQ(interner.Intern(Attrs(65000 + i % 1000, i)).get(), held[i].get());
  }
  held.clear();
  EXPECT_EQ(interner.size(), 0u);
}

TEST(AttributeInternerTest, SetsOutliveTheInterner) {
  AttributeSetPtr kept;
  {
    AttributeInterner interner;
    kept = interner.Intern(Attrs(65001, 1));
  }
  EXPECT_EQ(kept->attrs().med, 1u);
  kept.reset();  // its allocator still reaches the table it left
}

}  // namespace
}  // namespace strata::bgp
