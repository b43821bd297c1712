#include "libipc/xrl_atom.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cctype>
#include <limits>
#include <string>
#include <vector>

namespace strata::ipc {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// The status message of parsing `text`, or "OK".
std::string ErrorOf(std::string_view text) {
  auto r = XrlAtom::Parse(text);
  return r.ok() ? "OK" : r.status().message();
}

// Parses `text`, expects success and that printing gives `text` back.
XrlAtom RoundTrip(std::string_view text) {
  auto r = XrlAtom::Parse(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  if (!r.ok()) return XrlAtom("error", AtomType::kU32, uint32_t{0});
  EXPECT_EQ(r->ToString(), text);
  return *r;
}

IpAddr Addr(std::string_view s) { return *IpAddr::Parse(s); }
IpPrefix Net(std::string_view s) { return *IpPrefix::Parse(s); }

TEST(XrlAtomTest, TypeNamesRoundTrip) {
  for (int i = 0; i <= static_cast<int>(AtomType::kBinary); ++i) {
    const auto t = static_cast<AtomType>(i);
    EXPECT_EQ(ParseAtomType(AtomTypeName(t)), t);
  }
  EXPECT_EQ(AtomTypeName(AtomType::kIpv4Net), "ipv4net");
  EXPECT_EQ(ParseAtomType("u33"), std::nullopt);
  EXPECT_EQ(ParseAtomType("U32"), std::nullopt);
  EXPECT_EQ(ParseAtomType(""), std::nullopt);
}

TEST(XrlAtomTest, IntegerLimitsAccepted) {
  EXPECT_EQ(RoundTrip("a:i32=-2147483648").value(), AtomValue(std::numeric_limits<int32_t>::min()));
  EXPECT_EQ(RoundTrip("a:i32=2147483647").value(), AtomValue(std::numeric_limits<int32_t>::max()));
  EXPECT_EQ(RoundTrip("a:u32=0").value(), AtomValue(uint32_t{0}));
  EXPECT_EQ(RoundTrip("a:u32=4294967295").value(), AtomValue(std::numeric_limits<uint32_t>::max()));
  EXPECT_EQ(RoundTrip("a:i64=-9223372036854775808").value(),
            AtomValue(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(RoundTrip("a:i64=9223372036854775807").value(),
            AtomValue(std::numeric_limits<int64_t>::max()));
  EXPECT_EQ(RoundTrip("a:u64=18446744073709551615").value(),
            AtomValue(std::numeric_limits<uint64_t>::max()));
  EXPECT_EQ(RoundTrip("a:i32=-1").value(), AtomValue(int32_t{-1}));
}

TEST(XrlAtomTest, IntegerOverflowByOneRejected) {
  for (const char* text : {"a:i32=2147483648", "a:i32=-2147483649", "a:u32=4294967296",
                           "a:i64=9223372036854775808", "a:i64=-9223372036854775809",
                           "a:u64=18446744073709551616", "a:u32=99999999999999999999999"}) {
    EXPECT_THAT(ErrorOf(text), StartsWith("position 6: expected a decimal ")) << text;
    EXPECT_THAT(ErrorOf(text), HasSubstr("(value overflows)")) << text;
  }
  EXPECT_EQ(ErrorOf("as:u32=4294967296"), "position 7: expected a decimal u32 (value overflows)");
}

TEST(XrlAtomTest, IntegerSyntaxRejected) {
  for (const char* type : {"i32", "u32", "i64", "u64"}) {
    for (const char* value : {"", "+1", " 1", "1 ", "0x10", "1e3", "-", "1.0", "abc", "1,"}) {
      const std::string text = std::string("a:") + type + "=" + value;
      EXPECT_THAT(ErrorOf(text), StartsWith("position ")) << text;
    }
  }
  EXPECT_NE(ErrorOf("a:u32=-1"), "OK");
  EXPECT_NE(ErrorOf("a:u64=-0"), "OK");
}

TEST(XrlAtomTest, IntegerErrorsNamePosition) {
  EXPECT_EQ(ErrorOf("as:u32=0x10"), "position 8: expected a decimal u32");
  EXPECT_EQ(ErrorOf("as:u32=+5"), "position 7: expected a decimal u32 (no '+' sign)");
  EXPECT_EQ(ErrorOf("as:i32= 5"), "position 7: expected a decimal i32");
  EXPECT_EQ(ErrorOf("as:i64=12 "), "position 9: expected a decimal i64");
  EXPECT_EQ(ErrorOf("as:u64="), "position 7: expected a decimal u64 (empty value)");
}

TEST(XrlAtomTest, BoolOnlyTrueOrFalse) {
  EXPECT_EQ(RoundTrip("up:bool=true").value(), AtomValue(true));
  EXPECT_EQ(RoundTrip("up:bool=false").value(), AtomValue(false));
  for (const char* bad :
       {"up:bool=TRUE", "up:bool=1", "up:bool=0", "up:bool=yes", "up:bool=", "up:bool=true "}) {
    EXPECT_EQ(ErrorOf(bad), "position 8: expected true or false") << bad;
  }
}

TEST(XrlAtomTest, TxtRoundTripsAllByteValues) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  const std::string encoded = PercentEncode(all);
  for (size_t i = 0; i < encoded.size(); ++i) {
    const char c = encoded[i];
    const bool unreserved = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ||
                            c == '.' || c == '~' || c == '%';
    ASSERT_TRUE(unreserved) << "raw byte " << static_cast<int>(c) << " at " << i;
  }
  EXPECT_EQ(PercentDecode(encoded).value(), all);
  const XrlAtom atom("t", AtomType::kTxt, all);
  auto parsed = XrlAtom::Parse(atom.ToString());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(*parsed, atom);
  // Each byte alone too, so that no escape depends on its neighbours.
  for (int b = 0; b < 256; ++b) {
    const std::string one(1, static_cast<char>(b));
    EXPECT_EQ(PercentDecode(PercentEncode(one)).value(), one) << b;
  }
}

TEST(XrlAtomTest, TxtReservedCharsAreEncoded) {
  EXPECT_EQ(PercentEncode("&=,?#%"), "%26%3D%2C%3F%23%25");
  EXPECT_EQ(PercentEncode("a b/c:d"), "a%20b%2Fc%3Ad");
  EXPECT_EQ(PercentEncode("Az09-_.~"), "Az09-_.~");
  EXPECT_EQ(PercentEncode("\xff"), "%FF");
  EXPECT_EQ(RoundTrip("m:txt=a%26b%3Dc").value(), AtomValue(std::string("a&b=c")));
  EXPECT_EQ(RoundTrip("m:txt=").value(), AtomValue(std::string()));
  // Lowercase escapes and raw unreserved-but-unusual bytes are accepted when reading.
  EXPECT_EQ(XrlAtom::Parse("m:txt=%2f x:y").value().value(), AtomValue(std::string("/ x:y")));
  for (const char c : {'&', '=', ',', '?', '#'}) {
    const std::string text = std::string("m:txt=ab") + c;
    EXPECT_EQ(ErrorOf(text), std::string("position 8: expected '%XX' in place of reserved "
                                         "character '") +
                                 c + "'");
  }
}

TEST(XrlAtomTest, TxtBadEscapesRejectedAtTheirPosition) {
  EXPECT_EQ(ErrorOf("m:txt=%G1"), "position 6: expected two hex digits after '%'");
  EXPECT_EQ(ErrorOf("m:txt=ab%"), "position 8: expected two hex digits after '%'");
  EXPECT_EQ(ErrorOf("m:txt=ab%4"), "position 8: expected two hex digits after '%'");
  EXPECT_EQ(ErrorOf("m:txt=%41%4G"), "position 9: expected two hex digits after '%'");
  EXPECT_EQ(PercentDecode("x%", 100).status().message(),
            "position 101: expected two hex digits after '%'");
}

TEST(XrlAtomTest, Ipv4) {
  EXPECT_EQ(RoundTrip("a:ipv4=192.0.2.1").value(), AtomValue(Addr("192.0.2.1")));
  RoundTrip("a:ipv4=0.0.0.0");
  RoundTrip("a:ipv4=255.255.255.255");
  for (const char* bad :
       {"a:ipv4=256.0.0.1", "a:ipv4=1.2.3", "a:ipv4=1.2.3.4.5", "a:ipv4=", "a:ipv4=1.2.3.x"}) {
    EXPECT_THAT(ErrorOf(bad), StartsWith("position ")) << bad;
    EXPECT_THAT(ErrorOf(bad), HasSubstr("expected an ipv4 address")) << bad;
  }
  EXPECT_EQ(ErrorOf("a:ipv4=1.2.3.4 "), "position 14: expected an ipv4 address (dotted quad)");
  // inet_pton would stop at the NUL; the atom parser must not.
  EXPECT_NE(ErrorOf(std::string("a:ipv4=1.2.3.4\0junk", 19)), "OK");
}

TEST(XrlAtomTest, Ipv6) {
  EXPECT_EQ(RoundTrip("a:ipv6=2001:db8::1").value(), AtomValue(Addr("2001:db8::1")));
  RoundTrip("a:ipv6=::");
  RoundTrip("a:ipv6=::ffff:192.0.2.1");
  EXPECT_EQ(XrlAtom::Parse("a:ipv6=2001:DB8:0:0:0:0:0:1")->ToString(), "a:ipv6=2001:db8::1");
  for (const char* bad : {"a:ipv6=1::2::3", "a:ipv6=12345::", "a:ipv6=:::", "a:ipv6=1:2:3:4:5:6:7",
                          "a:ipv6=fe80::1%eth0", "a:ipv6=[::1]", "a:ipv6=g::1"}) {
    EXPECT_THAT(ErrorOf(bad), HasSubstr("expected an ipv6 address")) << bad;
  }
  EXPECT_EQ(ErrorOf("a:ipv6=fe80::1%eth0"),
            "position 14: expected an ipv6 address (RFC 4291 text)");
}

TEST(XrlAtomTest, FamilyMismatchIsAnError) {
  EXPECT_EQ(ErrorOf("a:ipv4=::1"),
            "position 7: expected an ipv4 address (dotted quad) (got an ipv6 address)");
  EXPECT_EQ(ErrorOf("a:ipv6=10.0.0.1"),
            "position 7: expected an ipv6 address (RFC 4291 text) (got an ipv4 address)");
  EXPECT_THAT(ErrorOf("a:ipv4net=2001:db8::/32"), HasSubstr("(got an ipv6 address)"));
  EXPECT_THAT(ErrorOf("a:ipv6net=10.0.0.0/8"), HasSubstr("(got an ipv4 address)"));
  EXPECT_FALSE(ValueHoldsType(AtomType::kIpv4, Addr("::1")));
  EXPECT_FALSE(ValueHoldsType(AtomType::kIpv6Net, Net("10.0.0.0/8")));
  EXPECT_TRUE(ValueHoldsType(AtomType::kIpv6Net, Net("::/0")));
  EXPECT_FALSE(ValueHoldsType(AtomType::kU32, AtomValue(int32_t{1})));
  EXPECT_EQ(ValueToString(AtomType::kIpv6, Addr("10.0.0.1")), "");
}

TEST(XrlAtomTest, Ipv4Net) {
  EXPECT_EQ(RoundTrip("n:ipv4net=10.0.0.0/8").value(), AtomValue(Net("10.0.0.0/8")));
  RoundTrip("n:ipv4net=0.0.0.0/0");
  RoundTrip("n:ipv4net=192.0.2.1/32");
  EXPECT_EQ(ErrorOf("n:ipv4net=10.0.0.0/33"), "position 19: expected a prefix length 0-32");
  EXPECT_EQ(ErrorOf("n:ipv4net=10.0.0.0/-1"), "position 19: expected a prefix length 0-32");
  EXPECT_EQ(ErrorOf("n:ipv4net=10.0.0.0/"), "position 19: expected a prefix length 0-32");
  EXPECT_EQ(ErrorOf("n:ipv4net=10.0.0.0/8x"), "position 20: expected a prefix length 0-32");
  EXPECT_EQ(ErrorOf("n:ipv4net=10.0.0.0"),
            "position 18: expected '/' and a prefix length (ADDRESS/LEN)");
  EXPECT_EQ(ErrorOf("n:ipv4net=10.0.0.1/8"),
            "position 10: expected a network address with no host bits set (10.0.0.0/8, not "
            "10.0.0.1/8)");
  EXPECT_NE(ErrorOf("n:ipv4net=10.0.0.0/99999999999"), "OK");
}

TEST(XrlAtomTest, Ipv6Net) {
  EXPECT_EQ(RoundTrip("n:ipv6net=2001:db8::/32").value(), AtomValue(Net("2001:db8::/32")));
  RoundTrip("n:ipv6net=::/0");
  RoundTrip("n:ipv6net=2001:db8::1/128");
  EXPECT_EQ(ErrorOf("n:ipv6net=2001:db8::/129"), "position 21: expected a prefix length 0-128");
  EXPECT_THAT(ErrorOf("n:ipv6net=2001:db8::1/32"), HasSubstr("no host bits set"));
  EXPECT_THAT(ErrorOf("n:ipv6net=2001:db8:::/32"), StartsWith("position 10: expected an ipv6"));
}

TEST(XrlAtomTest, Mac) {
  const MacAddr mac = *MacAddr::Parse("00:1b:21:aa:bb:cc");
  EXPECT_EQ(RoundTrip("m:mac=00:1b:21:aa:bb:cc").value(), AtomValue(mac));
  EXPECT_EQ(XrlAtom::Parse("m:mac=00:1B:21:AA:BB:CC")->ToString(), "m:mac=00:1b:21:aa:bb:cc");
  EXPECT_EQ(ErrorOf("m:mac=00-1b-21-aa-bb-cc"),
            "position 8: expected a MAC address (aa:bb:cc:dd:ee:ff)");
  EXPECT_EQ(ErrorOf("m:mac=00:1b:21:aa:bb"),
            "position 20: expected a MAC address (aa:bb:cc:dd:ee:ff)");
  EXPECT_EQ(ErrorOf("m:mac=00:1b:21:aa:bb:cg"),
            "position 22: expected a MAC address (aa:bb:cc:dd:ee:ff)");
  EXPECT_EQ(ErrorOf("m:mac=00:1b:21:aa:bb:cc:"),
            "position 23: expected the end of the MAC address");
}

TEST(XrlAtomTest, Binary) {
  EXPECT_EQ(RoundTrip("b:binary=00ff10").value(),
            AtomValue(std::vector<uint8_t>{0x00, 0xff, 0x10}));
  EXPECT_EQ(RoundTrip("b:binary=").value(), AtomValue(std::vector<uint8_t>{}));
  EXPECT_EQ(XrlAtom::Parse("b:binary=ABcd")->ToString(), "b:binary=abcd");
  EXPECT_EQ(ErrorOf("b:binary=abc"),
            "position 12: expected a hex digit (binary has two hex digits a byte)");
  EXPECT_EQ(ErrorOf("b:binary=0g"), "position 10: expected a hex digit");
  EXPECT_EQ(ErrorOf("b:binary=%41"), "position 9: expected a hex digit");
}

TEST(XrlAtomTest, Lists) {
  const XrlAtom empty = RoundTrip("l:list<u32>=");
  EXPECT_TRUE(empty.is_list());
  EXPECT_TRUE(empty.elements().empty());
  EXPECT_EQ(empty.TypeName(), "list<u32>");
  EXPECT_EQ(empty.type(), AtomType::kU32);

  const XrlAtom nums = RoundTrip("l:list<u32>=1,2,4294967295");
  EXPECT_EQ(nums.elements(),
            (std::vector<AtomValue>{uint32_t{1}, uint32_t{2}, uint32_t{4294967295}}));

  const XrlAtom words =
      XrlAtom::List("w", AtomType::kTxt, {std::string("a,b"), std::string(""), std::string("c")});
  EXPECT_EQ(words.ToString(), "w:list<txt>=a%2Cb,,c");
  EXPECT_EQ(XrlAtom::Parse(words.ToString()).value(), words);

  const XrlAtom nets = RoundTrip("n:list<ipv4net>=10.0.0.0/8,192.0.2.0/24,0.0.0.0/0");
  EXPECT_EQ(nets.elements().at(1), AtomValue(Net("192.0.2.0/24")));
  RoundTrip("p:list<ipv6>=::1,fe80::1");
  RoundTrip("m:list<mac>=00:00:00:00:00:01,ff:ff:ff:ff:ff:ff");

  EXPECT_EQ(ErrorOf("l:list<u32>=1,,2"), "position 14: expected a decimal u32 (empty value)");
  EXPECT_EQ(ErrorOf("l:list<u32>=1,2,"), "position 16: expected a decimal u32 (empty value)");
  EXPECT_EQ(ErrorOf("n:list<ipv4net>=10.0.0.0/8,10.0.0.1/8"),
            "position 27: expected a network address with no host bits set (10.0.0.0/8, not "
            "10.0.0.1/8)");
  // Documented ambiguity: one element that prints as "" reads back as no elements.
  const XrlAtom one_empty = XrlAtom::List("w", AtomType::kTxt, {std::string()});
  EXPECT_TRUE(XrlAtom::Parse(one_empty.ToString())->elements().empty());
  const XrlAtom one_blob = XrlAtom::List("b", AtomType::kBinary, {std::vector<uint8_t>{}});
  EXPECT_TRUE(XrlAtom::Parse(one_blob.ToString())->elements().empty());
}

TEST(XrlAtomTest, ListTypeErrors) {
  EXPECT_EQ(ErrorOf("l:list<list<u32>>=1"),
            "position 7: expected a scalar element type (lists do not nest)");
  EXPECT_EQ(ErrorOf("l:list<u32=1"), "position 10: expected '>' closing list<");
  EXPECT_EQ(ErrorOf("l:list<u32>>=1"), "position 11: expected '=' after the type");
  EXPECT_EQ(ErrorOf("l:list<foo>=1"), "position 7: expected an element type (unknown type 'foo')");
  EXPECT_EQ(ErrorOf("l:list=1"), "position 2: expected an atom type (unknown type 'list')");
}

TEST(XrlAtomTest, SyntaxErrorsNamePosition) {
  EXPECT_EQ(ErrorOf("as:u33=1"), "position 3: expected an atom type (unknown type 'u33')");
  EXPECT_EQ(ErrorOf("as=1"), "position 2: expected ':' after the argument name");
  EXPECT_EQ(ErrorOf("as"), "position 2: expected ':' after the argument name");
  EXPECT_EQ(ErrorOf("as:u32"), "position 6: expected '=' after the type");
  EXPECT_EQ(ErrorOf("as:u32 =1"), "position 6: expected '=' after the type");
  EXPECT_EQ(ErrorOf("as:=1"), "position 3: expected an atom type");
  EXPECT_EQ(ErrorOf(":u32=1"), "position 0: expected an argument name ([A-Za-z0-9_.-]+)");
  EXPECT_EQ(ErrorOf(""), "position 0: expected an argument name ([A-Za-z0-9_.-]+)");
  EXPECT_EQ(ErrorOf("a s:u32=1"), "position 1: expected ':' after the argument name");
  EXPECT_EQ(XrlAtom::Parse("as:u32=x", 40).status().message(),
            "position 47: expected a decimal u32");
  EXPECT_EQ(XrlAtom::Parse("as:u32=x").status().code(), StatusCode::kInvalidArgument);
  RoundTrip("peer-addr_2:u32=7");
}

TEST(XrlAtomTest, ParseValueForKnownType) {
  EXPECT_EQ(XrlAtom::ParseValue(AtomType::kU32, "65001").value(), AtomValue(uint32_t{65001}));
  EXPECT_EQ(XrlAtom::ParseValue(AtomType::kTxt, "a%20b").value(), AtomValue(std::string("a b")));
  EXPECT_EQ(XrlAtom::ParseValue(AtomType::kI64, "1x", 3).status().message(),
            "position 4: expected a decimal i64");
  for (int i = 0; i <= static_cast<int>(AtomType::kBinary); ++i) {
    // Garbage never throws or asserts for any type.
    EXPECT_FALSE(XrlAtom::ParseValue(static_cast<AtomType>(i), "\x01\xff&=").ok());
  }
}

TEST(XrlAtomTest, AccessorsAndToString) {
  const XrlAtom a("as", AtomType::kU32, uint32_t{65001});
  EXPECT_EQ(a.name(), "as");
  EXPECT_FALSE(a.is_list());
  EXPECT_EQ(a.TypeName(), "u32");
  EXPECT_EQ(a.ValueToString(), "65001");
  EXPECT_EQ(a.ToString(), "as:u32=65001");
  EXPECT_NE(a, XrlAtom("as", AtomType::kU32, uint32_t{65002}));
  EXPECT_NE(a, XrlAtom::List("as", AtomType::kU32, {uint32_t{65001}}));
}

}  // namespace
}  // namespace strata::ipc
