// `show bfd sessions`: bfd/1.0 list_sessions as a table.
#include <cctype>

#include "rtrmgr/sh/show_format.h"

namespace strata::rtrmgr::sh {

namespace {

using F = ShowFormat;

bool Has(const nlohmann::json& r, const char* key) { return !F::At(r, key).is_null(); }
std::string Str(const nlohmann::json& r, const char* key) { return F::Cell(F::At(r, key)); }

// SESSION_STATE_ADMIN_DOWN -> AdminDown, SESSION_STATE_UP -> Up (RFC 5880's names).
std::string State(const nlohmann::json& r, const char* key) {
  const nlohmann::json v = F::At(r, key);
  const std::string s = v.is_string() ? v.get<std::string>() : "SESSION_STATE_DOWN";
  const std::string prefix = "SESSION_STATE_";
  std::string out;
  bool upper = true;
  for (char c : s.substr(s.rfind(prefix, 0) == 0 ? prefix.size() : 0)) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? c : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    upper = false;
  }
  return out;
}

std::string Ms(const nlohmann::json& r, const char* key) {
  return Has(r, key) && Str(r, key) != "0" ? Str(r, key) + " ms" : std::string("-");
}

}  // namespace

std::string ShowFormat::BfdSessions(const nlohmann::json& reply) {
  const nlohmann::json rows = reply.contains("sessions") ? reply["sessions"] : nlohmann::json();
  if (!rows.is_array() || rows.empty()) return "no BFD sessions\n";
  return Table(rows,
               {Key("PEER", "key.peer"),
                {"LOCAL",
                 [](const nlohmann::json& r) {
                   return Has(r, "key.local") ? Str(r, "key.local") : std::string("any");
                 }},
                {"WHERE",
                 [](const nlohmann::json& r) {
                   std::string w = At(r, "key.multihop") == true ? "multihop" : "single hop";
                   if (Has(r, "key.interface") && !Str(r, "key.interface").empty()) {
                     w += " " + Str(r, "key.interface");
                   }
                   if (Has(r, "key.vr") && !Str(r, "key.vr").empty())
                     w += " vrf " + Str(r, "key.vr");
                   return w;
                 }},
                {"STATE",
                 [](const nlohmann::json& r) {
                   const std::string s = State(r, "state");
                   if (At(r, "removing") == true) return s + " (removing)";
                   const std::string diag = Has(r, "local_diag") ? Str(r, "local_diag") : "none";
                   return s == "Up" || diag == "none" ? s : s + " (" + diag + ")";
                 }},
                {"REMOTE", [](const nlohmann::json& r) { return State(r, "remote_state"); }},
                {"TX", [](const nlohmann::json& r) { return Ms(r, "tx_interval_ms"); }},
                {"DETECT", [](const nlohmann::json& r) { return Ms(r, "detection_time_ms"); }},
                {"SINCE",
                 [](const nlohmann::json& r) {
                   const nlohmann::json v = At(r, "since_ms");
                   uint64_t ms = 0;
                   if (v.is_number()) ms = v.get<uint64_t>();
                   if (v.is_string()) ms = std::stoull(v.get<std::string>());
                   return Duration(ms / 1000);
                 }},
                {"UPS",
                 [](const nlohmann::json& r) {
                   return Has(r, "up_transitions") ? Str(r, "up_transitions") : "0";
                 }},
                Key("CLIENTS", "clients")});
}

}  // namespace strata::rtrmgr::sh
