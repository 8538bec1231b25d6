// The calling thread's CPU time as a std::chrono clock, for the single-thread playout benchmarks of
// experiments/ (checkers-playouts, gomoku-playouts, ewn-playouts): on a shared, loaded machine wall
// time also counts the time other processes held the core, CPU time does not. POSIX
// (clock_gettime).
#pragma once

#include <chrono>
#include <ctime>

namespace sp::experiments {

struct ThreadClock {
  using duration = std::chrono::nanoseconds;
  using rep = duration::rep;
  using period = duration::period;
  using time_point = std::chrono::time_point<ThreadClock>;
  static constexpr bool is_steady = true;
  static time_point now() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return time_point(duration(t.tv_sec * 1000000000LL + t.tv_nsec));
  }
};

// Seconds of this thread's CPU time since t0.
inline double cpu_seconds_since(ThreadClock::time_point t0) {
  return std::chrono::duration<double>(ThreadClock::now() - t0).count();
}

}  // namespace sp::experiments
