// Test helpers for the multi-VR FIB: a naive per-VR longest-prefix-match model, random and
// adversarial tables, and the addresses worth probing (every prefix boundary +/- 1, random).
#pragma once

#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "fea/fib/fib_key.h"
#include "fea/fib/multi_vr_fib.h"

namespace strata::fib::test_util {

template <typename Key>
class LpmModel {
 public:
  static constexpr int kBits = KeyTraits<Key>::kBits;
  void Add(VrId vr, Key key, int len, uint32_t nh) { tables_[vr][{MaskKey(key, len), len}] = nh; }
  void Delete(VrId vr, Key key, int len) { tables_[vr].erase({MaskKey(key, len), len}); }
  void DropVr(VrId vr) { tables_.erase(vr); }
  // 0 = no route.
  uint32_t Lookup(VrId vr, Key addr) const {
    auto t = tables_.find(vr);
    if (t == tables_.end()) return 0;
    for (int len = kBits; len >= 0; --len) {
      auto it = t->second.find({MaskKey(addr, len), len});
      if (it != t->second.end()) return it->second;
    }
    return 0;
  }
  const std::map<std::pair<Key, int>, uint32_t>& table(VrId vr) { return tables_[vr]; }
  // Boundaries of every prefix +/- 1 plus `random` uniform addresses.
  std::vector<Key> Probes(std::mt19937_64& rng, int random) const {
    std::set<Key> s;
    for (const auto& [vr, t] : tables_) {
      for (const auto& [p, nh] : t) {
        Key first = p.first;
        Key last = first | (p.second == kBits ? Key{0} : (~Key{0}) >> p.second);
        for (Key k : {first, Key(first - 1), last, Key(last + 1)}) s.insert(k);
      }
    }
    for (int i = 0; i < random; ++i) s.insert(RandomKey(rng));
    return {s.begin(), s.end()};
  }
  static Key RandomKey(std::mt19937_64& rng) {
    if constexpr (kBits > 64) {
      return (Key(rng()) << 64) | Key(rng());
    } else {
      return static_cast<Key>(rng());
    }
  }

 private:
  std::map<VrId, std::map<std::pair<Key, int>, uint32_t>> tables_;
};

// Next hop number n (1-based) as a NextHop value, and back.
template <typename Key>
NextHop MakeNextHop(uint32_t n) {
  return NextHop{KeyTraits<Key>::ToAddr(Key(n)), n};
}

}  // namespace strata::fib::test_util
