// TestFinder: for in-process tests, a Finder served on the test's io_context from a fresh run
// directory, which becomes STRATA_RUN_DIR so that the test's Routers find it. Destroying it
// stops the Finder and removes the directory: destroy the test's Routers first.
// Threading: the test's thread.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "finder/finder_server.h"

namespace strata::finder {

class TestFinder {
 public:
  // `tag` names the directory (/tmp/TAG-XXXXXX). Check status() after construction.
  explicit TestFinder(boost::asio::io_context& io, const std::string& tag = "strata-test",
                      FinderOptions options = {}) {
    std::string tmpl = "/tmp/" + tag + "-XXXXXX";
    dir_ = ::mkdtemp(tmpl.data());
    ::setenv("STRATA_RUN_DIR", dir_.c_str(), 1);
    ::unsetenv("STRATA_FINDER");
    options.socket_path = dir_ + "/finder.sock";
    server_ = std::make_unique<FinderServer>(io, options);
    status_ = server_->Start();
  }
  ~TestFinder() {
    server_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TestFinder(const TestFinder&) = delete;
  TestFinder& operator=(const TestFinder&) = delete;

  const Status& status() const { return status_; }
  const std::string& dir() const { return dir_; }
  FinderServer& server() { return *server_; }

 private:
  std::string dir_;
  std::unique_ptr<FinderServer> server_;
  Status status_;
};

}  // namespace strata::finder
