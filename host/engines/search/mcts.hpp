// Batched UCT, with chance nodes for games that have chance (ChanceGame), one tree per game. The
// tree never runs playouts itself: it hands out leaves (select_leaves) and takes their statistics
// back (backup), so many trees can share one rollout batch on any backend.
//
// Tree shape: decision nodes (side to move, chance outcome known) have one child per legal move,
// or per candidate move where the game offers the candidate_moves hook (game_hooks.hpp: Gomoku's
// squares near the stones, only the wins or blocks when a side threatens five).
// In a ChanceGame the child is a chance node (outcome not yet drawn) or a terminal node, and a
// chance node has one decision child per class of outcomes that allow the same moves
// (Game::chance_classes); leaves are chance nodes on their first visit. In a deterministic game
// the child is the next decision node or a terminal node, and leaves are decision nodes on their
// first visit (never the root, which begin() expands). Any non-terminal node is a leaf again when
// the node budget is exhausted. Terminal nodes are scored exactly, without rollouts.
//
// Values: every node keeps the sum of rollout results from player 0's view (win 1, draw 1/2) and
// the number of results. A chance node's value is the expectation over its visited outcome classes,
// each weighted by its probability (the die is fair), not the visit-weighted mean; a decision
// node's value is the visit-weighted mean. Each node caches its value, refreshed when a result
// passes through it, so selection reads one number per child.
//
// Memory: nodes hold statistics and the move (or chance outcome) that leads to them, never a
// state: only the root's state is kept, and selection recomputes the states along its path by
// applying the moves and outcomes from the root. A node costs bytes_per_node() bytes whatever the
// size of the game's state (48 for EWN and for a 400-move game with a 100-byte state), and the
// arena never holds more than node_budget MiB of nodes (plus one root expansion). The budget
// decides which nodes exist only once it is full, so records change with the layout only for
// trees that reach it.
//
// Evaluation (optional): an evaluator gives every new non-terminal node a prior, player 0's win
// probability in [0, 1]. eval_blend b mixes it into each rollout leaf's result, (1 - b) * rollout
// mean + b * prior (exact terminal results are kept); progressive_bias adds
// progressive_bias * prior(mover) / (visits + 1) to a move's UCT score (Chaslot et al. 2008). With
// both at 0 (the defaults) the search is exactly the plain UCT one and the evaluator is not called.
//
// Endgame databases (optional, set_endgame): below a root they do not cover, a new decision node
// whose position they cover is solved: a terminal node with the databases' exact value, never
// expanded, scored like the end of a game. A root they cover keeps only the moves that preserve its
// best result (endgame_root.hpp), searched by rollouts as usual without probing below (the
// databases know results, not distances: a tree of equal solved wins would not make progress);
// such a root starts a fresh tree.
//
// Time (optional): with time_ms > 0 a search also stops handing out leaves once time_ms of wall
// clock has passed since begin(), after at least one round (so a move always has some playouts);
// rollouts_per_move stays the upper bound. With time_ms == 0 (the default) the clock is never read
// into a decision and searches stay deterministic.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/deadline.hpp"
#include "core/endgame.hpp"
#include "core/engine.hpp"
#include "core/philox.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/search/endgame_root.hpp"
#include "host/engines/search/game_hooks.hpp"

namespace sp::search {

enum class ChanceSelection { kSample, kRoundRobin };

struct MctsParams {
  uint32_t rollouts_per_move = 1000;
  uint32_t rollouts_per_leaf = 8;
  double exploration = 0.7;
  uint32_t virtual_loss = 1;
  uint32_t leaves_per_round = 4;  // descents per round
  uint32_t fanout = 1;            // leaves a descent that expands a decision node sends (below)
  // What a fanned node and the nodes above it learn from its children's leaves: every leaf, as
  // any other (false), or one result, its best child's mean for the side to move there, each leaf
  // counting for its child alone (true: a one-ply minimax of the sample, which the mean of replies
  // sampled without regard to their strength is not).
  bool fanout_best = false;
  ChanceSelection chance = ChanceSelection::kSample;
  double node_budget = 16;  // MiB of tree nodes per tree (fractions allowed: tests use tiny trees)
  bool reuse_tree = true;
  double eval_blend = 0;        // weight of the evaluator's prior in a leaf's value, 0..1
  double progressive_bias = 0;  // weight of the prior term in UCT selection
  uint32_t time_ms = 0;         // wall-clock limit per move on top of the rollouts; 0 = none
};

namespace mcts_detail {
// log(max(1, n)) for the parent visit counts UCT meets most, computed once by the same std::log the
// search would call, so a table lookup gives the very bits of the call it replaces.
inline constexpr uint32_t kLogTableSize = 1u << 16;
inline const std::array<double, kLogTableSize> kLogTable = [] {
  std::array<double, kLogTableSize> t{};
  for (uint32_t n = 0; n < kLogTableSize; ++n)
    t[n] = std::log(std::max(1.0, static_cast<double>(n)));
  return t;
}();

inline double log_visits(uint32_t n) {
  return n < kLogTableSize ? kLogTable[n] : std::log(static_cast<double>(n));
}
}  // namespace mcts_detail

template <sp::Game Game>
class Mcts {
 public:
  using State = typename Game::State;
  using Move = typename Game::Move;
  using Rules = typename Game::Rules;
  // Prior of a non-terminal state: player 0's win probability, 0..1. Deterministic.
  using Evaluator = std::function<double(const State&)>;
  // The evaluator's priors of every child of a decision node at once (out[k]: the position after
  // moves[k]), exactly as the evaluator gives them one by one, but cheaper. Optional.
  using ChildrenEvaluator =
      std::function<void(const State& parent, const Move* moves, int n, double* out)>;

