// What `selfplay improve` says as it runs: a progress line per finished step with the ETAs, the
// closing lineage table, and the process CPU time a lineage row records.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "host/research/improve/lineage.hpp"

namespace sp::improve {

// The closing table: generation, verdict, gate games, Elo against the parent (95%), Elo of the
// champion against generation 0 where measured, reason.
std::string format_lineage_table(const Lineage& lineage);

// Process CPU seconds (user + system), from getrusage.
double cpu_seconds_now();

// A duration in seconds as 42s, 3m07s or 2h05m; "?" when negative or not finite.
std::string duration_text(double s);

namespace loop_detail {

using Clock = std::chrono::steady_clock;

// Progress lines: one per finished step, with the generation's and the loop's ETA from the mean
// step durations of the generations this run finished.
class LoopProgress {
 public:
  LoopProgress(uint32_t first, uint32_t last) : first_(first), last_(last) {}
  void start_generation(uint32_t g) {
    g_ = g;
    gen_start_ = Clock::now();
  }
  void step_done(const char* step, const std::string& what);
  void generation_done() {
    ++done_;
    total_ += seconds_since(gen_start_);
  }

 private:
  static double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  }
  uint32_t first_, last_, g_ = 0, done_ = 0;
  double total_ = 0;
  Clock::time_point gen_start_ = Clock::now();
};

}  // namespace loop_detail
}  // namespace sp::improve
