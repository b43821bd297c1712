// BgpTestEnv: an in-process world for strata-bgp tests: a FinderServer, RIBs (RibProcess, each
// on its own Router) and routers for clients, all on one io_context so calls cross real sockets;
// time moves by running the io_context. Threading: the test's thread.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "finder/finder_server.h"
#include "libipc/router.h"
#include "libipc/run_until.h"
#include "rib/process/rib_process.h"

namespace strata::bgp {

class BgpTestEnv {
 public:
  BgpTestEnv() {
    char tmpl[] = "/tmp/strata-bgpproc-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    ::setenv("STRATA_RUN_DIR", dir_.c_str(), 1);
    ::unsetenv("STRATA_FINDER");
    finder::FinderOptions fo;
    fo.socket_path = dir_ + "/finder.sock";
    finder_ = std::make_unique<finder::FinderServer>(io_, fo);
    EXPECT_TRUE(finder_->Start().ok());
  }
  ~BgpTestEnv() {
    ribs_.clear();
    rib_routers_.clear();
    routers_.clear();
    finder_.reset();
    io_.poll();
    std::filesystem::remove_all(dir_);
  }

  boost::asio::io_context& io() { return io_; }

  template <typename Pred>
  bool RunUntil(Pred done, std::chrono::milliseconds limit = std::chrono::milliseconds(5000)) {
    return ipc::RunUntil(io_, done, limit);
  }
  void Run(std::chrono::milliseconds d) {
    const auto end = std::chrono::steady_clock::now() + d;
    while (std::chrono::steady_clock::now() < end) io_.run_one_for(std::chrono::milliseconds(5));
  }

  // A started Router (no targets unless `before_start` adds some).
  ipc::Router& NewRouter(const std::string& name,
                         const std::function<void(ipc::Router&)>& before_start = nullptr) {
    auto r = std::make_unique<ipc::Router>(io_);
    if (before_start) before_start(*r);
    StartAndWait(*r);
    ipc::Router& ref = *r;
    routers_[name] = std::move(r);
    return ref;
  }
  void DropRouter(const std::string& name) { routers_.erase(name); }

  // strata-rib for `vr` on its own router.
  rib::RibProcess& StartRib(const std::string& vr) {
    auto router = std::make_unique<ipc::Router>(io_);
    rib::RibProcess::Options opts;
    opts.vr = vr;
    auto rib = std::make_unique<rib::RibProcess>(*router, opts);
    rib->AddTarget();
    StartAndWait(*router);
    rib->Started();
    rib::RibProcess& ref = *rib;
    ribs_[vr] = std::move(rib);
    rib_routers_[vr] = std::move(router);
    return ref;
  }
  void StopRib(const std::string& vr) {
    ribs_.erase(vr);
    if (auto it = rib_routers_.find(vr); it != rib_routers_.end()) {
      it->second->Stop();
      rib_routers_.erase(it);
    }
  }
  rib::RibProcess* rib(const std::string& vr) {
    auto it = ribs_.find(vr);
    return it == ribs_.end() ? nullptr : it->second.get();
  }

  void StartAndWait(ipc::Router& r) {
    std::optional<Status> started;
    r.Start([&](const Status& s) { started = s; });
    ASSERT_TRUE(RunUntil([&] { return started.has_value(); }));
    ASSERT_TRUE(started->ok()) << started->ToString();
  }

  // A typed call from `from` to `target`, waited for.
  template <typename Req, typename Rep>
  std::pair<Status, Rep> Call(ipc::Router& from, const std::string& target, const std::string& path,
                              const Req& req) {
    std::optional<std::pair<Status, Rep>> result;
    from.Call<Req, Rep>(target, path, req,
                        [&](const Status& s, const Rep& rep) { result.emplace(s, rep); });
    EXPECT_TRUE(RunUntil([&] { return result.has_value(); })) << path;
    return result.value_or(std::make_pair(Internal("no answer"), Rep()));
  }

 private:
  boost::asio::io_context io_;
  std::string dir_;
  std::unique_ptr<finder::FinderServer> finder_;
  std::map<std::string, std::unique_ptr<ipc::Router>> rib_routers_;
  std::map<std::string, std::unique_ptr<rib::RibProcess>> ribs_;
  std::map<std::string, std::unique_ptr<ipc::Router>> routers_;
};

}  // namespace strata::bgp
