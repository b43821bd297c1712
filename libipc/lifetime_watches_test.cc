#include "libipc/lifetime_watches.h"

#include <gtest/gtest.h>

namespace strata::ipc {
namespace {

// Records "+inst" / "-inst" per event.
struct Recorder {
  std::vector<std::string> events;
  LifetimeCallback cb() {
    return [this](const std::string&, const std::string& instance, bool alive) {
      events.push_back((alive ? "+" : "-") + instance);
    };
  }
};

TEST(LifetimeWatchesTest, DeliversBirthsAndDeathsOnce) {
  LifetimeWatches w;
  Recorder cls, inst;
  w.Add(true, "bgp", cls.cb());
  w.Add(false, "bgp.red", inst.cb());
  w.Deliver("bgp", "bgp.red", "i1", true);
  w.Deliver("bgp", "bgp.blue", "i2", true);
  w.Deliver("bgp", "bgp.red", "i1", true);   // the same process announced again
  w.Deliver("rib", "rib.red", "i3", false);  // never born here
  w.Deliver("bgp", "bgp.red", "i1", false);
  w.Deliver("bgp", "bgp.red", "i1", false);
  EXPECT_EQ(cls.events, (std::vector<std::string>{"+bgp.red", "+bgp.blue", "-bgp.red"}));
  EXPECT_EQ(inst.events, (std::vector<std::string>{"+bgp.red", "-bgp.red"}));
}

// A Finder restart: members that registered again are not reported at all, one restarted
// meanwhile dies and is born again, one that never came back is reported dead at the end.
TEST(LifetimeWatchesTest, ResyncReportsOnlyRealChanges) {
  LifetimeWatches w;
  Recorder r;
  w.Add(true, "rib", r.cb());
  w.Deliver("rib", "rib.red", "i1", true);
  w.Deliver("rib", "rib.blue", "i2", true);
  w.Deliver("rib", "rib.green", "i3", true);
  r.events.clear();
  w.BeginResync();
  w.Deliver("rib", "rib.red", "i1", true);
  EXPECT_TRUE(w.Replaces("rib.blue", "i9"));
  EXPECT_FALSE(w.Replaces("rib.red", "i1"));
  w.Deliver("rib", "rib.blue", "i9", true);
  EXPECT_EQ(r.events, (std::vector<std::string>{"-rib.blue", "+rib.blue"}));
  EXPECT_EQ(w.EndResync(), (std::vector<std::string>{"rib.green"}));
  EXPECT_EQ(r.events, (std::vector<std::string>{"-rib.blue", "+rib.blue", "-rib.green"}));
  // A later death is still reported.
  w.Deliver("rib", "rib.red", "i1", false);
  EXPECT_EQ(r.events.back(), "-rib.red");
  EXPECT_EQ(w.List(), (std::vector<std::pair<bool, std::string>>{{true, "rib"}}));
}

TEST(LifetimeWatchesTest, CallbackMayAddAWatch) {
  LifetimeWatches w;
  Recorder later;
  bool added = false;
  w.Add(true, "fea", [&](const std::string&, const std::string&, bool) {
    if (!added) w.Add(false, "fea", later.cb());
    added = true;
  });
  w.Deliver("fea", "fea", "i1", true);
  EXPECT_TRUE(later.events.empty()) << "a watch added during an event hears from the next one";
  w.Deliver("fea", "fea", "i1", false);
  EXPECT_TRUE(later.events.empty()) << "it never heard the birth";
}

}  // namespace
}  // namespace strata::ipc
