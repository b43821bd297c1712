// watch_updates (`monitor bgp updates`) between two in-process speakers over real sessions: a
// watcher at b long-polls while a announces and withdraws, and sees each UPDATE in order, with
// its attributes; b's announcements to a show as sent; a peer filter, an unknown peer refused.
#include "testing/bgp/bgp_speaker_test_fixture.h"

namespace strata::bgp::speaker_test {
namespace {

class WatchUpdatesSpeakerTest : public BgpSpeakerTest {
 protected:
  // One long poll at b after `next_`; the events as "received announce 10.7.0.0/16 [65001]".
  std::vector<std::string> Poll(uint32_t timeout_ms, const std::string& peer = "") {
    bpb::WatchUpdatesRequest req;
    if (next_) req.set_after_seq(*next_);
    req.set_timeout_ms(timeout_ms);
    if (!peer.empty()) ipc::AddrToProto(*IpAddr::Parse(peer), req.mutable_peer());
    bpb::WatchUpdatesReply rep;
    EXPECT_TRUE(
        (Bgp<bpb::WatchUpdatesRequest, bpb::WatchUpdatesReply>("b", "watch_updates", req, &rep))
            .ok());
    EXPECT_EQ(rep.lost(), 0u);
    EXPECT_GE(rep.next_seq(), next_.value_or(0));
    next_ = rep.next_seq();
    std::vector<std::string> out;
    uint64_t last = 0;
    for (const bpb::UpdateEvent& e : rep.events()) {
      EXPECT_GT(e.seq(), last);  // in order
      last = e.seq();
      EXPECT_GT(e.unix_ms(), 0);
      std::string s = e.direction() == bpb::UPDATE_DIRECTION_SENT ? "sent " : "received ";
      s += e.withdraw() ? "withdraw " : "announce ";
      s += (*ipc::PrefixFromProto(e.route().prefix(), "prefix")).ToString();
      if (!e.withdraw()) s += " [" + e.route().as_path() + "]";
      out.push_back(s);
    }
    return out;
  }
  std::optional<uint64_t> next_;  // absent: the first poll, from the next update
};

// The lines of one direction ("received", "sent").
std::vector<std::string> Only(const std::vector<std::string>& lines, const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& l : lines) {
    if (l.starts_with(dir + " ")) out.push_back(l);
  }
  return out;
}

TEST_F(WatchUpdatesSpeakerTest, AWatcherSeesEachUpdateInOrder) {
  Pair(kPort + 80);
  EXPECT_TRUE(Poll(0).empty());  // starts the journal: nothing before it is seen
  ASSERT_TRUE(Network("a", "10.7.0.0/16").ok());
  std::vector<std::string> seen;
  ASSERT_TRUE(env_.RunUntil([&] {
    for (auto& s : Poll(200)) seen.push_back(s);
    return !Only(seen, "received").empty();
  }));
  EXPECT_EQ(Only(seen, "received"),
            (std::vector<std::string>{"received announce 10.7.0.0/16 [65001]"}));
  // A long poll (5 s) is answered as soon as the withdrawal comes.
  env_.Run(std::chrono::milliseconds(200));
  (void)Poll(0);
  ASSERT_TRUE(Network("a", "10.7.0.0/16", false).ok());
  EXPECT_EQ(Only(Poll(5000), "received"),
            (std::vector<std::string>{"received withdraw 10.7.0.0/16"}));

  // b's own network goes to a: sent, with b's AS.
  ASSERT_TRUE(Network("b", "10.8.0.0/16").ok());
  seen.clear();
  ASSERT_TRUE(env_.RunUntil([&] {
    for (auto& s : Poll(200)) seen.push_back(s);
    return !Only(seen, "sent").empty();
  }));
  EXPECT_EQ(Only(seen, "sent"), (std::vector<std::string>{"sent announce 10.8.0.0/16 [65002]"}));

  // Only peer a's (127.0.0.2 at b); a peer b does not have is refused.
  ASSERT_TRUE(Network("a", "10.7.0.0/16").ok());
  seen.clear();
  ASSERT_TRUE(env_.RunUntil([&] {
    for (auto& s : Poll(200, "127.0.0.2")) seen.push_back(s);
    return !Only(seen, "received").empty();
  }));
  EXPECT_EQ(Only(seen, "received"),
            (std::vector<std::string>{"received announce 10.7.0.0/16 [65001]"}));
  bpb::WatchUpdatesRequest bad;
  ipc::AddrToProto(*IpAddr::Parse("192.0.2.99"), bad.mutable_peer());
  EXPECT_EQ(
      (Bgp<bpb::WatchUpdatesRequest, bpb::WatchUpdatesReply>("b", "watch_updates", bad)).code(),
      StatusCode::kNotFound);
}

}  // namespace
}  // namespace strata::bgp::speaker_test
