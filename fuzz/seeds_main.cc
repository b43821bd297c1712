// strata-fuzz-seeds OUTDIR: writes the seed corpora of the harnesses, made by the project's own
// encoders (and the byte vectors of past findings), to OUTDIR/<harness>/. The configuration
// harness's seeds are the example and test configurations themselves (fuzz/run.sh copies them).
#include <linux/rtnetlink.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bfd/bfd_auth.h"
#include "bfd/control_packet.h"
#include "bgp/wire/message_codec.h"
#include "bgp/wire/update_message.h"
#include "fea/netlink/link_codec.h"
#include "fea/netlink/nexthop_codec.h"
#include "fea/netlink/route_codec.h"
#include "fuzz/bgp_session_kind.h"
#include "libipc/frame.h"
#include "testing/bgp/sample_messages.h"
#include "testing/bgp/wire_test_util.h"
#include "testing/common/value_literals.h"

namespace strata::fuzz {
namespace {

namespace fs = std::filesystem;

using strata::test_util::A;
using strata::test_util::P;

class Corpus {
 public:
  Corpus(const fs::path& root, const std::string& name) : dir_(root / name) {
    fs::create_directories(dir_);
  }
  template <typename Bytes>
  void Add(const Bytes& bytes) {
    std::ofstream f(dir_ / ("seed-" + std::to_string(n_++)), std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  }
  size_t size() const { return n_; }

 private:
  fs::path dir_;
  size_t n_ = 0;
};

std::vector<std::vector<uint8_t>> BgpMessages(const bgp::CodecOptions& o) {
  using namespace strata::bgp;
  std::vector<std::vector<uint8_t>> out = bgp::test_util::SampleControlMessages();
  out.push_back(EncodeEndOfRib(kIpv4Unicast));
  if (auto b = EncodeUpdate(bgp::test_util::SampleUpdate(), o); b.ok()) out.push_back(*b);

  UpdateMessage plain;
  plain.attrs.origin = Origin::kIgp;
  plain.attrs.as_path = AsPath({{AsSegmentType::kSequence, {65001, 70000}}});
  plain.attrs.next_hop = A("198.51.100.1");
  plain.nlri = {P("203.0.113.0/24")};
  if (auto b = EncodeUpdate(plain, o); b.ok()) out.push_back(*b);
  // AS_PATH SEQ(23456 7) CONFED_SEQ(5) with AS4_PATH SEQ(70000), from a session without 4-octet
  // AS: the confederation segment after an ordinary one once broke the round trip.
  out.push_back(bgp::test_util::Hex(
      "ffffffffffffffffffffffffffffffff 002d 02 0000 0016 40020a 0202 5ba0 0007 0301 "
      "0005 c01106 0201 00011170"));
  return out;
}

void WriteBgp(const fs::path& root) {
  Corpus c(root, "bgp_message");
  for (int kind = 0; kind < 32; ++kind) {
    const bgp::CodecOptions o = SessionKind(static_cast<uint8_t>(kind));
    if (SessionKindByte(o) != kind) continue;
    for (const auto& m : BgpMessages(o)) {
      std::vector<uint8_t> seed{static_cast<uint8_t>(kind)};
      seed.insert(seed.end(), m.begin(), m.end());
      c.Add(seed);
    }
  }
}

void WriteXrl(const fs::path& root) {
  Corpus c(root, "xrl");
  const char* xrls[] = {
      "finder://bgp.red/bgp/1.0/add_peer?peer:ipv4=10.0.0.1&as:u32=65001&name:txt=up%20link",
      "sunix://%2Frun%2Fstrata%2Ffinder.sock/finder/1.0/resolve?target:txt=rib.default",
      "stcp://127.0.0.1:4000/rib/1.0/lookup_route?vr:txt=red&addr:ipv6=2001:db8::1",
      "finder://fea/fea/1.0/get_vr",
  };
  for (const char* x : xrls) c.Add(std::string(1, '\0') + x);
  const char* atoms[] = {
      "a:u32=1&b:i64=-9&c:bool=true&d:txt=x%26y&e:ipv4net=10.0.0.0/8&f:ipv6net=fd00::/8",
      "m:mac=00:11:22:33:44:55&b:binary=00ff10&l:list<txt>=a,b,c&n:list<u32>=1,2",
  };
  for (const char* a : atoms) c.Add("\x01" + std::string(a));
  c.Add("\x02" + std::string("x:ipv6=fe80::1"));
  c.Add("\x02" + std::string("e:i32=-2147483648"));
}

void WriteFrames(const fs::path& root) {
  Corpus c(root, "frame");
  std::string call;
  ipc::AppendCallFrame(call, 7, "bgp.red/bgp/1.0/add_peer", std::string(16, 'k'),
                       [](std::string& s) {
                         s += "\x0a\x03"
                              "abc";
                       });
  c.Add(call);
  std::string ok;
  ipc::AppendReplyFrame(ok, 7, Status(), [](std::string& s) { s += "\x08\x01"; });
  std::string err;
  ipc::AppendReplyFrame(err, 8, InvalidArgument("no such peer"), [](std::string&) {});
  c.Add(ok);
  c.Add(err);
  c.Add(call + ok + err);
}

void WriteNetlink(const fs::path& root) {
  using namespace strata::fea;
  using namespace strata::fea::netlink;
  Corpus c(root, "netlink");
  std::vector<uint8_t> all;
  const auto add = [&](const std::vector<uint8_t>& b) {
    c.Add(b);
    all.insert(all.end(), b.begin(), b.end());
  };
  KernelRoute r{.table = 100, .prefix = P("10.1.0.0/16"), .protocol = 200, .metric = 20};
  r.nexthops.push_back({A("10.0.0.2"), 3, 1});
  KernelRoute ecmp = r;
  ecmp.prefix = P("2001:db8::/32");
  ecmp.nexthops = {{A("fe80::1"), 3, 10}, {A("fe80::2"), 4, 20}};
  KernelRoute hole{
      .table = 254, .prefix = P("192.0.2.0/24"), .protocol = 200, .type = RouteType::kBlackhole};
  for (const KernelRoute& k : {r, ecmp, hole}) {
    std::vector<uint8_t> b;
    if (AppendRouteRequest(b, {KernelOpType::kReplace, k}, 1).ok()) add(b);
  }
  std::vector<uint8_t> via_object;
  if (AppendRouteRequest(via_object, {KernelOpType::kAdd, r}, 2, 5).ok()) add(via_object);
  std::vector<uint8_t> nh;
  AppendNexthopAdd(nh, NexthopObject{5, 200, A("10.0.0.2"), 3}, 3);
  add(nh);
  std::vector<uint8_t> link;
  AppendLinkMessage(link, RTM_NEWLINK, LinkInfo{3, "veth0", true, true, 1500, std::nullopt}, 4);
  add(link);
  std::vector<uint8_t> addr;
  AppendAddrMessage(addr, RTM_NEWADDR, AddrInfo{3, A("10.0.0.1"), 24}, 5);
  add(addr);
  c.Add(all);
}

void WriteBfd(const fs::path& root) {
  using namespace strata::bfd;
  Corpus c(root, "bfd_packet");
  ControlPacket p;
  p.my_discriminator = 7;
  p.desired_min_tx_us = p.required_min_rx_us = 50000;
  for (SessionState s :
       {SessionState::kDown, SessionState::kInit, SessionState::kUp, SessionState::kAdminDown}) {
    p.state = s;
    p.your_discriminator = s == SessionState::kDown ? 0 : 9;
    p.poll = s == SessionState::kUp;
    c.Add(Encode(p));
  }
  for (AuthType t :
       {AuthType::kSimplePassword, AuthType::kKeyedMd5, AuthType::kMeticulousKeyedSha1}) {
    BfdAuth auth({t, 1, "secret"});
    c.Add(auth.Sign(p));
  }
}

}  // namespace
}  // namespace strata::fuzz

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path root(argv[1]);
  strata::fuzz::WriteBgp(root);
  strata::fuzz::WriteXrl(root);
  strata::fuzz::WriteFrames(root);
  strata::fuzz::WriteNetlink(root);
  strata::fuzz::WriteBfd(root);
  return 0;
}
