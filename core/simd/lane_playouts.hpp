// The lane-parallel (SIMD) playouts of the CPU backend, game-neutral side. A game with such a path
// specializes LanePlayouts<Game> in a host-only header of its folder (games/<game>/lanes.hpp,
// listed in games/lanes.hpp) and compiles its kernels from per-ISA files (its CMakeLists.txt names
// them, sp_game gives them the ISA flags). Host code includes
// host/engines/rollout/lane_playouts.hpp, which adds every game's specialization. The CPU backend
// (host/engines/rollout/cpu_backend_impl.hpp) plays a game's batches through the specialization
// when there is one and the path in use is not scalar; a game without one keeps the scalar
// playout_many of games/. A specialization provides:
//   kAvailable = true;
//   handles(state, policy): whether the lanes play this leaf (else it goes the scalar way);
//   kScalarCases: what handles() refuses, for the log ("" when it takes every leaf);
//   run(path, tasks, n, rules, counts): counts[i] = tasks[i]'s totals (LaneTask, LaneCounts), for
//   path avx2 or avx512; every rollout exactly as Game::playout plays it on its stream.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/game.hpp"
#include "core/philox.hpp"
#include "core/simd/simd_path.hpp"

namespace sp::rollout {

template <class Game>
struct LanePlayouts {
  static constexpr bool kAvailable = false;
};

// Rollouts [first, last) of one leaf: rollout r draws from the stream (key, ply, leaf, r) and plays
// `policy`.
template <class Game>
struct LaneTask {
  typename Game::State root;
  PhiloxKey key;
  uint32_t ply, leaf, first, last;
  typename Game::Policy policy;
};

// One task's totals: wins by absolute player, draws (capped playouts and drawn games), plies.
struct LaneCounts {
  uint32_t wins[2];
  uint32_t draws;
  uint64_t plies;
};

// Hands out the rollouts of a task list in order, for the lanes to refill from: a finished lane
// takes the next rollout (of the same task or the next ones), so lanes stay busy until the list
// runs dry. Zeroes the counts; rollouts of roots that are already over are counted at once, never
// handed out.
template <sp::Game Game>
class LaneFeed {
 public:
  LaneFeed(const LaneTask<Game>* tasks, size_t n, LaneCounts* counts)
      : tasks_(tasks), n_(n), counts_(counts) {
    for (size_t i = 0; i < n; ++i) counts[i] = LaneCounts{{0, 0}, 0, 0};
    settle();
  }
  bool empty() const { return t_ >= n_; }
  const LaneTask<Game>& task() const { return tasks_[t_]; }
  uint32_t task_index() const { return static_cast<uint32_t>(t_); }
  // The next rollout number of task().
  uint32_t take() {
    const uint32_t r = next_++;
    settle();
    return r;
  }
  // Counts each lane of `finished` (bit l: lane l's rollout of task task[l] ended with winner[l],
  // 0, 1 or anything else for a draw, after plies[l] plies), then starts the lane on the next
  // rollout (start(l)) or, once the feed is empty, clears its bit in busy.
  template <class Start>
  void retire(unsigned finished, unsigned& busy, const uint32_t* task, const uint32_t* winner,
              const uint32_t* plies, Start&& start) {
    while (finished) {
      const int l = __builtin_ctz(finished);
      finished &= finished - 1;
      LaneCounts& c = counts_[task[l]];
      if (winner[l] == 0 || winner[l] == 1)
        ++c.wins[winner[l]];
      else
        ++c.draws;
      c.plies += plies[l];
      if (empty())
        busy &= ~(1u << l);
      else
        start(l);
    }
  }

 private:
  // Moves past finished tasks and counts the rollouts of terminal roots.
  void settle() {
    while (t_ < n_) {
      const LaneTask<Game>& tk = tasks_[t_];
      if (t_ != started_) started_ = t_, next_ = tk.first;
      if (next_ < tk.last && Game::is_over(tk.root)) {
        LaneCounts& c = counts_[t_];
        const int w = Game::winner(tk.root);
        if (w == 0 || w == 1)
          c.wins[w] += tk.last - next_;
        else
          c.draws += tk.last - next_;
        next_ = tk.last;
      }
      if (next_ < tk.last) return;
      ++t_;
    }
  }

  const LaneTask<Game>* tasks_;
  size_t n_;
  LaneCounts* counts_;
  size_t t_ = 0, started_ = SIZE_MAX;
  uint32_t next_ = 0;
};

}  // namespace sp::rollout