  // The evaluator is needed (and used) only when eval_blend or progressive_bias is above 0.
  Mcts(const MctsParams& params, const Rules& rules, Evaluator evaluator = {})
      : p_(params), rules_(rules), evaluator_(std::move(evaluator)) {
    if (!(p_.node_budget > 0))
      throw std::invalid_argument("mcts: node_budget must be above 0 MiB, found " +
                                  std::to_string(p_.node_budget));
    if ((p_.eval_blend > 0 || p_.progressive_bias > 0) && !evaluator_)
      throw std::invalid_argument("mcts: eval_blend and progressive_bias need an evaluator");
    if (p_.eval_blend == 0 && p_.progressive_bias == 0) evaluator_ = nullptr;
    node_limit_ = nodes_for_budget(p_.node_budget);
  }

  // Bytes one node takes in the arena; the game's state is not among them.
  static constexpr size_t bytes_per_node() { return sizeof(Node); }
  // Nodes that fit in a budget of `mib` MiB (at least one).
  static size_t nodes_for_budget(double mib) {
    const double nodes = std::floor(mib * 1048576.0 / static_cast<double>(sizeof(Node)));
    return nodes < 1 ? 1 : nodes > 4e9 ? size_t{4'000'000'000} : static_cast<size_t>(nodes);
  }
  size_t node_limit() const { return node_limit_; }
  // Bytes the node arena holds now (its capacity, not only the nodes in use).
  size_t node_bytes() const { return nodes_.capacity() * sizeof(Node); }

  // Starts the search of a move from root (a decision state: chance outcome known, game not over).
  // Reuses the subtree kept by advance() when it matches root.
  void begin(const State& root, const SearchIds& ids) {
    ids_ = ids;
    next_leaf_ = 0;
    spent_ = 0;
    in_flight_rollouts_ = 0;
    leaves_evaluated_ = 0;
    played_ = 0;
    sampler_ = WordStream({ids.seed, ids.game, ids.ply, kLeafSearch, 0});
    if (p_.time_ms > 0 || deadline_.interruptible()) deadline_.start(p_.time_ms);
    // A covered root: its kept moves and no probes below (see the header); the tree kept from the
    // last move was grown with probes, so it starts again.
    root_moves_.clear();
    if constexpr (!kChance)
      if (endgame_) {
        typename Game::MoveList kept;
        hooks::searched_moves<Game>(root, rules_, kept);
        if (keep_endgame_moves<Game>(*endgame_, root, kept))
          root_moves_.assign(kept.moves, kept.moves + kept.size);
      }
    probe_ = endgame_ && root_moves_.empty();
    if (nodes_.empty() || !same_state(root_, root) || !root_moves_.empty()) {
      nodes_.clear();
      root_ = root;
      make_room(1);
      nodes_.push_back(make_node(root, Kind::kDecision, Move{}, false));
    }
    expand(0, root_);
    // A forced move needs no search.
    single_move_ = nodes_[0].num_children == 1;
  }

  // True when the budget is spent and nothing is in flight: best_move() is final.
  bool finished() const {
    return (single_move_ || spent_ >= p_.rollouts_per_move || out_of_time()) && pending_.empty();
  }
  // The wall-clock limit of the following searches (MctsParams::time_ms), 0 = none.
  void set_time_limit(uint32_t ms) { p_.time_ms = ms; }
  // Endgame databases that solve the nodes they cover (null: none). Before the first begin().
  void set_endgame(std::shared_ptr<const EndgameProbe<State>> tables) {
    endgame_ = std::move(tables);
  }
  // A flag that ends the following searches when set (Deadline::set_interrupt).
  void set_interrupt(const std::atomic<bool>* flag) { deadline_.set_interrupt(flag); }
  // The priors of a node's children at once (ChildrenEvaluator), used where the evaluator is.
  void set_children_evaluator(ChildrenEvaluator f) {
    if (evaluator_) children_evaluator_ = std::move(f);
  }
  // True when select_leaves() would add nothing now (budget spent, or results are pending).
  bool wants_leaves() const { return !single_move_ && pending_.empty() && budget_left(); }

  // Appends the leaves of up to leaves_per_round descents (each leaf with rollouts_per_leaf
  // rollouts) to out. A descent ends in one leaf, or with fanout > 1 in up to fanout leaves: a
  // descent that reaches a decision node on its first visit (in a game without chance instead of
  // evaluating the node itself) expands it and sends fanout of its children: all of them when
  // they fit, else the tactical ones first and a uniform sample of the rest (fan_out); never
  // more than the budget left needs. Experimental: see experiments/rollout-scaling/.
  // Terminal nodes met on the way are scored at once and count against the budget. Call backup()
  // with the statistics of exactly these leaves, in order, before the next call.
  void select_leaves(std::vector<rollout::Leaf<Game>>& out) {
    if (!wants_leaves()) return;
    fan_groups_.clear();
    fan_paths_.clear();
    const bool fan = p_.fanout > 1;
    // Terminal nodes do not count as leaves of the round (they need no rollouts), so a round ends
    // with at least one leaf unless the budget runs out.
    for (uint32_t k = 0; k < p_.leaves_per_round && budget_left();) {
      path_.clear();
      State s = root_;  // the state of `node`, rebuilt move by move
      uint32_t node = 0;
      bool fanned = false;  // node was expanded by this descent: its children are the leaves
      for (;;) {
        path_.push_back(node);
        const Node& n = nodes_[node];
        if (n.kind == Kind::kTerminal) break;
        if constexpr (kChance) {
          if (n.kind == Kind::kChance) {
            if (n.visits + n.in_flight == 0) break;  // first visit: evaluate by rollouts
            if (!expand(node, s)) break;             // budget full: evaluate again
            node = pick_outcome(node);
            Game::set_chance(s, nodes_[node].outcome);
            continue;
          }
        } else {
          if (!fan && n.visits + n.in_flight == 0 && n.first_child == kNone) break;  // first visit
        }
        const bool fresh = fan && n.visits + n.in_flight == 0;  // the root too (begin expands it)
        if (!expand(node, s)) break;
        if (fresh) {
          fanned = true;
          break;
        }
        node = pick_move(node, Game::side_to_move(s));
        Game::apply(s, nodes_[node].move);
      }
      if (fanned) {
        if (fan_out(node, s, out) > 0) ++k;
        continue;
      }
      if (nodes_[node].kind == Kind::kTerminal) {
        score_terminal();
        continue;
      }
      add_leaf(s, out);
      ++k;
    }
  }

  // Statistics for the leaves of the last select_leaves() call, in order.
  void backup(std::span<const rollout::LeafStats> stats) {
    if (stats.size() != pending_.size())
      throw std::logic_error("mcts: backup() with " + std::to_string(stats.size()) +
                             " results for " + std::to_string(pending_.size()) + " leaves");
    // A campaign steps thousands of trees between two rounds of one tree, so its nodes are out
    // of the cache here; asking for every node of every path at once overlaps the misses.
    for (uint32_t node : pending_paths_) {
      const char* bytes = reinterpret_cast<const char*>(nodes_.data() + node);
      __builtin_prefetch(bytes, 1);
      __builtin_prefetch(bytes + sizeof(Node) - 1, 1);
    }
    const bool blend = p_.eval_blend > 0;
    size_t group = 0;  // fan_groups_[group] is the next group whose leaves come (fanout_best)
    for (size_t i = 0; i < stats.size(); ++i) {
      const std::span<const uint32_t> path(pending_paths_.data() + (i ? pending_[i - 1] : 0),
                                           pending_paths_.data() + pending_[i]);
      if (group < fan_groups_.size() && i >= fan_groups_[group].first_leaf) {
        // A leaf of a fanned node's child counts for the child alone; its ancestors only lose
        // the leaf's virtual loss, and learn the group's best child once its last leaf is in.
        apply_result(path.last(1), stats[i], blend, 1);
        for (size_t k = 0; k + 1 < path.size(); ++k) nodes_[path[k]].in_flight -= 1;
        if (i + 1 == fan_groups_[group].end_leaf) finish_fan_group(fan_groups_[group++]);
      } else {
        apply_result(path, stats[i], blend, 1);
      }
      spent_ += stats[i].rollouts;
      played_ += stats[i].rollouts;
      ++leaves_evaluated_;
    }
    fan_groups_.clear();
    fan_paths_.clear();
    in_flight_rollouts_ = 0;
    pending_.clear();
    pending_paths_.clear();
  }

  size_t pending_leaves() const { return pending_.size(); }

  // The most visited root move (ties: higher value for the mover, then generation order).
  Move best_move(MoveStats* stats = nullptr) const {
    const int mover = Game::side_to_move(root_);
    const uint32_t best = best_child();
    if (stats) {
      stats->visits = nodes_[best].visits;
      stats->value = static_cast<float>(value(best, mover));
      stats->rollouts = spent_;
      stats->tree_nodes = static_cast<uint32_t>(nodes_.size());
      stats->leaves = leaves_evaluated_;
    }
    return nodes_[best].move;
  }

  // The search records of the decision (SearchReport, core/engine.hpp): up to `candidates` visited
  // root moves in best_move()'s order (visits, value for the mover), the principal variation down
  // the most visited children while they have kPvVisits (the first the move played; below the root
  // ties go to generation order; at a chance node its most visited outcome), the tree's nodes and
  // the rollouts played.
  // A forced move's variation is the move alone. Once a move: it walks no state.
  void report(SearchReport<Move>& out, uint32_t candidates) const {
    out.kind = SearchKind::kMcts;
    out.nodes = nodes_.size();
    out.played = played_;
    const int mover = Game::side_to_move(root_);
    const Node& root = nodes_[0];
    std::vector<uint32_t>& order = report_order_;
    order.clear();
    for (uint32_t c = root.first_child; c < root.first_child + root.num_children; ++c)
      if (nodes_[c].visits > 0) order.push_back(c);
    const size_t k = std::min<size_t>(candidates, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      [&](uint32_t a, uint32_t b) {
                        if (nodes_[a].visits != nodes_[b].visits)
                          return nodes_[a].visits > nodes_[b].visits;
                        const double va = value(a, mover), vb = value(b, mover);
                        return va != vb ? va > vb : a < b;
                      });
    out.candidates.reserve(k);
    for (size_t i = 0; i < k; ++i)
      out.candidates.push_back(
          {nodes_[order[i]].move, nodes_[order[i]].visits, value(order[i], mover)});
    if (root.num_children == 0) return;
    out.pv.reserve(kReportedPlies);
    uint32_t node = best_child();
    out.pv.push_back({-1, nodes_[node].move});
    int outcome = -1;
    while (out.pv.size() < kReportedPlies) {
      const Node& n = nodes_[node];
      if (n.kind == Kind::kTerminal || n.first_child == kNone) break;
      uint32_t best = kNone;
      for (uint32_t c = n.first_child; c < n.first_child + n.num_children; ++c)
        if (best == kNone || nodes_[c].visits > nodes_[best].visits) best = c;
      // A ply the search saw once is a guess: the line ends before it.
      if (best == kNone || nodes_[best].visits < kPvVisits) break;
      node = best;
      if (n.kind == Kind::kChance) {
        outcome = nodes_[best].outcome;
        continue;
      }
      out.pv.push_back({outcome, nodes_[best].move});
      outcome = -1;
    }
  }
  // The root child best_move() plays: the most visited, ties to the higher value for the mover,
  // then generation order.
  uint32_t best_child() const {
    const Node& root = nodes_[0];
    const int mover = Game::side_to_move(root_);
    uint32_t best = root.first_child;
    for (uint32_t c = root.first_child; c < root.first_child + root.num_children; ++c) {
      const Node &a = nodes_[c], &b = nodes_[best];
      if (a.visits > b.visits || (a.visits == b.visits && value(c, mover) > value(best, mover)))
        best = c;
    }
    return best;
  }
  // Plies of principal variation report() gives at most, and the visits a ply of it needs
  // (below the root).
  static constexpr size_t kReportedPlies = 16;
  static constexpr uint32_t kPvVisits = 2;

  // Value of root move i (generation order) for the side to move at the root, and its visits.
  double root_child_value(int i) const {
    return value(nodes_[0].first_child + i, Game::side_to_move(root_));
  }
  uint32_t root_child_visits(int i) const { return nodes_[nodes_[0].first_child + i].visits; }
  int root_children() const { return nodes_[0].num_children; }
  size_t tree_size() const { return nodes_.size(); }

  // The raw statistics of one node, for inspection (tests of advance()).
  struct NodeStats {
    uint32_t visits = 0;
    double wins0 = 0;    // sum of results from player 0's view
    double results = 0;  // number of results
    int children = 0;    // 0 while not expanded
    friend bool operator==(const NodeStats&, const NodeStats&) = default;
  };
  // The node reached from the root by child indices: move generation order at decision nodes,
  // Game::chance_classes order at chance nodes; {} is the root. std::out_of_range for a path that
  // leaves the tree.
  NodeStats node_stats(std::span<const int> path) const {
    uint32_t node = 0;
    for (int i : path) {
      if (node >= nodes_.size() || i < 0 || i >= nodes_[node].num_children)
        throw std::out_of_range("mcts: node_stats path leaves the tree");
      node = nodes_[node].first_child + static_cast<uint32_t>(i);
    }
    if (node >= nodes_.size()) throw std::out_of_range("mcts: node_stats of an empty tree");
    const Node& n = nodes_[node];
    return {n.visits, n.wins0, n.results, n.num_children};
  }

  // Keeps the subtree below (move, outcome) as the next root, or drops the tree. Call after a move
  // is played in the game and the next chance outcome is known; next_root is the resulting state.
  void advance(Move move, const State& next_root) {
    if (!p_.reuse_tree || nodes_.empty() || !pending_.empty()) {
      nodes_.clear();
      return;
    }
    uint32_t keep = kNone;
    const Node& root = nodes_[0];
    for (uint32_t c = root.first_child; c < root.first_child + root.num_children; ++c)
      if (nodes_[c].move == move) keep = c;
    if (keep != kNone) {
      State after = root_;
      Game::apply(after, nodes_[keep].move);
      if constexpr (kChance) {
        if (nodes_[keep].kind == Kind::kChance && nodes_[keep].first_child != kNone) {
          const Node& chance = nodes_[keep];
          uint32_t found = kNone;
          for (uint32_t c = chance.first_child; c < chance.first_child + chance.num_children; ++c) {
            State outcome = after;
            Game::set_chance(outcome, nodes_[c].outcome);
            if (Game::same_class(outcome, next_root, rules_)) found = c;
          }
          keep = found;
        } else {
          keep = kNone;
        }
      } else {
        // The move leads straight to the next decision node.
        if (nodes_[keep].kind != Kind::kDecision || !same_state(after, next_root)) keep = kNone;
      }
    }
    if (keep == kNone) {
      nodes_.clear();
      return;
    }
    compact(keep);
    // The real roll, which may be another outcome of the same class: the states below are the
    // same, since apply() leaves a chance state whatever outcome allowed the move.
    root_ = next_root;
  }

  void reset() {
    nodes_.clear();
    pending_.clear();
    pending_paths_.clear();
    fan_groups_.clear();
    fan_paths_.clear();
  }

 private:
  enum class Kind : uint8_t { kDecision, kChance, kTerminal };
  static constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
  static constexpr bool kChance = sp::ChanceGame<Game>;
  // What a move leads to (unless the game ends).
  static constexpr Kind kAfterMove = kChance ? Kind::kChance : Kind::kDecision;

  // No state: a node's state is its parent's with `move` applied (children of decision nodes) or
  // `outcome` drawn (children of chance nodes).
  struct Node {
    double wins0 = 0;     // sum of results from player 0's view
    double results = 0;   // number of results
    double value0 = 0.5;  // player 0's value of the node, as refresh_value() computes it
    uint32_t first_child = kNone;
    uint32_t visits = 0;
    uint32_t in_flight = 0;
    float prior0 = 0.5f;  // the evaluator's win probability for player 0 (0.5 without one)
    Move move{};          // the move from the parent decision node (decision children: unused)
    uint16_t num_children = 0;
    Kind kind = Kind::kDecision;
    uint8_t weight = 1;   // decision children of a chance node: outcomes in the class
    uint8_t outcome = 0;  // decision children of a chance node: the class's representative
  };

  bool budget_left() const {
    return spent_ + in_flight_rollouts_ < p_.rollouts_per_move && !out_of_time();
  }

  // The descent of path_ ends in a terminal node (the end of a game or a position the endgame
  // databases solved): its exact result, at once.
  void score_terminal() {
    apply_result(path_, exact_result(path_.back()), false, 0);
    spent_ += p_.rollouts_per_leaf;
  }

  // A terminal node's exact value as rollouts_per_leaf rollouts.
  rollout::LeafStats exact_result(uint32_t node) const {
    const double v0 = nodes_[node].value0;  // 1, 0 or 1/2 (make_node)
    rollout::LeafStats exact;
    exact.rollouts = p_.rollouts_per_leaf;
    if (v0 == 1.0)
      exact.wins[0] = p_.rollouts_per_leaf;
    else if (v0 == 0.0)
      exact.wins[1] = p_.rollouts_per_leaf;
    else
      exact.draws = p_.rollouts_per_leaf;
    return exact;
  }

  // The descent of path_ ends in a leaf whose state is s: it goes to the batch.
  void add_leaf(const State& s, std::vector<rollout::Leaf<Game>>& out) {
    for (uint32_t i : path_) nodes_[i].in_flight += 1;
    pending_paths_.insert(pending_paths_.end(), path_.begin(), path_.end());
    pending_.push_back(static_cast<uint32_t>(pending_paths_.size()));
    in_flight_rollouts_ += p_.rollouts_per_leaf;
    out.push_back(rollout::Leaf<Game>{s, ids_.game, ids_.ply, next_leaf_++, p_.rollouts_per_leaf});
  }

  // The descent of path_ has just expanded decision node `node` (state s): up to fanout of its
  // children, no more than the budget left needs, become leaves (terminal ones are scored at
  // once). Returns the leaves added.
  uint32_t fan_out(uint32_t node, const State& s, std::vector<rollout::Leaf<Game>>& out) {
    const uint64_t left = p_.rollouts_per_move - spent_ - in_flight_rollouts_;  // > 0 here
    const uint64_t by_budget = (left + p_.rollouts_per_leaf - 1) / p_.rollouts_per_leaf;
    const uint32_t count = static_cast<uint32_t>(
        std::min<uint64_t>({p_.fanout, nodes_[node].num_children, by_budget}));
    const uint32_t first = nodes_[node].first_child, children = nodes_[node].num_children;
    // Which children: every one when they all fit; else the tactical ones first (the game's
    // is_tactical hook: captures, fours and the squares that stop them, where a refutation is),
    // then a uniform sample of the rest (a partial shuffle from the search's counter-based
    // stream). The node's value is the mean of its children's: the first children in generation
    // order (in Gomoku the top rows of the stones), or a sample blind to tactics, would leave out
    // the replies that refute the move and make every move look good.
    fan_pick_.resize(children);
    for (uint32_t i = 0; i < children; ++i) fan_pick_[i] = i;
    if (count < children) {
      uint32_t tactical = 0;
      if constexpr (hooks::HasTactical<Game>)
        for (uint32_t i = 0; i < children; ++i)
          if (Game::is_tactical(s, nodes_[first + i].move))
            std::swap(fan_pick_[tactical++], fan_pick_[i]);
      for (uint32_t i = tactical; i < count; ++i)
        std::swap(fan_pick_[i], fan_pick_[i + sampler_.below(children - i)]);
    }
    uint32_t leaves = 0;
    FanGroup g;
    if (p_.fanout_best) {
      g.node = node;
      g.mover = static_cast<uint8_t>(Game::side_to_move(s));
      g.path_begin = static_cast<uint32_t>(fan_paths_.size());
      fan_paths_.insert(fan_paths_.end(), path_.begin(), path_.end());
      g.path_end = static_cast<uint32_t>(fan_paths_.size());
      g.first_leaf = static_cast<uint32_t>(pending_.size());
    }
    path_.push_back(first);
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t c = first + fan_pick_[i];
      path_.back() = c;
      State child = s;
      Game::apply(child, nodes_[c].move);
      if (nodes_[c].kind == Kind::kTerminal) {
        if (p_.fanout_best) {
          score_terminal_child(c);
          continue;
        }
        score_terminal();
        continue;
      }
      add_leaf(child, out);
      ++leaves;
    }
    if (p_.fanout_best) {
      g.end_leaf = static_cast<uint32_t>(pending_.size());
      if (leaves == 0)
        finish_fan_group(g);  // every child picked was terminal: known now
      else
        fan_groups_.push_back(g);
    }
    return leaves;
  }

