// The output of strata-bgp-bench: a Markdown table per phase, the ratios of Strata to each
// other router, and the same figures as JSON.
#pragma once

#include <string>
#include <vector>

#include "bench/bgp/bgp_router_run.h"

namespace strata::bench {

struct ReportContext {
  std::string command;  // the command line
  std::string table_source;
  size_t n = 0;
  bool kernel = false;
};

std::string MarkdownReport(const ReportContext& ctx, const std::vector<RouterResult>& results);
std::string JsonReport(const ReportContext& ctx, const std::vector<RouterResult>& results);

}  // namespace strata::bench
