#include "rtrmgr/sh/sh_command.h"

#include "common/ip_addr.h"
#include "common/ip_prefix.h"
#include "rtrmgr/config/config_editor.h"

namespace strata::rtrmgr::sh {
namespace {

bool IsPrefix(const std::string& s) { return IpPrefix::Parse(s).ok(); }
bool IsAddr(const std::string& s) { return IpAddr::Parse(s).ok(); }

std::string NetType(const std::string& s) {
  return s.find(':') != std::string::npos ? "ipv6net" : "ipv4net";
}
std::string AddrType(const std::string& s) {
  return s.find(':') != std::string::npos ? "ipv6" : "ipv4";
}

}  // namespace

std::string JoinWords(const std::vector<std::string>& words, const std::string& sep) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : sep) + w;
  return s;
}

StatusOr<ShCommand> ParseCommandLine(std::string_view line) {
  ShCommand cmd;
  std::string text(line);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' ||
                           text.back() == '\n')) {
    text.pop_back();
  }
  if (!text.empty() && text.back() == '?') {
    cmd.help = true;
    text.pop_back();
    cmd.trailing_space = text.empty() || text.back() == ' ' || text.back() == '\t';
  }
  // Pipes: split at '|' outside quotes.
  std::vector<std::string> parts(1);
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && quoted && i + 1 < text.size()) {
      parts.back() += c;
      parts.back() += text[++i];
      continue;
    }
    if (c == '"') quoted = !quoted;
    if (c == '|' && !quoted) {
      parts.emplace_back();
      continue;
    }
    parts.back() += c;
  }
  auto words = ConfigEditor::SplitWords(parts.front());
  if (!words.ok()) return words.status();
  for (auto& w : *words) {
    if (w == "--json") {
      cmd.json = true;
    } else {
      cmd.words.push_back(std::move(w));
    }
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    auto pw = ConfigEditor::SplitWords(parts[i]);
    if (!pw.ok()) return pw.status();
    if (pw->size() == 1 && (*pw)[0] == "json") {
      cmd.json = true;
    } else if (pw->size() == 1 && (*pw)[0] == "compare") {
      cmd.compare = true;
    } else {
      return InvalidArgument("unknown pipe '|" + parts[i] + "' (json or compare)");
    }
  }
  return cmd;
}

std::vector<std::string> SplitScript(std::string_view text) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && quoted && i + 1 < text.size()) {
      out.back() += c;
      out.back() += text[++i];
      continue;
    }
    if (c == '"') quoted = !quoted;
    if ((c == ';' || c == '\n') && !quoted) {
      out.emplace_back();
      continue;
    }
    out.back() += c;
  }
  std::vector<std::string> cmds;
  for (auto& s : out) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) continue;
    const auto e = s.find_last_not_of(" \t\r");
    cmds.push_back(s.substr(b, e - b + 1));
  }
  return cmds;
}

bool ShowRequest::per_vr() const {
  return kind == Kind::kRoute || kind == Kind::kBgpSummary || kind == Kind::kBgpNeighbor ||
         kind == Kind::kBgpRoutes || kind == Kind::kFib || kind == Kind::kFibLookup ||
         kind == Kind::kBgpDampened || kind == Kind::kBgpStats;
}

StatusOr<ShowRequest> ParseShow(const std::vector<std::string>& in) {
  ShowRequest r;
  // `vr NAME` may appear anywhere after the command words.
  std::vector<std::string> words;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == "vr" && i > 0) {
      if (i + 1 >= in.size()) return InvalidArgument("'vr' wants a virtual router name");
      r.vr = in[++i];
      continue;
    }
    words.push_back(in[i]);
  }
  auto extra = [&](size_t from, size_t max) -> Status {
    if (words.size() > from + max) {
      return InvalidArgument("unexpected '" + words[from + max] + "'");
    }
    return Status();
  };
  if (words.empty())
    return InvalidArgument("show what? (" + [] {
      std::string s;
      for (const auto& w : OperationalCompletions({"show"})) s += (s.empty() ? "" : ", ") + w;
      return s;
    }() + ")");
  const std::string& w0 = words[0];
  using K = ShowRequest::Kind;
  if (w0 == "interfaces") {
    r.kind = K::kInterfaces;
    if (auto s = extra(1, 0); !s.ok()) return s;
  } else if (w0 == "route") {
    r.kind = K::kRoute;
    if (auto s = extra(1, 1); !s.ok()) return s;
    if (words.size() == 2) {
      if (!IsPrefix(words[1])) return InvalidArgument("'" + words[1] + "' is not a prefix");
      r.arg = words[1];
    }
  } else if (w0 == "bgp") {
    if (words.size() < 2) {
      return InvalidArgument("show bgp what? (summary, neighbor, routes, dampened, stats)");
    }
    if (words[1] == "summary") {
      r.kind = K::kBgpSummary;
      if (auto s = extra(2, 0); !s.ok()) return s;
    } else if (words[1] == "neighbor" || words[1] == "neighbors") {
      r.kind = K::kBgpNeighbor;
      if (words.size() < 3 || !IsAddr(words[2])) {
        return InvalidArgument("show bgp neighbor wants the neighbour's address");
      }
      if (auto s = extra(3, 0); !s.ok()) return s;
      r.arg = words[2];
    } else if (words[1] == "routes" || words[1] == "route") {
      r.kind = K::kBgpRoutes;
      if (auto s = extra(2, 1); !s.ok()) return s;
      if (words.size() == 3) {
        if (!IsPrefix(words[2])) return InvalidArgument("'" + words[2] + "' is not a prefix");
        r.arg = words[2];
      }
    } else if (words[1] == "stats" || words[1] == "statistics") {
      r.kind = K::kBgpStats;
      if (auto s = extra(2, 0); !s.ok()) return s;
    } else if (words[1] == "dampened" || words[1] == "dampening") {
      r.kind = K::kBgpDampened;
      if (auto s = extra(2, 1); !s.ok()) return s;
      if (words.size() == 3) {
        if (!IsPrefix(words[2])) return InvalidArgument("'" + words[2] + "' is not a prefix");
        r.arg = words[2];
      }
    } else {
      return InvalidArgument("show bgp what? (summary, neighbor, routes, dampened, stats), not '" +
                             words[1] + "'");
    }
  } else if (w0 == "fib") {
    if (words.size() == 2 && words[1] == "stats") {
      r.kind = K::kFibStats;
    } else {
      r.kind = K::kFib;
      if (auto s = extra(1, 1); !s.ok()) return s;
      if (words.size() == 2) {
        if (!IsAddr(words[1])) return InvalidArgument("'" + words[1] + "' is not an address");
        r.kind = K::kFibLookup;
        r.arg = words[1];
      }
    }
  } else if (w0 == "processes") {
    r.kind = K::kProcesses;
    if (auto s = extra(1, 0); !s.ok()) return s;
  } else if (w0 == "configuration") {
    r.kind = K::kConfiguration;
    if (auto s = extra(1, 0); !s.ok()) return s;
  } else if (w0 == "system" && words.size() == 2 && words[1] == "commit") {
    r.kind = K::kCommits;
  } else if (w0 == "log") {
    r.kind = K::kLog;
    for (size_t i = 1; i < words.size(); ++i) {
      if (words[i] == "last") {
        if (i + 1 >= words.size() || words[i + 1].empty() ||
            words[i + 1].find_first_not_of("0123456789") != std::string::npos ||
            words[i + 1].size() > 6) {
          return InvalidArgument("show log ... last N: N lines, a number");
        }
        r.last = static_cast<uint32_t>(std::stoul(words[++i]));
      } else if (r.arg.empty()) {
        r.arg = words[i];
      } else {
        return InvalidArgument("unexpected '" + words[i] + "' (show log [LOGGER] [last N])");
      }
    }
  } else {
    return InvalidArgument("unknown command 'show " + w0 + "'");
  }
  if (!r.vr.empty() && !r.per_vr()) return InvalidArgument("'vr' does not apply here");
  return r;
}

