// One pool of threads for everything a run computes on the host: the driver's game-tree work and
// the CPU backend's rollouts share it, so a run never has more busy threads than the user gave.
//
// Work comes as jobs of n independent items. A thread takes the next unclaimed item of the oldest
// job that has one (an atomic counter, so items are taken, never assigned: a thread that the OS
// preempts for another process simply takes fewer items, and nobody waits at a barrier for its
// share). The thread that waits for a job runs items too: first its own job's, then, one at a
// time, other jobs', and sleeps only when nothing is left to claim. Idle workers sleep on a
// condition variable; nothing spins.
//
// A pool of T threads starts T - 1 workers; the thread that calls wait() is the T-th. Thread-safe:
// any thread may submit and wait. Items must not wait for other jobs of the same pool.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace sp {

class WorkPool {
 public:
  struct Job;
  using JobRef = std::shared_ptr<Job>;

  // threads <= 0: every core this process may run on (its CPU affinity).
  explicit WorkPool(int threads);
  ~WorkPool();
  WorkPool(const WorkPool&) = delete;
  WorkPool& operator=(const WorkPool&) = delete;

  int threads() const { return threads_; }

  // Queues items 0 .. items - 1 of fn and returns at once. fn is called once per item, from any
  // thread of the pool or from a waiter, concurrently with other items. A thread claims `grain`
  // consecutive items at a time (the last claim may be shorter): for items of a few microseconds,
  // claiming and finishing one at a time costs the threads a shared cache line per item.
  JobRef submit(size_t items, std::function<void(size_t)> fn, size_t grain = 1);
  // Runs items (this job's first) until every item of job has finished; rethrows the first
  // exception an item threw (the remaining items are then skipped).
  void wait(const JobRef& job);
  // True when every item of job has finished.
  static bool done(const JobRef& job);
  // Milliseconds from the first item's start to the last item's end (0 for an empty job); valid
  // once done.
  static double busy_ms(const JobRef& job);
  // Milliseconds the threads spent running the job's items, summed over the threads (each claim
  // timed from its start to its end); valid once done. At most threads() x busy_ms.
  static double work_ms(const JobRef& job);

  void run(size_t items, std::function<void(size_t)> fn, size_t grain = 1) {
    wait(submit(items, std::move(fn), grain));
  }
  // A grain for `items` short items: enough claims per thread (16) that a thread the OS preempts
  // leaves little behind, at most 32 items a claim.
  size_t grain_for(size_t items) const {
    return std::clamp<size_t>(items / (16 * static_cast<size_t>(threads_)), 1, 32);
  }

 private:
  // Claims and runs at most `limit` items of job (in claims of at most the job's grain); returns
  // how many it ran.
  size_t run_items(const JobRef& job, size_t limit);
  // start: Clock ticks when the claim began.
  void finish_items(const JobRef& job, size_t count, int64_t start);
  JobRef oldest_with_items();
  void work();

  const int threads_;
  std::mutex mutex_;
  std::condition_variable work_ready_, job_done_;
  std::deque<JobRef> queue_;  // jobs that may have unclaimed items, oldest first
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

struct WorkPool::Job {
  using Clock = std::chrono::steady_clock;
  std::function<void(size_t)> fn;
  size_t items = 0;
  size_t grain = 1;                 // items claimed at a time
  std::atomic<size_t> next{0};      // next item to claim (may overshoot items)
  std::atomic<size_t> finished{0};  // items finished (run or skipped)
  std::atomic<bool> failed{false};
  std::exception_ptr error;             // the first exception; guarded by the pool's mutex
  std::atomic<int64_t> first_start{0};  // Clock ticks; 0 until the first item starts
  std::atomic<int64_t> last_end{0};     // Clock ticks: the latest end of an item
  std::atomic<int64_t> work_ticks{0};   // Clock ticks spent in claims, summed over the threads
};

// Cores this process may run on (sched_getaffinity), at least 1.
int available_cores();

}  // namespace sp
