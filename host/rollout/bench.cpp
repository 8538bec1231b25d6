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

std::vector<EwnLeaf> random_batch(uint64_t seed, size_t n, uint32_t max_rollouts, bool uniform_count) {
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

}  // namespace sp::rollout
