// What rollouts, kernels and search need from a game: the Game concept, and ChanceGame for games
// with chance outcomes (dice) between decisions. A game is a struct of types and static functions
// in games/<game>/game.hpp (EWN's is the model); backends, kernels, MCTS and engines are
// templates constrained by these concepts, so a game is added without touching them.
//
// Contract beyond what the compiler checks (games state it and their tests check it):
// - Two players, 0 and 1. side_to_move(s) is 0 or 1 for a state that is not over.
// - State is trivially copyable, small enough to live in registers on a GPU, and canonical: equal
//   positions are equal byte for byte (padding zeroed), because search compares states bytewise.
// - generate_moves(s, rules, list) requires !is_over(s) (and, in a ChanceGame, the chance outcome
//   drawn); it lists at most kMaxMoves moves, never none (a game that can be stuck lists a pass),
//   in an order that depends only on s and rules.
// - winner(s) of a state that is over is 0, 1, or kNoWinner for a draw.
// - playout(s, rules, policy, rng) plays s to the end, callable on host and device (SP_HD), and
//   draws only from rng: one 32-bit word per ply, taken from the stream's blocks in order
//   (v[0..3] of a block, then the next block), turned into a choice by bounded(). Result carries
//   winner (as winner()) and plies. A state that is already over returns its winner and 0 plies.
// - playout_many(s, rules, policy, key, ply, leaf, first, last, sink) gives sink(r, result) for
//   rollouts r in [first, last), each exactly what playout() gives on BlockStream(key, ply, leaf,
//   r), in any order (the CPU backend interleaves several rollouts per thread).
//
// FeatureGame adds the host-side evaluation features that linear evaluations (host/engines/eval)
// weigh and tuning fits. Host search also finds optional hooks at compile time
// (host/engines/search/game_hooks.hpp: a Zobrist hash, tactical moves, a history index). Host-only
// hooks may live in a game struct that nvcc compiles as long as device code never calls them.
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "core/philox.hpp"

