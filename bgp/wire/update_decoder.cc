#include "bgp/wire/update_decoder.h"

#include <algorithm>
#include <bitset>

#include "bgp/wire/attribute_table.h"
#include "bgp/wire/byte_reader.h"
#include "bgp/wire/next_hop_rules.h"
#include "bgp/wire/nlri.h"

namespace strata::bgp {
namespace {

using attr_flag::kOptional;
using attr_flag::kPartial;
using attr_flag::kTransitive;

bool IsMp(uint8_t code) {
  return code == static_cast<uint8_t>(AttrCode::kMpReachNlri) ||
         code == static_cast<uint8_t>(AttrCode::kMpUnreachNlri);
}

// One decoding pass over one UPDATE body.
class UpdateDecoder {
 public:
  UpdateDecoder(std::span<const uint8_t> body, const CodecOptions& options) : body_(body) {
    ctx_.options = options;
  }

  UpdateDecodeResult Run() {
    ByteReader r(body_);
    uint16_t withdrawn_len = 0;
    uint16_t attrs_len = 0;
    std::span<const uint8_t> withdrawn;
    std::span<const uint8_t> attrs;
    if (!r.U16(withdrawn_len) || !r.Bytes(withdrawn_len, withdrawn)) {
      Reset(UpdateError::kMalformedAttributeList, 0, "withdrawn routes length overrun");
      return Finish();
    }
    if (!r.U16(attrs_len) || !r.Bytes(attrs_len, attrs)) {
      Reset(UpdateError::kMalformedAttributeList, 0, "path attributes length overrun");
      return Finish();
    }
    const std::span<const uint8_t> nlri = r.rest();
    // RFC 7606 5.3: NLRI that cannot be parsed leaves no choice but a session reset.
    if (Status s = DecodePrefixes(withdrawn, Family::kIpv4, result_.update.withdrawn); !s.ok()) {
      Reset(UpdateError::kInvalidNetworkField, 0, "withdrawn routes: " + s.message());
      return Finish();
    }
    if (Status s = DecodePrefixes(nlri, Family::kIpv4, result_.update.nlri); !s.ok()) {
      Reset(UpdateError::kInvalidNetworkField, 0, "NLRI: " + s.message());
      return Finish();
    }
    DecodeAttributes(attrs);
    if (result_.action == ErrorAction::kSessionReset) return Finish();
    if (withdrawn_len == 0 && nlri.empty()) {
      if (attrs_len == 0) result_.end_of_rib = kIpv4Unicast;
      if (attr_count_ == 1 && empty_unreach_family_) result_.end_of_rib = empty_unreach_family_;
    }
    if (!ctx_.options.four_octet_as) MergeAs4();
    CheckMandatory();
    CheckNextHops();
    return Finish();
  }

 private:
  void Problem(ErrorAction action, uint8_t code, std::string reason) {
    result_.problems.push_back(UpdateProblem{action, code, std::move(reason)});
    ++result_.counts[static_cast<size_t>(action)];
    result_.action = Stronger(result_.action, action);
  }

  // Records a session reset; the first one's NOTIFICATION is the one sent.
  void Reset(UpdateError subcode, uint8_t code, std::string reason,
             std::vector<uint8_t> data = {}) {
    if (result_.action != ErrorAction::kSessionReset) {
      result_.notification = MakeNotification(ErrorCode::kUpdateMessage, subcode, std::move(data));
    }
    Problem(ErrorAction::kSessionReset, code, std::move(reason));
  }

  void DecodeAttributes(std::span<const uint8_t> attrs) {
    ByteReader r(attrs);
    while (!r.empty() && result_.action != ErrorAction::kSessionReset) {
      const size_t start = r.position();
      uint8_t flags = 0;
      uint8_t code = 0;
      uint16_t len = 0;
      uint8_t len8 = 0;
      std::span<const uint8_t> value;
      // RFC 7606 4: a fragment too short for a header, or a length past the end of the path
      // attributes, is treat-as-withdraw; the NLRI is still found by the total length.
      const bool header_ok = r.remaining() >= 3 && r.U8(flags) && r.U8(code) &&
                             ((flags & attr_flag::kExtendedLength) ? r.U16(len) : r.U8(len8));
      if (!(flags & attr_flag::kExtendedLength)) len = len8;
      if (!header_ok || !r.Bytes(len, value)) {
        if (header_ok && IsMp(code)) {
          Reset(UpdateError::kAttributeLengthError, code, "MP attribute length overrun");
        } else {
          Problem(ErrorAction::kTreatAsWithdraw, code, "attribute length overrun");
        }
        return;
      }
      DecodeOne(flags, code, value, attrs.subspan(start, r.position() - start));
    }
  }