  // fanout_best: the children of a fanned node, and the path from the root to it, whose leaves
  // are pending_[first_leaf, end_leaf).
  struct FanGroup {
    uint32_t node = 0, path_begin = 0, path_end = 0, first_leaf = 0, end_leaf = 0;
    uint8_t mover = 0;  // the side to move at node
  };

  // A terminal child of a fanned node (fanout_best): scored exactly, for itself alone.
  void score_terminal_child(uint32_t c) {
    apply_result(std::span<const uint32_t>(&c, 1), exact_result(c), false, 0);
    spent_ += p_.rollouts_per_leaf;
  }

  // The fanned node of g and the nodes above it learn one result: the mean of its child best for
  // the side to move there, among the children with results, as one leaf of rollouts_per_leaf.
  void finish_fan_group(const FanGroup& g) {
    const Node& n = nodes_[g.node];
    const int mover = g.mover;
    uint32_t best = kNone;
    for (uint32_t c = n.first_child; c < n.first_child + n.num_children; ++c)
      if (nodes_[c].results > 0 && (best == kNone || value(c, mover) > value(best, mover)))
        best = c;
    if (best == kNone) return;
    const double v0 = nodes_[best].value0;
    const double r = p_.rollouts_per_leaf;
    for (uint32_t k = g.path_begin; k < g.path_end; ++k) {
      Node& a = nodes_[fan_paths_[k]];
      a.visits += 1;
      a.wins0 += v0 * r;
      a.results += p_.rollouts_per_leaf;
      refresh_value(fan_paths_[k]);
    }
  }

