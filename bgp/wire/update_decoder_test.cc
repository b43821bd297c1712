// One test per RFC 7606 outcome: each malformed attribute, flags and length errors, duplicates,
// missing mandatory attributes, NLRI errors, MP_REACH/MP_UNREACH errors and End-of-RIB.
#include "bgp/wire/update_decoder.h"

#include <gtest/gtest.h>

#include "testing/bgp/wire_test_util.h"

namespace strata::bgp {
namespace {

using test_util::Concat;
using test_util::Hex;
using test_util::MandatoryAttrs;
using test_util::P;
using test_util::UpdateBody;

const std::vector<uint8_t> kNlri = Hex("08 0a  18 c0 a8 01");  // 10/8, 192.168.1/24

// MP_REACH_NLRI for IPv6 unicast via 2001:db8::1 with the given NLRI bytes.
std::vector<uint8_t> MpReachV6(const char* nlri_hex) {
  return Concat({Hex("80 0e"),
                 {static_cast<uint8_t>(21 + Hex(nlri_hex).size())},
                 Hex("00 02 01 10 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01 00"),
                 Hex(nlri_hex)});
}

// MandatoryAttrs plus `extra`, announcing kNlri.
UpdateDecodeResult WithExtra(const std::vector<uint8_t>& extra, CodecOptions options = {}) {
  return DecodeUpdateBody(UpdateBody({}, Concat({MandatoryAttrs(), extra}), kNlri), options);
}
UpdateDecodeResult WithExtra(const char* extra, CodecOptions options = {}) {
  return WithExtra(Hex(extra), options);
}

void ExpectOutcome(const UpdateDecodeResult& r, ErrorAction action, uint8_t code) {
  EXPECT_EQ(r.action, action) << r.ToString();
  EXPECT_EQ(r.count(action), 1u) << r.ToString();
  ASSERT_FALSE(r.problems.empty());
  EXPECT_EQ(r.problems[0].attr_code, code) << r.ToString();
}

void ExpectWithdraw(const UpdateDecodeResult& r, uint8_t code) {
  ExpectOutcome(r, ErrorAction::kTreatAsWithdraw, code);
  EXPECT_TRUE(r.Announcements().empty());
  EXPECT_EQ(r.Withdrawals(), (std::vector<IpPrefix>{P("10.0.0.0/8"), P("192.168.1.0/24")}));
  EXPECT_EQ(r.notification, std::nullopt);
}

void ExpectDiscard(const UpdateDecodeResult& r, uint8_t code) {
  ExpectOutcome(r, ErrorAction::kAttributeDiscard, code);
  EXPECT_EQ(r.Announcements().size(), 2u);
  EXPECT_TRUE(r.Withdrawals().empty());
}

void ExpectReset(const UpdateDecodeResult& r, UpdateError subcode) {
  EXPECT_EQ(r.action, ErrorAction::kSessionReset) << r.ToString();
  ASSERT_TRUE(r.notification.has_value());
  EXPECT_EQ(r.notification->code, static_cast<uint8_t>(ErrorCode::kUpdateMessage));
  EXPECT_EQ(r.notification->subcode, static_cast<uint8_t>(subcode)) << r.ToString();
  EXPECT_TRUE(r.Announcements().empty());
  EXPECT_TRUE(r.Withdrawals().empty());
}

TEST(Rfc7606Test, ValidUpdateHasNoProblems) {
  auto r = WithExtra("");
  EXPECT_EQ(r.action, ErrorAction::kNone);
  EXPECT_TRUE(r.problems.empty());
  EXPECT_EQ(r.Announcements().size(), 2u);
}

TEST(Rfc7606Test, MalformedOriginIsTreatAsWithdraw) {
  auto attrs = Hex("40 01 01 03  40 02 00  40 03 04 c0 00 02 01");  // ORIGIN 3
  ExpectWithdraw(DecodeUpdateBody(UpdateBody({}, attrs, kNlri), {}), 1);
  attrs = Hex("40 01 02 00 00  40 02 00  40 03 04 c0 00 02 01");  // length 2
  ExpectWithdraw(DecodeUpdateBody(UpdateBody({}, attrs, kNlri), {}), 1);
}

TEST(Rfc7606Test, MalformedAsPathIsTreatAsWithdraw) {
  const auto attrs = Hex("40 01 01 00  40 02 06 07 01 00 00 fd e9  40 03 04 c0 00 02 01");
  ExpectWithdraw(DecodeUpdateBody(UpdateBody({}, attrs, kNlri), {}), 2);
}

TEST(Rfc7606Test, ConfedSegmentFromExternalPeerIsTreatAsWithdraw) {
  const auto attrs = Hex("40 01 01 00  40 02 06 03 01 00 00 fc 00  40 03 04 c0 00 02 01");
  CodecOptions ebgp;
  ebgp.peer_type = PeerType::kExternal;
  ExpectWithdraw(DecodeUpdateBody(UpdateBody({}, attrs, kNlri), ebgp), 2);
  CodecOptions confed;
  confed.peer_type = PeerType::kConfedExternal;
  EXPECT_EQ(DecodeUpdateBody(UpdateBody({}, attrs, kNlri), confed).action, ErrorAction::kNone);
}

// RFC 5065 prepends confederation segments only; one after an ordinary segment is malformed.
TEST(Rfc7606Test, ConfedSegmentAfterAnOrdinaryOneIsTreatAsWithdraw) {
  // AS_PATH SEQ(65001) CONFED_SEQ(65010), from an internal peer.
  const auto attrs =
      Hex("40 01 01 00  40 02 0c 02 01 00 00 fd e9 03 01 00 00 fd f2  40 03 04 c0 00 02 01");
  ExpectWithdraw(DecodeUpdateBody(UpdateBody({}, attrs, kNlri), {}), 2);
  // CONFED_SEQ(65010) SEQ(65001) is how a confederation peer sends it.
  const auto good =
      Hex("40 01 01 00  40 02 0c 03 01 00 00 fd f2 02 01 00 00 fd e9  40 03 04 c0 00 02 01");
  EXPECT_EQ(DecodeUpdateBody(UpdateBody({}, good, kNlri), {}).action, ErrorAction::kNone);
}

// Found by a fuzzer's round-trip property: on a 2-octet session, AS_PATH SEQ(23456 7)
// CONFED_SEQ(5) merged with AS4_PATH SEQ(70000) gave "23456 (5) 70000", which no encoding keeps.
TEST(Rfc7606Test, TrailingConfedSegmentOnATwoOctetSessionIsTreatAsWithdraw) {
  CodecOptions old;
  old.four_octet_as = false;
  const auto body = Hex("0000 0016 40020a 0202 5ba0 0007 0301 0005 c01106 0201 00011170");
  auto r = DecodeUpdateBody(body, old);
  EXPECT_EQ(r.action, ErrorAction::kTreatAsWithdraw) << r.ToString();
  ASSERT_FALSE(r.problems.empty());
  EXPECT_EQ(r.problems[0].attr_code, 2);
}

TEST(Rfc7606Test, MalformedNextHopIsTreatAsWithdraw) {
  const auto attrs = Hex("40 01 01 00  40 02 00  40 03 05 c0 00 02 01 01");
  ExpectWithdraw(DecodeUpdateBody(UpdateBody({}, attrs, kNlri), {}), 3);
}

// RFC 4271 5.1.3: a NEXT_HOP must be a valid host address; RFC 7606 7.3: treat-as-withdraw.
TEST(Rfc7606Test, NextHopThatIsNoHostAddressIsTreatAsWithdraw) {
  for (const char* nh : {"00 00 00 00", "00 01 02 03", "7f 00 00 01", "7f 01 02 03", "e0 00 00 05",
                         "ef ff ff ff", "f0 00 00 01", "ff ff ff ff"}) {
    const auto attrs = Concat({Hex("40 01 01 00  40 02 00  40 03 04"), Hex(nh)});
    auto r = DecodeUpdateBody(UpdateBody({}, attrs, kNlri), {});
    SCOPED_TRACE(nh);
    ExpectWithdraw(r, 3);
    EXPECT_NE(r.problems[0].reason.find("not a host address"), std::string::npos);
  }
  for (const char* nh : {"01 00 00 01", "7e ff ff ff", "80 00 00 00", "df ff ff fe"}) {
    const auto attrs = Concat({Hex("40 01 01 00  40 02 00  40 03 04"), Hex(nh)});
    EXPECT_EQ(DecodeUpdateBody(UpdateBody({}, attrs, kNlri), {}).action, ErrorAction::kNone) << nh;
  }
  // A loopback next hop is a host address only for a peer on this host.
  CodecOptions local;
  local.peer_on_loopback = true;
  const auto attrs = Hex("40 01 01 00  40 02 00  40 03 04 7f 00 00 02");
  EXPECT_EQ(DecodeUpdateBody(UpdateBody({}, attrs, kNlri), local).action, ErrorAction::kNone);
}

// RFC 4760 3: without IPv4 NLRI the NEXT_HOP attribute is ignored, whatever it holds.
TEST(Rfc7606Test, NextHopWithoutIpv4NlriIsNotJudged) {
  const auto attrs =
      Concat({Hex("40 01 01 00  40 02 00  40 03 04 00 00 00 00"), MpReachV6("20 20 01 0d b8")});
  auto r = DecodeUpdateBody(UpdateBody({}, attrs, {}), {});
  EXPECT_EQ(r.action, ErrorAction::kNone) << r.ToString();
  EXPECT_EQ(r.Announcements(), (std::vector<IpPrefix>{P("2001:db8::/32")}));
}

TEST(Rfc7606Test, MpReachNextHopThatIsNoHostAddressIsTreatAsWithdraw) {
  const auto v6 = [](const char* nh) {
    return Concat({Hex("80 0e 1a 00 02 01 10"), Hex(nh), Hex("00 20 20 01 0d b8")});
  };
  for (const char* nh : {"00000000000000000000000000000000", "00000000000000000000000000000001",
                         "ff020000000000000000000000000005", "ff0e0000000000000000000000000001"}) {
    const auto attrs = Concat({Hex("40 01 01 00  40 02 00"), v6(nh)});
    auto r = DecodeUpdateBody(UpdateBody({}, attrs, {}), {});
    SCOPED_TRACE(nh);
    EXPECT_EQ(r.action, ErrorAction::kTreatAsWithdraw) << r.ToString();
    EXPECT_TRUE(r.Announcements().empty());
    EXPECT_EQ(r.Withdrawals(), (std::vector<IpPrefix>{P("2001:db8::/32")}));
  }
  const auto fine = Concat({Hex("40 01 01 00  40 02 00"), v6("20010db8000000000000000000000001")});
  EXPECT_EQ(DecodeUpdateBody(UpdateBody({}, fine, {}), {}).action, ErrorAction::kNone);
}

TEST(Rfc7606Test, LengthErrorsThatWithdraw) {
  ExpectWithdraw(WithExtra("80 04 02 00 01"), 4);                        // MED
  ExpectWithdraw(WithExtra("40 05 03 00 00 01"), 5);                     // LOCAL_PREF
  ExpectWithdraw(WithExtra("c0 08 00"), 8);                              // COMMUNITIES empty
  ExpectWithdraw(WithExtra("c0 08 05 00 00 00 01 02"), 8);               // COMMUNITIES 5 bytes
  ExpectWithdraw(WithExtra("80 09 03 0a 00 00"), 9);                     // ORIGINATOR_ID
  ExpectWithdraw(WithExtra("80 0a 06 0a 00 00 01 0a 00"), 10);           // CLUSTER_LIST
  ExpectWithdraw(WithExtra("c0 10 09 00 02 fd e9 00 00 00 64 00"), 16);  // EXT_COMMUNITIES
  ExpectWithdraw(WithExtra("c0 20 0d 00 00 fd e9 00 00 00 01 00 00 00 02 00"), 32);  // LARGE
}

TEST(Rfc7606Test, LengthErrorsThatDiscard) {
  ExpectDiscard(WithExtra("40 06 01 00"), 6);                    // ATOMIC_AGGREGATE
  ExpectDiscard(WithExtra("c0 07 07 00 00 fd e9 c6 33 64"), 7);  // AGGREGATOR, 4-octet session
  CodecOptions old;
  old.four_octet_as = false;
  // On a 2-octet session the mandatory AS_PATH must be 2-octet too.
  const auto base = Hex("40 01 01 00  40 02 04 02 01 fd e9  40 03 04 c0 00 02 01");
  auto decode = [&](const char* extra) {
    return DecodeUpdateBody(UpdateBody({}, Concat({base, Hex(extra)}), kNlri), old);
  };
  ExpectDiscard(decode("c0 07 08 00 00 fd e9 c6 33 64 01"), 7);  // AGGREGATOR 8 bytes
  ExpectDiscard(decode("c0 11 05 02 01 00 00 01"), 17);          // AS4_PATH overrun
  ExpectDiscard(decode("c0 11 06 03 01 00 00 fc 00"), 17);       // AS4_PATH confed segment
  ExpectDiscard(decode("c0 12 06 00 00 fd e9 c6 33"), 18);       // AS4_AGGREGATOR
}

TEST(Rfc7606Test, LocalPrefFromExternalPeerIsDiscarded) {
  CodecOptions ebgp;
  ebgp.peer_type = PeerType::kExternal;
  auto r = WithExtra("40 05 04 00 00 00 64", ebgp);
  ExpectDiscard(r, 5);
  EXPECT_EQ(r.update.attrs.local_pref, std::nullopt);
}

// RFC 7606 7.9, 7.10: route reflection attributes mean nothing from outside the AS.
TEST(Rfc7606Test, OriginatorIdAndClusterListFromExternalPeerAreDiscarded) {
  CodecOptions ebgp;
  ebgp.peer_type = PeerType::kExternal;
  auto r = WithExtra("80 09 04 0a 00 00 01", ebgp);
  ExpectDiscard(r, 9);
  EXPECT_EQ(r.update.attrs.originator_id(), std::nullopt);
  r = WithExtra("80 0a 04 0a 00 00 01", ebgp);
  ExpectDiscard(r, 10);
  EXPECT_TRUE(r.update.attrs.cluster_list().empty());
  for (PeerType t : {PeerType::kInternal, PeerType::kConfedExternal}) {
    CodecOptions inside;
    inside.peer_type = t;
    r = WithExtra("80 09 04 0a 00 00 01  80 0a 04 0a 00 00 02", inside);
    EXPECT_EQ(r.action, ErrorAction::kNone) << r.ToString();
    EXPECT_TRUE(r.update.attrs.originator_id().has_value());
    EXPECT_EQ(r.update.attrs.cluster_list().size(), 1u);
  }
}

TEST(Rfc7606Test, FlagErrorsAreTreatAsWithdraw) {
  ExpectWithdraw(WithExtra("c0 04 04 00 00 00 01"), 4);  // MED marked transitive
  ExpectWithdraw(WithExtra("00 06 00"), 6);              // ATOMIC_AGGREGATE marked non-transitive
  ExpectWithdraw(WithExtra("60 05 04 00 00 00 01"), 5);  // Partial on a well-known attribute
  ExpectWithdraw(WithExtra("40 08 04 00 00 00 01"), 8);  // COMMUNITIES marked well-known
  const auto attrs = Hex("c0 01 01 00  40 02 00  40 03 04 c0 00 02 01");  // optional ORIGIN
  ExpectWithdraw(DecodeUpdateBody(UpdateBody({}, attrs, kNlri), {}), 1);
}

TEST(Rfc7606Test, PartialOnOptionalTransitiveIsFine) {
  EXPECT_EQ(WithExtra("e0 08 04 00 00 00 01").action, ErrorAction::kNone);
}

TEST(Rfc7606Test, RepeatedAttributeKeepsTheFirst) {
  auto r = WithExtra("80 04 04 00 00 00 01  80 04 04 00 00 00 02");
  ExpectDiscard(r, 4);
  EXPECT_EQ(r.update.attrs.med, 1u);
}

TEST(Rfc7606Test, RepeatedMpReachResetsTheSession) {
  auto r = WithExtra(Concat({MpReachV6("20 20 01 0d b8"), MpReachV6("")}));
  ExpectReset(r, UpdateError::kMalformedAttributeList);
}

TEST(Rfc7606Test, UnrecognizedWellKnownResetsTheSession) {
  auto r = WithExtra("40 63 01 00");
  ExpectReset(r, UpdateError::kUnrecognizedWellKnownAttribute);
  EXPECT_EQ(r.notification->data, Hex("40 63 01 00"));
}

TEST(Rfc7606Test, MissingMandatoryAttributesAreTreatAsWithdraw) {
  const auto no_origin = Hex("40 02 00  40 03 04 c0 00 02 01");
  ExpectWithdraw(DecodeUpdateBody(UpdateBody({}, no_origin, kNlri), {}), 1);
  const auto no_as_path = Hex("40 01 01 00  40 03 04 c0 00 02 01");
  ExpectWithdraw(DecodeUpdateBody(UpdateBody({}, no_as_path, kNlri), {}), 2);
  const auto no_next_hop = Hex("40 01 01 00  40 02 00");
  ExpectWithdraw(DecodeUpdateBody(UpdateBody({}, no_next_hop, kNlri), {}), 3);
  // Without NLRI nothing is mandatory.
  EXPECT_EQ(DecodeUpdateBody(UpdateBody({}, no_next_hop, {}), {}).action, ErrorAction::kNone);
}

TEST(Rfc7606Test, MpReachNeedsNoNextHopAttribute) {
  const auto attrs = Concat({Hex("40 01 01 00  40 02 00"), MpReachV6("20 20 01 0d b8")});
  auto r = DecodeUpdateBody(UpdateBody({}, attrs, {}), {});
  EXPECT_EQ(r.action, ErrorAction::kNone) << r.ToString();
  EXPECT_EQ(r.Announcements(), std::vector<IpPrefix>{P("2001:db8::/32")});
  EXPECT_EQ(r.update.AttributesFor(Family::kIpv6).next_hop, test_util::A("2001:db8::1"));
}

TEST(Rfc7606Test, AttributeOverrunIsTreatAsWithdrawAndNlriIsStillFound) {
  // MED claims 8 bytes where 4 remain inside the path attributes.
  auto r = WithExtra("80 04 08 00 00 00 01");
  ExpectWithdraw(r, 4);
}

TEST(Rfc7606Test, TrailingFragmentIsTreatAsWithdraw) { ExpectWithdraw(WithExtra("80 04"), 0); }

TEST(Rfc7606Test, LengthFieldOverrunsResetTheSession) {
  ExpectReset(DecodeUpdateBody(Hex("00 05 08 0a"), {}), UpdateError::kMalformedAttributeList);
  ExpectReset(DecodeUpdateBody(Hex("00 00 00 09 40 01 01 00"), {}),
              UpdateError::kMalformedAttributeList);
  ExpectReset(DecodeUpdateBody(Hex("00"), {}), UpdateError::kMalformedAttributeList);
}

TEST(Rfc7606Test, MalformedNlriResetsTheSession) {
  const auto attrs = MandatoryAttrs();
  ExpectReset(DecodeUpdateBody(UpdateBody({}, attrs, Hex("21 0a 00 00 00 00")), {}),
              UpdateError::kInvalidNetworkField);  // /33
  ExpectReset(DecodeUpdateBody(UpdateBody({}, attrs, Hex("18 0a 00")), {}),
              UpdateError::kInvalidNetworkField);  // truncated
  ExpectReset(DecodeUpdateBody(UpdateBody(Hex("20 0a"), {}, {}), {}),
              UpdateError::kInvalidNetworkField);  // withdrawn truncated
}

TEST(Rfc7606Test, MalformedMpReachDisablesTheFamily) {
  // IPv6 next hop of 5 bytes; the IPv4 NLRI of the same UPDATE is still usable.
  auto r = WithExtra("80 0e 0a 00 02 01 05 20 01 0d b8 00 00");
  EXPECT_EQ(r.action, ErrorAction::kAfiSafiDisable) << r.ToString();
  EXPECT_EQ(r.count(ErrorAction::kAfiSafiDisable), 1u);
  EXPECT_EQ(r.disabled_families, std::vector<AfiSafi>{kIpv6Unicast});
  ASSERT_TRUE(r.notification.has_value());
  EXPECT_EQ(r.notification->subcode, static_cast<uint8_t>(UpdateError::kOptionalAttributeError));
  EXPECT_EQ(r.update.mp_reach, std::nullopt);
  EXPECT_EQ(r.Announcements().size(), 2u);
  // A bad prefix in MP_UNREACH_NLRI.
  auto u = WithExtra("80 0f 05 00 02 01 81 20");
  EXPECT_EQ(u.action, ErrorAction::kAfiSafiDisable);
  EXPECT_EQ(u.disabled_families, std::vector<AfiSafi>{kIpv6Unicast});
}

TEST(Rfc7606Test, MpReachWithoutReadableFamilyResetsTheSession) {
  ExpectReset(WithExtra("80 0e 02 00 02"), UpdateError::kOptionalAttributeError);
  ExpectReset(WithExtra("80 0e 10 00 02"), UpdateError::kAttributeLengthError);  // overrun
}

TEST(Rfc7606Test, UnsupportedFamilyIsIgnored) {
  auto r = WithExtra("80 0e 07 00 19 41 01 00 00 00");  // L2VPN EVPN
  EXPECT_EQ(r.action, ErrorAction::kNone);
  EXPECT_EQ(r.ignored_attributes, 1u);
  EXPECT_EQ(r.update.mp_reach, std::nullopt);
}

TEST(Rfc7606Test, TreatAsWithdrawCoversMpReachPrefixes) {
  const auto attrs = Concat({Hex("40 01 01 09  40 02 00"), MpReachV6("20 20 01 0d b8")});
  auto r = DecodeUpdateBody(UpdateBody({}, attrs, {}), {});
  EXPECT_EQ(r.action, ErrorAction::kTreatAsWithdraw);
  EXPECT_EQ(r.Withdrawals(), std::vector<IpPrefix>{P("2001:db8::/32")});
  EXPECT_TRUE(r.Announcements().empty());
}

TEST(Rfc7606Test, CountsEveryProblemAndReportsTheStrongest) {
  auto r = WithExtra("40 06 01 00  80 04 02 00 01  c0 07 03 00 00 00  c0 08 01 00");
  EXPECT_EQ(r.action, ErrorAction::kTreatAsWithdraw);
  EXPECT_EQ(r.count(ErrorAction::kAttributeDiscard), 2u);
  EXPECT_EQ(r.count(ErrorAction::kTreatAsWithdraw), 2u);
  EXPECT_EQ(r.problems.size(), 4u);
}

TEST(EndOfRibTest, Ipv4AndIpv6) {
  EXPECT_EQ(DecodeUpdateBody(Hex("00 00 00 00"), {}).end_of_rib, kIpv4Unicast);
  EXPECT_EQ(DecodeUpdateBody(UpdateBody({}, Hex("80 0f 03 00 02 01"), {}), {}).end_of_rib,
            kIpv6Unicast);
  // An End-of-RIB for a family we do not decode is that family's, not IPv4's.
  EXPECT_EQ(DecodeUpdateBody(UpdateBody({}, Hex("80 0f 03 00 19 46"), {}), {}).end_of_rib,
            (AfiSafi{25, 70}));
  EXPECT_EQ(DecodeUpdateBody(UpdateBody({}, Hex("80 0f 04 00 02 01 00"), {}), {}).end_of_rib,
            std::nullopt);  // withdraws ::/0
  EXPECT_EQ(DecodeUpdateBody(UpdateBody({}, MandatoryAttrs(), {}), {}).end_of_rib, std::nullopt);
  for (AfiSafi f : {kIpv4Unicast, kIpv6Unicast}) {
    const auto bytes = EncodeEndOfRib(f);
    EXPECT_EQ(DecodeUpdateBody(test_util::Body(bytes), {}).end_of_rib, f);
  }
  EXPECT_EQ(EncodeEndOfRib(kIpv4Unicast).size(), 23u);
}

}  // namespace
}  // namespace strata::bgp
