// RunUntil: runs an io_context's handlers until a condition holds or a time limit passes, for
// tests that drive IPC on one thread. Returns whether the condition held.
#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>

namespace strata::ipc {

template <typename Pred>
bool RunUntil(boost::asio::io_context& io, Pred done,
              std::chrono::milliseconds limit = std::chrono::milliseconds(5000)) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!done() && std::chrono::steady_clock::now() < end) {
    io.run_one_for(std::chrono::milliseconds(10));
  }
  return done();
}

}  // namespace strata::ipc
