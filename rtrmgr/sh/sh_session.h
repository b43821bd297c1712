// ShSession: one operator's strata-sh session: the mode (operational or configuration), the
// candidate configuration, the revision it was based on and the level being edited, and the
// commands that act on them (grammar: op_commands.h; output pipes: pipe_filter.h).
//
// The shell is a client like strata-call: operational commands call the components directly
// through the Finder (one hop, and they keep working while the rtrmgr is busy with a commit);
// everything that touches the configuration goes to the rtrmgr (rtrmgr/1.0), which alone
// changes the running configuration. The candidate lives here and is edited with ConfigEditor
// against the same templates the rtrmgr uses; `commit` sends it whole with its base revision
// (the rtrmgr refuses it if someone committed meanwhile) and the places of the nodes `load`
// read from a file, so that errors name the operator's file:line:column. Interrupt() (Ctrl-C)
// abandons the command running and keeps everything else, the candidate included. Calls block: the
// session runs the Router's io_context until each reply arrives. Threading: the thread that runs
// the io_context.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "common/json.h"
#include "libipc/call/xrl_caller.h"
#include "libipc/router.h"
#include "rtrmgr/config/config_editor.h"
#include "rtrmgr/config/config_node.h"
#include "rtrmgr/config/template_tree.h"
#include "rtrmgr/sh/command_tree.h"
#include "rtrmgr/sh/op_commands.h"
#include "rtrmgr/sh/pipe_filter.h"
#include "rtrmgr/sh/sh_command.h"

namespace strata::rtrmgr::sh {

class ShSession {
 public:
  ShSession(boost::asio::io_context& io, ipc::Router& router, const TemplateTree& templates,
            std::ostream& out, std::ostream& err);

  // Runs one command line; 0 on success, else the error's code (gRPC numbering; 1 for an
  // interrupted command, except a monitor, which Ctrl-C ends normally: 0).
  int Execute(const std::string& line);
  bool in_config() const { return in_config_; }
  bool wants_exit() const { return exit_; }
  // "strata> ", or in configuration mode the level ("[edit virtual-router red]") over "strata# ".
  std::string Prompt() const;
  // Completions of the last word of `line` (for Tab).
  std::vector<std::string> Complete(const std::string& line);
  // Ctrl-C: the running command stops at its next wait (a reply, a stream event).
  void Interrupt() { interrupted_ = true; }
  bool busy() const { return busy_; }
  // The command just run was interrupted (a script stops there).
  bool interrupted() const { return interrupted_; }

 private:
  using XrlFor = std::function<StatusOr<ipc::Xrl>(const std::string& vr)>;

  // Common (sh_session.cc).
  ipc::CallResult CallXrl(const ipc::Xrl& xrl);
  StatusOr<nlohmann::json> CallJson(const std::string& xrl_text);
  int Fail(const Status& s);
  void Print(std::string_view text);
  int Help(const ShCommand& cmd);
  std::vector<Completion> Completions(std::vector<std::string> words, const std::string& partial);
  void PrintCompletions(const std::vector<Completion>& options);

  // Operational mode (sh_operational.cc).
  int Operational(const CommandMatch& m, bool json);
  // Calls xrl_for(vr) on `vr`, or on every VR running `cls` when empty, printing each reply as
  // `op` shows it; with --json one object, keyed by VR unless `vr` was given.
  int ForEachVr(const std::string& cls, const std::string& vr, bool json, Op op,
                const XrlFor& xrl_for);
  // The VRs (of `vr`, or all running bgp) whose speaker has peer `addr`.
  StatusOr<std::vector<std::string>> VrsWithPeer(const std::string& vr, const std::string& addr);
  int BgpPeerAction(const CommandMatch& m, Op op);
  int ShowVersion(bool json);
  // `show log [LOGGER] [last N]` (sh_log_view.cc): log/1.0/get_lines of every process.
  int ShowLog(const CommandMatch& m, bool json);
  // BGP route views (sh_bgp_views.cc): a peer's received / filtered / advertised routes, and
  // `show bgp route [PREFIX [detail]]`.
  int ShowPeerRoutes(const CommandMatch& m, Op op, bool json);
  int ShowBgpRoutes(const CommandMatch& m, bool json);
  // `show route DEST detail` (sh_rib_views.cc): every candidate for the prefix in one VR.
  StatusOr<nlohmann::json> RouteDetail(const std::string& vr, const std::string& dest);
  int ShowRouteDetail(const CommandMatch& m, bool json);
  StatusOr<std::vector<std::string>> InstancesOf(const std::string& cls);
  // `monitor route` / `monitor bgp updates` (sh_monitor.cc): long polls of rib/1.0 watch_routes
  // or bgp/1.0 watch_updates on every VR at once, a line (or a JSON object) per event, until
  // Ctrl-C.
  int Monitor(const CommandMatch& m, Op op, bool json);

  // Configuration mode (sh_configuration.cc).
  int Configure();
  int ConfigCommand(const CommandMatch& m, const ShCommand& cmd);
  int Commit(const CommandMatch& m);
  // Replaces the candidate with a file and prints what the validator finds in it.
  int Load(const std::string& path);
  int LoadMerge(const std::string& file);
  // Writes the running configuration (0600, atomically).
  int Save(const std::string& path);
  // The subtree of `tree` at `path`; with `compare`, the candidate's changes there.
  int ShowConfig(const ConfigNode& tree, const std::vector<std::string>& path, bool compare);
  Status Reload();

  boost::asio::io_context& io_;
  ipc::Router& router_;
  ipc::XrlCaller caller_;
  const TemplateTree& templates_;
  ConfigEditor editor_;
  std::ostream& out_;
  std::ostream& err_;
  PipeFilter* pipe_ = nullptr;  // the running command's output
  bool in_config_ = false;
  bool exit_ = false;
  bool busy_ = false;
  bool interrupted_ = false;
  bool interrupt_ends_ = false;  // the running command ends normally on Ctrl-C (a monitor)
  ConfigNode running_;
  ConfigNode candidate_;
  uint64_t base_revision_ = 0;
  std::vector<std::string> edit_path_;  // configuration mode: the level `edit` moved to
};

}  // namespace strata::rtrmgr::sh
