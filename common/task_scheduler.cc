#include "common/task_scheduler.h"

#include <utility>

namespace strata {

TaskHandle::TaskHandle(TaskHandle&& o) noexcept
    : scheduler_(std::exchange(o.scheduler_, nullptr)), id_(o.id_) {}

TaskHandle& TaskHandle::operator=(TaskHandle&& o) noexcept {
  if (this != &o) {
    reset();
    scheduler_ = std::exchange(o.scheduler_, nullptr);
    id_ = o.id_;
  }
  return *this;
}

void TaskHandle::reset() {
  if (scheduler_) scheduler_->cancel(id_);
  scheduler_ = nullptr;
}

bool TaskHandle::active() const { return scheduler_ && scheduler_->active(id_); }

TaskHandle TaskScheduler::add(std::string name, SliceFn slice, DoneFn done) {
  const bool was_idle = tasks_.empty();
  const uint64_t id = next_id_++;
  tasks_.push_back(Task{id, std::move(name), std::move(slice), std::move(done)});
  if (was_idle && wakeup_) wakeup_();
  return TaskHandle(this, id);
}

void TaskScheduler::cancel(uint64_t id) {
  for (auto it = tasks_.begin(); it != tasks_.end(); ++it) {
    if (it->id != id) continue;
    if (id == running_) {
      it->cancelled = true;  // erased by run_slice once the slice returns
    } else {
      tasks_.erase(it);
    }
    return;
  }
}

bool TaskScheduler::active(uint64_t id) const {
  for (const Task& t : tasks_) {
    if (t.id == id) return !t.cancelled;
  }
  return false;
}

bool TaskScheduler::run_slice() {
  if (tasks_.empty()) return false;
  // Rotate: take the front task, run it, and put it at the back if it has more to do.
  tasks_.splice(tasks_.end(), tasks_, tasks_.begin());
  auto it = std::prev(tasks_.end());
  running_ = it->id;
  const bool more = it->slice();
  running_ = 0;
  ++slices_run_;
  if (it->cancelled) {
    tasks_.erase(it);
  } else if (!more) {
    DoneFn done = std::move(it->done);
    tasks_.erase(it);
    if (done) done();
  }
  return !tasks_.empty();
}

size_t TaskScheduler::run_until_idle() {
  size_t n = 0;
  while (!tasks_.empty()) {
    run_slice();
    ++n;
  }
  return n;
}

}  // namespace strata
