// The EWN game as the rollout backends and search see it: types and the playout entry point, a
// ChanceGame (core/game.hpp) whose chance outcomes are the die values, and a FeatureGame
// with the host-side hooks of search (Zobrist hash, history index).
#pragma once

#include <cstring>
#include <span>
#include <string_view>

#include "core/game.hpp"
#include "core/philox.hpp"
#include "games/ewn/ewn.hpp"
#include "games/ewn/features.hpp"
#include "games/ewn/playout.hpp"
#include "games/ewn/zobrist.hpp"

namespace sp {

struct EwnGame {
  static constexpr const char* kName = "ewn";
  using State = ewn::State;
  using Rules = ewn::Rules;
  using Policy = ewn::PlayoutPolicy;
  using Result = ewn::PlayoutResult;
  static constexpr uint8_t kNoWinner = ewn::kNoWinner;

  using Move = ewn::Move;
  using MoveList = ewn::MoveList;
  static constexpr int kMaxMoves = ewn::kMaxMoves;
  static constexpr int kChanceOutcomes = 6;  // die values; 0 for games without chance

  // Search-facing rules. A state "needs chance" when the die is not rolled yet.
  static bool needs_chance(const State& s) { return s.die == ewn::kNoDie; }
  static void set_chance(State& s, int outcome) { s.die = static_cast<uint8_t>(outcome + 1); }

  // Groups the die values of a chance state (die unrolled) into classes that allow the same moves
  // (the same movable cubes): one representative outcome per class and the number of die values it
  // stands for. Search keeps one subtree per class instead of per die value, which matters most in
  // endgames where most rolls move the same cube. Returns the number of classes.
  static int chance_classes(const State& s, const Rules& r, int representative[kChanceOutcomes],
                            int weight[kChanceOutcomes]) {
    uint32_t masks[kChanceOutcomes];
    int n = 0;
    for (int die = 1; die <= kChanceOutcomes; ++die) {
      const uint32_t m = ewn::movable_cubes(ewn::alive_of(s, s.side), die, r.substitution);
      int k = 0;
      while (k < n && masks[k] != m) ++k;
      if (k == n) masks[n] = m, representative[n] = die - 1, weight[n] = 0, ++n;
      ++weight[k];
    }
    return n;
  }
  // True when two decision states differ at most in a die value of the same class.
  static bool same_class(const State& a, const State& b, const Rules& r) {
    State x = a, y = b;
    x.die = y.die = ewn::kNoDie;
    if (std::memcmp(&x, &y, sizeof(State)) != 0) return false;
    return ewn::movable_cubes(ewn::alive_of(a, a.side), a.die, r.substitution) ==
           ewn::movable_cubes(ewn::alive_of(b, b.side), b.die, r.substitution);
  }
  static void generate_moves(const State& s, const Rules& r, MoveList& list) {
    ewn::generate_moves(s, r, list);
  }
  static void apply(State& s, Move m) { ewn::apply(s, m); }
  static bool is_over(const State& s) { return ewn::is_over(s); }
  static int winner(const State& s) { return s.winner; }
  static int side_to_move(const State& s) { return s.side; }

  // Rollouts first..last-1 of one leaf, several interleaved in one CPU thread (same results as
  // playout() on each stream); sink(rollout, result) gets each.
  template <class Sink>
  static void playout_many(const State& s, const Rules& rules, const Policy& policy, PhiloxKey key,
                           uint32_t ply, uint32_t leaf, uint32_t first, uint32_t last,
                           Sink&& sink) {
    ewn::playout_interleaved<4>(s, rules, policy, key, ply, leaf, first, last, sink);
  }

  // Host-side hooks (evaluation, search); device code never calls them.
  static constexpr int kNumFeatures = ewn::kNumFeatures;
  static constexpr std::span<const std::string_view> feature_names() { return ewn::kFeatureNames; }
  static constexpr std::span<const double> feature_max() { return ewn::kFeatureMax; }
  static void extract_features(const State& s, const Rules& r, float* out) {
    ewn::extract_features(s, r, out);
  }
  static uint64_t hash(const State& s) { return ewn::zobrist_key(s); }
  // History index of a move: (from, to) with the pass square as a 26th square.
  static constexpr int kMoveIndices = (ewn::kSquares + 1) * (ewn::kSquares + 1);
  static int move_index(Move m) { return m.from * (ewn::kSquares + 1) + m.to; }

  SP_HD static SP_FORCEINLINE Result playout(const State& s, const Rules& rules,
                                             const Policy& policy, BlockStream& rng) {
    return ewn::playout(s, rules, policy, rng);
  }
};

static_assert(ChanceGame<EwnGame> && FeatureGame<EwnGame>);

}  // namespace sp
