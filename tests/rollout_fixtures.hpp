// Shared fixtures of the rollout tests: random EWN batches and the plain reference loop (any game).
#pragma once

#include <vector>

#include "core/philox.hpp"
#include "games/ewn/game.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/rollout/bench.hpp"

namespace sp::rollout {

using EwnLeaf = Leaf<EwnGame>;

// EWN's start positions as `selfplay bench` takes them from GameHost<EwnGame>::start with the
// default settings (random arrangements from (seed, game, 0, kLeafSetup), player 0 first), here
// without the config library these tests do not link.
inline ewn::State ewn_start(uint64_t seed, uint32_t game) {
  WordStream rng({seed, game, 0, kLeafSetup, 0});
  const ewn::Arrangement a0 = ewn::random_arrangement(rng), a1 = ewn::random_arrangement(rng);
  return ewn::initial_state(a0, a1, 0);
}

// Random EWN batches: random_batch() of host/engines/rollout/bench.hpp (the device check uses it
// too).
inline std::vector<EwnLeaf> random_batch(uint64_t seed, size_t n, uint32_t max_rollouts,
                                         bool uniform_count) {
  return random_batch<EwnGame>(ewn_start, seed, n, max_rollouts, uniform_count);
}

// The plain reference: one rollout after another, each with its own stream.
template <Game G>
std::vector<LeafStats> reference(const std::vector<Leaf<G>>& leaves, const PlayoutParams<G>& p) {
  std::vector<LeafStats> out(leaves.size());
  for (size_t i = 0; i < leaves.size(); ++i) {
    for (uint32_t r = 0; r < leaves[i].rollouts; ++r) {
      BlockStream rng(StreamId{p.seed, leaves[i].game, leaves[i].ply, leaves[i].leaf, r});
      const auto res = G::playout(leaves[i].state, p.rules, p.policies[leaves[i].policy], rng);
      if (res.winner == G::kNoWinner)
        ++out[i].draws;
      else
        ++out[i].wins[res.winner];
      ++out[i].rollouts;
      out[i].plies += res.plies;
    }
  }
  return out;
}

template <Game G>
std::vector<LeafStats> run(Backend<G>& b, const std::vector<Leaf<G>>& leaves,
                           const PlayoutParams<G>& p) {
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
