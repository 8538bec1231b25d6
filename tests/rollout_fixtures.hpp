// Shared fixtures of the rollout tests: random batches and the plain reference loop.
#pragma once

#include <vector>

#include "games/common/philox.hpp"
#include "games/ewn/game.hpp"
#include "host/rollout/backend.hpp"

namespace sp::rollout {

using EwnLeaf = Leaf<EwnGame>;

// Leaves from random setups, some advanced a few random plies, with varied rollout counts.
inline std::vector<EwnLeaf> random_batch(uint64_t seed, size_t n, uint32_t max_rollouts, bool uniform_count) {
  std::vector<EwnLeaf> leaves;
  WordStream rng({seed, 0, 0, kLeafSearch, 0});
  for (size_t i = 0; i < n; ++i) {
    const ewn::Arrangement a0 = ewn::random_arrangement(rng), a1 = ewn::random_arrangement(rng);
    ewn::State s = ewn::initial_state(a0, a1, static_cast<int>(rng.below(2)));
    const int advance = static_cast<int>(rng.below(8));
    for (int p = 0; p < advance; ++p) {
      s.die = static_cast<uint8_t>(1 + rng.below(6));
      ewn::MoveList moves;
      ewn::generate_moves(s, ewn::Rules{}, moves);
      ewn::State next = s;
      ewn::apply(next, moves.moves[rng.below(static_cast<uint32_t>(moves.size))]);
      if (ewn::is_over(next)) break;
      s = next;
    }
    s.die = rng.below(2) ? static_cast<uint8_t>(1 + rng.below(6)) : ewn::kNoDie;
    const uint32_t rollouts = uniform_count ? max_rollouts : 1 + rng.below(max_rollouts);
    leaves.push_back(EwnLeaf{s, static_cast<uint32_t>(rng.below(1000)), static_cast<uint32_t>(i % 7),
                             static_cast<uint32_t>(i), rollouts});
  }
  return leaves;
}

// The plain reference: one rollout after another, each with its own stream.
inline std::vector<LeafStats> reference(const std::vector<EwnLeaf>& leaves, const PlayoutParams<EwnGame>& p) {
  std::vector<LeafStats> out(leaves.size());
  for (size_t i = 0; i < leaves.size(); ++i) {
    for (uint32_t r = 0; r < leaves[i].rollouts; ++r) {
      BlockStream rng(StreamId{p.seed, leaves[i].game, leaves[i].ply, leaves[i].leaf, r});
      const auto res = ewn::playout(leaves[i].state, p.rules, p.policies[leaves[i].policy], rng);
      if (res.winner == ewn::kNoWinner) ++out[i].draws;
      else ++out[i].wins[res.winner];
      ++out[i].rollouts;
      out[i].plies += res.plies;
    }
  }
  return out;
}

inline std::vector<LeafStats> run(Backend<EwnGame>& b, const std::vector<EwnLeaf>& leaves,
                           const PlayoutParams<EwnGame>& p) {
  std::vector<LeafStats> out(leaves.size());
  b.run(leaves, p, out);
  return out;
}

inline BackendOptions threads(int n) {
  BackendOptions o;
  o.threads = n;
  o.max_leaves = 1 << 16;
  o.max_rollouts = 1 << 20;
  return o;
}

}  // namespace sp::rollout
