#include "host/rollout/bench.hpp"

#include <algorithm>
#include <chrono>

#include "games/ewn/playout.hpp"

namespace sp::rollout {

std::vector<EwnLeaf> setup_leaves(uint64_t seed, uint32_t n, uint32_t rollouts, uint32_t game_offset) {
  std::vector<EwnLeaf> leaves(n);
  for (uint32_t i = 0; i < n; ++i) {
    WordStream rng({seed, game_offset + i, 0, kLeafSetup, 0});
    const ewn::Arrangement a0 = ewn::random_arrangement(rng), a1 = ewn::random_arrangement(rng);
    leaves[i] = EwnLeaf{ewn::initial_state(a0, a1, 0), game_offset + i, 0, 0, rollouts};
  }
  return leaves;
}

void Totals::add(const std::vector<LeafStats>& stats) {
  for (const auto& s : stats) {
    rollouts += s.rollouts;
    plies += s.plies;
    wins0 += s.wins[0];
    wins1 += s.wins[1];
    draws += s.draws;
  }
}

Totals run_signature(Backend<EwnGame>& backend) {
  PlayoutParams<EwnGame> params;
  params.seed = kSignatureSeed;
  const auto leaves = setup_leaves(kSignatureSeed, kSignatureLeaves, kSignatureRollouts, 0);
  std::vector<LeafStats> stats(leaves.size());
  backend.run(leaves, params, stats);
  Totals t;
  t.add(stats);
  return t;
}

Throughput measure(Backend<EwnGame>& backend, const PlayoutParams<EwnGame>& params,
                   const std::vector<EwnLeaf>& leaves, double min_seconds, uint64_t min_batches) {
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

std::vector<EwnLeaf> throughput_batch(uint64_t seed, int log2, uint32_t rollouts_per_leaf) {
  const uint64_t total = uint64_t{1} << log2;
  const uint32_t rpl = static_cast<uint32_t>(std::min<uint64_t>(rollouts_per_leaf, total));
  return setup_leaves(seed, static_cast<uint32_t>(total / rpl), rpl, 1u << 24);
}

}  // namespace sp::rollout
