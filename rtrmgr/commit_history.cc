#include "rtrmgr/commit_history.h"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "common/atomic_file.h"
#include "common/utf8.h"

namespace strata::rtrmgr {

namespace fs = std::filesystem;

namespace {
constexpr std::string_view kPrefix = "commit-";
constexpr std::string_view kSuffix = ".conf";

// Header lines "# key: value", then the text.
CommitRecord ParseRecord(uint64_t revision, const std::string& text) {
  CommitRecord r;
  r.revision = revision;
  std::istringstream in(text);
  std::string line;
  std::string body;
  bool header = true;
  while (std::getline(in, line)) {
    if (header && line.rfind("# ", 0) == 0 && line.find(": ") != std::string::npos) {
      const auto colon = line.find(": ");
      const std::string key = line.substr(2, colon - 2);
      const std::string value = line.substr(colon + 2);
      if (key == "time") r.time = value;
      if (key == "user") r.user = value;
      if (key == "comment") r.comment = value;
      continue;
    }
    header = false;
    body += line + "\n";
  }
  r.config = body;
  return r;
}

std::string OneLine(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}
}  // namespace

CommitHistory::CommitHistory(std::string state_dir, size_t max_entries)
    : dir_(std::move(state_dir)), max_(std::max<size_t>(max_entries, 1)) {}

std::string CommitHistory::FileOf(uint64_t revision) const {
  if (dir_.empty()) return "";
  return dir_ + "/" + std::string(kPrefix) + std::to_string(revision) + std::string(kSuffix);
}

std::string CommitHistory::NowUtc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Status CommitHistory::Load() {
  if (dir_.empty()) return Status();
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) return Status();
  std::vector<CommitRecord> found;
  std::string skipped;
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(kPrefix, 0) != 0 || !name.ends_with(kSuffix)) continue;
    const std::string num =
        name.substr(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size());
    uint64_t revision = 0;
    const auto [end, err] = std::from_chars(num.data(), num.data() + num.size(), revision);
    if (num.empty() || err != std::errc() || end != num.data() + num.size()) continue;
    std::ifstream f(e.path());
    std::stringstream ss;
    ss << f.rdbuf();
    // Its text goes out as protobuf strings (show system commit, rollback): UTF-8 or nothing.
    if (FirstInvalidUtf8(ss.str())) {
      skipped += (skipped.empty() ? "" : ", ") + name;
      continue;
    }
    found.push_back(ParseRecord(revision, ss.str()));
  }
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.revision > b.revision; });
  entries_.assign(found.begin(), found.end());
  while (entries_.size() > max_) entries_.pop_back();
  if (!skipped.empty()) {
    return Status(StatusCode::kDataLoss, "not UTF-8, left out of the history: " + skipped);
  }
  return Status();
}

Status CommitHistory::Add(CommitRecord record) {
  if (record.revision <= last_revision()) {
    return InvalidArgument("revision " + std::to_string(record.revision) + " is not new");
  }
  if (!dir_.empty()) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    const std::string text = "# time: " + record.time + "\n# user: " + OneLine(record.user) +
                             "\n# comment: " + OneLine(record.comment) + "\n" + record.config;
    if (Status s = WriteFileAtomically(FileOf(record.revision), text, 0600); !s.ok()) return s;
  }
  entries_.push_front(std::move(record));
  while (entries_.size() > max_) {
    if (!dir_.empty()) {
      std::error_code ec;
      fs::remove(FileOf(entries_.back().revision), ec);
    }
    entries_.pop_back();
  }
  return Status();
}

StatusOr<CommitRecord> CommitHistory::FindRevision(uint64_t revision) const {
  for (const CommitRecord& r : entries_) {
    if (r.revision == revision) return r;
  }
  return NotFound("revision " + std::to_string(revision) + " is not kept");
}

StatusOr<CommitRecord> CommitHistory::Get(size_t index) const {
  if (index >= entries_.size()) {
    return NotFound("no rollback " + std::to_string(index) + " (" +
                    std::to_string(entries_.size()) + " commits kept)");
  }
  return entries_[index];
}

}  // namespace strata::rtrmgr
