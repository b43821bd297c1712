#include "common/route_trie.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "testing/common/value_literals.h"

namespace strata {
namespace {

using test_util::A;
using test_util::P;

std::vector<IpPrefix> Keys(RouteTrie<int>& t) {
  std::vector<IpPrefix> out;
  for (auto it = t.begin(); !it.at_end(); ++it) out.push_back(it.key());
  return out;
}

TEST(RouteTrieTest, InsertFindEraseAcrossFamilies) {
  RouteTrie<int> t;
  EXPECT_TRUE(t.insert(P("10.0.0.0/8"), 1));
  EXPECT_TRUE(t.insert(P("10.1.0.0/16"), 2));
  EXPECT_TRUE(t.insert(P("2001:db8::/32"), 3));
  EXPECT_FALSE(t.insert(P("10.0.0.0/8"), 4));  // overwrite
  EXPECT_EQ(t.size(), 3u);
  EXPECT_EQ(*t.find(P("10.0.0.0/8")), 4);
  EXPECT_EQ(t.find(P("10.0.0.0/9")), nullptr);
  EXPECT_EQ(*t.find(P("2001:db8::/32")), 3);
  EXPECT_TRUE(t.erase(P("10.0.0.0/8")));
  EXPECT_FALSE(t.erase(P("10.0.0.0/8")));
  EXPECT_EQ(*t.find(P("10.1.0.0/16")), 2);
  EXPECT_EQ(t.size(), 2u);
}

TEST(RouteTrieTest, WarmChangesNothing) {
  RouteTrie<int> t;
  std::vector<IpPrefix> probes{P("10.0.0.0/8")};
  t.warm(probes);  // empty trie
  std::mt19937 rng(7);
  std::map<IpPrefix, int> model;
  for (int i = 0; i < 500; ++i) {
    const uint32_t a = rng();
    const IpPrefix p(A(std::to_string(a >> 24) + "." + std::to_string((a >> 16) & 255) + "." +
                       std::to_string((a >> 8) & 255) + ".0"),
                     static_cast<int>(8 + a % 17));  // host bits cleared
    t.insert(p, i);
    model[p] = i;
    if (i % 3 == 0) probes.push_back(p);
    if (i % 5 == 0) probes.push_back(P("192.0.2." + std::to_string(i % 256) + "/32"));
  }
  t.insert(P("2001:db8::/32"), 1000);
  model[P("2001:db8::/32")] = 1000;
  probes.push_back(P("2001:db8::/32"));
  probes.push_back(P("2001:db8:1::/48"));
  const std::vector<IpPrefix> before = Keys(t);
  t.warm(probes);  // more than one 64-key chunk and 16-lane batch, both families
  EXPECT_EQ(Keys(t), before);
  EXPECT_EQ(t.size(), model.size());
  for (const auto& [p, v] : model) EXPECT_EQ(*t.find(p), v) << p.ToString();
}

TEST(RouteTrieTest, HandlesNameValuesOfBothFamiliesUntilErased) {
  RouteTrie<int> t;
  auto [h4, fresh4] = t.try_emplace_handle(P("10.0.0.0/8"), 4);
  auto [h6, fresh6] = t.try_emplace_handle(P("2001:db8::/32"), 6);
  EXPECT_TRUE(fresh4);
  EXPECT_TRUE(fresh6);
  EXPECT_NE(h4, h6);
  auto [again, fresh_again] = t.try_emplace_handle(P("10.0.0.0/8"), 5);
  EXPECT_FALSE(fresh_again);  // the value is kept, and its handle answered
  EXPECT_EQ(again, h4);
  for (int i = 0; i < 300; ++i) t.insert(P("10." + std::to_string(i % 256) + ".0.0/16"), i);
  t.erase(P("10.1.0.0/16"));
  EXPECT_EQ(t.find_handle(P("10.0.0.0/8")), h4);  // stable across other changes
  EXPECT_EQ(t.find_handle(P("2001:db8::/32")), h6);
  EXPECT_EQ(t.at(h4), 4);
  EXPECT_EQ(t.at(h6), 6);
  t.at(h6) = 7;
  EXPECT_EQ(*t.find(P("2001:db8::/32")), 7);
  EXPECT_EQ(t.find_handle(P("10.1.0.0/16")), RouteTrie<int>::kNoHandle);
  EXPECT_EQ(t.find_handle(P("2001:db8::/48")), RouteTrie<int>::kNoHandle);
}

TEST(RouteTrieTest, EachCoveringVisitsEveryContainingEntryShortestFirst) {
  // Past 32768 entries the IPv4 side descends through its jump table: covering walks must still
  // see the prefixes shorter than /16.
  std::mt19937 rng(5);
  RouteTrie<int> t;
  std::vector<IpPrefix> keys;
  for (int i = 0; i < 40000; ++i) {
    const int len = 8 + static_cast<int>(rng() % 17);
    const IpPrefix p = *IpPrefix::Make(IpAddr::V4(static_cast<uint32_t>(rng()) & 0x0f0fffffu), len);
    if (t.insert(p, i)) keys.push_back(p);
  }
  t.insert(P("2001:db8::/32"), 1);
  t.insert(P("2001:db8:1::/48"), 2);
  for (int i = 0; i < 500; ++i) {
    const IpPrefix q = *IpPrefix::Make(IpAddr::V4(static_cast<uint32_t>(rng()) & 0x0f0fffffu), 24);
    std::vector<IpPrefix> want;
    for (const IpPrefix& k : keys) {
      if (k.Contains(q)) want.push_back(k);
    }
    std::sort(want.begin(), want.end(),
              [](const IpPrefix& a, const IpPrefix& b) { return a.len() < b.len(); });
    std::vector<IpPrefix> got;
    t.each_covering(q, [&](const IpPrefix& k, int) { got.push_back(k); });
    ASSERT_EQ(got, want) << q.ToString();
  }
  std::vector<IpPrefix> got6;
  t.each_covering(P("2001:db8:1:2::/64"), [&](const IpPrefix& k, int) { got6.push_back(k); });
  EXPECT_EQ(got6, (std::vector<IpPrefix>{P("2001:db8::/32"), P("2001:db8:1::/48")}));
}

TEST(RouteTrieTest, TryEmplaceKeepsAnExistingValue) {
  RouteTrie<int> t;
  auto [a, fresh_a] = t.try_emplace(P("10.0.0.0/8"), 1);
  EXPECT_TRUE(fresh_a);
  auto [b, fresh_b] = t.try_emplace(P("10.0.0.0/8"), 2);
  EXPECT_FALSE(fresh_b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(*b, 1);
  auto [c, fresh_c] = t.try_emplace(P("2001:db8::/32"), 3);  // the other family
  EXPECT_TRUE(fresh_c);
  EXPECT_EQ(*t.find(P("2001:db8::/32")), 3);
  auto [d, fresh_d] = t.try_emplace(P("10.0.0.0/16"), 4);  // below an existing node
  EXPECT_TRUE(fresh_d);
  EXPECT_EQ(*d, 4);
  auto [e, fresh_e] = t.try_emplace(P("10.0.0.0/7"), 5);  // above it
  EXPECT_TRUE(fresh_e);
  EXPECT_EQ(*e, 5);
  EXPECT_EQ(t.size(), 4u);
  EXPECT_EQ(*a, 1);  // slots do not move
}

TEST(RouteTrieTest, IteratesCoveringFirstThenByAddressV4BeforeV6) {
  RouteTrie<int> t;
  for (auto s : {"2001:db8::/32", "10.2.0.0/16", "10.0.0.0/8", "0.0.0.0/0", "10.1.0.0/16"}) {
    t.insert(P(s), 0);
  }
  EXPECT_EQ(Keys(t), (std::vector<IpPrefix>{P("0.0.0.0/0"), P("10.0.0.0/8"), P("10.1.0.0/16"),
                                            P("10.2.0.0/16"), P("2001:db8::/32")}));
}

TEST(RouteTrieTest, LongestMatchAndRangeOfPaperExample) {
  RouteTrie<int> t;
  for (auto s : {"128.16.0.0/16", "128.16.0.0/18", "128.16.128.0/17", "128.16.192.0/18"}) {
    t.insert(P(s), 0);
  }
  EXPECT_EQ(t.longest_match(A("128.16.32.1")).prefix, P("128.16.0.0/18"));
  auto r = t.range(A("128.16.160.1"));
  EXPECT_EQ(r.match.prefix, P("128.16.128.0/17"));
  EXPECT_EQ(r.valid, P("128.16.128.0/18"));
  auto none = t.range(A("10.0.0.1"));
  EXPECT_EQ(none.match.value, nullptr);
  EXPECT_EQ(none.valid, P("0.0.0.0/1"));
}

TEST(RouteTrieTest, IteratorSurvivesErasureOfItsNodeAndNeighbours) {
  RouteTrie<int> t;
  for (int i = 0; i < 8; ++i) t.insert(IpPrefix(IpAddr::V4(0x0a000000 + (i << 8)), 24), i);
  auto it = t.begin();
  ++it;
  ++it;  // at 10.0.2.0/24
  ASSERT_EQ(it.value(), 2);
  EXPECT_TRUE(t.erase(P("10.0.2.0/24")));  // under the iterator
  EXPECT_TRUE(t.erase(P("10.0.3.0/24")));  // the next one
  EXPECT_FALSE(it.has_value());
  EXPECT_EQ(it.key(), P("10.0.2.0/24"));
  ++it;
  ASSERT_FALSE(it.at_end());
  EXPECT_EQ(it.value(), 4);
  // Everything else goes while the iterator stands on 10.0.4.0/24.
  for (int i = 0; i < 8; ++i) t.erase(IpPrefix(IpAddr::V4(0x0a000000 + (i << 8)), 24));
  EXPECT_TRUE(t.empty());
  ++it;
  EXPECT_TRUE(it.at_end());
  EXPECT_TRUE(Keys(t).empty());
}

TEST(RouteTrieTest, RandomOperationsMatchReferenceModel) {
  std::mt19937 rng(7);
  RouteTrie<int> t;
  std::map<IpPrefix, int> ref;
  auto random_prefix = [&] {
    // A small address space so prefixes nest and collide often.
    const uint32_t addr = 0x0a000000 | ((rng() & 0xff) << 16) | ((rng() & 0x3) << 8);
    return IpPrefix(IpAddr::V4(addr), 8 + static_cast<int>(rng() % 17));
  };
  std::vector<RouteTrie<int>::Iterator> iters;
  for (int step = 0; step < 20000; ++step) {
    const IpPrefix p = random_prefix();
    switch (rng() % 4) {
      case 0:
        EXPECT_EQ(t.insert(p, step), !ref.contains(p));
        ref[p] = step;
        break;
      case 1: {
        // try_emplace keeps an existing value and hands back the slot either way.
        auto [v, fresh] = t.try_emplace(p, step);
        EXPECT_EQ(fresh, !ref.contains(p));
        auto [it, inserted] = ref.try_emplace(p, step);
        EXPECT_EQ(inserted, fresh);
        EXPECT_EQ(*v, it->second);
        EXPECT_EQ(t.find(p), v);
        break;
      }
      case 2:
        EXPECT_EQ(t.erase(p), ref.erase(p) == 1);
        break;
      case 3: {
        // Park iterators around the trie to exercise deferred removal; advance old ones.
        if (iters.size() < 16) iters.push_back(t.begin());
        auto& it = iters[rng() % iters.size()];
        if (!it.at_end()) ++it;
        break;
      }
    }
    if (step % 97 == 0) {
      const IpAddr a = IpAddr::V4(0x0a000000 | ((rng() & 0xff) << 16) | (rng() & 0x3ff));
      const IpPrefix* best = nullptr;
      for (const auto& [k, v] : ref) {
        if (k.Contains(a) && (!best || k.len() > best->len())) best = &k;
      }
      auto hit = t.longest_match(a);
      ASSERT_EQ(hit.value != nullptr, best != nullptr);
      if (best) {
        EXPECT_EQ(hit.prefix, *best);
      }
      // next_after agrees with the ordered model, from any key (present or not).
      const auto up = ref.upper_bound(p);
      const auto next = t.next_after(p);
      ASSERT_EQ(next.value != nullptr, up != ref.end());
      if (next.value) {
        EXPECT_EQ(next.prefix, up->first);
        EXPECT_EQ(*next.value, up->second);
      }
    }
  }
  iters.clear();
  std::vector<IpPrefix> want;
  for (const auto& [k, v] : ref) want.push_back(k);
  EXPECT_EQ(Keys(t), want);
  EXPECT_EQ(t.size(), ref.size());
}

// Past kJumpAfter values the IPv4 trie descends from block roots (family_trie.h): the same
// answers as the model while blocks empty and fill again, with short prefixes above the blocks
// and iterators parked on block roots.
TEST(RouteTrieTest, JumpTableMatchesReferenceModel) {
  std::mt19937 rng(11);
  RouteTrie<int> t;
  std::map<IpPrefix, int> ref;
  // A full table's shape: mostly /24 over many /16 blocks.
  for (uint32_t i = 0; i < 40000; ++i) {
    const IpPrefix p(IpAddr::V4(0x0b000000 | ((i * 40503) & 0xffff) << 8), 24);  // distinct
    t.insert(p, i);
    ref[p] = i;
  }
  EXPECT_TRUE(t.ipv4_jumps());
  auto random_prefix = [&] {
    // A few blocks of 10/8, so blocks empty and fill again, and prefixes of any length.
    const uint32_t addr = 0x0a000000 | ((rng() & 0x7) << 16) | (rng() & 0xffff);
    return IpPrefix(IpAddr::V4(addr), 6 + static_cast<int>(rng() % 27));
  };
  auto check_lookups = [&](const IpPrefix& p) {
    const IpAddr a = IpAddr::V4(0x0a000000 | ((rng() & 0x7) << 16) | (rng() & 0xffff));
    const IpPrefix* best = nullptr;
    for (int len = 32; len >= 0 && !best; --len) {
      if (auto it = ref.find(IpPrefix(a, len)); it != ref.end()) best = &it->first;
    }
    const auto hit = t.longest_match(a);
    ASSERT_EQ(hit.value != nullptr, best != nullptr) << a.ToString();
    if (best) {
      EXPECT_EQ(hit.prefix, *best);
    }
    bool inside = false;
    for (auto it = ref.upper_bound(p); it != ref.end() && p.Contains(it->first.addr()); ++it) {
      if (it->first.len() > p.len() && p.Contains(it->first)) inside = true;
    }
    EXPECT_EQ(t.has_more_specific(p), inside) << p.ToString();
    const auto up = ref.upper_bound(p);
    const auto next = t.next_after(p);
    ASSERT_EQ(next.value != nullptr, up != ref.end());
    if (next.value) {
      EXPECT_EQ(next.prefix, up->first);
    }
  };
  std::vector<RouteTrie<int>::Iterator> iters;
  for (int step = 0; step < 30000; ++step) {
    const IpPrefix p = random_prefix();
    switch (rng() % 4) {
      case 0:
        EXPECT_EQ(t.insert(p, step), !ref.contains(p));
        ref[p] = step;
        break;
      case 1: {
        const uint32_t h = t.find_handle(p);
        const auto it = ref.find(p);
        ASSERT_EQ(h != t.kNoHandle, it != ref.end()) << p.ToString();
        if (it != ref.end()) {
          EXPECT_EQ(t.at(h), it->second);
        }
        break;
      }
      case 2:
        EXPECT_EQ(t.erase(p), ref.erase(p) == 1) << p.ToString();
        break;
      case 3: {
        // Iterators parked on /16s (block roots when they hold a value) while those go.
        const IpPrefix b(IpAddr::V4(0x0a000000 | ((rng() & 0x7) << 16)), 16);
        t.insert(b, step);
        ref[b] = step;
        if (iters.size() < 8) iters.push_back(t.begin());
        auto it = t.begin();
        while (!it.at_end() && it.key() != b) ++it;
        iters[rng() % iters.size()] = it;
        EXPECT_TRUE(t.erase(b));
        ref.erase(b);
        break;
      }
    }
    if (step % 53 == 0) check_lookups(p);
  }
  iters.clear();
  std::vector<IpPrefix> want;
  for (const auto& [k, v] : ref) want.push_back(k);
  EXPECT_EQ(Keys(t), want);
  // Emptied whole: every block root goes, and the trie works on.
  for (const auto& k : want) ASSERT_TRUE(t.erase(k)) << k.ToString();
  EXPECT_TRUE(t.empty());
  EXPECT_TRUE(Keys(t).empty());
  EXPECT_FALSE(t.longest_match(A("10.0.0.1")).value);
  EXPECT_TRUE(t.insert(P("10.1.2.0/24"), 1));
  EXPECT_TRUE(t.insert(P("10.0.0.0/8"), 2));
  EXPECT_EQ(t.longest_match(A("10.1.2.3")).prefix, P("10.1.2.0/24"));
  EXPECT_EQ(t.longest_match(A("10.1.3.3")).prefix, P("10.0.0.0/8"));
  EXPECT_EQ(Keys(t), (std::vector<IpPrefix>{P("10.0.0.0/8"), P("10.1.2.0/24")}));
  // A move keeps the table and its answers.
  RouteTrie<int> moved(std::move(t));
  EXPECT_TRUE(moved.ipv4_jumps());
  EXPECT_EQ(*moved.find(P("10.1.2.0/24")), 1);
  EXPECT_TRUE(moved.erase(P("10.1.2.0/24")));
  EXPECT_EQ(moved.longest_match(A("10.1.2.3")).prefix, P("10.0.0.0/8"));
}

// IPv6 keys around the 64-bit word boundary, with a value type that owns memory (the trie
// destroys values it still holds and reuses freed slots).
TEST(RouteTrieTest, Ipv6KeysAcrossWordBoundaryMatchReferenceModel) {
  std::mt19937 rng(11);
  RouteTrie<std::string> t;
  std::map<IpPrefix, std::string> ref;
  auto random_addr = [&] {
    std::array<uint8_t, 16> b{0x20, 0x01, 0x0d, 0xb8};
    b[7] = static_cast<uint8_t>(rng() & 0x3);
    b[8] = static_cast<uint8_t>(rng() & 0xc0);
    b[15] = static_cast<uint8_t>(rng() & 0x1);
    return IpAddr::V6(b);
  };
  for (int step = 0; step < 20000; ++step) {
    const IpPrefix p(random_addr(), 56 + static_cast<int>(rng() % 73));
    if (rng() % 3 != 2) {
      const std::string v = "value number " + std::to_string(step);
      EXPECT_EQ(t.insert(p, v), !ref.contains(p));
      ref[p] = v;
    } else {
      EXPECT_EQ(t.erase(p), ref.erase(p) == 1);
    }
    if (step % 53 == 0) {
      const IpAddr a = random_addr();
      const IpPrefix* best = nullptr;
      for (const auto& [k, v] : ref) {
        if (k.Contains(a) && (!best || k.len() > best->len())) best = &k;
      }
      const auto hit = t.longest_match(a);
      ASSERT_EQ(hit.value != nullptr, best != nullptr);
      if (best) {
        EXPECT_EQ(hit.prefix, *best);
        EXPECT_EQ(*hit.value, ref[*best]);
      }
      const auto up = ref.upper_bound(p);
      const auto next = t.next_after(p);
      ASSERT_EQ(next.value != nullptr, up != ref.end());
      if (next.value) {
        EXPECT_EQ(next.prefix, up->first);
      }
    }
  }
  std::vector<IpPrefix> want;
  for (const auto& [k, v] : ref) want.push_back(k);
  std::vector<IpPrefix> got;
  for (auto it = t.begin(); !it.at_end(); ++it) got.push_back(it.key());
  std::vector<IpPrefix> walked;
  for (auto h = t.next_after(std::nullopt); h.value; h = t.next_after(h.prefix)) {
    walked.push_back(h.prefix);
  }
  EXPECT_EQ(walked, want);
  EXPECT_EQ(got, want);
  EXPECT_EQ(t.size(), ref.size());
}

// The IPv4 and IPv6 entries live in tries of their own: walks and iterators go from the last
// IPv4 entry to the first IPv6 one, also when the iterator's IPv4 entry is erased under it.
TEST(RouteTrieTest, WalksAndIteratorsCrossFromIpv4ToIpv6) {
  RouteTrie<int> t;
  t.insert(P("255.255.255.255/32"), 1);
  t.insert(P("0.0.0.0/0"), 2);
  t.insert(P("::/0"), 3);
  t.insert(P("2001:db8::1/128"), 4);
  EXPECT_EQ(t.next_after(P("255.255.255.255/32")).prefix, P("::/0"));
  EXPECT_EQ(t.next_after(P("200.0.0.0/8")).prefix, P("255.255.255.255/32"));
  EXPECT_EQ(t.next_after(P("2001:db8::1/128")).value, nullptr);
  EXPECT_EQ(t.longest_match(A("255.255.255.255")).prefix, P("255.255.255.255/32"));
  EXPECT_EQ(t.longest_match(A("255.255.255.254")).prefix, P("0.0.0.0/0"));
  EXPECT_EQ(*t.longest_match(A("2001:db8::2")).value, 3);
  EXPECT_TRUE(t.has_more_specific(P("255.0.0.0/8")));
  EXPECT_FALSE(t.has_more_specific(P("255.255.255.255/32")));

  auto it = t.begin();
  ++it;  // at 255.255.255.255/32
  ASSERT_EQ(it.value(), 1);
  EXPECT_TRUE(t.erase(P("255.255.255.255/32")));
  EXPECT_FALSE(it.has_value());
  ++it;
  EXPECT_EQ(it.key(), P("::/0"));
  EXPECT_TRUE(t.erase(P("::/0")));
  ++it;
  EXPECT_EQ(it.value(), 4);
  ++it;
  EXPECT_TRUE(it.at_end());
  EXPECT_EQ(t.size(), 2u);
  RouteTrie<int> moved(std::move(t));
  EXPECT_EQ(moved.size(), 2u);
  EXPECT_EQ(*moved.find(P("0.0.0.0/0")), 2);
  EXPECT_EQ(*moved.find(P("2001:db8::1/128")), 4);
}

TEST(TrieKeyTest, Ipv4KeyIsOneWordAndAValueIndex) {
  EXPECT_EQ(sizeof(TrieNode<TrieKey4>), 16u);
  const TrieKey4 k = TrieKey4::Of(P("10.1.0.0/16"));
  EXPECT_EQ(k.addr, 0x0a010000u);
  EXPECT_TRUE(k.Contains(TrieKey4::Of(A("10.1.2.3"))));
  EXPECT_FALSE(k.Contains(TrieKey4::Of(A("10.2.2.3"))));
  EXPECT_EQ(TrieKey4::Common(k, TrieKey4::Of(A("10.0.0.0"))), 15);
  EXPECT_EQ(k.Masked(8).prefix(), P("10.0.0.0/8"));
  EXPECT_EQ(TrieKey4::Of(A("1.2.3.4")).prefix(), P("1.2.3.4/32"));
}

TEST(TrieKeyTest, Ipv4NodePacksLengthWithValueIndex) {
  TrieNode<TrieKey4> n(TrieKey4::Of(P("255.255.255.255/32")));
  EXPECT_EQ(n.len(), 32);
  EXPECT_EQ(n.value(), kTrieNil);
  n.set_value((uint32_t{1} << 26) - 2);  // the largest index a node can name
  EXPECT_EQ(n.value(), (uint32_t{1} << 26) - 2);
  EXPECT_EQ(n.key().prefix(), P("255.255.255.255/32"));
  n.set_value(0);
  EXPECT_EQ(n.value(), 0u);
  EXPECT_EQ(n.len(), 32);
  n.set_value(kTrieNil);
  EXPECT_EQ(n.value(), kTrieNil);
  EXPECT_EQ(TrieNode<TrieKey4>(TrieKey4::Of(P("0.0.0.0/0"))).len(), 0);
}

}  // namespace
}  // namespace strata
