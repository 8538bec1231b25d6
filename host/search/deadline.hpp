// Time control of the iterative-deepening searches: a move's wall-clock budget, checked inside an
// iteration (stop) and between iterations (do not start one that cannot finish). Without a budget
// nothing here reads the clock into a decision, so fixed-depth searches stay deterministic.
#pragma once

#include <chrono>
#include <cstdint>

namespace sp::search {

class Deadline {
 public:
  // Starts the clock; time_ms == 0: no budget.
  void start(uint32_t time_ms) {
    time_ms_ = time_ms;
    start_ = std::chrono::steady_clock::now();
  }
  // The budget is spent (never without one).
  bool expired() const { return time_ms_ > 0 && elapsed() >= std::chrono::milliseconds(time_ms_); }
  // Half the budget is spent: the next iteration, which costs several times the last one, would
  // not finish (never without a budget).
  bool half_spent() const {
    return time_ms_ > 0 && elapsed() * 2 >= std::chrono::milliseconds(time_ms_);
  }
  double seconds() const { return std::chrono::duration<double>(elapsed()).count(); }

 private:
  std::chrono::steady_clock::duration elapsed() const {
    return std::chrono::steady_clock::now() - start_;
  }
  uint32_t time_ms_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace sp::search
