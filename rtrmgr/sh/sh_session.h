// ShSession: one operator's strata-sh session: the mode (operational or configuration), the
// candidate configuration and the revision it was based on, and the commands that act on them.
//
// The shell is a client like strata-call: operational `show` commands call the components
// directly through the Finder (one hop, and they keep working while the rtrmgr is busy with a
// commit); everything that touches the configuration goes to the rtrmgr (rtrmgr/1.0), which
// alone changes the running configuration. The candidate lives here and is edited with
// ConfigEditor against the same templates the rtrmgr uses; `commit` sends it whole with its
// base revision (the rtrmgr refuses it if someone committed meanwhile) and the places of the
// nodes `load` read from a file, so that errors name the operator's file:line:column.
// Configuration mode's commands are in sh_session_config.cc.
// Calls block: the session runs the Router's io_context until each reply arrives.
// Threading: the thread that runs the io_context.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "libipc/call/xrl_caller.h"
#include "libipc/router.h"
#include "rtrmgr/config/config_editor.h"
#include "rtrmgr/config/config_node.h"
#include "rtrmgr/config/template_tree.h"
#include "rtrmgr/sh/sh_command.h"

namespace strata::rtrmgr::sh {

class ShSession {
 public:
  ShSession(boost::asio::io_context& io, ipc::Router& router, const TemplateTree& templates,
            std::ostream& out, std::ostream& err);

  // Runs one command line; 0 on success, else the error's code (gRPC numbering).
  int Execute(const std::string& line);
  bool in_config() const { return in_config_; }
  bool wants_exit() const { return exit_; }
  std::string Prompt() const { return in_config_ ? "strata# " : "strata> "; }
  // Completions of the last word of `line` (for Tab).
  std::vector<std::string> Complete(const std::string& line);

 private:
  ipc::CallResult CallXrl(const ipc::Xrl& xrl);
  int Fail(const Status& s);
  int Help(const ShCommand& cmd);
  int Show(const std::vector<std::string>& words, bool json);
  int ShowLog(const ShowRequest& request, bool json);
  int Configure();
  int ConfigCommand(const ShCommand& cmd);
  int Commit(const std::vector<std::string>& words);
  // Replaces the candidate with a file and prints what the validator finds in it.
  int Load(const std::string& path);
  // Writes the running configuration (0600, atomically).
  int Save(const std::string& path);
  Status Reload();
  StatusOr<std::vector<std::string>> InstancesOf(const std::string& cls);

  boost::asio::io_context& io_;
  ipc::Router& router_;
  ipc::XrlCaller caller_;
  const TemplateTree& templates_;
  ConfigEditor editor_;
  std::ostream& out_;
  std::ostream& err_;
  bool in_config_ = false;
  bool exit_ = false;
  ConfigNode running_;
  ConfigNode candidate_;
  uint64_t base_revision_ = 0;
};

}  // namespace strata::rtrmgr::sh
