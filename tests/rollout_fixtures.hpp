// Shared fixtures of the rollout tests: random batches and the plain reference loop.
#pragma once

#include <vector>

#include "games/common/philox.hpp"
#include "games/ewn/game.hpp"
#include "host/rollout/backend.hpp"
#include "host/rollout/bench.hpp"

namespace sp::rollout {

// Random batches come from random_batch() in host/rollout/bench.hpp (the device check uses them).

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