  // time_ms has passed since begin(), or the search was interrupted, and some rollouts came back
  // (never without a time limit or an interrupt flag).
  bool out_of_time() const {
    return (p_.time_ms > 0 || deadline_.interruptible()) && spent_ > 0 && deadline_.expired();
  }

  static bool same_state(const State& a, const State& b) {
    return std::memcmp(&a, &b, sizeof(State)) == 0;
  }

  // probe: a decision node the endgame databases cover is solved (never the root).
  // prior: the evaluator's value of s when the caller has it (children_evaluator_).
  Node make_node(const State& s, Kind kind, Move m, bool probe = true,
                 const double* prior = nullptr) const {
    Node n;
    n.move = m;
    n.kind = Game::is_over(s) ? Kind::kTerminal : kind;
    if (n.kind == Kind::kTerminal) {
      const int w = Game::winner(s);
      n.value0 = w == 0 ? 1.0 : w == 1 ? 0.0 : 0.5;
    } else if (probe && probe_ && kind == Kind::kDecision &&
               endgame_->pieces(s) <= endgame_->max_pieces()) {
      const EndgameValue v = endgame_->probe(s);
      if (v != EndgameValue::kUnknown) {
        n.kind = Kind::kTerminal;
        const bool mover_wins = v == EndgameValue::kWin;
        n.value0 = v == EndgameValue::kDraw                     ? 0.5
                   : mover_wins == (Game::side_to_move(s) == 0) ? 1.0
                                                                : 0.0;
        return n;
      }
    }
    if (evaluator_ && n.kind != Kind::kTerminal)
      n.prior0 = static_cast<float>(prior ? *prior : evaluator_(s));
    return n;
  }

