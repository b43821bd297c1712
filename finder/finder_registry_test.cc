#include "finder/finder_registry.h"

#include <gtest/gtest.h>

#include <map>

namespace strata::finder {
namespace {

v1::RegisterTargetRequest Req(const std::string& cls, const std::string& inst, bool sole = false) {
  v1::RegisterTargetRequest r;
  r.set_class_name(cls);
  r.set_instance_name(inst);
  r.set_sole_instance(sole);
  auto* ep = r.add_endpoints();
  ep->set_protocol("sunix");
  ep->set_address("/tmp/" + inst + ".sock");
  for (const char* m : {"test/1.0/echo", "test/1.0/ping"}) r.add_methods()->set_path(m);
  return r;
}

v1::ResolveTargetRequest Resolve(const std::string& target, const std::string& secret = "") {
  v1::ResolveTargetRequest r;
  r.set_target(target);
  r.set_secret(secret);
  return r;
}

TEST(FinderRegistryTest, RegisterGivesDistinctRandomKeysPerMethod) {
  FinderRegistry reg("", false);
  std::vector<Notice> n;
  auto r = reg.Register(1, Req("rib", "rib.red"), n);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->keys_size(), 2);
  EXPECT_EQ(r->keys(0).key().size(), 16u);
  EXPECT_NE(r->keys(0).key(), r->keys(1).key());
  auto again = FinderRegistry("", false).Register(1, Req("rib", "rib.red"), n);
  EXPECT_NE(again->keys(0).key(), r->keys(0).key());
}

// A component re-registering with a restarted Finder offers the keys it already demands; the
// new Finder hands those out, so resolutions cached from the old Finder keep working.
TEST(FinderRegistryTest, ReRegistrationKeepsOfferedKeysAndIncarnation) {
  FinderRegistry reg("", false);
  std::vector<Notice> n;
  auto req = Req("rib", "rib.red");
  req.set_incarnation("inc-1");
  auto* k = req.add_keys();
  k->set_path("test/1.0/echo");
  k->set_key(std::string(16, 'k'));
  auto* bad = req.add_keys();
  bad->set_path("test/1.0/ping");
  bad->set_key("short");  // malformed: replaced by a fresh key
  ASSERT_TRUE(reg.WatchClass(7, "rtrmgr", "rib", n).ok());
  auto r = reg.Register(1, req, n);
  ASSERT_TRUE(r.ok());
  std::map<std::string, std::string> keys;
  for (const auto& key : r->keys()) keys[key.path()] = key.key();
  EXPECT_EQ(keys["test/1.0/echo"], std::string(16, 'k'));
  EXPECT_EQ(keys["test/1.0/ping"].size(), 16u);
  auto res = reg.Resolve(2, Resolve("rib.red"));
  ASSERT_TRUE(res.ok());
  for (const auto& m : res->methods()) EXPECT_EQ(m.key(), keys[m.path()]);
  ASSERT_EQ(n.size(), 1u);
  EXPECT_EQ(n[0].kind, Notice::Kind::kBirth);
  EXPECT_EQ(n[0].incarnation, "inc-1");
  n.clear();
  reg.ConnectionClosed(1, n);
  ASSERT_EQ(n.size(), 2u);  // the resolver's invalidation and the watcher's death
  for (const auto& notice : n) EXPECT_EQ(notice.incarnation, "inc-1");
}

TEST(FinderRegistryTest, ResolvesInstanceAndClassWithKeys) {
  FinderRegistry reg("", false);
  std::vector<Notice> n;
  auto keys = reg.Register(1, Req("rib", "rib.red"), n);
  ASSERT_TRUE(reg.Register(1, Req("rib", "rib.blue"), n).ok());
  auto byInstance = reg.Resolve(2, Resolve("rib.blue"));
  ASSERT_TRUE(byInstance.ok());
  EXPECT_EQ(byInstance->instance_name(), "rib.blue");
  auto byClass = reg.Resolve(2, Resolve("rib"));
  ASSERT_TRUE(byClass.ok());
  EXPECT_EQ(byClass->instance_name(), "rib.red") << "a class resolves to its oldest instance";
  EXPECT_EQ(byClass->methods(0).key(), keys->keys(0).key());
  EXPECT_EQ(byClass->endpoints(0).address(), "/tmp/rib.red.sock");
  EXPECT_EQ(reg.Resolve(2, Resolve("bgp")).status().code(), StatusCode::kNotFound);
}

TEST(FinderRegistryTest, RefusesDuplicatesAndSecondSoleInstance) {
  FinderRegistry reg("", false);
  std::vector<Notice> n;
  ASSERT_TRUE(reg.Register(1, Req("fea", "fea", true), n).ok());
  auto dup = reg.Register(2, Req("fea", "fea.2"), n);
  EXPECT_EQ(dup.status().code(), StatusCode::kAlreadyExists);
  EXPECT_NE(dup.status().message().find("sole-instance"), std::string::npos);
  EXPECT_EQ(reg.Register(2, Req("fea", "fea", true), n).status().code(),
            StatusCode::kAlreadyExists);
  ASSERT_TRUE(reg.Register(1, Req("rib", "rib.a"), n).ok());
  EXPECT_EQ(reg.Register(2, Req("rib", "rib.b", true), n).status().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(reg.Register(2, Req("bad name", "x"), n).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(reg.Register(2, Req("x", "finder"), n).status().code(), StatusCode::kAlreadyExists);
}

TEST(FinderRegistryTest, WatchersHearBirthsAndDeathsAndResolversInvalidations) {
  FinderRegistry reg("", false);
  std::vector<Notice> n;
  ASSERT_TRUE(reg.Register(7, Req("watcher", "w"), n).ok());
  ASSERT_TRUE(reg.WatchClass(7, "w", "rib", n).ok());
  EXPECT_TRUE(n.empty());
  ASSERT_TRUE(reg.Register(1, Req("rib", "rib.red"), n).ok());
  ASSERT_EQ(n.size(), 1u);
  EXPECT_EQ(n[0].conn, 7u);
  EXPECT_EQ(n[0].watcher, "w");
  EXPECT_EQ(n[0].kind, Notice::Kind::kBirth);
  EXPECT_EQ(n[0].instance_name, "rib.red");
  n.clear();
  ASSERT_TRUE(reg.Resolve(9, Resolve("rib.red")).ok());
  reg.ConnectionClosed(1, n);
  ASSERT_EQ(n.size(), 2u);
  EXPECT_EQ(n[0].kind, Notice::Kind::kInvalidate);
  EXPECT_EQ(n[0].conn, 9u);
  EXPECT_EQ(n[1].kind, Notice::Kind::kDeath);
  EXPECT_EQ(n[1].conn, 7u);
  EXPECT_EQ(reg.Resolve(9, Resolve("rib.red")).status().code(), StatusCode::kNotFound);
}

TEST(FinderRegistryTest, WatchingAnExistingClassReportsCurrentMembers) {
  FinderRegistry reg("", false);
  std::vector<Notice> n;
  ASSERT_TRUE(reg.Register(1, Req("rib", "rib.red"), n).ok());
  ASSERT_TRUE(reg.WatchInstance(2, "w", "rib.red", n).ok());
  ASSERT_EQ(n.size(), 1u);
  EXPECT_EQ(n[0].kind, Notice::Kind::kBirth);
  EXPECT_TRUE(reg.UnwatchInstance(2, "w", "rib.red").ok());
  EXPECT_EQ(reg.UnwatchInstance(2, "w", "rib.red").code(), StatusCode::kNotFound);
}

TEST(FinderRegistryTest, UnregisterOnlyByOwner) {
  FinderRegistry reg("", false);
  std::vector<Notice> n;
  ASSERT_TRUE(reg.Register(1, Req("rib", "rib.red"), n).ok());
  EXPECT_EQ(reg.Unregister(2, "rib.red", n).code(), StatusCode::kPermissionDenied);
  EXPECT_TRUE(reg.Unregister(1, "rib.red", n).ok());
  EXPECT_EQ(reg.target_count(), 0u);
}

TEST(FinderRegistryTest, PermissionsLimitTargetsAndMethods) {
  FinderRegistry reg("admin", true);
  std::vector<Notice> n;
  ASSERT_TRUE(reg.Register(1, Req("rib", "rib.red"), n).ok());
  ASSERT_TRUE(reg.Register(1, Req("fea", "fea"), n).ok());
  EXPECT_EQ(reg.Resolve(2, Resolve("rib.red", "s1")).status().code(), StatusCode::kPermissionDenied)
      << "strict: no permissions, nothing resolves";
  v1::SetPermissionsRequest p;
  p.set_admin_secret("wrong");
  p.set_secret("s1");
  p.add_allowed_targets("rib");
  p.add_allowed_methods("test/1.0/ping");
  EXPECT_EQ(reg.SetPermissions(p, n).code(), StatusCode::kPermissionDenied);
  p.set_admin_secret("admin");
  ASSERT_TRUE(reg.SetPermissions(p, n).ok());
  auto r = reg.Resolve(2, Resolve("rib.red", "s1"));
  ASSERT_TRUE(r.ok());
  for (const auto& m : r->methods()) {
    EXPECT_EQ(m.key().empty(), m.path() != "test/1.0/ping") << m.path();
  }
  EXPECT_EQ(reg.Resolve(2, Resolve("fea", "s1")).status().code(), StatusCode::kPermissionDenied);
}

TEST(FinderRegistryTest, ListsTargetsAndMethods) {
  FinderRegistry reg("", false);
  std::vector<Notice> n;
  ASSERT_TRUE(reg.Register(1, Req("rib", "rib.red"), n).ok());
  auto t = reg.ListTargets();
  EXPECT_EQ(t.instances_size(), 2);  // finder itself and rib.red
  auto m = reg.ListMethods("rib");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->methods_size(), 2);
  EXPECT_EQ(reg.ListMethods("nope").status().code(), StatusCode::kNotFound);
}

// The rtrmgr gives each process's secret its instance name: nobody else may register it, a
// squatter that holds it already is dropped (dead to its watchers), and the owner then
// registers.
TEST(FinderRegistryTest, OwnedNameIsTheOwnersAndASquatterLosesIt) {
  FinderRegistry reg("admin", true);
  std::vector<Notice> n;
  ASSERT_TRUE(reg.WatchClass(9, "rtrmgr", "rib", n).ok());
  auto squat = Req("rib", "rib.red");
  squat.set_secret("");
  ASSERT_TRUE(reg.Register(2, squat, n).ok());
  n.clear();
  v1::SetPermissionsRequest p;
  p.set_admin_secret("admin");
  p.set_secret("owner");
  p.add_allowed_targets("fea");
  p.add_owned_names("rib.red");
  std::vector<std::string> evicted;
  ASSERT_TRUE(reg.SetPermissions(p, n, &evicted).ok());
  EXPECT_EQ(evicted, std::vector<std::string>{"rib.red"});
  ASSERT_EQ(n.size(), 1u);
  EXPECT_EQ(n[0].kind, Notice::Kind::kDeath);
  EXPECT_EQ(reg.target_count(), 0u);
  // The squatter tries again, with no secret or a wrong one: refused.
  EXPECT_EQ(reg.Register(2, squat, n).status().code(), StatusCode::kPermissionDenied);
  squat.set_secret("guess");
  EXPECT_EQ(reg.Register(2, squat, n).status().code(), StatusCode::kPermissionDenied);
  // The owner registers; a second registration of the live name is refused even by it.
  auto real = Req("rib", "rib.red");
  real.set_secret("owner");
  ASSERT_TRUE(reg.Register(3, real, n).ok());
  EXPECT_EQ(reg.Register(4, real, n).status().code(), StatusCode::kAlreadyExists);
  // Names nobody owns stay first come, first served.
  EXPECT_TRUE(reg.Register(2, Req("test", "t1"), n).ok());
}

TEST(FinderRegistryTest, RegistrationWithMalformedMethodsIsRefused) {
  FinderRegistry reg("", false);
  std::vector<Notice> n;
  for (const char* path : {"", "ping", "test/1.0", "test//ping", "/test/1.0/ping",
                           "test/1.0/ping/x", "test/1.0/pi ng"}) {
    auto r = Req("test", "t1");
    r.add_methods()->set_path(path);
    EXPECT_EQ(reg.Register(1, r, n).status().code(), StatusCode::kInvalidArgument) << path;
  }
  for (const char* grpc : {"x", "/", "//", "/pkg.Svc", "/pkg.Svc/", "pkg.Svc/M", "/a/b/c"}) {
    auto r = Req("test", "t1");
    auto* m = r.add_methods();
    m->set_path("test/1.0/other");
    m->set_grpc_method(grpc);
    EXPECT_EQ(reg.Register(1, r, n).status().code(), StatusCode::kInvalidArgument) << grpc;
  }
  auto ok = Req("test", "t1");
  auto* m = ok.add_methods();
  m->set_path("test/1.0/other");
  m->set_grpc_method("/strata.test.v1.Test/Other");
  EXPECT_TRUE(reg.Register(1, ok, n).ok());
}

}  // namespace
}  // namespace strata::finder
