// Fixture shared by the SessionFsm tests: a FSM on a FakeSessionEnv with a RecordingConsumer,
// and builders for the messages a peer sends.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "bgp/session/session_fsm.h"
#include "bgp/wire/message_header.h"
#include "bgp/wire/open_message.h"
#include "bgp/wire/update_message.h"
#include "testing/bgp/fake_session_env.h"

namespace strata::bgp::test_util {

inline IpAddr Addr(std::string_view text) { return *IpAddr::Parse(text); }

inline PeerConfig TestConfig() {
  PeerConfig c;
  c.peer_address = Addr("192.0.2.2");
  c.peer_as = 65002;
  c.local_as = 65001;
  c.router_id = Addr("10.0.0.1");
  c.families = {kIpv4Unicast, kIpv6Unicast};
  return c;
}

inline Capabilities PeerCaps() {
  Capabilities caps;
  caps.multiprotocol = {kIpv4Unicast, kIpv6Unicast};
  caps.route_refresh = true;
  caps.enhanced_route_refresh = true;
  return caps;
}

inline std::vector<uint8_t> PeerOpen(uint32_t asn = 65002, uint16_t hold = 90,
                                     std::string_view id = "10.0.0.2",
                                     Capabilities caps = PeerCaps()) {
  return EncodeOpen(OpenMessage::Make(asn, hold, Addr(id), std::move(caps)));
}

class SessionFsmTest : public ::testing::Test {
 protected:
  void Make(const PeerConfig& config = TestConfig()) {
    fsm = std::make_unique<SessionFsm>(config, env, &consumer);
  }
  void Feed(ConnId conn, const std::vector<uint8_t>& bytes) { fsm->OnBytes(conn, bytes); }
  // Started, connection `conn` up (outgoing), OPEN and KEEPALIVE received.
  void Establish(ConnId conn = 1, std::vector<uint8_t> open = PeerOpen()) {
    if (!fsm) Make();
    fsm->Start();
    fsm->OnTcpConnected(conn, true);
    Feed(conn, open);
    Feed(conn, EncodeKeepalive());
    ASSERT_EQ(fsm->state(), SessionState::kEstablished);
  }
  NotificationMessage LastNotification(ConnId conn) {
    auto all = env.Notifications(conn);
    EXPECT_FALSE(all.empty());
    return all.empty() ? NotificationMessage{} : all.back();
  }
  static NotificationMessage N(uint8_t code, uint8_t subcode) { return {code, subcode, {}}; }
  static uint8_t Code(const NotificationMessage& n) { return n.code; }

  FakeSessionEnv env;
  RecordingConsumer consumer;
  std::unique_ptr<SessionFsm> fsm;
};

}  // namespace strata::bgp::test_util
