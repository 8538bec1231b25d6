// Helpers shared by the EWN tests: field-by-field state comparison, move sets and random
// mid-game positions built only from legal moves.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/philox.hpp"
#include "games/ewn/ewn.hpp"
#include "games/ewn/notation.hpp"
#include "games/ewn/playout.hpp"

namespace sp::ewn::test {

inline void expect_same_state(const State& a, const State& b, const std::string& context = "") {
  EXPECT_EQ(a.squares, b.squares) << context;
  EXPECT_EQ(a.occ[0], b.occ[0]) << context;
  EXPECT_EQ(a.occ[1], b.occ[1]) << context;
  EXPECT_EQ(a.alive, b.alive) << context;
  EXPECT_EQ(a.side, b.side) << context;
  EXPECT_EQ(a.die, b.die) << context;
  EXPECT_EQ(a.winner, b.winner) << context;
}

inline std::vector<std::string> move_strings(const State& s, const Rules& rules) {
  MoveList list;
  generate_moves(s, rules, list);
  std::vector<std::string> out;
  for (int k = 0; k < list.size; ++k) out.push_back(to_string(list.moves[k]));
  return out;
}

inline std::set<std::string> move_set(const State& s, const Rules& rules) {
  const auto v = move_strings(s, rules);
  return {v.begin(), v.end()};
}

// A random position reached by legal moves from random arrangements; never over. The die is
// rolled when roll_die is set, otherwise '-'.
inline State random_midgame(uint64_t seed, uint32_t index, const Rules& rules, bool roll_die) {
  WordStream rng({seed, index, 0, kLeafSetup, 0});
  const Arrangement a0 = random_arrangement(rng), a1 = random_arrangement(rng);
  State s = initial_state(a0, a1, static_cast<int>(rng.below(2)));
  const int plies = static_cast<int>(rng.below(40));
  for (int p = 0; p < plies; ++p) {
    State t = s;
    t.die = static_cast<uint8_t>(1 + rng.below(6));
    MoveList list;
    generate_moves(t, rules, list);
    apply(t, list.moves[rng.below(static_cast<uint32_t>(list.size))]);
    if (is_over(t)) break;
    s = t;
  }
  if (roll_die) s.die = static_cast<uint8_t>(1 + rng.below(6));
  return s;
}

inline Rules rules_variant(int k) {
  Rules r;
  r.capture_own = (k & 1) == 0;
  r.substitution = (k & 2) ? Substitution::kNearest : Substitution::kNextLowerOrHigher;
  return r;
}

}  // namespace sp::ewn::test