  // Grows the arena for `extra` more nodes: doubling, but never past the budget unless the nodes
  // themselves need it (a root expansion may).
  void make_room(size_t extra) {
    const size_t need = nodes_.size() + extra;
    if (need <= nodes_.capacity()) return;
    nodes_.reserve(
        std::max(need, std::min(std::max<size_t>(2 * nodes_.capacity(), 64), node_limit_)));
  }

  // Creates the children of a decision or chance node whose state is s; false when the budget
  // forbids it.
  bool expand(uint32_t node, const State& s) {
    if (nodes_[node].first_child != kNone) return true;
    if constexpr (kChance) {
      if (nodes_[node].kind == Kind::kChance) {
        int representative[Game::kChanceOutcomes], weight[Game::kChanceOutcomes];
        const int classes = Game::chance_classes(s, rules_, representative, weight);
        if (nodes_.size() + classes > node_limit_) return false;
        make_room(static_cast<size_t>(classes));
        const uint32_t first = static_cast<uint32_t>(nodes_.size());
        for (int k = 0; k < classes; ++k) {
          State child = s;
          Game::set_chance(child, representative[k]);
          nodes_.push_back(make_node(child, Kind::kDecision, Move{}));
          nodes_.back().weight = static_cast<uint8_t>(weight[k]);
          nodes_.back().outcome = static_cast<uint8_t>(representative[k]);
        }
        nodes_[node].first_child = first;
        nodes_[node].num_children = static_cast<uint16_t>(classes);
        return true;
      }
    }
    // The game's candidate moves where it offers them (game_hooks.hpp), else every legal move.
    typename Game::MoveList moves;
    if (node == 0 && !root_moves_.empty()) {
      moves.size = static_cast<int>(root_moves_.size());
      std::copy(root_moves_.begin(), root_moves_.end(), moves.moves);
    } else {
      hooks::searched_moves<Game>(s, rules_, moves);
    }
    if (nodes_.size() + moves.size > node_limit_ && node != 0) return false;
    make_room(static_cast<size_t>(moves.size));
    const uint32_t first = static_cast<uint32_t>(nodes_.size());
    if (children_evaluator_) {
      child_priors_.resize(static_cast<size_t>(moves.size));
      children_evaluator_(s, moves.moves, moves.size, child_priors_.data());
    }
    for (int i = 0; i < moves.size; ++i) {
      State child = s;
      Game::apply(child, moves.moves[i]);
      nodes_.push_back(make_node(child, kAfterMove, moves.moves[i], true,
                                 children_evaluator_ ? &child_priors_[i] : nullptr));
    }
    nodes_[node].first_child = first;
    nodes_[node].num_children = static_cast<uint16_t>(moves.size);
    return true;
  }

