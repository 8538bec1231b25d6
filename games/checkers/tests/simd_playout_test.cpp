// The lane-parallel checkers playouts (games/checkers/lanes.hpp) against the scalar playout, on
// every path this processor runs (the others skip, naming the ISA they lack): each rollout's winner
// and plies under both policies and several draw rules, from the start, from random mid-game and
// near-terminal positions (multi-jumps and crowning among them) and from king endgames; lanes
// refilled across tasks of uneven sizes; and the CPU backend's statistics on 1 and 3 threads on
// every path, scalar included.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/philox.hpp"
#include "core/simd/simd_path.hpp"
#include "games/checkers/game.hpp"
#include "games/checkers/lanes.hpp"
#include "host/engines/rollout/cpu_backend.hpp"
#include "tests/rollout_fixtures.hpp"
#include "tests/simd_playout_fixtures.hpp"

namespace sp::rollout {
namespace {

using checkers::lanes::Task;

// The draw rules the tests play under: the default, tight limits (many draws by either counter),
// no quiet limit, and a ply cap a few plies away.
std::vector<checkers::Rules> all_rules() {
  return {checkers::Rules{}, checkers::Rules{60, 6, 3}, checkers::Rules{1000, 0, 3},
          checkers::Rules{12, 80, 3}};
}

// Both policies: the default weights, weights below 1.0 (negative differences between the step
// weights) and large ones (saturating capture weights).
std::vector<checkers::Policy> all_policies() {
  using checkers::kWeightOne;
  return {checkers::Policy{},
          checkers::Policy{checkers::PolicyKind::kWeighted, 2 * kWeightOne, 4 * kWeightOne,
                           2 * kWeightOne},
          checkers::Policy{checkers::PolicyKind::kWeighted, kWeightOne / 2, kWeightOne / 4,
                           kWeightOne / 3},
          checkers::Policy{checkers::PolicyKind::kWeighted, 100 * kWeightOne, 100 * kWeightOne,
                           100 * kWeightOne}};
}

// What the positions hold, so that a test can insist the hard cases are there.
struct Coverage {
  int multi_jumps = 0;      // roots whose side to move has a capture of two or more jumps
  int double_crowning = 0;  // roots where one man has two jumps that crown
  int crowning = 0;         // roots where a man can crown this ply
  int kings = 0;            // roots with kings
};

void cover(const checkers::State& s, Coverage& c) {
  checkers::MoveList moves;
  checkers::generate_moves(s, moves);
  bool multi = false, crowns = false;
  uint32_t crowning_from = 0;
  for (int i = 0; i < moves.size; ++i) {
    const checkers::Move m = moves.moves[i];
    multi = multi || checkers::move_jumps(m) >= 2;
    const checkers::MoveEffect e = checkers::effect_of(m);
    const bool crowning = !(s.kings & e.from) && (e.to & checkers::crown_row(s.side)) != 0;
    crowns = crowns || crowning;
    if (crowning && checkers::move_jumps(m) == 1) {
      c.double_crowning += (crowning_from & e.from) != 0;
      crowning_from |= e.from;
    }
  }
  c.multi_jumps += multi;
  c.crowning += crowns;
  c.kings += s.kings != 0;
}

// Positions where a man of `side` (to move) has two single jumps that both crown, one for each
// square where that fits, with a few other pieces so that the rest of the game varies.
std::vector<checkers::State> double_crowning(int side, const checkers::Rules& rules) {
  std::vector<checkers::State> out;
  const int ahead[2] = {side == 0 ? checkers::kSouthWest : checkers::kNorthEast,
                        side == 0 ? checkers::kSouthEast : checkers::kNorthWest};
  for (int sq = 0; sq < checkers::kSquares; ++sq) {
    checkers::State s = checkers::initial_state(rules);
    s.pieces[0] = s.pieces[1] = 0;
    s.side = static_cast<uint8_t>(side);
    s.pieces[side] = 1u << sq;
    bool fits = true;
    for (int d : ahead) {
      const int over = checkers::reference_step(sq, d);
      const int to = over < 0 ? -1 : checkers::reference_step(over, d);
      fits = fits && to >= 0 && ((1u << to) & checkers::crown_row(side));
      if (fits) s.pieces[side ^ 1] |= 1u << over;
    }
    if (!fits) continue;
    s.pieces[side] |= checkers::back_row(side) & ~(1u << sq) & 0x0000F00Fu;  // far from the fight
    s.pieces[side ^ 1] |= (side == 0 ? 0x00F00000u : 0x00000F00u) & ~s.pieces[side];
    out.push_back(s);
  }
  return out;
}

// Random games under `rules` cut before their end (append_cut_games), so lanes start anywhere
// from the start position to one ply before the end; plus the start position, king endgames (a
// few pieces, most of them kings), where the quiet counter runs, and double_crowning's positions.
std::vector<checkers::State> positions(uint64_t seed, int games, const checkers::Rules& rules,
                                       Coverage* coverage = nullptr) {
  std::vector<checkers::State> out{checkers::initial_state(rules)};
  WordStream rng({seed, 0, 0, kLeafSearch, 0});
  append_cut_games<CheckersGame>(out, checkers::initial_state(rules), rules, games, rng);
  for (int g = 0; g < games / 4; ++g) {
    checkers::State s = checkers::initial_state(rules);
    s.pieces[0] = s.pieces[1] = 0;
    for (int side = 0; side < 2; ++side)
      for (uint32_t i = 0, n = 1 + rng.below(3); i < n; ++i) {
        const uint32_t sq = 1u << rng.below(32);
        if ((s.pieces[0] | s.pieces[1]) & sq) continue;
        s.pieces[side] |= sq;
        if (rng.below(4) != 0 || (sq & checkers::crown_row(side))) s.kings |= sq;
      }
    s.side = static_cast<uint8_t>(rng.below(2));
    s.ply = static_cast<uint16_t>(rng.below(rules.max_plies));
    if (rules.quiet_limit) s.quiet = static_cast<uint8_t>(rng.below(rules.quiet_limit));
    EXPECT_TRUE(checkers::state_ok(s));
    out.push_back(s);
  }
  for (int side = 0; side < 2; ++side)
    for (const checkers::State& s : double_crowning(side, rules)) out.push_back(s);
  if (coverage)
    for (const checkers::State& s : out) cover(s, *coverage);
  return out;
}

class CheckersSimdPlayout : public SimdPathTest {};

// One task per rollout: every rollout's winner and plies equal checkers::playout's on its stream,
// and the lanes refill from the next task whenever one finishes. The policies alternate from task
// to task, so blocks mix uniform and weighted lanes.
TEST_P(CheckersSimdPlayout, EveryRolloutEqualsScalarPlayout) {
  const std::vector<checkers::Policy> policies = all_policies();
  Coverage coverage;
  Outcomes outcomes;
  for (const checkers::Rules& rules : all_rules()) {
    const std::vector<checkers::State> roots =
        positions(31 + rules.max_plies + rules.quiet_limit, 150, rules, &coverage);
    for (size_t p = 0; p < policies.size(); ++p) {
      std::vector<Task> tasks;
      for (uint32_t i = 0; i < roots.size(); ++i)
        for (uint32_t r = 0; r < 1 + i % 4; ++r)
          tasks.push_back(Task{roots[i], stream_key(77, i % 13), i % 3, i, r, r + 1,
                               policies[(p + r) % policies.size()]});
      outcomes.add(expect_lanes_equal_scalar<CheckersGame>(
          GetParam(), tasks, rules,
          "max_plies " + std::to_string(rules.max_plies) + ", policies from " + std::to_string(p)));
    }
  }
  EXPECT_GT(outcomes.wins[0], 1000u);
  EXPECT_GT(outcomes.wins[1], 1000u);
  EXPECT_GT(outcomes.draws, 1000u);
  EXPECT_GE(coverage.multi_jumps, 10);
  EXPECT_GE(coverage.crowning, 20);
  EXPECT_GE(coverage.double_crowning, 16);
  EXPECT_GE(coverage.kings, 200);
}

// Tasks of uneven sizes (empty, one rollout, a lane's count plus or minus one, many) keep their
// totals apart.
TEST_P(CheckersSimdPlayout, UnevenTasksKeepTheirTotals) {
  const auto roots = positions(41, 30, checkers::Rules{});
  const std::vector<checkers::Policy> policies = all_policies();
  std::vector<Task> tasks;
  for (uint32_t i = 0; i < roots.size(); ++i)
    tasks.push_back(Task{roots[i], stream_key(5, i), 2, i, 0, 0, policies[i % 2]});
  make_uneven(tasks);
  expect_lanes_equal_scalar<CheckersGame>(GetParam(), tasks);
}

INSTANTIATE_TEST_SUITE_P(Paths, CheckersSimdPlayout, lane_paths(), path_case_name);

class CheckersBackendPaths : public SimdPathTest {};

// The CPU backend on this path: the scalar reference loop's statistics, on batches that mix
// uniform and weighted leaves, on one and on three threads.
TEST_P(CheckersBackendPaths, BackendEqualsScalarReference) {
  std::vector<Leaf<CheckersGame>> leaves;
  for (const checkers::Rules& rules : all_rules())
    append_leaves<CheckersGame>(leaves, positions(51 + rules.max_plies, 24, rules), 3);
  PlayoutParams<CheckersGame> p;
  p.seed = 123;
  p.policies[1] = all_policies()[1];
  expect_backend_equals_reference(GetParam(), leaves, p);
}

INSTANTIATE_TEST_SUITE_P(Paths, CheckersBackendPaths, backend_paths(), path_case_name);

}  // namespace
}  // namespace sp::rollout
