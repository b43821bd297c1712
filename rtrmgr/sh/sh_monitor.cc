// ShSession's `monitor route [PREFIX] [vr V]` and `monitor bgp updates [neighbor A] [vr V]`:
// one long poll per VR in flight at once (rib/1.0 watch_routes, bgp/1.0 watch_updates), each
// asked again as soon as it answers, with the sequence number it gave; events are printed as they
// come, a line each (ShowFormat::MonitorRoute / MonitorBgp) or with `| json` a JSON object per
// line with its "vr". A VR's "lost" count is said, never skipped silently. Ctrl-C ends it, as it
// ends tcpdump or `journalctl -f`: a normal end (status 0, no "interrupted"), not a failure.
#include <memory>
#include <optional>

#include "libipc/call/atoms_json.h"
#include "rtrmgr/sh/sh_session.h"
#include "rtrmgr/sh/show_format.h"

namespace strata::rtrmgr::sh {
namespace {

// How long one poll waits for an event before it is asked again (within the IPC timeout).
constexpr uint32_t kPollMs = 10000;

uint64_t U64(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) return 0;
  const nlohmann::json& v = j[key];
  if (v.is_number()) return v.get<uint64_t>();
  if (v.is_string()) return std::strtoull(v.get<std::string>().c_str(), nullptr, 10);
  return 0;
}

}  // namespace

int ShSession::Monitor(const CommandMatch& m, Op op, bool json) {
  const bool route = op == Op::kMonitorRoute;
  const std::string vr = m.get("vr");
  const std::string peer = m.get("address");
  const std::string prefix = m.get("prefix");
  std::vector<std::string> vrs = {vr};
  if (!route && !peer.empty()) {
    auto with = VrsWithPeer(vr, peer);
    if (!with.ok()) return Fail(with.status());
    vrs = *with;
  } else if (vr.empty()) {
    auto found = InstancesOf(route ? "rib" : "bgp");
    if (!found.ok()) return Fail(found.status());
    vrs = *found;
    if (vrs.empty())
      return Fail(NotFound(std::string("no virtual router runs ") + (route ? "rib" : "bgp")));
  }
  // `after` absent on a VR's first poll: from the next change.
  auto xrl_for = [&](const std::string& v, std::optional<uint64_t> after) {
    std::string t = route ? "finder://rib." + v + "/rib/1.0/watch_routes"
                          : "finder://bgp." + v + "/bgp/1.0/watch_updates";
    t += "?timeout_ms:u32=" + std::to_string(kPollMs);
    if (after) t += "&after_seq:u64=" + std::to_string(*after);
    if (route && !prefix.empty()) {
      t += std::string("&within:") +
           (prefix.find(':') != std::string::npos ? "ipv6net" : "ipv4net") + "=" + prefix;
    }
    if (!route && !peer.empty()) {
      t += std::string("&peer:") + (peer.find(':') != std::string::npos ? "ipv6" : "ipv4") + "=" +
           peer;
    }
    return ipc::Xrl::Parse(t);
  };

  struct Poll {
    std::string vr;
    std::optional<uint64_t> after;
    bool done = false;
    ipc::CallResult result;
  };
  std::vector<std::shared_ptr<Poll>> polls;
  ipc::CallOptions opts;
  opts.timeout = std::chrono::milliseconds(kPollMs + 10000);
  auto issue = [&](size_t i, std::optional<uint64_t> after) -> Status {
    auto xrl = xrl_for(polls[i]->vr, after);
    if (!xrl.ok()) return xrl.status();
    auto p = std::make_shared<Poll>();
    p->vr = polls[i]->vr;
    p->after = after;
    polls[i] = p;
    caller_.Call(*xrl, opts, [p](ipc::CallResult r) {
      p->result = std::move(r);
      p->done = true;
    });
    return Status();
  };
  for (const std::string& v : vrs) {
    polls.push_back(std::make_shared<Poll>());
    polls.back()->vr = v;
    if (Status s = issue(polls.size() - 1, std::nullopt); !s.ok()) return Fail(s);
  }
  if (!json) {
    std::string names;
    for (const std::string& v : vrs) names += (names.empty() ? "" : ", ") + v;
    Print(std::string(route ? "Route changes" : "BGP UPDATEs") + " in vr " + names +
          " as they happen (Ctrl-C stops):\n");
    out_.flush();
  }
  interrupt_ends_ = true;
  while (!interrupted_) {
    if (io_.run_one() == 0) io_.restart();
    for (size_t i = 0; i < polls.size() && !interrupted_; ++i) {
      if (!polls[i]->done) continue;
      const Poll& p = *polls[i];
      if (!p.result.status.ok()) {
        return Fail(
            Status(p.result.status.code(), "vr " + p.vr + ": " + p.result.status.message()));
      }
      const nlohmann::json j = ipc::AtomsToJson(p.result.atoms);
      const uint64_t lost = U64(j, "lost");
      if (lost > 0) {
        if (json) {
          Print(nlohmann::json{{"vr", p.vr}, {"lost", lost}}.dump() + "\n");
        } else {
          Print(ShowFormat::MonitorLost(p.vr, lost));
        }
      }
      for (const auto& e : j.value("events", nlohmann::json::array())) {
        if (json) {
          nlohmann::json line = e;
          line["vr"] = p.vr;
          Print(line.dump() + "\n");
        } else {
          Print(route ? ShowFormat::MonitorRoute(p.vr, e) : ShowFormat::MonitorBgp(p.vr, e));
        }
      }
      out_.flush();
      // An absent next_seq is 0 (proto3), a number like any other.
      const uint64_t next = U64(j, "next_seq");
      if (Status s = issue(i, next); !s.ok()) return Fail(s);
    }
  }
  return 0;
}

}  // namespace strata::rtrmgr::sh