  // Mean result for `player` (0..1) of a node; 0.5 when it has none yet.
  double value(uint32_t node, int player) const {
    const double v0 = nodes_[node].value0;
    return player == 0 ? v0 : 1.0 - v0;
  }

  // Recomputes the cached value0 of a node after its results (or a child's) changed. A terminal
  // node keeps its exact value.
  void refresh_value(uint32_t node) {
    Node& n = nodes_[node];
    if (n.kind == Kind::kTerminal) return;
    if (n.kind == Kind::kChance && n.first_child != kNone) {
      double sum = 0;
      int seen = 0;
      for (uint32_t c = n.first_child; c < n.first_child + n.num_children; ++c)
        if (nodes_[c].results > 0)
          sum += nodes_[c].weight * nodes_[c].wins0 / nodes_[c].results, seen += nodes_[c].weight;
      n.value0 = seen ? sum / seen : (n.results > 0 ? n.wins0 / n.results : 0.5);
    } else {
      n.value0 = n.results > 0 ? n.wins0 / n.results : 0.5;
    }
  }

  // The child UCT picks at a decision node where `mover` is to move.
  uint32_t pick_move(uint32_t node, int mover) const {
    const Node& n = nodes_[node];
    const double log_parent = mcts_detail::log_visits(n.visits + p_.virtual_loss * n.in_flight);
    const double virtual_loss = p_.virtual_loss, exploration = p_.exploration;
    const Node* children = nodes_.data() + n.first_child;
    uint32_t best = 0;
    double best_score = -1;
    for (uint32_t i = 0; i < n.num_children; ++i) {
      const Node& ch = children[i];
      const double visits = ch.visits + virtual_loss * ch.in_flight;
      if (visits == 0) return n.first_child + i;  // unvisited children first, in generation order
      // Virtual loss: in-flight visits count as losses for the mover.
      const double q = (mover == 0 ? ch.value0 : 1.0 - ch.value0) * ch.visits / visits;
      double score = q + exploration * std::sqrt(log_parent / visits);
      if (p_.progressive_bias > 0) {
        const double prior = mover == 0 ? ch.prior0 : 1.0 - ch.prior0;
        score += p_.progressive_bias * prior / (visits + 1);
      }
      if (score > best_score) best_score = score, best = i;
    }
    return n.first_child + best;
  }

