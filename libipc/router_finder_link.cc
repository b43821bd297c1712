// Router: the connection to the Finder, and what follows its loss (see router.h): reconnection
// with backoff, registration again with the same names and keys, watches re-established, and
// after `finder_settle` the watched members that did not come back reported dead and the
// cached resolutions checked against the new Finder.
#include <algorithm>

#include "libipc/interfaces/finder.pb.h"
#include "libipc/router.h"

namespace strata::ipc {

namespace asio = boost::asio;
namespace fpb = strata::finder::v1;

void Router::AttachFinder(std::shared_ptr<Channel> ch) {
  std::weak_ptr<bool> alive = alive_;
  finder_ = std::move(ch);
  finder_->Start(
      [this, alive](const std::shared_ptr<Channel>& c, const CallFrame& call) {
        if (!alive.expired()) OnIncomingCall(c, call);
      },
      [this, alive](Channel& c, const Status& why) {
        if (alive.expired()) return;
        OnChannelClosed(c);
        OnFinderLost(why);
      });
}

void Router::ConnectFirst(std::function<void(const Status&)> done, uint64_t attempt) {
  std::weak_ptr<bool> alive = alive_;
  ConnectChannel(
      io_, "sunix", options_.finder_path,
      [this, alive, attempt, done = std::move(done)](StatusOr<std::shared_ptr<Channel>> ch) {
        if (alive.expired()) return;
        if (ch.ok()) {
          if (attempt > 1) log_->info("the Finder appeared (attempt {}); registering", attempt);
          AttachFinder(*ch);
          RegisterAll(false, done);
          return;
        }
        const Status why = Unavailable("cannot reach the Finder at " + options_.finder_path + ": " +
                                       ch.status().message());
        if (!options_.wait_for_finder) {
          done(why);
          return;
        }
        // Logged once per series of attempts, not once per attempt.
        if (attempt == 1) log_->warn("{}; retrying with backoff until it appears", why.message());
        finder_timer_ = std::make_unique<asio::steady_timer>(io_, finder_backoff_);
        finder_backoff_ = std::min(finder_backoff_ * 2, options_.finder_retry_max);
        finder_timer_->async_wait(
            [this, alive, attempt, done](const boost::system::error_code& ec) {
              if (!ec && !alive.expired()) ConnectFirst(done, attempt + 1);
            });
      });
}

void Router::RegisterAll(bool only_registered, std::function<void(const Status&)> done) {
  // Register every target; report the first failure.
  std::vector<Target*> todo;
  for (auto& [name, t] : targets_) {
    if (!only_registered || t->registered()) todo.push_back(t.get());
  }
  if (todo.empty()) {
    done(Status());
    return;
  }
  auto remaining = std::make_shared<size_t>(todo.size());
  auto first_error = std::make_shared<Status>();
  for (Target* t : todo) {
    RegisterTarget(*t, [remaining, first_error, done](const Status& s) {
      if (!s.ok() && first_error->ok()) *first_error = s;
      if (--*remaining == 0) done(*first_error);
    });
  }
}

void Router::RegisterAgain(Target& target, std::shared_ptr<Channel> finder, int attempt) {
  std::weak_ptr<bool> alive = alive_;
  const std::string name = target.instance_name();
  RegisterTarget(target, [this, alive, name, finder, attempt](const Status& s) {
    if (alive.expired() || s.ok()) return;
    const bool taken =
        s.code() == StatusCode::kAlreadyExists || s.code() == StatusCode::kPermissionDenied;
    if (!taken || finder != finder_ || finder->closed() || attempt >= kRegisterAgainTries) {
      log_->error("registering {} again with the new Finder failed: {}", name, s.ToString());
      return;
    }
    if (attempt == 1) log_->warn("registering {} again: {}; retrying", name, s.message());
    auto timer = std::make_shared<asio::steady_timer>(io_, options_.finder_retry_max);
    timer->async_wait(
        [this, alive, timer, name, finder, attempt](const boost::system::error_code&) {
          if (alive.expired() || finder != finder_ || finder->closed()) return;
          auto it = targets_.find(name);
          if (it != targets_.end()) RegisterAgain(*it->second, finder, attempt + 1);
        });
  });
}

void Router::OnFinderLost(const Status& why) {
  if (finder_timer_) finder_timer_->cancel();
  std::weak_ptr<bool> alive = alive_;
  if (on_finder_lost_) on_finder_lost_(why);
  if (alive.expired() || !options_.reconnect_finder) return;
  log_->warn("lost the Finder ({}); serving on and reconnecting", why.message());
  finder_backoff_ = options_.finder_retry_initial;
  ScheduleFinderReconnect();
}

void Router::ScheduleFinderReconnect() {
  std::weak_ptr<bool> alive = alive_;
  finder_timer_ = std::make_unique<asio::steady_timer>(io_, finder_backoff_);
  finder_timer_->async_wait([this, alive](const boost::system::error_code& ec) {
    if (ec || alive.expired()) return;
    ConnectChannel(io_, "sunix", options_.finder_path,
                   [this, alive](StatusOr<std::shared_ptr<Channel>> ch) {
                     if (alive.expired()) return;
                     if (!ch.ok()) {
                       finder_backoff_ = std::min(finder_backoff_ * 2, options_.finder_retry_max);
                       ScheduleFinderReconnect();
                       return;
                     }
                     OnFinderReconnected(std::move(*ch));
                   });
  });
}

void Router::OnFinderReconnected(std::shared_ptr<Channel> ch) {
  ++finder_reconnects_;
  log_->info("reconnected to the Finder; registering again");
  AttachFinder(std::move(ch));
  std::weak_ptr<bool> alive = alive_;
  if (on_finder_reconnected_) on_finder_reconnected_();
  if (alive.expired()) return;
  // Each target on its own: one whose name another process took before the rtrmgr gave the
  // new Finder the names' owners is tried again (the Finder drops such a squatter once it
  // learns the owner), as long as this connection to the Finder lasts.
  for (auto& [name, t] : targets_) {
    if (t->registered()) RegisterAgain(*t, finder_, 1);
  }
  watches_.BeginResync();
  for (const auto& [is_class, name] : watches_.List()) SendWatch(is_class, name);
  finder_timer_ = std::make_unique<asio::steady_timer>(io_, options_.finder_settle);
  finder_timer_->async_wait([this, alive](const boost::system::error_code& ec) {
    if (!ec && !alive.expired() && finder_connected()) FinderSettled();
  });
}

void Router::FinderSettled() {
  for (const auto& instance : watches_.EndResync()) {
    log_->warn("{} did not come back after the Finder restarted: reported dead", instance);
    DropResolutions(instance);
  }
  RefreshResolutions();
}

// Resolves every cached target again: the new Finder learns who holds them (to invalidate them
// later), and a resolution the new Finder disagrees with is dropped, so the next call resolves
// afresh.
void Router::RefreshResolutions() {
  std::weak_ptr<bool> alive = alive_;
  for (const auto& [name, r] : resolutions_) {
    if (!r->ready || r->local != nullptr) continue;
    fpb::ResolveTargetRequest req;
    req.set_target(name);
    req.set_secret(options_.secret);
    SendFinder(
        "resolve_target", req, [this, alive, r = r](const Status& s, std::string_view bytes) {
          if (alive.expired()) return;
          bool stale = false;
          fpb::ResolveTargetReply reply;
          if (!s.ok()) {
            stale =
                s.code() != StatusCode::kUnavailable && s.code() != StatusCode::kDeadlineExceeded;
          } else if (!reply.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) ||
                     reply.instance_name() != r->instance) {
            stale = true;
          } else {
            for (const auto& m : reply.methods()) {
              auto k = r->keys.find(m.path());
              if (k == r->keys.end() || k->second != m.key()) stale = true;
            }
          }
          if (!stale) return;
          log_->info("resolution of {} changed with the new Finder; dropped", r->name);
          auto it = resolutions_.find(r->name);
          if (it != resolutions_.end() && it->second == r) resolutions_.erase(it);
        });
  }
}

void Router::SendWatch(bool is_class, const std::string& name) {
  const std::string what = (is_class ? "class " : "instance ") + name;
  auto cb = [this, what](const Status& s, std::string_view) {
    // Not connected: the watch is sent again when the Finder is back.
    if (!s.ok() && finder_connected()) log_->warn("watch of {} failed: {}", what, s.ToString());
  };
  const std::string watcher = targets_.empty() ? "" : targets_.begin()->first;
  if (is_class) {
    fpb::WatchClassRequest req;
    req.set_watcher(watcher);
    req.set_class_name(name);
    SendFinder("watch_class", req, cb);
  } else {
    fpb::WatchInstanceRequest req;
    req.set_watcher(watcher);
    req.set_instance_name(name);
    SendFinder("watch_instance", req, cb);
  }
}

}  // namespace strata::ipc
