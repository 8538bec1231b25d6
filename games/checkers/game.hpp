// English checkers as the rollout backends and search see it: a DeterministicGame
// (core/game.hpp) and a FeatureGame, with the host-side hooks of search (Zobrist hash,
// captures as tactical moves, a history index) and of the repetition rule.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "core/game.hpp"
#include "core/philox.hpp"
#include "core/repetition.hpp"
#include "games/checkers/checkers.hpp"
#include "games/checkers/features.hpp"
#include "games/checkers/playout.hpp"
#include "games/checkers/zobrist.hpp"

namespace sp {
namespace checkers {

// Host code's move effect (CheckersGame::apply, the search's descents): the same as effect_of,
// from a table of reference_step by square and direction instead of masked shifts by a direction
// known only at run time, which branch on it (18% of a checkers MCTS descent's time in
// effect_of, perf, 2026-12-06). The kernels and lanes keep effect_of; a test compares the two on
// every move of many positions.
inline constexpr auto kStepSquare = [] {
  std::array<std::array<int8_t, kDirections>, kSquares> t{};
  for (int sq = 0; sq < kSquares; ++sq)
    for (int d = 0; d < kDirections; ++d) t[sq][d] = static_cast<int8_t>(reference_step(sq, d));
  return t;
}();

inline MoveEffect effect_by_table(Move m) {
  const int from = move_from(m), jumps = move_jumps(m);
  if (jumps == 0) return {1u << from, 1u << kStepSquare[from][move_direction(m, 0)], 0};
  int at = from;
  uint32_t captured = 0;
  for (int i = 0; i < jumps; ++i) {
    const int d = move_direction(m, i);
    const int over = kStepSquare[at][d];
    captured |= 1u << over;
    at = kStepSquare[over][d];
  }
  return {1u << from, 1u << at, captured};
}

}  // namespace checkers

struct CheckersGame {
  static constexpr const char* kName = "checkers";
  using State = checkers::State;
  // The draw limits travel in the state (see checkers.hpp): rules are read where a game starts
  // (GameHost<CheckersGame>::start) and ignored by the functions below.
  using Rules = checkers::Rules;
  using Policy = checkers::Policy;
  using Result = checkers::PlayoutResult;
  using Move = checkers::Move;
  using MoveList = checkers::MoveList;
  static constexpr uint8_t kNoWinner = checkers::kNoWinner;
  static constexpr int kMaxMoves = checkers::kMaxMoves;

  static void generate_moves(const State& s, const Rules&, MoveList& list) {
    checkers::generate_moves(s, list);
  }
  static void apply(State& s, Move m) {
    const checkers::MoveEffect e = checkers::effect_by_table(m);
    checkers::apply_effect(s, e.from, e.to, e.captured);
  }
  static bool is_over(const State& s) { return checkers::is_over(s); }
  static int winner(const State& s) { return checkers::winner(s); }
  static int side_to_move(const State& s) { return s.side; }

  // Rollouts first..last-1 of one leaf, one after the other.
  template <class Sink>
  static void playout_many(const State& s, const Rules&, const Policy& policy, PhiloxKey key,
                           uint32_t ply, uint32_t leaf, uint32_t first, uint32_t last,
                           Sink&& sink) {
    for (uint32_t r = first; r < last; ++r) {
      BlockStream rng(key, ply, leaf, r);
      sink(r, checkers::playout(s, policy, rng));
    }
  }

  SP_HD static SP_FORCEINLINE Result playout(const State& s, const Rules&, const Policy& policy,
                                             BlockStream& rng) {
    return checkers::playout(s, policy, rng);
  }

  // Host-side hooks (evaluation, search); device code never calls them.
  static constexpr int kNumFeatures = checkers::kNumFeatures;
  static constexpr int kRequiredFeatures = checkers::kRequiredFeatures;  // then the tables
  static constexpr std::span<const std::string_view> feature_names() {
    return checkers::kFeatureNames;
  }
  static constexpr std::span<const double> feature_max() { return checkers::kFeatureMax; }
  static void extract_features(const State& s, const Rules&, float* out) {
    checkers::extract_features(s, out);
  }
  // The first kRequiredFeatures only, for evaluations that weigh no table entry.
  static void extract_required_features(const State& s, const Rules&, float* out) {
    checkers::extract_features(s, out, false);
  }
  // The weighed sum of the table entries (the features after kRequiredFeatures), straight from
  // the pieces.
  static double table_score(const State& s, const Rules&, const double* table_weights) {
    return checkers::table_score(s, table_weights);
  }
  static uint64_t hash(const State& s) { return checkers::zobrist_key(s); }
  // Threefold repetition (core/repetition.hpp): positions repeat only through king moves
  // without capture, the moves the quiet counter counts.
  static int repetition_limit(const Rules& rules) { return rules.repetition; }
  static int reversible_plies(const State& s) { return s.quiet; }
  static bool same_position(const State& a, const State& b) {
    return checkers::same_position(a, b);
  }
  static bool is_tactical(const State&, Move m) { return checkers::move_jumps(m) > 0; }
  // Quiescence (host/engines/search/alphabeta.hpp): a position is quiet when the side to move has
  // no capture; captures are forced, so alpha-beta plays them out before it evaluates.
  static bool is_quiet(const State& s) { return checkers::all_jumpers(s) == 0; }
  // History index: start square, end square and first direction. Two jump paths of one position
  // that share all three (they part later) share an index, and history ordering treats them alike.
  static constexpr int kMoveIndices = checkers::kSquares * checkers::kSquares * 4;
  static int move_index(Move m) {
    const checkers::MoveEffect e = checkers::effect_of(m);
    return (checkers::move_from(m) * checkers::kSquares + lsb(e.to)) * 4 +
           checkers::move_direction(m, 0);
  }
};

static_assert(DeterministicGame<CheckersGame> && FeatureGame<CheckersGame> &&
              RepetitionGame<CheckersGame>);

}  // namespace sp