  uint32_t pick_outcome(uint32_t node) requires sp::ChanceGame<Game> {
    const Node& n = nodes_[node];
    if (p_.chance == ChanceSelection::kSample) {
      // A fair die: class k is drawn with probability weight_k / 6.
      uint32_t r = sampler_.below(Game::kChanceOutcomes);
      uint32_t c = n.first_child;
      while (r >= nodes_[c].weight) r -= nodes_[c].weight, ++c;
      return c;
    }
    // Round robin: the class furthest behind its share, (visits + in flight) / weight smallest.
    uint32_t best = n.first_child;
    for (uint32_t c = n.first_child; c < n.first_child + n.num_children; ++c) {
      const uint64_t load_c =
          uint64_t{nodes_[c].visits + nodes_[c].in_flight} * nodes_[best].weight;
      const uint64_t load_best =
          uint64_t{nodes_[best].visits + nodes_[best].in_flight} * nodes_[c].weight;
      if (load_c < load_best) best = c;
    }
    return best;
  }

  // Adds one result to every node of path, leaf last, and releases `in_flight` visits. blend: mix
  // the leaf's prior into a rollout result (eval_blend); exact results are kept. Walks the path
  // from the leaf up, so a chance node refreshes its value after its child's results changed.
  void apply_result(std::span<const uint32_t> path, const rollout::LeafStats& s, bool blend,
                    uint32_t in_flight) {
    double w0 = s.wins[0] + 0.5 * s.draws;
    if (blend) {
      const double b = p_.eval_blend;
      w0 = (1 - b) * w0 + b * nodes_[path.back()].prior0 * static_cast<double>(s.rollouts);
    }
    for (size_t k = path.size(); k-- > 0;) {
      Node& n = nodes_[path[k]];
      n.in_flight -= in_flight;
      n.visits += 1;
      n.wins0 += w0;
      n.results += s.rollouts;
      refresh_value(path[k]);
    }
  }

