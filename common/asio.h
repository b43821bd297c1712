// Boost.Asio, included the one way that compiles here: Boost 1.74's awaitable.hpp uses
// std::exchange without including <utility> in C++20 mode.
#pragma once

// clang-format off
#include <utility>
#include <boost/asio.hpp>
// clang-format on
