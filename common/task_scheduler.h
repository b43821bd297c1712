// TaskScheduler: runs long jobs as background tasks, one bounded slice at a time.
//
// Why: deleting a million routes or re-stamping a table must not stall other route changes and
// lookups. Each job is a slice function doing a bounded amount of work; between slices the process
// handles other events. The process wires set_wakeup() to post run_slice() onto its io_context
// (re-posting while it returns true); tests call run_slice() or run_until_idle() by hand.
// Tasks run round-robin. Threading: single-threaded, on the owning process's io_context thread.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <string>

namespace strata {

class TaskScheduler;

// Owns a scheduled task: destroying or reset()ing the handle cancels the task if still pending.
// REQUIRES: the scheduler outlives its handles.
class TaskHandle {
 public:
  TaskHandle() = default;
  TaskHandle(TaskHandle&& o) noexcept;
  TaskHandle& operator=(TaskHandle&& o) noexcept;
  TaskHandle(const TaskHandle&) = delete;
  TaskHandle& operator=(const TaskHandle&) = delete;
  ~TaskHandle() { reset(); }

  void reset();
  // True while the task is scheduled and not finished.
  bool active() const;

 private:
  friend class TaskScheduler;
  TaskHandle(TaskScheduler* s, uint64_t id) : scheduler_(s), id_(id) {}
  TaskScheduler* scheduler_ = nullptr;
  uint64_t id_ = 0;
};

class TaskScheduler {
 public:
  // Runs one slice; returns true while there is more work.
  using SliceFn = std::function<bool()>;
  // Runs once after the last slice returned false. It may destroy the task's owner.
  using DoneFn = std::function<void()>;

  TaskScheduler() = default;
  TaskScheduler(const TaskScheduler&) = delete;
  TaskScheduler& operator=(const TaskScheduler&) = delete;

  // Called whenever work becomes pending while the scheduler was idle.
  void set_wakeup(std::function<void()> wakeup) { wakeup_ = std::move(wakeup); }

  [[nodiscard]] TaskHandle add(std::string name, SliceFn slice, DoneFn done = nullptr);

  // Runs one slice of the next task; returns true if tasks remain afterwards.
  bool run_slice();
  // Runs slices until no task remains; returns the number of slices run.
  size_t run_until_idle();

  size_t pending() const { return tasks_.size(); }
  uint64_t slices_run() const { return slices_run_; }

 private:
  friend class TaskHandle;
  struct Task {
    uint64_t id;
    std::string name;
    SliceFn slice;
    DoneFn done;
    bool cancelled = false;
  };
  void cancel(uint64_t id);
  bool active(uint64_t id) const;

  std::list<Task> tasks_;
  uint64_t next_id_ = 1;
  uint64_t running_ = 0;
  uint64_t slices_run_ = 0;
  std::function<void()> wakeup_;
};

}  // namespace strata