  // Keeps the subtree of `keep` with keep as the root, in place and in arena order. Children are
  // always allocated after their parent, so one forward pass reaches every kept node after its
  // parent and moves it down to the next free slot. in_flight (0 everywhere, since nothing is
  // pending) carries the marks: 1 on a kept node, 2 + p on the first child of the node now at p.
  void compact(uint32_t keep) {
    nodes_[keep].in_flight = 1;
    uint32_t next = 0;
    for (uint32_t i = keep; i < nodes_.size(); ++i) {
      const uint32_t mark = nodes_[i].in_flight;
      if (mark == 0) continue;
      if (mark >= 2) nodes_[mark - 2].first_child = next;
      nodes_[next] = nodes_[i];
      Node& n = nodes_[next];
      n.in_flight = 0;
      if (n.first_child != kNone) {
        for (uint32_t c = n.first_child; c < n.first_child + n.num_children; ++c)
          nodes_[c].in_flight = 1;
        nodes_[n.first_child].in_flight = 2 + next;
      }
      ++next;
    }
    nodes_.resize(next);
  }

  MctsParams p_;
  Rules rules_;
  Evaluator evaluator_;                   // null unless eval_blend or progressive_bias is used
  ChildrenEvaluator children_evaluator_;  // optional, with evaluator_: its priors, children at once
  std::vector<double> child_priors_;      // expand()'s scratch for them
  std::shared_ptr<const EndgameProbe<State>> endgame_;  // null: no databases
  bool probe_ = false;            // per search: endgame_ set and the root not covered
  std::vector<Move> root_moves_;  // per search: a covered root's kept moves (empty: none)
  size_t node_limit_ = 1;
  State root_{};
  std::vector<Node> nodes_;
  std::vector<uint32_t> pending_paths_;  // node paths of the leaves in flight, concatenated
  std::vector<uint32_t> pending_;        // end offset of each leaf's path in pending_paths_
  std::vector<FanGroup> fan_groups_;     // fanout_best: the pending fan-outs, by first leaf
  std::vector<uint32_t> fan_paths_;      // their paths from the root, concatenated
  std::vector<uint32_t> path_;
  SearchIds ids_;
  WordStream sampler_{StreamId{}};
  std::vector<uint32_t> fan_pick_;  // fan_out's choice of children (scratch)
  Deadline deadline_;               // started by begin() when time_ms > 0
  uint32_t next_leaf_ = 0;
  uint64_t spent_ = 0;
  uint64_t in_flight_rollouts_ = 0;
  uint32_t leaves_evaluated_ = 0;
  uint64_t played_ = 0;  // rollouts the backend played for this move (spent_ less terminals)
  mutable std::vector<uint32_t> report_order_;  // report()'s scratch
  bool single_move_ = false;
};

}  // namespace sp::search
