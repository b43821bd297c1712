// strata-profile: turns the profiling points of Strata processes on and off and collects them
// (profile/1.0, common/profiler.h), as XORP's profiler did (paper section 8.2).
//
//   strata-profile enable bgp.red rib.red fea          every point of each target on
//   strata-profile list bgp.red rib.red fea            points, on/off, records held
//   ... routes flow ...
//   strata-profile report bgp.red rib.red fea          takes the records: delay per point
//   strata-profile report --json --match 'add ' ...    announcements only, as JSON
//   strata-profile dump bgp.red rib.red fea            takes the records: one line each
//   strata-profile disable bgp.red rib.red fea
// Exit status: 0, or the failed call's error code (5 no such target, 12 no such method...).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <functional>

#include "common/version.h"
#include "libipc/interfaces/profile.strata.h"
#include "libipc/profile/profile_report.h"
#include "libipc/router.h"

namespace {

using strata::Status;
namespace pb = strata::profile::v1;

struct Options {
  std::vector<std::string> targets;
  std::vector<std::string> points;
  std::string finder;
  std::string origin = std::string(strata::kProfileBgpIn);
  std::string match;
  bool json = false;
};

// Runs `step(target, done)` for each target in turn on the io_context; stops at the first error.
class Sequence {
 public:
  using Step = std::function<void(const std::string&, std::function<void(const Status&)>)>;
  Sequence(strata::ipc::Router& router, std::vector<std::string> targets, Step step)
      : router_(router), io_(router.io()), targets_(std::move(targets)), step_(std::move(step)) {}
  // Connects to the Finder, then runs the steps.
  Status Run() {
    router_.Start([this](const Status& s) {
      if (!s.ok()) {
        status_ = s;
        return io_.stop();
      }
      Next(0);
    });
    io_.run();
    return status_;
  }

 private:
  void Next(size_t i) {
    if (i == targets_.size()) return io_.stop();
    step_(targets_[i], [this, i](const Status& s) {
      if (!s.ok()) {
        status_ = Status(s.code(), targets_[i] + ": " + s.message());
        return io_.stop();
      }
      Next(i + 1);
    });
  }
  strata::ipc::Router& router_;
  boost::asio::io_context& io_;
  std::vector<std::string> targets_;
  Step step_;
  Status status_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"strata-profile: route profiling points of Strata processes"};
  app.set_version_flag("--version", strata::VersionString("strata-profile"));
  Options o;
  app.add_option("--finder", o.finder, "Finder socket (default $STRATA_FINDER or the run dir)");
  app.require_subcommand(1);
  auto* list = app.add_subcommand("list", "list the points of each target");
  auto* enable = app.add_subcommand("enable", "turn points on (default: every point)");
  auto* disable = app.add_subcommand("disable", "turn points off (default: every point)");
  auto* dump = app.add_subcommand("dump", "take the records and print them, oldest first");
  auto* report = app.add_subcommand("report", "take the records and print the delay per point");
  for (auto* sub : {list, enable, disable, dump, report}) {
    sub->add_option("targets", o.targets, "targets, e.g. bgp.red rib.red fea")->required();
  }
  for (auto* sub : {enable, disable}) {
    sub->add_option("-p,--point", o.points, "a point (repeatable)");
  }
  report->add_option("--origin", o.origin, "the point events start at")->capture_default_str();
  report->add_option("--match", o.match, "only events whose detail starts with this ('add ')");
  report->add_flag("--json", o.json, "print JSON");
  CLI11_PARSE(app, argc, argv);

  std::signal(SIGPIPE, SIG_IGN);
  boost::asio::io_context io(1);
  strata::ipc::RouterOptions ro;
  ro.finder_path = o.finder;
  ro.listen_families = {};
  strata::ipc::Router router(io, ro);
  std::vector<strata::ipc::PointRecord> records;
  Sequence::Step step;
  if (list->parsed()) {
    step = [&](const std::string& t, std::function<void(const Status&)> done) {
      pb::ProfileClient(router, t).ListPoints(
          pb::ListPointsRequest(), [t, done](const Status& s, const pb::ListPointsReply& r) {
            for (const auto& p : r.points()) {
              std::printf("%s %s %s records=%llu dropped=%llu\n", t.c_str(), p.name().c_str(),
                          p.enabled() ? "on" : "off", static_cast<unsigned long long>(p.records()),
                          static_cast<unsigned long long>(p.dropped()));
            }
            done(s);
          });
    };
  } else if (enable->parsed()) {
    step = [&](const std::string& t, std::function<void(const Status&)> done) {
      pb::EnableRequest req;
      for (const auto& p : o.points) req.add_points(p);
      pb::ProfileClient(router, t).Enable(
          req, [done](const Status& s, const pb::EnableReply&) { done(s); });
    };
  } else if (disable->parsed()) {
    step = [&](const std::string& t, std::function<void(const Status&)> done) {
      pb::DisableRequest req;
      for (const auto& p : o.points) req.add_points(p);
      pb::ProfileClient(router, t).Disable(
          req, [done](const Status& s, const pb::DisableReply&) { done(s); });
    };
  } else {
    step = [&](const std::string& t, std::function<void(const Status&)> done) {
      pb::ProfileClient(router, t).GetRecords(
          pb::GetRecordsRequest(), [&, t, done](const Status& s, const pb::GetRecordsReply& r) {
            for (const auto& rec : r.records()) {
              records.push_back({rec.point(), {rec.time_ns(), rec.detail()}});
            }
            if (s.ok() && r.dropped() > 0) {
              std::fprintf(stderr, "strata-profile: %s dropped %llu records (bound reached)\n",
                           t.c_str(), static_cast<unsigned long long>(r.dropped()));
            }
            done(s);
          });
    };
  }
  Sequence seq(router, o.targets, step);
  const Status s = seq.Run();
  router.Stop();
  if (!s.ok()) {
    std::fprintf(stderr, "strata-profile: %s\n", s.ToString().c_str());
    return static_cast<int>(s.code());
  }
  if (dump->parsed()) {
    std::stable_sort(records.begin(), records.end(), [](const auto& a, const auto& b) {
      return a.record.time_ns < b.record.time_ns;
    });
    for (const auto& r : records) {
      std::printf("%lld %s %s\n", static_cast<long long>(r.record.time_ns), r.point.c_str(),
                  r.record.detail.c_str());
    }
  } else if (report->parsed()) {
    const auto summary = strata::ipc::SummarizeProfile(records, strata::ipc::DefaultProfileOrder(),
                                                       o.origin, o.match);
    if (o.json) {
      std::printf("%s\n", strata::ipc::ProfileJson(summary).c_str());
    } else {
      std::printf("events from %s: %zu\n\n%s", o.origin.c_str(), summary.events,
                  strata::ipc::ProfileMarkdown(summary).c_str());
    }
  }
  return 0;
}
