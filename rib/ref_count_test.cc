#include "rib/ref_count.h"

#include <gtest/gtest.h>

#include <string>

namespace strata::rib {
namespace {

struct Counted {
  std::string name;
  RefCount refs;
  static inline int destroyed = 0;
  ~Counted() { ++destroyed; }
};

TEST(IntrusiveRefTest, CountsReferencesAndFreesWithTheLast) {
  Counted::destroyed = 0;
  const size_t before = PoolAllocator<Counted>::Pool().live();
  IntrusiveRef<Counted> a = IntrusiveRef<Counted>::Make(Counted{"x", {}});
  const int after_make = Counted::destroyed;  // the temporary moved from
  EXPECT_EQ(PoolAllocator<Counted>::Pool().live(), before + 1);
  EXPECT_EQ(a.use_count(), 1u);
  EXPECT_EQ(a->name, "x");
  IntrusiveRef<Counted> b = a;
  EXPECT_EQ(a.use_count(), 2u);
  EXPECT_TRUE(a == b);
  IntrusiveRef<Counted> c = std::move(b);
  EXPECT_FALSE(b);
  EXPECT_TRUE(b == nullptr);
  EXPECT_EQ(c.use_count(), 2u);
  a.reset();
  EXPECT_EQ(Counted::destroyed, after_make);
  EXPECT_EQ(c.use_count(), 1u);
  c = nullptr;
  EXPECT_EQ(Counted::destroyed, after_make + 1);
  EXPECT_EQ(PoolAllocator<Counted>::Pool().live(), before);
}

TEST(IntrusiveRefTest, ACopyOfTheObjectHasItsOwnCount) {
  IntrusiveRef<Counted> a = IntrusiveRef<Counted>::Make(Counted{"x", {}});
  IntrusiveRef<Counted> a2 = a;
  IntrusiveRef<Counted> b = IntrusiveRef<Counted>::Make(*a);
  EXPECT_EQ(b.use_count(), 1u);
  EXPECT_EQ(a.use_count(), 2u);
  EXPECT_FALSE(a == b);
  EXPECT_EQ(b->name, "x");
  EXPECT_EQ(IntrusiveRef<Counted>().use_count(), 0u);
}

TEST(IntrusiveRefTest, IsOnePointerWide) {
  EXPECT_EQ(sizeof(IntrusiveRef<Counted>), sizeof(void*));
}

}  // namespace
}  // namespace strata::rib
