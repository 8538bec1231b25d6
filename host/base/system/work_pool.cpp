#include "host/base/system/work_pool.hpp"

#include <sched.h>

#include <algorithm>

namespace sp {

int available_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

WorkPool::WorkPool(int threads) : threads_(threads > 0 ? threads : available_cores()) {
  workers_.reserve(static_cast<size_t>(threads_ - 1));
  for (int i = 1; i < threads_; ++i) workers_.emplace_back([this] { work(); });
}

WorkPool::~WorkPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& t : workers_) t.join();
}

WorkPool::JobRef WorkPool::submit(size_t items, std::function<void(size_t)> fn, size_t grain) {
  auto job = std::make_shared<Job>();
  job->fn = std::move(fn);
  job->items = items;
  job->grain = std::max<size_t>(1, grain);
  if (items == 0) return job;
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(job);
  }
  if (items == 1)
    work_ready_.notify_one();
  else
    work_ready_.notify_all();
  return job;
}

bool WorkPool::done(const JobRef& job) {
  return job->finished.load(std::memory_order_acquire) >= job->items;
}

double WorkPool::busy_ms(const JobRef& job) {
  const int64_t start = job->first_start.load(std::memory_order_acquire);
  if (job->items == 0 || start == 0) return 0;
  const int64_t end = job->last_end.load(std::memory_order_relaxed);
  return std::chrono::duration<double, std::milli>(Job::Clock::duration(end - start)).count();
}

double WorkPool::work_ms(const JobRef& job) {
  return std::chrono::duration<double, std::milli>(
             Job::Clock::duration(job->work_ticks.load(std::memory_order_acquire)))
      .count();
}

void WorkPool::finish_items(const JobRef& job, size_t count, int64_t start) {
  const int64_t now = Job::Clock::now().time_since_epoch().count();
  job->work_ticks.fetch_add(now - start, std::memory_order_relaxed);
  int64_t seen = job->last_end.load(std::memory_order_relaxed);
  while (seen < now && !job->last_end.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
  if (job->finished.fetch_add(count, std::memory_order_acq_rel) + count == job->items) {
    std::lock_guard lock(mutex_);  // a waiter checks done() under the mutex before it sleeps
    job_done_.notify_all();
  }
}

size_t WorkPool::run_items(const JobRef& job, size_t limit) {
  size_t ran = 0;
  while (ran < limit) {
    const size_t claim = std::min(job->grain, limit - ran);
    const size_t first = job->next.fetch_add(claim, std::memory_order_relaxed);
    if (first >= job->items) {
      std::lock_guard lock(mutex_);
      const auto it = std::find(queue_.begin(), queue_.end(), job);
      if (it != queue_.end()) queue_.erase(it);
      break;
    }
    const int64_t start = Job::Clock::now().time_since_epoch().count();
    if (first == 0) job->first_start.store(start, std::memory_order_release);
    const size_t end = std::min(first + claim, job->items);
    for (size_t i = first; i < end; ++i) {
      if (job->failed.load(std::memory_order_relaxed)) continue;
      try {
        job->fn(i);
      } catch (...) {
        std::lock_guard lock(mutex_);
        if (!job->error) job->error = std::current_exception();
        job->failed.store(true, std::memory_order_relaxed);
      }
    }
    ran += end - first;
    finish_items(job, end - first, start);
  }
  return ran;
}

WorkPool::JobRef WorkPool::oldest_with_items() {
  std::lock_guard lock(mutex_);
  for (const JobRef& job : queue_)
    if (job->next.load(std::memory_order_relaxed) < job->items) return job;
  return nullptr;
}

void WorkPool::wait(const JobRef& job) {
  run_items(job, job->items);
  while (!done(job)) {
    if (JobRef other = oldest_with_items()) {
      run_items(other, 1);  // one at a time, to notice our own job finishing soon
      continue;
    }
    std::unique_lock lock(mutex_);
    job_done_.wait(lock, [&] {
      if (done(job)) return true;
      for (const JobRef& j : queue_)
        if (j->next.load(std::memory_order_relaxed) < j->items) return true;
      return false;
    });
  }
  std::lock_guard lock(mutex_);
  if (job->error) std::rethrow_exception(job->error);
}

void WorkPool::work() {
  for (;;) {
    JobRef job;
    {
      std::unique_lock lock(mutex_);
      work_ready_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      job = queue_.front();
    }
    run_items(job, job->items);
  }
}

}  // namespace sp
