#include "rtrmgr/pending_confirm.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/atomic_file.h"

namespace strata::rtrmgr {
namespace {
std::string PathIn(const std::string& dir) { return dir + "/confirm-pending"; }
}  // namespace

StatusOr<std::optional<PendingConfirm>> PendingConfirm::Load(const std::string& state_dir) {
  if (state_dir.empty()) return std::optional<PendingConfirm>();
  std::ifstream in(PathIn(state_dir));
  if (!in) return std::optional<PendingConfirm>();
  std::stringstream ss;
  ss << in.rdbuf();
  PendingConfirm p;
  unsigned long long rev = 0;
  unsigned long long to = 0;
  long long deadline = 0;
  if (std::sscanf(ss.str().c_str(), "revision %llu rollback-to %llu deadline %lld", &rev, &to,
                  &deadline) != 3) {
    return Status(StatusCode::kDataLoss, PathIn(state_dir) + " does not parse");
  }
  p.revision = rev;
  p.rollback_to = to;
  p.deadline_unix = deadline;
  return std::optional<PendingConfirm>(p);
}

Status PendingConfirm::Save(const std::string& state_dir) const {
  if (state_dir.empty()) return Status::Ok();
  return WriteFileAtomically(PathIn(state_dir),
                             "revision " + std::to_string(revision) + " rollback-to " +
                                 std::to_string(rollback_to) + " deadline " +
                                 std::to_string(deadline_unix) + "\n",
                             0600);
}

void PendingConfirm::Clear(const std::string& state_dir) {
  if (state_dir.empty()) return;
  std::error_code ec;
  std::filesystem::remove(PathIn(state_dir), ec);
}

}  // namespace strata::rtrmgr
