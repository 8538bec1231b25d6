// The engines of every game that play through rollouts or at random (MCTS, flat Monte Carlo,
// random) over the interface of core/engine.hpp, and decide_in_place for callers with one game.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/engine.hpp"
#include "core/philox.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/search/mcts.hpp"

namespace sp::search {

// UCT engine over the batched tree; with an evaluator (named in describe() by evaluator_name) it
// can blend priors into leaf values and bias selection (MctsParams::eval_blend, progressive_bias).
template <sp::Game Game>
class MctsEngine final : public Engine<Game> {
 public:
  using typename Engine<Game>::State;
  using typename Engine<Game>::Move;
  using typename Engine<Game>::Leaf;
  using Evaluator = typename Mcts<Game>::Evaluator;

  MctsEngine(const MctsParams& params, const typename Game::Rules& rules, uint32_t policy_slot,
             Evaluator evaluator = {}, std::string evaluator_name = {})
      : params_(params),
        tree_(params, rules, std::move(evaluator)),
        policy_slot_(policy_slot),
        evaluator_name_(std::move(evaluator_name)) {}

  std::string describe() const override {
    std::string out = "mcts(" + std::to_string(params_.rollouts_per_move) + " rollouts/move, " +
                      std::to_string(params_.rollouts_per_leaf) +
                      "/leaf, c=" + std::to_string(params_.exploration);
    if (params_.eval_blend > 0 || params_.progressive_bias > 0)
      out += ", eval " + evaluator_name_ + " blend=" + std::to_string(params_.eval_blend) +
             " bias=" + std::to_string(params_.progressive_bias);
    if (endgame_named_) out += ", endgame databases";
    return out + ")";
  }
  void new_game() override { tree_.reset(); }
  void begin(const State& root, const SearchIds& ids) override { tree_.begin(root, ids); }
  void collect(std::vector<Leaf>& out) override {
    const size_t first = out.size();
    tree_.select_leaves(out);
    for (size_t i = first; i < out.size(); ++i) out[i].policy = policy_slot_;
  }
  void absorb(std::span<const rollout::LeafStats> stats) override { tree_.backup(stats); }
  bool decided() const override { return tree_.finished(); }
  Move decision(MoveStats* stats) override { return tree_.best_move(stats); }
  void report(SearchReport<Move>& out, uint32_t candidates) const override {
    tree_.report(out, candidates);
  }
  void observe(Move move, const State& next_root) override { tree_.advance(move, next_root); }
  void set_time_limit(uint32_t ms) override { tree_.set_time_limit(ms ? ms : params_.time_ms); }
  void set_interrupt(const std::atomic<bool>* flag) override { tree_.set_interrupt(flag); }
  // The evaluator's priors of a node's children at once (Mcts::set_children_evaluator).
  void set_children_evaluator(typename Mcts<Game>::ChildrenEvaluator f) {
    tree_.set_children_evaluator(std::move(f));
  }
  // Endgame databases solving the nodes they cover (Mcts::set_endgame); before the first move.
  void set_endgame(std::shared_ptr<const EndgameProbe<State>> tables) {
    endgame_named_ = tables != nullptr;
    tree_.set_endgame(std::move(tables));
  }

 private:
  bool endgame_named_ = false;
  MctsParams params_;
  Mcts<Game> tree_;
  uint32_t policy_slot_;
  std::string evaluator_name_;
};

// Flat Monte Carlo: the budget split evenly over the legal moves in one round; the best mean wins.
template <sp::Game Game>
class FlatEngine final : public Engine<Game> {
 public:
  using typename Engine<Game>::State;
  using typename Engine<Game>::Move;
  using typename Engine<Game>::Leaf;

  FlatEngine(uint32_t rollouts_per_move, const typename Game::Rules& rules, uint32_t policy_slot)
      : budget_(rollouts_per_move), rules_(rules), policy_slot_(policy_slot) {}

