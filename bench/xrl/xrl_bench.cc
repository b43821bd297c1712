// strata-xrl-bench: the XORP paper's section 8.1 experiment on Strata's IPC.
//
// A transaction of N XRLs (default 10,000) with a pipeline of 100: send 100 back to back, then
// one more for each reply, until N replies are in. Argument counts 0, 1, 5, 10 and 25 (test
// interface methods ping, args1, args5, args10, args25), for the in-process family and, with
// sender and receiver in two processes, the sunix and stcp families. Also one-call round-trip
// latency (p50, p99), one call at a time. Prints a Markdown table and writes JSON (--json FILE).
//
// The receiver is a real strata-test-target process and the Finder a real strata-finder, both
// started from the directory this binary lives in (or STRATA_BIN_DIR).
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <vector>

#include "common/json.h"
#include "libipc/demo/test_service.h"
#include "libipc/router.h"

extern char** environ;

namespace {

using namespace std::chrono_literals;
using strata::Status;
using strata::ipc::Clock;
using strata::ipc::Router;
namespace tpb = strata::test::v1;

pid_t Spawn(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) {
    std::fprintf(stderr, "cannot start %s\n", argv[0]);
    std::exit(1);
  }
  return pid;
}

template <typename Pred>
bool RunUntil(boost::asio::io_context& io, Pred done, std::chrono::milliseconds limit = 10000ms) {
  const auto end = Clock::now() + limit;
  while (!done() && Clock::now() < end) io.run_one_for(10ms);
  return done();
}

// Sends one call of the shape `args` to `target`, then runs `done`.
void SendOne(Router& r, const std::string& target, int args, uint32_t seq,
             std::function<void(const Status&)> done) {
  auto cb = [done = std::move(done)](const Status& s, const auto&) { done(s); };
  switch (args) {
    case 0:
      r.Call<tpb::PingRequest, tpb::PingReply>(target, "test/1.0/ping", tpb::PingRequest(), cb);
      break;
    case 1: {
      tpb::Args1Request q;
      q.set_a1(seq);
      r.Call<tpb::Args1Request, tpb::ArgsReply>(target, "test/1.0/args1", q, cb);
      break;
    }
    case 5: {
      tpb::Args5Request q;
      q.set_a1(seq), q.set_a2(2), q.set_a3(3), q.set_a4(4), q.set_a5(5);
      r.Call<tpb::Args5Request, tpb::ArgsReply>(target, "test/1.0/args5", q, cb);
      break;
    }
    case 10: {
      tpb::Args10Request q;
      const auto* d = q.GetDescriptor();
      for (int i = 0; i < d->field_count(); ++i) {
        q.GetReflection()->SetUInt32(&q, d->field(i), seq + static_cast<uint32_t>(i));
      }
      r.Call<tpb::Args10Request, tpb::ArgsReply>(target, "test/1.0/args10", q, cb);
      break;
    }
    default: {
      tpb::Args25Request q;
      const auto* d = q.GetDescriptor();
      for (int i = 0; i < d->field_count(); ++i) {
        q.GetReflection()->SetUInt32(&q, d->field(i), seq + static_cast<uint32_t>(i));
      }
      r.Call<tpb::Args25Request, tpb::ArgsReply>(target, "test/1.0/args25", q, cb);
      break;
    }
  }
}

// One transaction: returns XRLs per second.
double Transaction(boost::asio::io_context& io, Router& r, const std::string& target, int args,
                   int count, int pipeline) {
  int sent = 0;
  int done = 0;
  int failed = 0;
  std::function<void()> send_next = [&] {
    const uint32_t seq = static_cast<uint32_t>(++sent);
    SendOne(r, target, args, seq, [&](const Status& s) {
      ++done;
      if (!s.ok()) ++failed;
      if (sent < count) send_next();
    });
  };
  const auto start = Clock::now();
  for (int i = 0; i < std::min(pipeline, count); ++i) send_next();
  if (!RunUntil(
          io, [&] { return done == count; }, 120000ms) ||
      failed != 0) {
    std::fprintf(stderr, "transaction failed: %d of %d done, %d failed\n", done, count, failed);
    std::exit(1);
  }
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();
  return count / secs;
}

// One call at a time; returns sorted round-trip times in microseconds.
std::vector<double> Latency(boost::asio::io_context& io, Router& r, const std::string& target,
                            int count) {
  std::vector<double> us;
  us.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    bool answered = false;
    const auto start = Clock::now();
    SendOne(r, target, 1, static_cast<uint32_t>(i + 1), [&](const Status&) { answered = true; });
    while (!answered) io.run_one();
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  std::sort(us.begin(), us.end());
  return us;
}

double Percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  return sorted[std::min(sorted.size() - 1, static_cast<size_t>(p * sorted.size()))];
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"strata-xrl-bench: XRL throughput and latency (XORP paper, section 8.1)"};
  int count = 10000;
  int pipeline = 100;
  int reps = 5;
  bool smoke = false;
  std::string json_path;
  app.add_option("-n,--count", count, "XRLs per transaction")->capture_default_str();
  app.add_option("-p,--pipeline", pipeline, "XRLs in flight")->capture_default_str();
  app.add_option("-r,--reps", reps, "transactions per case (the best and mean are printed)")
      ->capture_default_str();
  app.add_flag("--smoke", smoke, "1,000 XRLs, one repetition (keeps the benchmark working)");
  app.add_option("--json", json_path, "write the figures as JSON to this file");
  CLI11_PARSE(app, argc, argv);
  if (smoke) {
    count = 1000;
    reps = 1;
  }
  signal(SIGPIPE, SIG_IGN);

  std::string bin = std::filesystem::canonical("/proc/self/exe").parent_path().string();
  if (const char* d = std::getenv("STRATA_BIN_DIR")) bin = d;
  char tmpl[] = "/tmp/strata-xrl-bench-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  setenv("STRATA_RUN_DIR", dir.c_str(), 1);
  setenv("STRATA_LOG_LEVEL", "warn", 1);
  const pid_t finder = Spawn({bin + "/strata-finder"});
  for (int i = 0; i < 200 && !std::filesystem::exists(dir + "/finder.sock"); ++i) usleep(10000);
  const pid_t target = Spawn({bin + "/strata-test-target", "-n", "bench-rx"});

  boost::asio::io_context io(1);
  nlohmann::json out = nlohmann::json::array();
  std::printf("| family | args | XRLs/s (best) | XRLs/s (mean) |\n|---|---|---|---|\n");
  const int arg_counts[] = {0, 1, 5, 10, 25};
  auto run_cases = [&](const std::string& family, Router& r, const std::string& name) {
    for (int args : arg_counts) {
      double best = 0, sum = 0;
      for (int i = 0; i < reps; ++i) {
        const double rate = Transaction(io, r, name, args, count, pipeline);
        best = std::max(best, rate);
        sum += rate;
      }
      std::printf("| %s | %d | %.0f | %.0f |\n", family.c_str(), args, best, sum / reps);
      std::fflush(stdout);
      out.push_back({{"family", family},
                     {"args", args},
                     {"best", best},
                     {"mean", sum / reps},
                     {"count", count},
                     {"pipeline", pipeline}});
    }
  };
  nlohmann::json latency = nlohmann::json::object();

  {
    // In-process: sender and receiver share a process (and a Router).
    Router r(io);
    strata::ipc::TestService svc(io);
    r.AddTarget("test", "bench-local", false).Serve(svc);
    std::optional<Status> started;
    r.Start([&](const Status& s) { started = s; });
    RunUntil(io, [&] { return started.has_value(); });
    if (!started || !started->ok()) {
      std::fprintf(stderr, "cannot register: %s\n",
                   started ? started->ToString().c_str() : "timeout");
      return 1;
    }
    run_cases("inproc", r, "bench-local");
    const auto us = Latency(io, r, "bench-local", smoke ? 1000 : 10000);
    latency["inproc"] = {{"p50_us", Percentile(us, 0.5)}, {"p99_us", Percentile(us, 0.99)}};
    r.Stop();
  }
  for (const std::string family : {"sunix", "stcp", "grpc-unix", "grpc-tcp"}) {
    strata::ipc::RouterOptions o;
    o.preferred_family = family;
    o.listen_families = {};
    Router r(io, o);
    std::optional<Status> started;
    r.Start([&](const Status& s) { started = s; });
    RunUntil(io, [&] { return started.has_value(); });
    // Wait for the receiver to register.
    bool up = false;
    for (int i = 0; i < 500 && !up; ++i) {
      std::optional<Status> ping;
      r.Call<tpb::PingRequest, tpb::PingReply>("bench-rx", "test/1.0/ping", tpb::PingRequest(),
                                               [&](const Status& s, const auto&) { ping = s; });
      RunUntil(io, [&] { return ping.has_value(); });
      up = ping && ping->ok();
      if (!up) usleep(10000);
    }
    if (!up) {
      std::fprintf(stderr, "the receiver did not come up\n");
      return 1;
    }
    run_cases(family, r, "bench-rx");
    const auto us = Latency(io, r, "bench-rx", smoke ? 1000 : 10000);
    latency[family] = {{"p50_us", Percentile(us, 0.5)}, {"p99_us", Percentile(us, 0.99)}};
    r.Stop();
  }
  std::printf("\n| family | one-call round trip p50 (us) | p99 (us) |\n|---|---|---|\n");
  for (const auto& [family, v] : latency.items()) {
    std::printf("| %s | %.1f | %.1f |\n", family.c_str(), v["p50_us"].get<double>(),
                v["p99_us"].get<double>());
  }
  kill(target, SIGTERM);
  kill(finder, SIGTERM);
  waitpid(target, nullptr, 0);
  waitpid(finder, nullptr, 0);
  std::filesystem::remove_all(dir);
  if (!json_path.empty()) {
    std::ofstream(json_path) << nlohmann::json{{"throughput", out}, {"latency", latency}}.dump(2)
                             << "\n";
  }
  return 0;
}
