#include "rtrmgr/boot_config.h"

#include <sstream>

#include "rtrmgr/config/config_compare.h"
#include "rtrmgr/config/config_parser.h"
#include "rtrmgr/config/config_validator.h"

namespace strata::rtrmgr {
namespace {

std::string Describe(const CommitRecord& r) {
  std::string s = "revision " + std::to_string(r.revision) + " (" + r.time;
  if (!r.user.empty()) s += " by " + r.user;
  if (!r.comment.empty()) s += ": \"" + r.comment + "\"";
  return s + ")";
}

// The configuration of a commit, read from its file so that errors name its own lines.
StatusOr<ConfigNode> CommitTree(const CommitHistory& history, const CommitRecord& r) {
  const std::string path = history.FileOf(r.revision);
  if (path.empty()) return ConfigParser::Parse(r.config, "revision " + std::to_string(r.revision));
  return ConfigParser::ParseFile(path);
}

Status Refuse(const Status& why, const std::string& what, const std::string& way_out) {
  return InvalidArgument(why.message() + "\n" + what + " does not validate; " + way_out);
}

}  // namespace

StatusOr<BootPlan> BootConfig::Choose(const std::string& file, BootFrom from,
                                      const CommitHistory& history,
                                      const std::optional<PendingConfirm>& pending,
                                      const TemplateTree& templates) {
  const ConfigValidator validator(templates);
  const bool have_commit = !history.entries().empty();
  if (from == BootFrom::kFile && file.empty()) {
    return InvalidArgument("--boot file needs -c FILE");
  }
  if (from == BootFrom::kCommit && !have_commit) {
    return InvalidArgument("--boot commit: no commit in " +
                           (history.dir().empty() ? std::string("memory") : history.dir()));
  }
  BootPlan plan;
  std::optional<ConfigNode> from_file;
  if (!file.empty()) {
    auto tree = ConfigParser::ParseFile(file);
    if (!tree.ok()) {
      // A broken file does not stop a router that has a commit, unless the file is wanted.
      if (!have_commit || from == BootFrom::kFile) return tree.status();
      plan.warnings.push_back(tree.status().message());
      plan.warnings.push_back(file + " does not parse; starting with the last commit");
    } else {
      from_file = std::move(*tree);
    }
  }

  if (!have_commit || from == BootFrom::kFile) {
    if (!from_file) {
      return InvalidArgument("no configuration: give -c FILE (" +
                             (history.dir().empty() ? std::string("no state directory")
                                                    : "no commit in " + history.dir()) +
                             ")");
    }
    const ValidationReport report = validator.Examine(*from_file);
    if (!report.ok()) {
      return Refuse(report.ToStatus(), file,
                    "fix it and check it with strata-rtrmgr --check " + file);
    }
    for (const auto& w : report.warnings) plan.warnings.push_back(w.ToString());
    plan.config = std::move(*from_file);
    plan.source = file;
    plan.comment = "boot: " + file;
    if (have_commit) {
      plan.notes.push_back("starting with " + file + " (--boot file); it becomes revision " +
                           std::to_string(history.last_revision() + 1) + ", the last commit " +
                           Describe(history.entries().front()) + " stays for rollback");
    }
    if (pending) {
      plan.warnings.push_back("commit " + std::to_string(pending->revision) +
                              " was never confirmed; " + file + " replaces it");
    }
    return plan;
  }

  // Boot a commit: the last one, or the last confirmed one when the last was never confirmed.
  CommitRecord chosen = history.entries().front();
  if (pending && pending->revision == chosen.revision) {
    auto target = history.FindRevision(pending->rollback_to);
    if (!target.ok()) {
      return InvalidArgument("commit " + std::to_string(pending->revision) +
                             " was not confirmed, and revision " +
                             std::to_string(pending->rollback_to) +
                             " to roll back to is not kept; start with --boot commit or -c FILE "
                             "--boot file");
    }
    if (from != BootFrom::kCommit) {
      plan.warnings.push_back("commit " + Describe(chosen) +
                              " was not confirmed before the router stopped: rolling back to " +
                              Describe(*target));
      plan.comment =
          "rollback at start: commit " + std::to_string(pending->revision) + " was not confirmed";
      plan.rolled_back = true;
      chosen = *target;
    }
  }
  auto tree = CommitTree(history, chosen);
  const std::string where = history.FileOf(chosen.revision);
  plan.source = "revision " + std::to_string(chosen.revision) +
                (where.empty() ? std::string() : " (" + where + ")");
  const std::string way_out =
      file.empty() ? "start with a file instead: strata-rtrmgr -c FILE --boot file"
                   : "start with the file instead: strata-rtrmgr -c " + file + " --boot file";
  if (!tree.ok()) return Refuse(tree.status(), plan.source, way_out);
  const ValidationReport report = validator.Examine(*tree);
  if (!report.ok()) return Refuse(report.ToStatus(), plan.source, way_out);
  for (const auto& w : report.warnings) plan.warnings.push_back(w.ToString());
  plan.config = std::move(*tree);
  plan.record = plan.rolled_back;
  if (from_file) {
    std::string diff = ConfigCompare::Compare(plan.config, *from_file, templates);
    while (!diff.empty() && diff.back() == '\n') diff.pop_back();
    if (diff.empty()) {
      plan.notes.push_back(file + " is the configuration of " + Describe(chosen));
    } else if (from != BootFrom::kCommit) {
      plan.warnings.push_back(
          file + " differs from the last commit, " + Describe(chosen) + "; starting with " +
          plan.source + ".\n  To start with the file instead: strata-rtrmgr -c " + file +
          " --boot file (it becomes a new revision; this one stays for rollback).\n  To write "
          "the commit into the file: strata-sh -c 'configure; save " +
          file + "'.\n  The difference (- the commit, + the file):\n" + diff);
    }
  } else {
    plan.notes.push_back("starting with the last commit, " + Describe(chosen));
  }
  return plan;
}

}  // namespace strata::rtrmgr
