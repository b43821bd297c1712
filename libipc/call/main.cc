// strata-call: call any XRL from a shell, as XORP's call_xrl did.
//
//   strata-call 'finder://test/test/1.0/add?a:u32=1&b:u32=2'    prints  sum:u64=3
//   strata-call --json XRL                                       prints  {"sum":3}
//   strata-call -l TARGET                                        lists methods and types
//   strata-call -f FILE | -f -                                   one XRL per line ('#' comments)
// Exit status: 0 on success, else the error's code (1-16, the gRPC numbering: 3 bad arguments,
// 5 no such target, 7 permission denied, 12 no such method, 14 target died or unreachable,
// 4 timeout), with "CODE: message" on stderr.
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iostream>

#include "common/version.h"
#include "libipc/call/atoms_json.h"
#include "libipc/call/xrl_caller.h"
#include "libipc/router.h"

namespace {

using strata::Status;
using strata::StatusCode;

struct Options {
  std::vector<std::string> xrls;
  std::string list_target;
  std::string file;
  std::string finder;
  bool json = false;
  bool keep_going = false;
  bool resolve = false;
  uint32_t timeout_ms = 30000;
};

int ExitCode(const Status& s) { return s.ok() ? 0 : static_cast<int>(s.code()); }

// JSON text; bytes that are not UTF-8 (a target's or a squatter's names) become U+FFFD.
std::string Dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"strata-call: call an XRL and print its reply"};
  app.set_version_flag("--version", strata::VersionString("strata-call"));
  Options o;
  app.add_option("xrl", o.xrls, "XRLs to call, e.g. finder://test/test/1.0/ping");
  app.add_option("-l,--list", o.list_target, "list the methods of TARGET");
  app.add_option("-f,--file", o.file, "read XRLs from FILE, one per line ('-': stdin)");
  app.add_option("--finder", o.finder, "Finder socket (default $STRATA_FINDER or the run dir)");
  app.add_option("-t,--timeout", o.timeout_ms, "milliseconds to wait for each reply")
      ->capture_default_str();
  app.add_flag("-j,--json", o.json, "print replies as JSON");
  app.add_flag("-k,--keep-going", o.keep_going, "with -f, go on after a failed call");
  app.add_flag("-r,--resolve", o.resolve,
               "print the resolved forms of each XRL (one per endpoint) instead of calling it");
  CLI11_PARSE(app, argc, argv);

  std::deque<std::string> lines(o.xrls.begin(), o.xrls.end());
  if (!o.file.empty()) {
    std::istream* in = &std::cin;
    std::ifstream f;
    if (o.file != "-") {
      f.open(o.file);
      if (!f) {
        std::fprintf(stderr, "strata-call: cannot open %s\n", o.file.c_str());
        return static_cast<int>(StatusCode::kNotFound);
      }
      in = &f;
    }
    for (std::string line; std::getline(*in, line);) {
      const auto first = line.find_first_not_of(" \t\r");
      if (first == std::string::npos || line[first] == '#') continue;
      const auto last = line.find_last_not_of(" \t\r");
      lines.push_back(line.substr(first, last - first + 1));
    }
  }
  if (lines.empty() && o.list_target.empty()) {
    std::fprintf(stderr, "strata-call: nothing to call (give an XRL, -f FILE or -l TARGET)\n");
    return static_cast<int>(StatusCode::kInvalidArgument);
  }

  std::signal(SIGPIPE, SIG_IGN);
  boost::asio::io_context io(1);
  strata::ipc::RouterOptions ro;
  ro.finder_path = o.finder;
  ro.listen_families = {};
  ro.default_timeout = std::chrono::milliseconds(o.timeout_ms);
  strata::ipc::Router router(io, ro);
  strata::ipc::XrlCaller caller(router);
  int rc = 0;

  auto fail = [&](const Status& s, const std::string& what) {
    std::fprintf(stderr, "strata-call: %s%s\n", what.empty() ? "" : (what + ": ").c_str(),
                 s.ToString().c_str());
    if (rc == 0) rc = ExitCode(s);
  };

  std::function<void()> next = [&] {
    if (lines.empty() || (rc != 0 && !o.keep_going)) {
      router.Stop();
      io.stop();
      return;
    }
    const std::string text = lines.front();
    lines.pop_front();
    auto xrl = strata::ipc::Xrl::Parse(text);
    if (!xrl.ok()) {
      fail(xrl.status(), "'" + text + "'");
      boost::asio::post(io, next);
      return;
    }
    if (o.resolve) {
      strata::finder::v1::ResolveTargetRequest req;
      req.set_target(xrl->target());
      router.Call<strata::finder::v1::ResolveTargetRequest, strata::finder::v1::ResolveTargetReply>(
          "finder", "finder/1.0/resolve_target", req,
          [&, x = *xrl](const Status& s, const strata::finder::v1::ResolveTargetReply& rep) {
            if (!s.ok()) {
              fail(s, "");
            } else {
              for (const auto& ep : rep.endpoints()) {
                strata::ipc::Xrl resolved(ep.protocol(), ep.address(), x.iface(), x.version(),
                                          x.method(), x.args());
                std::printf("%s\n", resolved.ToString().c_str());
              }
            }
            next();
          });
      return;
    }
    caller.Call(*xrl, {}, [&, text](strata::ipc::CallResult r) {
      if (!r.status.ok()) {
        fail(r.status, lines.empty() && o.xrls.size() <= 1 && o.file.empty() ? "" : text);
      } else if (o.json) {
        std::printf("%s\n", Dump(strata::ipc::AtomsToJson(r.atoms)).c_str());
      } else {
        std::printf("%s\n", strata::ipc::AtomsToString(r.atoms).c_str());
      }
      std::fflush(stdout);
      next();
    });
  };

  router.Start([&](const Status& s) {
    if (!s.ok()) {
      fail(s, "");
      io.stop();
      return;
    }
    if (!o.list_target.empty()) {
      caller.ListMethods(o.list_target, [&](auto methods) {
        if (!methods.ok()) {
          fail(methods.status(), "");
        } else if (o.json) {
          nlohmann::json out = nlohmann::json::array();
          for (const auto& m : *methods) {
            out.push_back({{"method", m.path()}, {"args", m.args()}, {"returns", m.returns()}});
          }
          std::printf("%s\n", Dump(out).c_str());
        } else {
          for (const auto& m : *methods) {
            std::printf("%s?%s -> %s\n", m.path().c_str(), m.args().c_str(), m.returns().c_str());
          }
        }
        if (lines.empty()) {
          router.Stop();
          io.stop();
        } else {
          next();
        }
      });
      return;
    }
    next();
  });
  // What the Finder and targets answer comes from other processes: nothing in it may end
  // strata-call other than with an error message.
  try {
    io.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strata-call: internal error on an unexpected answer: %s\n", e.what());
    return ExitCode(Status(StatusCode::kInternal, ""));
  }
  return rc;
}
