// CommitHistory: the committed configurations, newest first, for `rollback N` and for the next
// start. Index 0 is the running configuration, 1 the one before it, and so on; at most
// `max_entries` are kept. With a state directory every commit is also written there as
// `commit-REVISION.conf` (a comment header with time, user and comment, then the config text),
// atomically (a crash leaves the old set of files or the new one) and mode 0600 (the text holds
// MD5 keys); the oldest files beyond the limit are removed; Load() reads them back. A commit
// file parses as a configuration, so the next start boots it with errors at its own lines.
// Thread-compatible.
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "common/status.h"

namespace strata::rtrmgr {

struct CommitRecord {
  uint64_t revision = 0;
  std::string time;  // UTC ISO 8601
  std::string user;
  std::string comment;
  std::string config;  // canonical text
};

class CommitHistory {
 public:
  // `state_dir` "" keeps the history in memory only.
  explicit CommitHistory(std::string state_dir, size_t max_entries = 50);

  // Reads the commits written by an earlier run (missing directory: none). A file that is not
  // UTF-8 is left out (DATA_LOSS names it; the others are loaded).
  Status Load();
  // Records a new running configuration; the revision must grow.
  Status Add(CommitRecord record);
  // NOT_FOUND when there is no such entry.
  StatusOr<CommitRecord> Get(size_t index) const;
  // The entry of `revision`; NOT_FOUND when it is not kept.
  StatusOr<CommitRecord> FindRevision(uint64_t revision) const;
  // Where `revision` is written ("" without a state directory).
  std::string FileOf(uint64_t revision) const;
  const std::string& dir() const { return dir_; }
  const std::deque<CommitRecord>& entries() const { return entries_; }
  uint64_t last_revision() const { return entries_.empty() ? 0 : entries_.front().revision; }

  static std::string NowUtc();

 private:
  std::string dir_;
  size_t max_;
  std::deque<CommitRecord> entries_;
};

}  // namespace strata::rtrmgr
