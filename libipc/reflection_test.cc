#include "libipc/reflection.h"

#include <gtest/gtest.h>

#include "libipc/interfaces/finder.pb.h"
#include "libipc/interfaces/finder_client.pb.h"
#include "libipc/interfaces/test.pb.h"
#include "libipc/method_naming.h"
#include "libipc/signature.h"
#include "libipc/xrl.h"

namespace strata::ipc {
namespace {

std::vector<XrlAtom> Atoms(std::string_view text) {
  auto a = ParseAtoms(text);
  EXPECT_TRUE(a.ok()) << a.status().ToString();
  return a.ok() ? *a : std::vector<XrlAtom>{};
}

TEST(ReflectionTest, FillsEveryAtomTypeAndPrintsItBack) {
  const std::string text =
      "i32:i32=-5&u32:u32=7&i64:i64=-9000000000&u64:u64=18446744073709551615&flag:bool=true&"
      "txt:txt=a%20b&addr:ipv4=192.0.2.1&net:ipv6net=2001:db8::/32&mac:mac=02:00:00:00:00:01&"
      "data:binary=00ff&numbers:list<u32>=1,2&words:list<txt>=x,y&"
      "nets:list<ipv4net>=10.0.0.0/8,10.1.0.0/16";
  test::v1::EchoRequest req;
  ASSERT_TRUE(AtomsToMessage(Atoms(text), req).ok());
  EXPECT_EQ(req.i32(), -5);
  EXPECT_EQ(req.u64(), 18446744073709551615ULL);
  EXPECT_EQ(req.txt(), "a b");
  EXPECT_EQ(req.addr().addr(), std::string("\xc0\x00\x02\x01", 4));
  EXPECT_EQ(req.net().len(), 32u);
  EXPECT_EQ(req.data(), std::string("\x00\xff", 2));
  EXPECT_EQ(req.nets_size(), 2);
  // Printing gives the same atoms back (field order is the message's).
  EXPECT_EQ(AtomsToString(MessageToAtoms(req)), text);
}

TEST(ReflectionTest, NestedAndRepeatedMessagesUseDottedNames) {
  finder::v1::RegisterTargetRequest req;
  ASSERT_TRUE(AtomsToMessage(Atoms("class_name:txt=rib&endpoints.0.protocol:txt=sunix&"
                                   "endpoints.0.address:txt=%2Frun%2Fx&"
                                   "endpoints.1.protocol:txt=stcp"),
                             req)
                  .ok());
  ASSERT_EQ(req.endpoints_size(), 2);
  EXPECT_EQ(req.endpoints(0).address(), "/run/x");
  EXPECT_EQ(req.endpoints(1).protocol(), "stcp");
  const std::string printed = AtomsToString(MessageToAtoms(req));
  EXPECT_NE(printed.find("endpoints.1.protocol:txt=stcp"), std::string::npos) << printed;
}

// A proto3 `optional` field that is not set is not printed: its absence means something (a BGP
// route without MED), unlike a plain scalar whose zero is its value.
TEST(ReflectionTest, UnsetOptionalFieldsAreLeftOut) {
  finder::v1::RegisterTargetRequest plain;
  EXPECT_NE(AtomsToString(MessageToAtoms(plain)).find("class_name:txt="), std::string::npos);
  test::v1::OptionalEcho req;
  EXPECT_EQ(AtomsToString(MessageToAtoms(req)), "plain:u32=0");
  req.set_maybe(0);
  EXPECT_EQ(AtomsToString(MessageToAtoms(req)), "plain:u32=0&maybe:u32=0");
  test::v1::OptionalEcho back;
  ASSERT_TRUE(AtomsToMessage(Atoms("plain:u32=1"), back).ok());
  EXPECT_FALSE(back.has_maybe());
}

TEST(ReflectionTest, EnumsAreTxtByName) {
  finder_client::v1::LifetimeEventRequest req;
  ASSERT_TRUE(AtomsToMessage(Atoms("event:txt=LIFETIME_DEATH"), req).ok());
  EXPECT_EQ(req.event(), finder_client::v1::LIFETIME_DEATH);
  auto bad = AtomsToMessage(Atoms("event:txt=SOMETIMES"), req);
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.message().find("LIFETIME_BIRTH"), std::string::npos);
}

TEST(ReflectionTest, EnumsTakeTheirShortNameInAnyCase) {
  finder_client::v1::LifetimeEventRequest req;
  ASSERT_TRUE(AtomsToMessage(Atoms("event:txt=death"), req).ok());
  EXPECT_EQ(req.event(), finder_client::v1::LIFETIME_DEATH);
  ASSERT_TRUE(AtomsToMessage(Atoms("event:txt=Birth"), req).ok());
  EXPECT_EQ(req.event(), finder_client::v1::LIFETIME_BIRTH);
  EXPECT_FALSE(AtomsToMessage(Atoms("event:txt=LIFETIME"), req).ok());
  EXPECT_FALSE(AtomsToMessage(Atoms("event:txt=_death"), req).ok());
}

TEST(ReflectionTest, RejectsWrongTypesNamesAndShapes) {
  test::v1::EchoRequest req;
  struct Case {
    const char* atoms;
    const char* error;
  } cases[] = {
      {"u32:u64=1", "argument 'u32' is u32, not u64"},
      {"nope:u32=1", "no argument 'nope'"},
      {"numbers:u32=1", "argument 'numbers' is list<u32>, not u32"},
      {"u32:list<u32>=1", "argument 'u32' is u32, not list<u32>"},
      {"addr:ipv4net=10.0.0.0/8", "argument 'addr' is ipv4|ipv6, not ipv4net"},
      {"txt.x:txt=a", "'txt' has no fields"},
  };
  for (const auto& c : cases) {
    auto s = AtomsToMessage(Atoms(c.atoms), req);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << c.atoms;
    EXPECT_NE(s.message().find(c.error), std::string::npos) << s.message();
  }
  finder::v1::RegisterTargetRequest reg;
  EXPECT_NE(AtomsToMessage(Atoms("endpoints.1.protocol:txt=x"), reg)
                .message()
                .find("given before element 0"),
            std::string::npos);
  EXPECT_NE(AtomsToMessage(Atoms("endpoints:txt=x"), reg).message().find("is a structure"),
            std::string::npos);
}

TEST(ReflectionTest, SignaturesDescribeArguments) {
  EXPECT_EQ(MessageSignature(test::v1::AddRequest::descriptor()), "a:u32&b:u32");
  EXPECT_EQ(MessageSignature(finder::v1::ListMethodsReply::descriptor()),
            "methods.N.path:txt&methods.N.grpc_method:txt&methods.N.args:txt&"
            "methods.N.returns:txt");
  const auto* echo = test::v1::EchoRequest::descriptor();
  EXPECT_NE(MessageSignature(echo).find("addr:ipv4|ipv6&net:ipv4net|ipv6net&mac:mac"),
            std::string::npos);
}

TEST(MethodNamingTest, MapsServicesOntoXrlNames) {
  EXPECT_EQ(SnakeCase("AddRoutes"), "add_routes");
  EXPECT_EQ(SnakeCase("Args10"), "args10");
  EXPECT_EQ(SnakeCase("GetFIBStats"), "get_fib_stats");
  const auto* method = test::v1::EchoRequest::descriptor()->file()->service(0)->method(1);
  EXPECT_EQ(MethodPath(method), "test/1.0/echo");
  EXPECT_EQ(GrpcMethodName(method), "/strata.test.v1.Test/Echo");
}

}  // namespace
}  // namespace strata::ipc
