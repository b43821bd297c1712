// OriginValidation: how the pipeline gives each route its RFC 6811 state (BgpRoute::rov).
//
// PeerIn stamps every route it stores with Validate(route) before passing it on, so the import
// policy (a `rpki` condition), the decision and the views see it; RovRevalidator re-stamps held
// routes when the VRP set changes. One per pipeline, shared by every PeerIn; vrps null means
// origin validation is off and routes stay unverified.
// REQUIRES: vrps outlives the pipeline (or is reset first). Threading: the pipeline's thread.
#pragma once

#include <cstdint>

#include "bgp/pipeline/bgp_route.h"
#include "bgp/rpki/vrp_table.h"

namespace strata::bgp {

struct OriginValidation {
  const VrpTable* vrps = nullptr;
  // The origin of a route whose AS_PATH names no external AS (our own routes, routes from
  // inside our confederation): the local AS, or the confederation identifier.
  uint32_t own_as = 0;

  bool on() const { return vrps != nullptr; }
  RovState Validate(const BgpRoute& route) const;
};

}  // namespace strata::bgp