namespace sp {

namespace game_detail {
// A playout_many sink, for the concept's check only.
template <class Result>
struct ResultSink {
  void operator()(uint32_t, const Result&) const {}
};
}  // namespace game_detail

// clang-format 14 breaks concept definitions apart; these are formatted by hand.
// clang-format off
template <class G>
concept Game =
    requires {
      typename G::State;
      typename G::Move;
      typename G::MoveList;
      typename G::Rules;
      typename G::Policy;
      typename G::Result;
      { G::kName } -> std::convertible_to<const char*>;
      { G::kMaxMoves } -> std::convertible_to<int>;
      { G::kNoWinner } -> std::convertible_to<int>;
    } &&
    std::is_trivially_copyable_v<typename G::State> &&
    std::is_trivially_copyable_v<typename G::Move> && std::default_initializable<typename G::Move> &&
    std::equality_comparable<typename G::Move> && std::default_initializable<typename G::Rules> &&
    std::default_initializable<typename G::Policy> &&
    requires(typename G::State& s, const typename G::State& cs, typename G::Move m,
             typename G::MoveList& list, const typename G::Rules& rules,
             const typename G::Policy& policy, BlockStream& rng, PhiloxKey key, uint32_t n,
             const typename G::Result& result) {
      G::generate_moves(cs, rules, list);
      { list.size } -> std::convertible_to<int>;
      { list.moves[0] } -> std::convertible_to<typename G::Move>;
      G::apply(s, m);
      { G::is_over(cs) } -> std::same_as<bool>;
      { G::winner(cs) } -> std::convertible_to<int>;
      { G::side_to_move(cs) } -> std::convertible_to<int>;
      { G::playout(cs, rules, policy, rng) } -> std::same_as<typename G::Result>;
      G::playout_many(cs, rules, policy, key, n, n, n, n,
                      game_detail::ResultSink<typename G::Result>{});
      { result.winner } -> std::convertible_to<int>;
      { result.plies } -> std::convertible_to<uint64_t>;
    };

// A game with chance outcomes (die rolls) between decisions. A state that needs_chance is a chance
// state: its outcome, one of kChanceOutcomes equally likely values, is drawn before the side to move
// decides; set_chance(s, k) draws outcome k (0-based), and on a decision state replaces the drawn
// outcome with k (search names and canonicalises a root's outcome that way). chance_classes groups
// the outcomes of a chance state into classes that allow the same moves (one representative
// outcome, the smallest of its class, and the number of outcomes per class; returns the number of
// classes); same_class(a, b) is true for two decision states that differ at most in an outcome of
// the same class. apply() leaves a chance state (or a state that is over).
template <class G>
concept ChanceGame =
    Game<G> && requires(typename G::State& s, const typename G::State& cs,
                        const typename G::Rules& rules, int* outcomes) {
      { G::kChanceOutcomes } -> std::convertible_to<int>;
      requires G::kChanceOutcomes > 0;
      { G::needs_chance(cs) } -> std::same_as<bool>;
      G::set_chance(s, 0);
      { G::chance_classes(cs, rules, outcomes, outcomes) } -> std::convertible_to<int>;
      { G::same_class(cs, cs, rules) } -> std::same_as<bool>;
    };

// A game with evaluation features, computed on the host: kNumFeatures values per position from the
// side to move's view, named by feature_names() (in vector order; the names are what weights files
// and the HDF5 feature list use), with |feature i| <= feature_max()[i] for every position so that a
// linear evaluation has a known bound. extract_features(s, rules, out) fills out[0..kNumFeatures)
// for a state that is not over; the chance outcome is ignored.
template <class G>
concept FeatureGame =
    Game<G> && requires(const typename G::State& cs, const typename G::Rules& rules, float* out) {
      { G::kNumFeatures } -> std::convertible_to<int>;
      requires G::kNumFeatures > 0;
      { G::feature_names() } -> std::convertible_to<std::span<const std::string_view>>;
      { G::feature_max() } -> std::convertible_to<std::span<const double>>;
      G::extract_features(cs, rules, out);
    };

// clang-format on

// A game without chance: every move leads straight to the next decision (or the end).
template <class G>
concept DeterministicGame = Game<G> && !ChanceGame<G>;

// Number of chance outcomes; 0 for a deterministic game.
template <Game G>
inline constexpr int chance_outcomes() {
  if constexpr (ChanceGame<G>)
    return G::kChanceOutcomes;
  else
    return 0;
}

// Playout variants (optional): a game whose playout takes very different code paths by state and
// policy (Gomoku: two board sizes, two policies) names them, so that a GPU gives each path a
// kernel of its own, whose registers are those of that path alone, not the largest of all.
// kPlayoutVariants: how many; playout_variant(s, policy): the variant of a leaf (0 ..
// kPlayoutVariants - 1); playout_of<V>(s, rules, policy, rng): the playout of that path, exactly
// what playout() gives for every leaf of variant V. Games without them have one variant, playout().
// clang-format off
template <class G>
concept VariantGame =
    Game<G> && requires(const typename G::State& cs, const typename G::Policy& policy) {
      { G::kPlayoutVariants } -> std::convertible_to<int>;
      requires G::kPlayoutVariants > 0;
      { G::playout_variant(cs, policy) } -> std::convertible_to<int>;
    };
// clang-format on

template <Game G>
inline constexpr int playout_variants() {
  if constexpr (VariantGame<G>)
    return G::kPlayoutVariants;
  else
    return 1;
}

template <Game G>
SP_HD SP_FORCEINLINE int playout_variant(const typename G::State& s,
                                         const typename G::Policy& policy) {
  if constexpr (VariantGame<G>)
    return G::playout_variant(s, policy);
  else
    return 0;
}

// Blocks of 256 threads of variant V's kernel that a GPU's SM should hold at once, a hint to the
// register allocator (CUDA's __launch_bounds__): G::kKernelMinBlocks[V] when the game gives it
// (measured per variant: where it lowers registers without spills), else 0 (no hint).
template <Game G, int V>
constexpr int kernel_min_blocks() {
  if constexpr (requires { G::kKernelMinBlocks[V]; })
    return G::kKernelMinBlocks[V];
  else
    return 0;
}

template <Game G, int V>
SP_HD SP_FORCEINLINE typename G::Result variant_playout(const typename G::State& s,
                                                        const typename G::Rules& rules,
                                                        const typename G::Policy& policy,
                                                        BlockStream& rng) {
  if constexpr (VariantGame<G>)
    return G::template playout_of<V>(s, rules, policy, rng);
  else
    return G::playout(s, rules, policy, rng);
}

}  // namespace sp
