// FeaConsumer: where the RIB's FEA output stage sends forwarding changes.
//
// Abstract so the RIB core stays free of IPC: strata-rib's FeaClientConsumer sends the batches
// over fea/1.0, and tests use FakeFea (testing/rib/rib_test_util.h). Changes
// come in batches, in order. A batch with resync_start tells the consumer to forget every route it
// had from this RIB: the table is re-sent from scratch (as adds, interleaved with ordinary changes
// to prefixes already re-sent) until a batch with resync_end. Threading: called on the RIB's
// io_context thread; an implementation that is asynchronous must copy what it needs.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/ip_prefix.h"
#include "common/status.h"
#include "rib/rib_route.h"

namespace strata::rib {

enum class FeaOp : uint8_t { kAdd, kReplace, kDelete };

std::string_view FeaOpName(FeaOp op);  // "add" / "replace" / "delete"

struct FeaChange {
  FeaOp op;
  IpPrefix prefix;
  RouteRef route;  // the new route; null for kDelete
};

struct FeaBatch {
  bool resync_start = false;
  bool resync_end = false;
  std::vector<FeaChange> changes;
};

class FeaConsumer {
 public:
  virtual ~FeaConsumer() = default;
  // OK: the batch was taken. Any error (Unavailable when the FEA is unreachable): the batch was
  // not taken; the stage keeps it and sends it again on a later flush.
  virtual Status push(const FeaBatch& batch) = 0;
  // False when push() would refuse any batch now, so the stage need not build one (a resync
  // batch walks the table). A hint only: push() may still refuse when this says true.
  virtual bool accepting() const { return true; }

  // The changes the FEA refused (e.g. a next hop on no interface of the VR) after push() took
  // their batch, with the FEA's reason. The consumer has already sent the rest of the batch
  // again; the listener (the FeaStage) keeps these for the next re-offer.
  struct Refusal {
    IpPrefix prefix;
    std::string reason;  // "next hop 0: 192.0.2.1 is on no interface of VR 'red'"
  };
  using RefusalListener = std::function<void(std::span<const Refusal>)>;
  void set_refusal_listener(RefusalListener l) { refusal_listener_ = std::move(l); }

 protected:
  void report_refused(std::span<const Refusal> refusals) {
    if (refusal_listener_ && !refusals.empty()) refusal_listener_(refusals);
  }

 private:
  RefusalListener refusal_listener_;
};

}  // namespace strata::rib
