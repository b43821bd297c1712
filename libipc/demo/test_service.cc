#include "libipc/demo/test_service.h"

#include <memory>

namespace strata::ipc {

using namespace strata::test::v1;

void TestService::Ping(const PingRequest&, Responder<PingReply> reply) { reply(PingReply()); }

void TestService::Echo(const EchoRequest& request, Responder<EchoReply> reply) {
  EchoReply out;
  // The two messages have the same fields by design; copy through the wire format.
  out.ParseFromString(request.SerializeAsString());
  reply(out);
}

void TestService::Add(const AddRequest& request, Responder<AddReply> reply) {
  AddReply out;
  out.set_sum(uint64_t{request.a()} + request.b());
  reply(out);
}

void TestService::Count(uint64_t seq) {
  ++calls_;
  if (seq <= last_seq_ && seq != 0) ++out_of_order_;
  last_seq_ = seq;
}

void TestService::Args1(const Args1Request& request, Responder<ArgsReply> reply) {
  Count(request.a1());
  ArgsReply out;
  out.set_count(1);
  reply(out);
}

void TestService::Args5(const Args5Request&, Responder<ArgsReply> reply) {
  ArgsReply out;
  out.set_count(5);
  reply(out);
}

void TestService::Args10(const Args10Request&, Responder<ArgsReply> reply) {
  ArgsReply out;
  out.set_count(10);
  reply(out);
}

void TestService::Args25(const Args25Request&, Responder<ArgsReply> reply) {
  ArgsReply out;
  out.set_count(25);
  reply(out);
}

void TestService::Sleep(const SleepRequest& request, Responder<SleepReply> reply) {
  auto timer = std::make_shared<boost::asio::steady_timer>(
      io_, std::chrono::milliseconds(request.delay_ms()));
  auto pending = std::make_shared<Responder<SleepReply>>(std::move(reply));
  timer->async_wait(
      [timer, pending](const boost::system::error_code&) { (*pending)(SleepReply()); });
}

void TestService::Fail(const FailRequest& request, Responder<FailReply> reply) {
  const uint32_t code = request.code() == 0 || request.code() > 16 ? 2 : request.code();
  reply.Fail(Status(static_cast<StatusCode>(code), request.message()));
}

void TestService::GetCount(const GetCountRequest&, Responder<GetCountReply> reply) {
  GetCountReply out;
  out.set_count(calls_);
  out.set_last_seq(last_seq_);
  out.set_out_of_order(out_of_order_);
  reply(out);
}

}  // namespace strata::ipc

namespace strata::ipc {

void TestService::Relay(const test::v1::RelayRequest& request,
                        Responder<test::v1::RelayReply> reply) {
  if (router_ == nullptr) {
    reply.Fail(FailedPrecondition("this test service cannot make calls"));
    return;
  }
  auto pending = std::make_shared<Responder<test::v1::RelayReply>>(std::move(reply));
  auto answer = [pending](const Status& s, uint64_t sum) {
    test::v1::RelayReply out;
    out.set_sum(sum);
    out.set_code(static_cast<uint32_t>(s.code()));
    out.set_message(s.message());
    (*pending)(out);
  };
  test::v1::TestClient client(*router_, request.target());
  if (request.delay_ms() > 0) {
    test::v1::SleepRequest sleep;
    sleep.set_delay_ms(request.delay_ms());
    client.Sleep(sleep, [answer](const Status& s, const test::v1::SleepReply&) { answer(s, 0); });
    return;
  }
  test::v1::AddRequest add;
  add.set_a(request.a());
  add.set_b(request.b());
  client.Add(add, [answer](const Status& s, const test::v1::AddReply& r) { answer(s, r.sum()); });
}

}  // namespace strata::ipc
