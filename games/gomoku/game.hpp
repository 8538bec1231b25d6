// Gomoku as the rollout backends and search see it: a DeterministicGame (core/game.hpp)
// and a FeatureGame, with the host-side hooks of search (Zobrist hash, threats as tactical moves,
// a history index, candidate moves near the stones, continuous fours and threes as forced wins).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/game.hpp"
#include "core/philox.hpp"
#include "games/gomoku/features.hpp"
#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/move_choice.hpp"
#include "games/gomoku/move_scores.hpp"
#include "games/gomoku/playout.hpp"
#include "games/gomoku/playout_variants.hpp"
#include "games/gomoku/tactics.hpp"
#include "games/gomoku/threats.hpp"
#include "games/gomoku/zobrist.hpp"

namespace sp {

struct GomokuGame {
  static constexpr const char* kName = "gomoku";
  using State = gomoku::State;
  // The board size and the win rule travel in the state (see gomoku.hpp): rules are read where a
  // game starts (GameHost<GomokuGame>::start) and ignored by the functions below.
  using Rules = gomoku::Rules;
  using Policy = gomoku::Policy;
  using Result = gomoku::PlayoutResult;
  using Move = gomoku::Move;
  using MoveList = gomoku::MoveList;
  static constexpr uint8_t kNoWinner = gomoku::kNoWinner;
  static constexpr int kMaxMoves = gomoku::kMaxMoves;

  static void generate_moves(const State& s, const Rules&, MoveList& list) {
    gomoku::generate_moves(s, list);
  }
  static void apply(State& s, Move m) { gomoku::apply(s, m); }
  static bool is_over(const State& s) { return gomoku::is_over(s); }
  static int winner(const State& s) { return gomoku::winner(s); }
  static int side_to_move(const State& s) { return s.side; }

  // Rollouts first..last-1 of one leaf, one after the other.
  template <class Sink>
  static void playout_many(const State& s, const Rules&, const Policy& policy, PhiloxKey key,
                           uint32_t ply, uint32_t leaf, uint32_t first, uint32_t last,
                           Sink&& sink) {
    for (uint32_t r = first; r < last; ++r) {
      BlockStream rng(key, ply, leaf, r);
      sink(r, gomoku::playout(s, policy, rng));
    }
  }

  SP_HD static SP_FORCEINLINE Result playout(const State& s, const Rules&, const Policy& policy,
                                             BlockStream& rng) {
    return gomoku::playout(s, policy, rng);
  }

  // One kernel per board size and policy kind (core/game.hpp, VariantGame; playout_variants.hpp).
  static constexpr int kPlayoutVariants = gomoku::kPlayoutVariants;
  SP_HD static SP_FORCEINLINE int playout_variant(const State& s, const Policy& policy) {
    return gomoku::playout_variant(s, policy);
  }
  // Register hints per variant (core/game.hpp, kernel_min_blocks), measured with nvcc 13.0
  // for sm_90: 15x15 uniform drops from 64 to 48 registers with a hint of 1, 20x20 uniform from
  // 78 to 62 with 4, no spills; the weighted kernels only spill under any hint (15x15: 72
  // registers without, 64 and 28 bytes of spills with 4; scripts/kernel_resources.sh prints the
  // table); the pattern kernels (variants 4 and 5) keep their per-square arrays in local memory
  // and take no hint.
  static constexpr int kKernelMinBlocks[kPlayoutVariants] = {1, 0, 4, 0, 0, 0};
  template <int V>
  SP_HD static SP_FORCEINLINE Result playout_of(const State& s, const Rules&, const Policy& policy,
                                                BlockStream& rng) {
    return gomoku::kernel_playout<V>(s, policy, rng);
  }

  // Host-side hooks (evaluation, search); device code never calls them.
  static constexpr int kNumFeatures = gomoku::kNumFeatures;
  static constexpr int kRequiredFeatures = gomoku::kRequiredFeatures;  // then the pattern codes
  static constexpr std::span<const std::string_view> feature_names() {
    return gomoku::kFeatureNames;
  }
  static constexpr std::span<const double> feature_max() { return gomoku::kFeatureMax; }
  // The pattern search's move-score table (move_scores.hpp): `move_scores:` in a weights file.
  static constexpr std::span<const std::string_view> move_score_names() {
    return gomoku::kMoveScoreNames;
  }
  static constexpr std::span<const double> move_score_defaults() {
    return gomoku::kMoveScoreDefaults;
  }
  // A played move as a choice among the moves the pattern search orders there, each by its two
  // move-score entries (move_choice.hpp): the data `selfplay tune` fits move_scores to.
  static int move_choice(const State& s, const Rules&, Move played,
                         std::vector<std::array<int32_t, 2>>& out) {
    return gomoku::move_choice(s, played, out);
  }
  static void extract_features(const State& s, const Rules&, float* out) {
    gomoku::extract_features(s, out);
  }
  // The first kRequiredFeatures only, for evaluations that weigh no pattern code.
  static void extract_required_features(const State& s, const Rules&, float* out) {
    gomoku::extract_features(s, out, false);
  }
  // The first kPrefixFeatures only (the window counts), for evaluations that weigh no other.
  static constexpr int kPrefixFeatures = gomoku::kFirstPatternFeature;
  static void extract_prefix_features(const State& s, const Rules&, float* out) {
    gomoku::extract_window_features(s, out);
  }
  // The pattern features of every child at once (one pattern board, each move played and taken
  // back), for MCTS priors that weigh only them.
  static constexpr int kChildFeaturesFirst = gomoku::kFirstPatternFeature;
  static constexpr int kChildFeaturesEnd = gomoku::kRequiredFeatures;
  static void child_features(const State& s, const Rules&, const Move* moves, int n, float* out) {
    gomoku::child_pattern_features(s, moves, n, out);
  }
  // The weighed sum of the pattern code features, straight from the board.
  static double table_score(const State& s, const Rules&, const double* table_weights) {
    return gomoku::code_score(s, table_weights);
  }
  static uint64_t hash(const State& s) { return gomoku::zobrist_key(s); }
  static bool is_tactical(const State& s, Move m) { return gomoku::is_tactical(s, m); }
  // History index: the square on the largest board.
  static constexpr int kMoveIndices = gomoku::kMaxSquares;
  static int move_index(Move m) { return m.y * gomoku::kMaxSize + m.x; }
  static void candidate_moves(const State& s, const Rules&, MoveList& list) {
    gomoku::candidate_moves(s, list);
  }
  // Victory by continuous fours, or by fours and threes (threats.hpp), for alpha-beta's
  // threat_nodes; stop is the move's clock.
  static int forced_win(const State& s, uint32_t node_budget, int max_plies, bool broad,
                        Move* first, StopCheck stop = {}) {
    return gomoku::forced_win(s, node_budget, max_plies, broad, first, stop);
  }
};

static_assert(DeterministicGame<GomokuGame> && FeatureGame<GomokuGame> && VariantGame<GomokuGame>);

}  // namespace sp
