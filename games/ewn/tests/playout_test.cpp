// Playouts: invariants over many random games, agreement with a straightforward reference built
// on generate_moves and the documented stream-word layout, the heavy policy's winning-move rule,
// and statistics against ../shared/reference/ewn.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/philox.hpp"
#include "games/ewn/ewn.hpp"
#include "games/ewn/notation.hpp"
#include "games/ewn/playout.hpp"
#include "games/ewn/tests/test_util.hpp"

namespace sp::ewn {
namespace {

// Reference playout: ply p uses word p%4 of block p/4. The die is the high half of word * 6 and
// the move index is drawn from the low half (word * 6 mod 2^32) by multiply-shift; the die part
// is consumed even when the state already has a die; moves are chosen in generate_moves order.
PlayoutResult reference_playout(State s, const Rules& rules, const PlayoutPolicy& policy,
                                BlockStream& rng) {
  if (is_over(s)) return {s.winner, 0};
  int plies = 0;
  Philox4x32 block{};
  while (plies < kMaxPlayoutPlies) {
    if (plies % 4 == 0) block = rng.next();
    const uint64_t scaled = static_cast<uint64_t>(block.v[plies % 4]) * 6u;
    const uint32_t move_word = static_cast<uint32_t>(scaled & 0xFFFFFFFFu);
    if (s.die == kNoDie) s.die = static_cast<uint8_t>(1 + (scaled >> 32));
    MoveList list;
    generate_moves(s, rules, list);
    Move m = list.moves[0];
    if (!m.is_pass()) {
      if (policy.kind == PolicyKind::kUniform) {
        m = list.moves[bounded(move_word, static_cast<uint32_t>(list.size))];
      } else {
        // Heavy: a winning move if any; else weights 1.0, x goal_weight when the cube gets nearer
        // its goal, x capture_weight when it takes an enemy cube (8 fractional bits).
        int win = -1;
        std::vector<uint32_t> weights;
        uint32_t total = 0;
        for (int k = 0; k < list.size; ++k) {
          const Move c = list.moves[k];
          State after = s;
          apply(after, c);
          if (win < 0 && after.winner == s.side) win = k;
          uint32_t w = distance_to_goal(s.side, c.to) < distance_to_goal(s.side, c.from)
                           ? policy.goal_weight
                           : 256;
          if ((s.occ[s.side ^ 1] >> c.to) & 1u) w = (w * policy.capture_weight) >> 8;
          weights.push_back(w);
          total += w;
        }
        if (win >= 0) {
          m = list.moves[win];
        } else {
          uint32_t r = bounded(move_word, total);
          for (int k = 0; k < list.size; ++k) {
            if (r < weights[k]) {
              m = list.moves[k];
              break;
            }
            r -= weights[k];
          }
        }
      }
    }
    apply(s, m);
    EXPECT_TRUE(state_ok(s));
    ++plies;
    if (is_over(s)) break;
  }
  return {s.winner, static_cast<uint16_t>(plies)};
}

State random_setup(uint64_t seed, uint32_t game, int first_player = 0) {
  WordStream rng({seed, game, 0, kLeafSetup, 0});
  const Arrangement a0 = random_arrangement(rng), a1 = random_arrangement(rng);
  return initial_state(a0, a1, first_player);
}

PlayoutPolicy heavy(uint32_t goal = 2 * kWeightOne, uint32_t capture = 2 * kWeightOne) {
  PlayoutPolicy p;
  p.kind = PolicyKind::kHeavy;
  p.goal_weight = goal;
  p.capture_weight = capture;
  return p;
}

// ---- invariants

TEST(EwnPlayout, RandomGamesEndWithAWinnerWithinBounds) {
  // Each move raises the moving cube's row + col by 1 or 2 (a cube starting at s makes at most
  // 8 - s moves), so with captures of own cubes allowed a side makes at most 8+7+6+7+6+6 = 40
  // moves: at most 80 plies. Player 0's fastest corner run takes 3 moves (5 plies).
  int max_plies = 0, min_plies = 1000;
  for (uint32_t g = 0; g < 20000; ++g) {
    const State s = random_setup(1, g, static_cast<int>(g & 1));
    BlockStream rng({1, g, 0, 0, 0});
    const PlayoutResult r = playout(s, Rules{}, PlayoutPolicy{}, rng);
    ASSERT_TRUE(r.winner == 0 || r.winner == 1) << "game " << g;
    ASSERT_GE(r.plies, 5) << "game " << g;
    ASSERT_LE(r.plies, 80) << "game " << g;
    EXPECT_EQ(rng.blocks_drawn(), (r.plies + 3u) / 4)
        << "one word per ply, one block per four plies";
    max_plies = std::max<int>(max_plies, r.plies);
    min_plies = std::min<int>(min_plies, r.plies);
  }
  EXPECT_GT(max_plies, min_plies);
}

TEST(EwnPlayout, FinishedStateReturnsItsWinnerWithoutDrawing) {
  State s = parse_position("5/1a3/5/3A1/5 0 1");
  apply(s,
        Move{static_cast<uint8_t>(parse_square("d2")), static_cast<uint8_t>(parse_square("e1"))});
  ASSERT_EQ(s.winner, 0);
  BlockStream rng({1, 0, 0, 0, 0});
  const PlayoutResult r = playout(s, Rules{}, PlayoutPolicy{}, rng);
  EXPECT_EQ(r.winner, 0);
  EXPECT_EQ(r.plies, 0);
  EXPECT_EQ(rng.blocks_drawn(), 0u);
}

// ---- agreement with the reference

void expect_matches_reference(const State& s, const Rules& rules, const PlayoutPolicy& policy,
                              const StreamId& id) {
  BlockStream a(id), b(id);
  const PlayoutResult got = playout(s, rules, policy, a);
  const PlayoutResult want = reference_playout(s, rules, policy, b);
  ASSERT_EQ(got.winner, want.winner) << to_string(s) << " game " << id.game;
  ASSERT_EQ(got.plies, want.plies) << to_string(s) << " game " << id.game;
  ASSERT_EQ(a.blocks_drawn(), b.blocks_drawn());
}

TEST(EwnPlayout, UniformMatchesReferenceFromRandomSetups) {
  int long_games = 0;
  for (uint32_t g = 0; g < 20000; ++g) {
    // All four rule variants; without own captures, passes make some games long.
    const Rules rules = test::rules_variant(static_cast<int>(g / 2));
    const State s = random_setup(2, g, static_cast<int>(g % 2));
    expect_matches_reference(s, rules, PlayoutPolicy{}, {2, g, 0, 0, 0});
    BlockStream rng({2, g, 0, 0, 0});
    long_games += playout(s, rules, PlayoutPolicy{}, rng).plies > 40;
  }
  EXPECT_GT(long_games, 10) << "the sample must reach long games";
}

TEST(EwnPlayout, UniformMatchesReferenceFromMidgamePositionsAllVariants) {
  int passes_possible = 0;
  for (uint32_t g = 0; g < 8000; ++g) {
    const Rules rules = test::rules_variant(static_cast<int>(g));
    passes_possible += !rules.capture_own;
    // Half with the die already rolled: the first ply must use it.
    const State s = test::random_midgame(3, g, rules, g % 4 < 2);
    expect_matches_reference(s, rules, PlayoutPolicy{}, {3, g, 7, 1, 2});
  }
  EXPECT_GT(passes_possible, 0);
}

TEST(EwnPlayout, HeavyMatchesReference) {
  const PlayoutPolicy policies[] = {heavy(), heavy(kWeightOne, kWeightOne),
                                    heavy(3 * kWeightOne, 5 * kWeightOne / 2),
                                    heavy(kWeightOne / 2, 7 * kWeightOne)};
  for (uint32_t g = 0; g < 8000; ++g) {
    const Rules rules = test::rules_variant(static_cast<int>(g));
    const State s = g % 2 ? random_setup(4, g) : test::random_midgame(4, g, rules, g % 4 == 0);
    expect_matches_reference(s, rules, policies[(g / 4) % 4], {4, g, 0, 0, 0});
  }
}

TEST(EwnPlayout, GivenDieIsUsedForTheFirstPly) {
  // The reference uses the given die for the first ply and still consumes its word's die part; the
  // same streams from the unrolled position must often give other games.
  const State base = parse_position("ABC2/DE3/F3f/3ed/2cba 0 6");
  int differs_from_unrolled = 0;
  for (uint32_t g = 0; g < 2000; ++g) {
    expect_matches_reference(base, Rules{}, PlayoutPolicy{}, {5, g, 0, 0, 0});
    State unrolled = base;
    unrolled.die = kNoDie;
    BlockStream a({5, g, 0, 0, 0}), b({5, g, 0, 0, 0});
    const PlayoutResult x = playout(base, Rules{}, PlayoutPolicy{}, a),
                        y = playout(unrolled, Rules{}, PlayoutPolicy{}, b);
    differs_from_unrolled += x.winner != y.winner || x.plies != y.plies;
  }
  EXPECT_GT(differs_from_unrolled, 100) << "the given die must matter";
}

// ---- heavy policy

struct WinCase {
  const char* position;
  const char* why;
};

TEST(EwnPlayout, HeavyAlwaysTakesAWinningMove) {
  const WinCase cases[] = {
      {"5/1a3/5/3A1/5 0 1", "player 0 corner: d2-e1 among three moves"},
      {"5/1a3/5/3A1/5 1 1", "player 1 corner: b4-a5 among three moves"},
      {"B4/5/2Aa1/5/5 0 1", "player 0 eliminates the last cube"},
      {"5/5/1Aa2/5/4b 1 1", "player 1 eliminates the last cube"},
      {"B3a/5/5/3E1/5 0 4", "the winning move belongs to the second movable cube (5)"},
      {"4c/5/5/3A1/4b 0 1", "a capture on the goal corner"},
      {"A4/1a3/5/5/3B1 1 1", "player 1 captures on the goal corner"},
  };
  for (const auto& c : cases) {
    const State s = parse_position(c.position);
    int uniform_wins = 0;
    for (uint32_t r = 0; r < 300; ++r) {
      BlockStream rng({6, 0, 0, 0, r});
      const PlayoutResult res = playout(s, Rules{}, heavy(), rng);
      EXPECT_EQ(res.winner, s.side) << c.why;
      EXPECT_EQ(res.plies, 1) << c.why;
      BlockStream urng({6, 0, 0, 0, r});
      const PlayoutResult u = playout(s, Rules{}, PlayoutPolicy{}, urng);
      uniform_wins += u.plies == 1 && u.winner == s.side;
    }
    EXPECT_LT(uniform_wins, 250) << c.why
                                 << ": the uniform policy must not find the win every time";
  }
}

TEST(EwnPlayout, HeavyTakesAWinningMoveWhateverTheDie) {
  // Unrolled die: a lone cube next to the goal moves whatever is rolled and wins at once.
  const State s = parse_position("5/1a3/5/3A1/5 0 -");
  for (uint32_t r = 0; r < 300; ++r) {
    BlockStream rng({7, 0, 0, 0, r});
    const PlayoutResult res = playout(s, Rules{}, heavy(kWeightOne / 4, kWeightOne / 4), rng);
    EXPECT_EQ(res.winner, 0);
    EXPECT_EQ(res.plies, 1);
  }
}

// Player 0's lone cube A (a4) rolls a 1: a4-b4 takes cube a (nearer the goal and a capture),
// a4-a3 keeps its distance, a4-b3 gets nearer. If cube a survives, player 1 wins at ply 2 unless
// it rolls a 6 (then only f, far from a5, may move): with a heavy player 1, P(win at ply 2) =
// (1 - P(a4-b4)) * 5/6. The library playout alone is observed here.
double p1_wins_at_ply_two(const PlayoutPolicy& policy, int n) {
  const State s = parse_position("5/Aa3/5/5/4f 0 1");
  int wins = 0;
  for (int r = 0; r < n; ++r) {
    BlockStream rng({8, 0, 0, 0, static_cast<uint32_t>(r)});
    const PlayoutResult res = playout(s, Rules{}, policy, rng);
    wins += res.winner == 1 && res.plies == 2;
  }
  return wins / static_cast<double>(n);
}

TEST(EwnPlayout, HeavyWeightsShapeTheMoveChoice) {
  const int n = 20000;
  // Weights (b4, a3, b3): goal 2 and capture 2 give 4, 1, 2.
  EXPECT_NEAR(p1_wins_at_ply_two(heavy(), n), (1 - 4.0 / 7) * 5 / 6, 0.02);
  // Capture 7, goal 1: 7, 1, 1.
  EXPECT_NEAR(p1_wins_at_ply_two(heavy(kWeightOne, 7 * kWeightOne), n), (1 - 7.0 / 9) * 5 / 6,
              0.02);
  // All weights equal: like uniform, each move 1/3.
  EXPECT_NEAR(p1_wins_at_ply_two(heavy(kWeightOne, kWeightOne), n), (1 - 1.0 / 3) * 5 / 6, 0.02);
  // Goal 4, capture 1/4: 1, 1, 4.
  EXPECT_NEAR(p1_wins_at_ply_two(heavy(4 * kWeightOne, kWeightOne / 4), n), (1 - 1.0 / 6) * 5 / 6,
              0.02);
}

// ---- statistics

TEST(EwnPlayout, RandomPlayStatisticsMatchPublishedFacts) {
  const int n = 50000;
  uint64_t wins0 = 0, plies = 0;
  for (uint32_t g = 0; g < static_cast<uint32_t>(n); ++g) {
    BlockStream rng({9, g, 0, 0, 0});
    const PlayoutResult r = playout(random_setup(9, g), Rules{}, PlayoutPolicy{}, rng);
    wins0 += r.winner == 0;
    plies += r.plies;
  }
  // ../shared/reference/ewn.md: first mover wins about 53.2%, games last 21.6 plies on average.
  EXPECT_NEAR(wins0 / double(n), 0.532, 0.03);
  EXPECT_NEAR(plies / double(n), 21.6, 1.0);
}

TEST(EwnPlayout, DeterministicForAFixedStream) {
  for (uint32_t g = 0; g < 1000; ++g) {
    const State s = random_setup(11, g);
    BlockStream a({11, g, 2, 3, 4}), b({11, g, 2, 3, 4});
    const PlayoutResult x = playout(s, Rules{}, PlayoutPolicy{}, a),
                        y = playout(s, Rules{}, PlayoutPolicy{}, b);
    EXPECT_EQ(x.winner, y.winner);
    EXPECT_EQ(x.plies, y.plies);
  }
  // Different rollouts of the same leaf give different games.
  std::map<std::pair<int, int>, int> outcomes;
  const State s = random_setup(11, 0);
  for (uint32_t r = 0; r < 200; ++r) {
    BlockStream rng({11, 0, 0, 0, r});
    const PlayoutResult x = playout(s, Rules{}, PlayoutPolicy{}, rng);
    ++outcomes[{x.winner, x.plies}];
  }
  EXPECT_GT(outcomes.size(), 10u);
}

TEST(RandomArrangement, IsAUniformPermutation) {
  std::map<std::string, int> counts;
  std::vector<std::vector<int>> slot_counts(6, std::vector<int>(6, 0));
  const int n = 72000;
  for (uint32_t i = 0; i < static_cast<uint32_t>(n); ++i) {
    WordStream rng({12, i, 0, kLeafSetup, 0});
    const Arrangement a = random_arrangement(rng);
    int seen = 0;
    for (int slot = 0; slot < 6; ++slot) {
      ASSERT_LT(a.cube_at_slot[slot], 6);
      seen |= 1 << a.cube_at_slot[slot];
      ++slot_counts[slot][a.cube_at_slot[slot]];
    }
    ASSERT_EQ(seen, 63) << "a permutation of 0..5";
    ++counts[to_string(a)];
  }
  EXPECT_EQ(counts.size(), 720u);
  double chi = 0;
  const double expected = n / 720.0;
  for (const auto& [text, c] : counts) chi += (c - expected) * (c - expected) / expected;
  EXPECT_LT(chi, 950.0) << "719 degrees of freedom";
  for (int slot = 0; slot < 6; ++slot)
    for (int cube = 0; cube < 6; ++cube)
      EXPECT_NEAR(slot_counts[slot][cube] / double(n), 1.0 / 6, 0.01);
}

}  // namespace
}  // namespace sp::ewn