StatusOr<ipc::Xrl> ShowXrl(const ShowRequest& r, const std::string& vr) {
  using K = ShowRequest::Kind;
  std::string text;
  switch (r.kind) {
    case K::kInterfaces:
      text = "finder://fea/fea/1.0/list_interfaces";
      break;
    case K::kRoute:
      text = "finder://rib." + vr + "/rib/1.0/list_routes";
      if (!r.arg.empty()) text += "?within:" + NetType(r.arg) + "=" + r.arg;
      break;
    case K::kBgpSummary:
      text = "finder://bgp." + vr + "/bgp/1.0/list_peers";
      break;
    case K::kBgpNeighbor:
      text = "finder://bgp." + vr + "/bgp/1.0/list_peers?peer:" + AddrType(r.arg) + "=" + r.arg;
      break;
    case K::kBgpRoutes:
      text = "finder://bgp." + vr + "/bgp/1.0/list_routes";
      if (!r.arg.empty()) text += "?prefix:" + NetType(r.arg) + "=" + r.arg;
      break;
    case K::kBgpStats:
      text = "finder://bgp." + vr + "/bgp/1.0/get_stats";
      break;
    case K::kBgpDampened:
      text = "finder://bgp." + vr + "/bgp/1.0/list_damped_routes";
      if (!r.arg.empty()) text += "?prefix:" + NetType(r.arg) + "=" + r.arg;
      break;
    case K::kFib:
      text = "finder://fea/fea/1.0/list_routes?vr:txt=" + ipc::PercentEncode(vr);
      break;
    case K::kFibLookup:
      text = "finder://fea/fea/1.0/lookup?vr:txt=" + ipc::PercentEncode(vr) +
             "&address:" + AddrType(r.arg) + "=" + r.arg;
      break;
    case K::kFibStats:
      text = "finder://fea/fea/1.0/get_stats";
      break;
    case K::kProcesses:
      text = "finder://rtrmgr/rtrmgr/1.0/list_processes";
      break;
    case K::kConfiguration:
      text = "finder://rtrmgr/rtrmgr/1.0/get_config";
      break;
    case K::kCommits:
      text = "finder://rtrmgr/rtrmgr/1.0/list_commits";
      break;
    case K::kLog:
      text = "finder://" + vr + "/log/1.0/get_lines?max:u32=" + std::to_string(r.last) +
             "&prefix:txt=" + ipc::PercentEncode(r.arg);
      break;
  }
  return ipc::Xrl::Parse(text);
}

std::vector<std::string> OperationalCompletions(const std::vector<std::string>& w) {
  if (w.empty()) return {"configure", "exit", "help", "show"};
  if (w[0] != "show") return {};
  if (w.size() == 1) {
    return {"bgp", "configuration", "fib", "interfaces", "log", "processes", "route", "system"};
  }
  if (w[1] == "bgp" && w.size() == 2) {
    return {"dampened", "neighbor", "routes", "stats", "summary"};
  }
  if (w[1] == "fib" && w.size() == 2) return {"stats", "vr"};
  if (w[1] == "route" && w.size() == 2) return {"vr"};
  if (w[1] == "system" && w.size() == 2) return {"commit"};
  return {};
}

}  // namespace strata::rtrmgr::sh