  void DecodeOne(uint8_t flags, uint8_t code, std::span<const uint8_t> value,
                 std::span<const uint8_t> whole) {
    ++attr_count_;
    const AttributeHandler* handler = FindAttributeHandler(code);
    if (handler == nullptr) {
      DecodeUnknown(flags, code, value, whole);
      return;
    }
    const std::string name = handler->name;
    if (seen_[code]) {
      // RFC 7606 3(g): repeated MP attributes reset the session; others keep only the first.
      if (IsMp(code)) {
        Reset(UpdateError::kMalformedAttributeList, code, "repeated " + name);
      } else {
        Problem(ErrorAction::kAttributeDiscard, code, "repeated " + name);
      }
      return;
    }
    seen_[code] = true;
    const bool flags_ok = (flags & (kOptional | kTransitive)) == handler->flags &&
                          (!(flags & kPartial) || handler->flags == (kOptional | kTransitive));
    if (!flags_ok) {
      Malformed(*handler, handler->on_flags_error, "bad flags " + std::to_string(flags), value,
                whole);
      return;
    }
    if (handler->discard_from_external && ctx_.options.peer_type == PeerType::kExternal) {
      Problem(ErrorAction::kAttributeDiscard, code, name + " from an external peer");
      return;
    }
    ctx_.mp_family.reset();
    ctx_.ignored = false;
    if (Status s = handler->decode(value, ctx_); !s.ok()) {
      Malformed(*handler, handler->on_malformed, s.message(), value, whole);
      return;
    }
    if (code == static_cast<uint8_t>(AttrCode::kMpUnreachNlri) && value.size() == 3) {
      empty_unreach_family_ = ctx_.mp_family;
    }
    if (ctx_.ignored) ++result_.ignored_attributes;
  }

  void DecodeUnknown(uint8_t flags, uint8_t code, std::span<const uint8_t> value,
                     std::span<const uint8_t> whole) {
    if (!(flags & kOptional)) {
      Reset(UpdateError::kUnrecognizedWellKnownAttribute, code,
            "unrecognized well-known attribute " + std::to_string(code),
            std::vector<uint8_t>(whole.begin(), whole.end()));
      return;
    }
    if (!(flags & kTransitive)) {
      ++result_.ignored_attributes;  // RFC 4271 5: quietly ignored
      return;
    }
    if (seen_[code]) {
      Problem(ErrorAction::kAttributeDiscard, code, "repeated attribute " + std::to_string(code));
      return;
    }
    seen_[code] = true;
    ctx_.attrs.unknown().push_back(
        RawAttribute{static_cast<uint8_t>((flags & (kOptional | kTransitive)) | kPartial), code,
                     std::vector<uint8_t>(value.begin(), value.end())});
  }

  void Malformed(const AttributeHandler& handler, ErrorAction action, const std::string& why,
                 std::span<const uint8_t> value, std::span<const uint8_t> whole) {
    const auto code = static_cast<uint8_t>(handler.code);
    const std::string reason = std::string(handler.name) + ": " + why;
    std::vector<uint8_t> data(whole.begin(), whole.end());
    if (action == ErrorAction::kSessionReset) {
      Reset(handler.subcode, code, reason, std::move(data));
      return;
    }
    if (action == ErrorAction::kAfiSafiDisable) {
      std::optional<AfiSafi> family = ctx_.mp_family;
      if (!family && value.size() >= 3) {
        family = AfiSafi{static_cast<uint16_t>((value[0] << 8) | value[1]), value[2]};
      }
      // Without a readable AFI/SAFI the prefixes cannot be tied to a family (RFC 7606 7.11).
      if (!family) {
        Reset(handler.subcode, code, reason, std::move(data));
        return;
      }
      result_.disabled_families.push_back(*family);
      if (!result_.notification) {
        result_.notification =
            MakeNotification(ErrorCode::kUpdateMessage, handler.subcode, std::move(data));
      }
    }
    Problem(action, code, reason);
  }

  // RFC 6793 4.2.3: rebuild the 4-octet path and aggregator a 2-octet speaker passed on.
  void MergeAs4() {
    PathAttributes& a = ctx_.attrs;
    if (ctx_.as4_aggregator && a.aggregator()) {
      if (a.aggregator()->asn != kAsTrans) return;  // AS4_PATH and AS4_AGGREGATOR are stale
      a.aggregator() = *ctx_.as4_aggregator;
    }
    if (ctx_.as4_path && a.as_path) a.as_path = AsPath::MergeAs4(*a.as_path, *ctx_.as4_path);
  }

