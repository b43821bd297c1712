// ProfileReport: follows route events through the profiling points of several processes and
// sums up the delays, as the XORP paper's figures 10 to 12 (section 8.2) do.
//
// An event starts at a record of the origin point (by default bgp_in, "entering BGP"); at every
// other point its time is that of the first record with the same detail ("add 10.0.0.0/24") at
// or after the start and before the next start with that detail. The delay of a point is that
// time minus the start. Points are reported in the order given (the pipeline's), each with the
// number of events seen there and the average, standard deviation, minimum and maximum delay.
// Threading: any (plain values).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/profiler.h"

namespace strata::ipc {

struct PointRecord {
  std::string point;
  ProfileRecord record;
};

struct PointDelay {
  std::string point;
  size_t events = 0;  // events that reached the point
  double avg_ms = 0, sd_ms = 0, min_ms = 0, max_ms = 0;
};

struct ProfileSummary {
  size_t events = 0;  // events that started at the origin
  std::vector<PointDelay> points;
};

// The pipeline's points, in order (common/profiler.h).
std::vector<std::string> DefaultProfileOrder();

// `match`: only events whose detail starts with it ("add " for announcements); empty: all.
// Points in `order` that saw no event are listed with events = 0.
ProfileSummary SummarizeProfile(const std::vector<PointRecord>& records,
                                const std::vector<std::string>& order, std::string_view origin,
                                std::string_view match);

// A Markdown table: | point | events | avg | sd | min | max | (ms from the origin).
std::string ProfileMarkdown(const ProfileSummary& summary);
// The same as one JSON object.
std::string ProfileJson(const ProfileSummary& summary);

}  // namespace strata::ipc
