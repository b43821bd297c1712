// ProcessCatalog: how to start each process the templates name: its binary (strata-PROCESS in
// the bin directory), its arguments (`--vr NAME` for a per-VR instance "rib.NAME"; the FEA's
// `--no-kernel`), its secret (STRATA_SECRET) and the rights the Finder gives that secret:
//   fea         may call the RIBs and BGP speakers (fea_client callbacks)
//   rib.VR      may call the FEA and bgp.VR (redistribution and next-hop callbacks)
//   bgp.VR      may call rib.VR and the FEA
// Options of every process pass through its environment: the run dir, and its logging
// (common/log.h: STRATA_LOG_INSTANCE, so every logger name carries the instance and its VR;
// STRATA_LOG_LEVEL; STRATA_LOG_FILE, one file for all or one per instance; STRATA_LOG_SYSLOG).
// Command-line options from the configuration's `system processes PROCESS` node are appended
// as --NAME=VALUE (OptionArgs).
// Restarts (docs/restart.md): the FEA gets --await-config-ms and each RIB --await-config, so
// that they wait for the rtrmgr's config_complete after a start.
// Priorities: `nice` gives a process's nice increment by process name ("rib", "fea"); the
// rtrmgr's default runs the RIB and the FEA, whose work is bulk route programming, at +10 so
// that under CPU contention the routing protocols keep their sessions and their peers' updates
// flowing first, and gives every process malloc on transparent huge pages
// (GLIBC_TUNABLES=glibc.malloc.hugetlb=1) unless its own environment sets GLIBC_TUNABLES
// (docs/process-priorities.md).
// Thread-compatible.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "libipc/interfaces/finder.pb.h"
#include "rtrmgr/config/plan_action.h"
#include "rtrmgr/process_supervisor.h"

namespace strata::rtrmgr {

class ProcessCatalog {
 public:
  struct Options {
    std::string bin_dir;
    std::string log_dir;      // each process logs to LOG_DIR/INSTANCE.log ("": see log_file)
    std::string log_file;     // every process appends to this file ("": syslog or stderr)
    bool log_syslog = false;  // syslog(3) when neither is set ("": the rtrmgr's stderr)
    std::string log_levels;   // LogLevels text every process starts with ("": info)
    bool fea_no_kernel = false;
    bool fea_nexthop_objects = true;    // false: strata-fea --no-nexthop-objects
    std::vector<std::string> fea_args;  // extra arguments
    std::map<std::string, int> nice;    // process name -> nice increment (none: 0)
    // GLIBC_TUNABLES for every process ("": the environment's, untouched). The rtrmgr's default
    // turns on transparent huge pages for malloc (docs/process-priorities.md).
    std::string glibc_tunables;
    std::string admin_secret;  // the Finder's
    // The Finder holds resolutions by secrets it has no rights for until the rtrmgr says it
    // gave them all (finder/1.0/permissions_complete), at most this long (0: no holding).
    unsigned finder_await_permissions_ms = 5000;
    // The FEA waits this long at most for config_complete (0: the processes wait for nothing).
    unsigned await_config_ms = 60000;
    // The Finder is strict (a caller without a process secret gets rights only by its
    // credentials): root and members of `config_group` every method, members of `show_group`
    // the reading ones. false: permissive, anyone who reaches it gets every key.
    bool finder_strict = true;
    std::string config_group;
    std::string show_group;
  };
  explicit ProcessCatalog(Options options) : options_(std::move(options)) {}

  const Options& options() const { return options_; }
  void set_log_levels(std::string levels) { options_.log_levels = std::move(levels); }
  // The Finder's admin secret of a router taken over from an earlier rtrmgr.
  void set_admin_secret(std::string secret) { options_.admin_secret = std::move(secret); }
  ProcessSpec Finder() const;
  // A spec with a fresh secret; `rights` is what to tell the Finder before starting it.
  ProcessSpec For(const ProcessInstance& p, finder::v1::SetPermissionsRequest* rights) const;
  // `system processes PROCESS`'s leaves of `config` as --NAME=VALUE arguments.
  static std::vector<std::string> OptionArgs(const ConfigNode& config, const std::string& process);
  // The VR a per-VR instance serves ("rib.red" -> "red"; "fea" -> "").
  static std::string VrOf(const std::string& instance);
  // 32 hex characters from the kernel's random source.
  static std::string NewSecret();

 private:
  std::string Binary(const std::string& process) const;
  std::string LogFile(const std::string& instance) const;
  // The logging environment of `instance`.
  std::vector<std::string> LogEnv(const std::string& instance) const;
  Options options_;
};

}  // namespace strata::rtrmgr
