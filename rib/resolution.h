// Resolution and ResolutionRef: how ExtInt resolved an EGP route's nexthop, kept out of line
// (most routes have none) behind an 8-byte counted reference.
//
// Why not shared_ptr: a RibRoute is stored per route per protocol, and shared_ptr's second word
// (the control block pointer) is 8 bytes a route; the object here carries its own count.
// Copies share one immutable Resolution. Thread-safe reference counting, like shared_ptr.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "common/ip_addr.h"
#include "common/ip_prefix.h"

namespace strata::rib {

struct Resolution {
  IpAddr nexthop;  // the router to forward to
  IpPrefix via;    // the internal route that supplied it
  uint32_t igp_metric = 0;
  friend bool operator==(const Resolution&, const Resolution&) = default;
};

class ResolutionRef {
 public:
  ResolutionRef() = default;
  ResolutionRef(std::nullptr_t) {}  // NOLINT: null converts implicitly, as for a pointer
  static ResolutionRef Make(Resolution r) { return ResolutionRef(new Node{std::move(r), {1}}); }

  ResolutionRef(const ResolutionRef& o) : node_(o.node_) {
    if (node_) node_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  ResolutionRef(ResolutionRef&& o) noexcept : node_(std::exchange(o.node_, nullptr)) {}
  ResolutionRef& operator=(ResolutionRef o) noexcept {
    std::swap(node_, o.node_);
    return *this;
  }
  ~ResolutionRef() { reset(); }

  void reset() {
    if (node_ && node_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete node_;
    node_ = nullptr;
  }
  explicit operator bool() const { return node_ != nullptr; }
  const Resolution& operator*() const { return node_->value; }
  const Resolution* operator->() const { return &node_->value; }
  // The shared object's address (null for none): for hashing by identity.
  const void* identity() const { return node_; }
  // Identity, as for pointers (compare *a == *b for values).
  friend bool operator==(const ResolutionRef& a, const ResolutionRef& b) {
    return a.node_ == b.node_;
  }

 private:
  struct Node {
    Resolution value;
    std::atomic<uint32_t> refs;
  };
  explicit ResolutionRef(Node* n) : node_(n) {}
  Node* node_ = nullptr;
};

}  // namespace strata::rib