  // RFC 7606 3(d): missing well-known mandatory attributes with NLRI present.
  void CheckMandatory() {
    const bool v4 = !result_.update.nlri.empty();
    const bool mp = ctx_.mp_reach && !ctx_.mp_reach->nlri.empty();
    if (!v4 && !mp) return;
    auto require = [this](AttrCode code, const char* name) {
      if (!seen_[static_cast<uint8_t>(code)]) {
        Problem(ErrorAction::kTreatAsWithdraw, static_cast<uint8_t>(code),
                std::string("missing ") + name);
      }
    };
    require(AttrCode::kOrigin, "ORIGIN");
    require(AttrCode::kAsPath, "AS_PATH");
    if (v4) require(AttrCode::kNextHop, "NEXT_HOP");
  }

  // RFC 4271 5.1.3, RFC 7606 7.3: a next hop that is not a host address is treat-as-withdraw.
  // The NEXT_HOP attribute counts only with IPv4 NLRI (RFC 4760 3: ignored otherwise).
  void CheckNextHops() {
    const PathAttributes& a = ctx_.attrs;
    if (!result_.update.nlri.empty() && a.next_hop) {
      if (auto why = NonHostNextHop(*a.next_hop, ctx_.options.peer_on_loopback)) {
        Problem(ErrorAction::kTreatAsWithdraw, static_cast<uint8_t>(AttrCode::kNextHop),
                "NEXT_HOP " + a.next_hop->ToString() + " is not a host address (" + *why + ")");
      }
    }
    if (ctx_.mp_reach && !ctx_.mp_reach->nlri.empty()) {
      if (auto why = NonHostNextHop(ctx_.mp_reach->next_hop, ctx_.options.peer_on_loopback)) {
        Problem(ErrorAction::kTreatAsWithdraw, static_cast<uint8_t>(AttrCode::kMpReachNlri),
                "MP_REACH_NLRI next hop " + ctx_.mp_reach->next_hop.ToString() +
                    " is not a host address (" + *why + ")");
      }
    }
  }

  UpdateDecodeResult Finish() {
    UpdateMessage& u = result_.update;
    u.attrs = std::move(ctx_.attrs);
    u.mp_reach = std::move(ctx_.mp_reach);
    u.mp_unreach = std::move(ctx_.mp_unreach);
    auto disabled = [this](AfiSafi f) {
      const auto& d = result_.disabled_families;
      return std::find(d.begin(), d.end(), f) != d.end();
    };
    if (u.mp_reach && disabled(u.mp_reach->afi_safi)) u.mp_reach.reset();
    if (u.mp_unreach && disabled(u.mp_unreach->afi_safi)) u.mp_unreach.reset();
    return std::move(result_);
  }

  std::span<const uint8_t> body_;
  AttrDecodeContext ctx_;
  UpdateDecodeResult result_;
  std::bitset<256> seen_;
  size_t attr_count_ = 0;
  std::optional<AfiSafi> empty_unreach_family_;
};

void Append(std::vector<IpPrefix>& out, const std::vector<IpPrefix>& in) {
  out.insert(out.end(), in.begin(), in.end());
}

}  // namespace

std::vector<IpPrefix> UpdateDecodeResult::Announcements() const {
  if (count(ErrorAction::kSessionReset) || count(ErrorAction::kTreatAsWithdraw)) return {};
  std::vector<IpPrefix> out = update.nlri;
  if (update.mp_reach) Append(out, update.mp_reach->nlri);
  return out;
}

std::vector<IpPrefix> UpdateDecodeResult::Withdrawals() const {
  if (count(ErrorAction::kSessionReset)) return {};
  std::vector<IpPrefix> out = update.withdrawn;
  if (update.mp_unreach) Append(out, update.mp_unreach->withdrawn);
  if (count(ErrorAction::kTreatAsWithdraw)) {
    Append(out, update.nlri);
    if (update.mp_reach) Append(out, update.mp_reach->nlri);
  }
  return out;
}

std::string UpdateDecodeResult::ToString() const {
  std::string s = update.ToString();
  if (action != ErrorAction::kNone) s += " <" + std::string(ErrorActionName(action)) + ">";
  for (const auto& p : problems) {
    s += " [" + std::string(ErrorActionName(p.action)) + ": " + p.reason + "]";
  }
  return s;
}

UpdateDecodeResult DecodeUpdateBody(std::span<const uint8_t> body, const CodecOptions& options) {
  return UpdateDecoder(body, options).Run();
}

}  // namespace strata::bgp
