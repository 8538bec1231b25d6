// Rollout benchmarking shared by `selfplay bench` and the device check program, for any game: the
// fixed signature workload, batches of start positions, random batches, and a double-buffered
// throughput measurement. No command-line, config or formatting dependencies, so the device check
// builds with CUDA alone: a game's start positions come in as a function (`selfplay bench` passes
// GameHost<G>::start with the default settings).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/game.hpp"
#include "core/philox.hpp"
#include "host/engines/rollout/backend.hpp"

namespace sp::rollout {

// The start position of stream game `stream_game` under `seed` (chance not yet drawn).
template <Game G>
using StartPosition = std::function<typename G::State(uint64_t seed, uint32_t stream_game)>;

// The signature workload: 4096 start positions (stream games 0..4095 of a fixed seed) x 16
// rollouts with the default playout policy. Its total plies depend only on the game's rules and
// openings, the playout code and the generator (EWN: 1413994).
inline constexpr uint64_t kSignatureSeed = 20261129;
inline constexpr uint32_t kSignatureLeaves = 4096;
inline constexpr uint32_t kSignatureRollouts = 16;

// Leaves from start positions; leaf i is stream game (and game id) game_offset + i, ply 0.
template <Game G>
std::vector<Leaf<G>> start_leaves(const StartPosition<G>& start, uint64_t seed, uint32_t n,
                                  uint32_t rollouts, uint32_t game_offset) {
  std::vector<Leaf<G>> leaves(n);
  for (uint32_t i = 0; i < n; ++i)
    leaves[i] = Leaf<G>{start(seed, game_offset + i), game_offset + i, 0, 0, rollouts};
  return leaves;
}

struct Totals {
  uint64_t rollouts = 0, plies = 0, wins0 = 0, wins1 = 0, draws = 0;
  void add(const std::vector<LeafStats>& stats);
};

// Runs the signature workload on a backend.
template <Game G>
Totals run_signature(Backend<G>& backend, const StartPosition<G>& start) {
  PlayoutParams<G> params;
  params.seed = kSignatureSeed;
  const auto leaves =
      start_leaves<G>(start, kSignatureSeed, kSignatureLeaves, kSignatureRollouts, 0);
  std::vector<LeafStats> stats(leaves.size());
  backend.run(leaves, params, stats);
  Totals t;
  t.add(stats);
  return t;
}

struct Throughput {
  uint64_t batches = 0, rollouts = 0, plies = 0;
  double compute_s = 0, wall_s = 0;
  double kernel_rate() const { return compute_s > 0 ? rollouts / compute_s : 0; }
  double e2e_rate() const { return wall_s > 0 ? rollouts / wall_s : 0; }
  double plies_rate() const { return wall_s > 0 ? plies / wall_s : 0; }
};

// Keeps up to two batches in flight (double buffering) until min_seconds have passed and at least
// min_batches batches are done. Kernel-level rate: rollouts over the backend's compute time;
// end-to-end: over wall time, host to host.
template <Game G>
Throughput measure(Backend<G>& backend, const PlayoutParams<G>& params,
                   const std::vector<Leaf<G>>& leaves, double min_seconds, uint64_t min_batches) {
  using Clock = std::chrono::steady_clock;
  Throughput t;
  std::vector<LeafStats> stats(leaves.size());
  const int depth = std::max(1, std::min(2, backend.info().max_in_flight));
  std::vector<Ticket> tickets;
  const auto start = Clock::now();
  for (int i = 0; i < depth; ++i) tickets.push_back(backend.submit(leaves, params));
  size_t head = 0;
  for (;;) {
    const BatchTiming timing = backend.wait(tickets[head], stats);
    ++head;
    ++t.batches;
    t.compute_s += timing.compute_ms / 1000.0;
    for (const auto& s : stats) t.rollouts += s.rollouts, t.plies += s.plies;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (elapsed >= min_seconds && t.batches >= min_batches) {
      while (head < tickets.size()) backend.wait(tickets[head++], stats);  // drain, not counted
      t.wall_s = elapsed;
      return t;
    }
    tickets.push_back(backend.submit(leaves, params));
  }
}

// Leaves from start positions, some advanced up to 7 uniformly random plies (random side to move;
// in a chance game the outcome drawn or not), with varied or uniform rollout counts and spread
// stream ids: the batches of the bit-identity checks between backends.
template <Game G>
std::vector<Leaf<G>> random_batch(const StartPosition<G>& start, uint64_t seed, size_t n,
                                  uint32_t max_rollouts, bool uniform_count) {
  std::vector<Leaf<G>> leaves;
  WordStream rng({seed, 0, 0, kLeafSearch, 0});
  const typename G::Rules rules{};
  for (size_t i = 0; i < n; ++i) {
    typename G::State s = start(seed, static_cast<uint32_t>(i));
    const int advance = static_cast<int>(rng.below(8));
    for (int p = 0; p < advance && !G::is_over(s); ++p) {
      if constexpr (ChanceGame<G>)
        if (G::needs_chance(s)) G::set_chance(s, static_cast<int>(rng.below(G::kChanceOutcomes)));
      typename G::MoveList moves;
      G::generate_moves(s, rules, moves);
      typename G::State next = s;
      G::apply(next, moves.moves[rng.below(static_cast<uint32_t>(moves.size))]);
      if (G::is_over(next)) break;
      s = next;
    }
    if constexpr (ChanceGame<G>)
      if (G::needs_chance(s) && rng.below(2))
        G::set_chance(s, static_cast<int>(rng.below(G::kChanceOutcomes)));
    const uint32_t rollouts = uniform_count ? max_rollouts : 1 + rng.below(max_rollouts);
    leaves.push_back(Leaf<G>{s, static_cast<uint32_t>(rng.below(1000)),
                             static_cast<uint32_t>(i % 7), static_cast<uint32_t>(i), rollouts});
  }
  return leaves;
}

// A throughput batch of 2^log2 rollouts, rollouts_per_leaf each (fewer when the batch is
// smaller), from the start positions of stream games 2^24 and up.
template <Game G>
std::vector<Leaf<G>> throughput_batch(const StartPosition<G>& start, uint64_t seed, int log2,
                                      uint32_t rollouts_per_leaf) {
  const uint64_t total = uint64_t{1} << log2;
  const uint32_t rpl = static_cast<uint32_t>(std::min<uint64_t>(rollouts_per_leaf, total));
  return start_leaves<G>(start, seed, static_cast<uint32_t>(total / rpl), rpl, 1u << 24);
}

}  // namespace sp::rollout
