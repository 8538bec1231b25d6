// The host workload of `selfplay bench`: what the host side alone (MCTS selection, expansion,
// backup and the driver's batch assembly) can feed a rollout backend. Two MCTS engines play on the
// `null` backend, which answers every leaf at once from a hash, so the time is the host's. It
// reports leaves per second of wall time and of host thread time (the pool threads' time stepping
// the games, summed over the threads, plus the driver thread's), and the rollouts each leaf asks
// for; an MCTS leaf is one descent from the root.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <vector>

#include "core/game_host.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/config/game_schema.hpp"
#include "host/play/selfplay/batch_sizing.hpp"
#include "host/play/selfplay/driver.hpp"

namespace sp::selfplay {

// The workload: MCTS against MCTS, 800 rollouts a move (as the rollout-scaling grid), 4 leaves a
// round, 256 games at once (or `at_once`), batches of half of them, the engines' default node
// budget (a smaller one would stop Gomoku's trees from growing, and leaves that expand nothing
// are cheap). The games at once matter on several threads: a wave of few games is too little work
// for the hand-off between the driver and the pool (issue 44).
inline constexpr uint64_t kHostBenchSeed = 20261205;
inline constexpr uint32_t kHostBenchRolloutsPerMove = 800;
inline constexpr uint32_t kHostBenchConcurrency = 256;
inline constexpr uint32_t kHostBenchGames = 1 << 16;  // more than a few seconds play

struct HostBenchResult {
  int threads = 0;
  uint32_t rollouts_per_leaf = 0;
  uint64_t leaves = 0, rollouts = 0, batches = 0;
  uint32_t fanout = 1;
  uint32_t at_once = kHostBenchConcurrency;  // games in flight
  double seconds = 0;                        // wall time
  double host_ms = 0;                        // host wall time (BatchInfo::host_ms, summed)
  double host_thread_ms = 0;                 // host thread time (BatchInfo::host_thread_ms, summed)
  double leaves_per_second() const { return seconds > 0 ? leaves / seconds : 0; }
  double leaves_per_thread_second() const {
    return host_thread_ms > 0 ? leaves / (host_thread_ms / 1000) : 0;
  }
  double rollouts_per_leaf_played() const {
    return leaves ? static_cast<double>(rollouts) / leaves : 0;
  }
};

template <HostGame G>
config::Config<G> host_bench_config(int threads, uint32_t rollouts_per_leaf, uint32_t fanout = 1,
                                    uint32_t at_once = kHostBenchConcurrency) {
  config::Config<G> cfg;
  config::campaign_schema<G>(false).apply_defaults(cfg);
  cfg.seed = kHostBenchSeed;
  cfg.games = std::max(kHostBenchGames, at_once);
  cfg.concurrency = at_once;
  cfg.backend.threads = threads;
  for (config::EngineConfig& e : cfg.engines) {
    e.type = config::EngineType::kMcts;
    e.rollouts_per_move = kHostBenchRolloutsPerMove;
    e.rollouts_per_leaf = rollouts_per_leaf;
    e.leaves_per_round = 4;
    e.fanout = fanout;
  }
  cfg.backend.batch_rollouts = std::max<uint64_t>(1, at_once / 2) *
                               cfg.engines[0].leaves_per_round * fanout * rollouts_per_leaf;
  return cfg;
}

// Backend options that hold host_bench_config's batches: the leaves and rollouts the driver
// reserves for a round of every game in flight (max_round_leaves counts the game's most moves, for
// flat engines), so that a batch of half the games is one wave of the pool. Smaller limits would
// cut it into waves of a few games, each a hand-off between the driver and the workers.
template <HostGame G>
rollout::BackendOptions host_bench_backend_options(uint32_t rollouts_per_leaf, uint32_t fanout = 1,
                                                   uint32_t at_once = kHostBenchConcurrency) {
  const config::Config<G> cfg = host_bench_config<G>(1, rollouts_per_leaf, fanout, at_once);
  rollout::BackendOptions o;
  o.max_leaves = size_t{at_once} * max_round_leaves(cfg);
  o.max_rollouts = uint64_t{at_once} * max_round_rollouts(cfg);
  return o;
}

// Plays the workload on `backend` (the null backend, sized by host_bench_backend_options) for
// about `seconds` (at least one batch), on `threads` threads (0: every core).
template <HostGame G>
HostBenchResult run_host_bench(rollout::Backend<G>& backend, int threads,
                               uint32_t rollouts_per_leaf, double seconds, uint32_t fanout = 1,
                               uint32_t at_once = kHostBenchConcurrency) {
  const config::Config<G> cfg = host_bench_config<G>(threads, rollouts_per_leaf, fanout, at_once);
  std::vector<uint32_t> ids(cfg.games);
  std::iota(ids.begin(), ids.end(), 0u);
  Driver<G> driver(cfg, backend, ids);
  HostBenchResult r;
  r.threads = driver.threads();
  r.rollouts_per_leaf = rollouts_per_leaf;
  r.fanout = fanout;
  r.at_once = at_once;
  std::atomic<bool> stop{false};
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  driver.run([](FinishedGame<G>&&) {},
             [&](const BatchInfo& b) {
               ++r.batches;
               r.leaves += b.leaves;
               r.rollouts += b.rollouts;
               r.host_ms += b.host_ms;
               r.host_thread_ms += b.host_thread_ms;
               if (elapsed() >= seconds) stop.store(true);
             },
             stop);
  r.seconds = elapsed();
  return r;
}

}  // namespace sp::selfplay