  std::string describe() const override {
    return "flat(" + std::to_string(budget_) + " rollouts/move)";
  }
  void new_game() override {}
  void begin(const State& root, const SearchIds& ids) override {
    ids_ = ids;
    root_ = root;
    Game::generate_moves(root, rules_, moves_);
    values_.assign(moves_.size, 0.0);
    rollouts_.assign(moves_.size, 0);
    spent_ = 0;
    state_ = moves_.size == 1 ? Phase::kDecided : Phase::kWant;
  }
  void collect(std::vector<Leaf>& out) override {
    if (state_ != Phase::kWant) return;
    const uint32_t per_move = std::max<uint32_t>(1, budget_ / static_cast<uint32_t>(moves_.size));
    for (int i = 0; i < moves_.size; ++i) {
      State child = root_;
      Game::apply(child, moves_.moves[i]);
      out.push_back(
          Leaf{child, ids_.game, ids_.ply, static_cast<uint32_t>(i), per_move, policy_slot_});
    }
    state_ = Phase::kWaiting;
  }
  void absorb(std::span<const rollout::LeafStats> stats) override {
    const int mover = Game::side_to_move(root_);
    for (size_t i = 0; i < stats.size(); ++i) {
      const double wins = stats[i].wins[mover] + 0.5 * stats[i].draws;
      values_[i] = stats[i].rollouts ? wins / stats[i].rollouts : 0.5;
      rollouts_[i] = stats[i].rollouts;
      spent_ += stats[i].rollouts;
    }
    state_ = Phase::kDecided;
  }
  bool decided() const override { return state_ == Phase::kDecided; }
  Move decision(MoveStats* stats) override {
    int best = 0;
    for (int i = 1; i < moves_.size; ++i)
      if (values_[i] > values_[best]) best = i;
    if (stats) {
      stats->visits = 1;
      stats->value = static_cast<float>(values_.empty() ? 0.5 : values_[best]);
      stats->rollouts = spent_;
      stats->tree_nodes = 0;
      stats->leaves = static_cast<uint32_t>(moves_.size);
    }
    return moves_.moves[best];
  }
  // Candidates: the best means first (visits: the move's rollouts); the variation: the move.
  void report(SearchReport<Move>& out, uint32_t candidates) const override {
    out.kind = SearchKind::kFlat;
    out.played = spent_;
    std::vector<int> order(static_cast<size_t>(moves_.size));
    for (int i = 0; i < moves_.size; ++i) order[static_cast<size_t>(i)] = i;
    // decision()'s order: the higher mean, then generation order.
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return values_[static_cast<size_t>(a)] > values_[static_cast<size_t>(b)];
    });
    const size_t k = std::min<size_t>(candidates, values_.size());
    for (size_t i = 0; i < k; ++i) {
      const auto m = static_cast<size_t>(order[i]);
      out.candidates.push_back({moves_.moves[m], rollouts_[m], values_[m]});
    }
    if (!order.empty()) out.pv.push_back({-1, moves_.moves[order[0]]});
  }
  void observe(Move, const State&) override {}

 private:
  enum class Phase { kWant, kWaiting, kDecided };
  uint32_t budget_;
  typename Game::Rules rules_;
  uint32_t policy_slot_;
  SearchIds ids_;
  State root_{};
  typename Game::MoveList moves_;
  std::vector<double> values_;
  std::vector<uint32_t> rollouts_;  // each move's
  uint64_t spent_ = 0;
  Phase state_ = Phase::kDecided;
};

// Uniformly random legal move from the search stream of (seed, game, ply).
template <sp::Game Game>
class RandomEngine final : public Engine<Game> {
 public:
  using typename Engine<Game>::State;
  using typename Engine<Game>::Move;
  using typename Engine<Game>::Leaf;

  explicit RandomEngine(const typename Game::Rules& rules) : rules_(rules) {}
  std::string describe() const override { return "random"; }
  void new_game() override {}
  void begin(const State& root, const SearchIds& ids) override {
    typename Game::MoveList moves;
    Game::generate_moves(root, rules_, moves);
    WordStream rng({ids.seed, ids.game, ids.ply, kLeafSearch, 1});
    move_ = moves.moves[rng.below(static_cast<uint32_t>(moves.size))];
  }
  void collect(std::vector<Leaf>&) override {}
  void absorb(std::span<const rollout::LeafStats>) override {}
  bool decided() const override { return true; }
  Move decision(MoveStats* stats) override {
    if (stats) *stats = MoveStats{};
    return move_;
  }
  void report(SearchReport<Move>& out, uint32_t) const override {
    out.kind = SearchKind::kRandom;
    out.pv.push_back({-1, move_});
  }
  void observe(Move, const State&) override {}

 private:
  typename Game::Rules rules_;
  Move move_{};
};

// Whether m is one of the moves of s under rules; true for a game whose moves cannot be compared.
template <sp::Game Game>
bool is_legal_move(const typename Game::State& s, const typename Game::Rules& rules,
                   const typename Game::Move& m) {
  if constexpr (requires(const typename Game::Move& a) { a == a; }) {
    typename Game::MoveList legal;
    Game::generate_moves(s, rules, legal);
    for (int k = 0; k < legal.size; ++k)
      if (legal.moves[k] == m) return true;
    return false;
  } else {
    return true;
  }
}

// Decides engine's move at root with its rounds of leaves run one at a time on backend, for callers
// with one game and no other games to batch with (terminal play, `selfplay pbrain`, the checkers
// engine protocol); the driver batches the rounds of many games instead. leaves and leaf_stats are
// the caller's buffers. The move is checked against the rules before it is returned: an engine's
// illegal move (a bug) throws std::logic_error rather than reaching a board or a protocol peer.
template <sp::Game Game>
typename Game::Move decide_in_place(Engine<Game>& engine, const typename Game::State& root,
                                    const SearchIds& ids, rollout::Backend<Game>& backend,
                                    const rollout::PlayoutParams<Game>& params, MoveStats* stats,
                                    std::vector<rollout::Leaf<Game>>& leaves,
                                    std::vector<rollout::LeafStats>& leaf_stats) {
  engine.begin(root, ids);
  while (!engine.decided()) {
    leaves.clear();
    engine.collect(leaves);
    if (leaves.empty()) {
      // A round can spend the rest of the budget on terminal nodes, which need no rollouts.
      if (engine.decided()) break;
      throw std::logic_error("engine neither decided nor asked for leaves");
    }
    leaf_stats.assign(leaves.size(), rollout::LeafStats{});
    backend.run(leaves, params, leaf_stats);
    engine.absorb(leaf_stats);
  }
  const typename Game::Move move = engine.decision(stats);
  if (!is_legal_move<Game>(root, params.rules, move))
    throw std::logic_error("internal error: " + engine.describe() +
                           " chose an illegal move in game " + std::to_string(ids.game) +
                           " at ply " + std::to_string(ids.ply));
  return move;
}

}  // namespace sp::search
