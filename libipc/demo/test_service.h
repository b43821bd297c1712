// TestService: the `test` interface (libipc/interfaces/test.proto), served by strata-test-target
// for the README's demo, the integration tests and the XRL benchmark.
// Threading: the io_context thread.
#pragma once

#include <cstdint>

#include "common/asio.h"
#include "libipc/interfaces/test.strata.h"

namespace strata::ipc {

class TestService : public strata::test::v1::TestHandler {
 public:
  // `router` is needed for Relay (calls to other targets); without it Relay fails.
  explicit TestService(boost::asio::io_context& io, Router* router = nullptr)
      : io_(io), router_(router) {}

  void Ping(const test::v1::PingRequest&, Responder<test::v1::PingReply> reply) override;
  void Echo(const test::v1::EchoRequest& request, Responder<test::v1::EchoReply> reply) override;
  void Add(const test::v1::AddRequest& request, Responder<test::v1::AddReply> reply) override;
  void Args1(const test::v1::Args1Request& request, Responder<test::v1::ArgsReply> reply) override;
  void Args5(const test::v1::Args5Request& request, Responder<test::v1::ArgsReply> reply) override;
  void Args10(const test::v1::Args10Request& request,
              Responder<test::v1::ArgsReply> reply) override;
  void Args25(const test::v1::Args25Request& request,
              Responder<test::v1::ArgsReply> reply) override;
  void Sleep(const test::v1::SleepRequest& request, Responder<test::v1::SleepReply> reply) override;
  void Fail(const test::v1::FailRequest& request, Responder<test::v1::FailReply> reply) override;
  void GetCount(const test::v1::GetCountRequest& request,
                Responder<test::v1::GetCountReply> reply) override;
  void Relay(const test::v1::RelayRequest& request, Responder<test::v1::RelayReply> reply) override;

 private:
  void Count(uint64_t seq);

  boost::asio::io_context& io_;
  Router* router_;
  uint64_t calls_ = 0;
  uint64_t last_seq_ = 0;
  uint64_t out_of_order_ = 0;
};

}  // namespace strata::ipc
