// CountingSessionSink and CountingRibSink: pipeline sinks that only count what they are given,
// for benchmarks that drive a BgpPipeline and must not measure a model table.
// Threading: the pipeline's thread.
#pragma once

#include <cstddef>

#include "bgp/pipeline/rib_sink.h"
#include "bgp/pipeline/session_sink.h"

namespace strata::bgp::test_util {

class CountingSessionSink : public SessionSink {
 public:
  void send_updates(UpdateBatch batch) override {
    withdrawals += batch.withdrawals.size();
    for (const AnnouncementGroup& g : batch.announcements) announced += g.prefixes.size();
  }
  bool busy() const override { return false; }
  size_t announced = 0;
  size_t withdrawals = 0;
};

class CountingRibSink : public RibSink {
 public:
  void add_route(RibOrigin, const BgpRouteRef&, const RibMultipath&) override { ++changes; }
  void replace_route(RibOrigin, const BgpRouteRef&, const BgpRouteRef&,
                     const RibMultipath&) override {
    ++changes;
  }
  void delete_route(RibOrigin, const BgpRouteRef&) override { ++changes; }
  void end_batch() override {}
  size_t changes = 0;
};

}  // namespace strata::bgp::test_util
