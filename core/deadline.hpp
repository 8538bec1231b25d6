// Time control of the searches: a move's wall-clock budget, checked inside an iteration (stop) and
// between iterations (do not start one that cannot finish). Without a budget nothing here reads
// the clock into a decision, so fixed-depth searches stay deterministic. The clock can be
// injected (set_clock), so that tests decide when time runs out instead of measuring it.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <utility>

namespace sp::search {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;
  // What the deadline reads the time from: steady_clock::now, unless a test gives another.
  using Now = std::function<Clock::time_point()>;

  // What a search keeps back of its budget for what a move costs around it (the engine's set-up,
  // unwinding the search, the move's report; under load, waits for a core): a tenth, at most
  // kMaxReserveMs. Measured (experiments/gomoku-strength/README.md, "Clock"): at 100 ms a move on
  // 2 loaded cores, searches that stopped at the full budget took up to 4.7 ms longer.
  static constexpr uint32_t kMaxReserveMs = 30;
  static constexpr uint32_t search_ms(uint32_t time_ms) {
    return time_ms - (time_ms / 10 < kMaxReserveMs ? time_ms / 10 : kMaxReserveMs);
  }

  // Starts the clock; time_ms == 0: no budget.
  void start(uint32_t time_ms) {
    time_ms_ = time_ms;
    search_ms_ = search_ms(time_ms);
    start_ = now();
  }
  // The budget less its reserve is spent (never without a budget), or the search was
  // interrupted.
  bool expired() const {
    return interrupted() || (time_ms_ > 0 && elapsed() >= std::chrono::milliseconds(search_ms_));
  }
  // Half the budget less its reserve is spent: the next iteration, which costs several times the
  // last one, would not finish (never without a budget); or the search was interrupted.
  bool half_spent() const {
    return interrupted() ||
           (time_ms_ > 0 && elapsed() * 2 >= std::chrono::milliseconds(search_ms_));
  }
  // A flag another thread sets to end the search at once, budget or none (a protocol session:
  // the manager's STOP or END, the end of its input). The searches poll the deadline while one
  // is set even without a budget. nullptr: none (campaigns never set one, so their fixed-depth
  // searches read no flag and stay deterministic). The flag must outlive the searches.
  void set_interrupt(const std::atomic<bool>* flag) { interrupt_ = flag; }
  bool interruptible() const { return interrupt_ != nullptr; }
  bool interrupted() const {
    return interrupt_ != nullptr && interrupt_->load(std::memory_order_relaxed);
  }
  // Whether a search must poll expired(): it has a budget or can be interrupted.
  bool polled() const { return time_ms_ > 0 || interrupt_ != nullptr; }
  double seconds() const { return std::chrono::duration<double>(elapsed()).count(); }
  bool has_budget() const { return time_ms_ > 0; }

  // Replaces the clock (nullptr: steady_clock again).
  void set_clock(Now now) { now_ = std::move(now); }

 private:
  Clock::time_point now() const { return now_ ? now_() : Clock::now(); }
  Clock::duration elapsed() const { return now() - start_; }
  uint32_t time_ms_ = 0, search_ms_ = 0;
  Clock::time_point start_;
  Now now_;
  const std::atomic<bool>* interrupt_ = nullptr;
};

}  // namespace sp::search
