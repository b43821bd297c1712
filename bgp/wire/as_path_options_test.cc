#include "bgp/wire/as_path_options.h"

#include <gtest/gtest.h>

#include "bgp/wire/confederation.h"

namespace strata::bgp {
namespace {

TEST(AsPathOptionsTest, PrivateRangesOfBothWidths) {
  EXPECT_FALSE(IsPrivateAs(64511));
  EXPECT_TRUE(IsPrivateAs(64512));
  EXPECT_TRUE(IsPrivateAs(65534));
  EXPECT_TRUE(IsPrivateAs(65535));  // RFC 7300
  EXPECT_FALSE(IsPrivateAs(65536));
  EXPECT_FALSE(IsPrivateAs(4199999999u));
  EXPECT_TRUE(IsPrivateAs(4200000000u));
  EXPECT_TRUE(IsPrivateAs(4294967295u));
}

TEST(AsPathOptionsTest, WithoutAllOnlyAnAllPrivatePathIsTouched) {
  const AsPath mixed = AsPath::Sequence({64512, 3356, 65001});
  EXPECT_EQ(RemovePrivateAses(mixed, RemovePrivateAs::kIfAllPrivate, false, 65000, 174), mixed);
  EXPECT_TRUE(RemovePrivateAses(AsPath::Sequence({64512, 4200000001u}),
                                RemovePrivateAs::kIfAllPrivate, false, 65000, 174)
                  .empty());
  EXPECT_EQ(RemovePrivateAses(AsPath::Sequence({64512, 4200000001u}),
                              RemovePrivateAs::kIfAllPrivate, true, 3320, 174),
            AsPath::Sequence({3320, 3320}));
}

TEST(AsPathOptionsTest, AllRemovesEveryPrivateAsButThePeers) {
  const AsPath p({{AsSegmentType::kSequence, {64512, 3356}},
                  {AsSegmentType::kSet, {65001, 65002}},
                  {AsSegmentType::kSequence, {65100, 174}}});
  EXPECT_EQ(RemovePrivateAses(p, RemovePrivateAs::kAll, false, 3320, 65100),
            AsPath::Sequence({3356, 65100, 174}));
  EXPECT_EQ(RemovePrivateAses(p, RemovePrivateAs::kAll, true, 3320, 65100),
            AsPath({{AsSegmentType::kSequence, {3320, 3356}},
                    {AsSegmentType::kSet, {3320, 3320}},
                    {AsSegmentType::kSequence, {65100, 174}}}));
  EXPECT_EQ(RemovePrivateAses(p, RemovePrivateAs::kOff, false, 3320, 65100), p);
}

TEST(AsPathOptionsTest, LocalAsInFrontOfTheRealAsUnlessReplaced) {
  const AsPath p = AsPath::Sequence({174});
  AsPathOptions o;
  EXPECT_EQ(PrependOwnAs(p, 65000, o), AsPath::Sequence({65000, 174}));
  o.local_as = 64999;
  EXPECT_EQ(PrependOwnAs(p, 65000, o), AsPath::Sequence({64999, 65000, 174}));
  o.local_as_replace_as = true;
  EXPECT_EQ(PrependOwnAs(p, 65000, o), AsPath::Sequence({64999, 174}));
}

TEST(AsPathOptionsTest, AllowasInCountsOurAs) {
  const AsPath twice = AsPath::Sequence({174, 65000, 3356, 65000});
  EXPECT_TRUE(IsAsLoop(twice, 65000, Confederation{}));
  EXPECT_TRUE(IsAsLoop(twice, 65000, Confederation{}, 1));
  EXPECT_FALSE(IsAsLoop(twice, 65000, Confederation{}, 2));
  EXPECT_FALSE(IsAsLoop(twice, 65000, Confederation{}, 3));
  EXPECT_FALSE(IsAsLoop(AsPath::Sequence({174}), 65000, Confederation{}));
}

}  // namespace
}  // namespace strata::bgp
