// Test doubles for SessionFsm: a SessionEnv with a fake clock that records every action, and a
// SessionConsumer that records what it is given. Time moves only through Advance().
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bgp/session/session_consumer.h"
#include "bgp/session/session_env.h"
#include "bgp/wire/message_header.h"
#include "bgp/wire/notification.h"

namespace strata::bgp::test_util {

using namespace std::chrono_literals;

class FakeSessionEnv : public SessionEnv {
 public:
  struct Sent {
    ConnId conn;
    std::vector<uint8_t> bytes;
    MessageType type() const { return static_cast<MessageType>(bytes[kHeaderSize - 1]); }
  };
  struct TimerState {
    std::string name;
    std::function<void()> callback;
    bool running = false;
    bool alive = true;
    std::chrono::milliseconds duration{0};
    std::chrono::steady_clock::time_point deadline;
  };

  std::chrono::steady_clock::time_point Now() override { return now_; }
  std::unique_ptr<FsmTimer> MakeTimer(std::string name, std::function<void()> cb) override {
    auto state = std::make_shared<TimerState>();
    state->name = std::move(name);
    state->callback = std::move(cb);
    timers_.push_back(state);
    return std::make_unique<Timer>(this, state);
  }
  void Connect() override { ++connects; }
  void AbortConnect() override { ++aborts; }
  void Send(ConnId conn, std::vector<uint8_t> message) override {
    sent.push_back({conn, std::move(message)});
  }
  void Close(ConnId conn) override { closed.push_back(conn); }

  // Moves the clock, firing due timers in deadline order.
  void Advance(std::chrono::milliseconds d) {
    const auto end = now_ + d;
    for (;;) {
      std::shared_ptr<TimerState> next;
      for (auto& t : timers_) {
        if (t->alive && t->running && t->deadline <= end &&
            (!next || t->deadline < next->deadline)) {
          next = t;
        }
      }
      if (!next) break;
      now_ = next->deadline;
      next->running = false;
      auto cb = next->callback;
      cb();
    }
    now_ = end;
  }
  // The duration of the running timer called `name` (the latest made, if several).
  std::optional<std::chrono::milliseconds> Running(const std::string& name) const {
    for (auto it = timers_.rbegin(); it != timers_.rend(); ++it) {
      if ((*it)->alive && (*it)->running && (*it)->name == name) return (*it)->duration;
    }
    return std::nullopt;
  }
  std::vector<MessageType> SentTypes(ConnId conn) const {
    std::vector<MessageType> out;
    for (const auto& s : sent) {
      if (s.conn == conn) out.push_back(s.type());
    }
    return out;
  }
  // The NOTIFICATIONs sent on `conn`, decoded.
  std::vector<NotificationMessage> Notifications(ConnId conn) const {
    std::vector<NotificationMessage> out;
    for (const auto& s : sent) {
      if (s.conn == conn && s.type() == MessageType::kNotification) {
        auto body = std::span<const uint8_t>(s.bytes).subspan(kHeaderSize);
        out.push_back(*DecodeNotificationBody(body));
      }
    }
    return out;
  }
  bool IsClosed(ConnId conn) const {
    return std::find(closed.begin(), closed.end(), conn) != closed.end();
  }

  int connects = 0;
  int aborts = 0;
  std::vector<Sent> sent;
  std::vector<ConnId> closed;

 private:
  class Timer : public FsmTimer {
   public:
    Timer(FakeSessionEnv* env, std::shared_ptr<TimerState> s) : env_(env), s_(std::move(s)) {}
    ~Timer() override { s_->alive = false; }
    void Start(std::chrono::milliseconds d) override {
      s_->running = true;
      s_->duration = d;
      s_->deadline = env_->now_ + d;
    }
    void Stop() override { s_->running = false; }
    bool running() const override { return s_->running; }

   private:
    FakeSessionEnv* env_;
    std::shared_ptr<TimerState> s_;
  };

  std::chrono::steady_clock::time_point now_{std::chrono::hours(1000)};
  std::vector<std::shared_ptr<TimerState>> timers_;
};

class RecordingConsumer : public SessionConsumer {
 public:
  void OnSessionEstablished(const NegotiatedSession& s) override { established.push_back(s); }
  void OnUpdate(UpdateDecodeResult&& u) override { updates.push_back(std::move(u)); }
  void OnRouteRefresh(const RouteRefreshMessage& rr) override { refreshes.push_back(rr); }
  void OnSessionDown(std::string_view reason) override { downs.emplace_back(reason); }
  void OnWriteBlocked() override { ++blocked; }
  void OnWritable() override { ++writable; }

  std::vector<NegotiatedSession> established;
  std::vector<UpdateDecodeResult> updates;
  std::vector<RouteRefreshMessage> refreshes;
  std::vector<std::string> downs;
  int blocked = 0;
  int writable = 0;
};

}  // namespace strata::bgp::test_util
