// The search workload of `selfplay bench`, like Stockfish's bench: a fixed mini-match played in
// memory through the self-play driver (no file written), MCTS against the game's depth engine
// (expectimax in a game with chance, alpha-beta otherwise). Its signature, the total plies plus the
// nodes every decision's search reported (the MCTS tree's size, the depth engine's searched
// nodes), depends only on the game, the search code and the generator: it is the same on every
// backend, build type and thread count. A change to search that changes it says
// `Bench: <signature>` in its commit message.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/game_host.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/config/game_schema.hpp"
#include "host/play/selfplay/driver.hpp"

namespace sp::selfplay {

// The workload: 4 pairs of games (each pair one opening and chance sequence, the engines swapping
// seats) with the game's default rules, all 8 in flight at once.
inline constexpr uint64_t kSearchBenchSeed = 20261201;
inline constexpr uint32_t kSearchBenchGames = 8;

struct SearchBenchResult {
  uint32_t games = 0;
  uint64_t plies = 0;
  uint64_t nodes = 0;     // summed over every decision's search
  uint64_t rollouts = 0;  // the MCTS engine's
  uint32_t mcts_wins = 0, depth_wins = 0, draws = 0;
  double seconds = 0;
  uint64_t signature() const { return plies + nodes; }
};

// The workload's config: player 0 MCTS (2000 rollouts a move, 8 a leaf, no evaluation), player 1
// the depth engine (depth 4, no time limit, 1 MiB table). The depth engine evaluates nothing
// (all-zero weights where the game has features): it sees only won and lost positions, so the
// workload needs no weights file. A game whose positions are wide (many legal moves, as in
// Gomoku) may shrink the workload with the optional GameHost hooks kSearchBenchRollouts and
// kSearchBenchDepth, so that the signature stays a fraction of a second. Threads: the pool's
// (backend.threads); the result does not depend on them.
template <HostGame G>
config::Config<G> search_bench_config(int threads) {
  config::Config<G> cfg;
  config::campaign_schema<G>(false).apply_defaults(cfg);
  cfg.seed = kSearchBenchSeed;
  cfg.games = kSearchBenchGames;
  cfg.concurrency = kSearchBenchGames;
  cfg.paired = true;
  cfg.backend.threads = threads;
  config::EngineConfig& mcts = cfg.engines[0];
  mcts.type = config::EngineType::kMcts;
  mcts.rollouts_per_move = 2000;
  if constexpr (requires { GameHost<G>::kSearchBenchRollouts; })
    mcts.rollouts_per_move = GameHost<G>::kSearchBenchRollouts;
  mcts.rollouts_per_leaf = 8;
  mcts.leaves_per_round = 4;
  config::EngineConfig& deep = cfg.engines[1];
  deep.type = ChanceGame<G> ? config::EngineType::kExpectimax : config::EngineType::kAlphaBeta;
  deep.depth = 4;
  if constexpr (requires { GameHost<G>::kSearchBenchDepth; })
    deep.depth = GameHost<G>::kSearchBenchDepth;
  deep.time_ms = 0;
  deep.tt_size_mb = 1;
  if constexpr (FeatureGame<G>) {
    auto zero = std::make_shared<eval::Weights>();
    zero->w.assign(G::kNumFeatures, 0.0);
    zero->name = "zero";
    deep.evaluation = std::move(zero);
  }
  return cfg;
}

// Plays the workload on backend (sized for it: one MCTS round of each of the 8 games at once).
template <HostGame G>
SearchBenchResult run_search_bench(rollout::Backend<G>& backend, int threads) {
  const config::Config<G> cfg = search_bench_config<G>(threads);
  std::vector<uint32_t> ids(cfg.games);
  for (uint32_t i = 0; i < cfg.games; ++i) ids[i] = i;
  Driver<G> driver(cfg, backend, ids);
  SearchBenchResult r;
  const std::atomic<bool> never{false};
  const auto t0 = std::chrono::steady_clock::now();
  driver.run(
      [&](FinishedGame<G>&& game) {
        ++r.games;
        r.plies += game.plies.size();
        for (const PlyInfo<G>& p : game.plies) {
          r.nodes += p.stats.tree_nodes;
          r.rollouts += p.stats.rollouts;
        }
        if (game.winner == 0 || game.winner == 1)
          ++(game.engine_of_player[game.winner] == 0 ? r.mcts_wins : r.depth_wins);
        else
          ++r.draws;
      },
      [](const BatchInfo&) {}, never);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace sp::selfplay
