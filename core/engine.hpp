// Engines as the game driver sees them: each decides a move through rounds of leaves, so any mix of
// engines in many concurrent games can share one rollout batch. Engines without rollouts (random,
// expectimax, alpha-beta, a game's own search) decide at begin() and never ask for leaves. The
// engines of every game are in host/engines/search/; a game's own search implements this interface
// in its folder (GameHost<G>::native_engine, core/native_engine.hpp).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/game.hpp"
#include "core/leaf.hpp"

namespace sp::search {

// What an engine reports of a decision (/plies: visits, value, rollouts, tree_nodes, leaves).
struct MoveStats {
  uint32_t visits = 0;      // visits of the chosen move
  float value = 0.5f;       // chosen move's value for the mover, 0..1
  uint64_t rollouts = 0;    // rollouts spent on this move's search
  uint32_t tree_nodes = 0;  // nodes in the tree when the move was chosen
  uint32_t leaves = 0;      // leaves evaluated for this move
};

// Which search decided a move (/plies `search`, docs/records.md).
enum class SearchKind : uint8_t {
  kNone = 0,  // not recorded (files converted from format 2, engines that report nothing)
  kRandom = 1,
  kFlat = 2,
  kMcts = 3,
  kAlphaBeta = 4,
  kExpectimax = 5,
  kNative = 6,    // a game's own search (GameHost<G>::native_engine)
  kExternal = 7,  // an external program (pbrain, a checkers engine)
  kBook = 8,      // an opening book's move (an engine's `book` key): nothing was searched
};
inline constexpr int kSearchKinds = 9;
// "none", "random", "flat", "mcts", "alphabeta", "expectimax", "native", "external", "book".
inline const char* search_kind_name(SearchKind k) {
  static constexpr const char* kNames[kSearchKinds] = {
      "none", "random", "flat", "mcts", "alphabeta", "expectimax", "native", "external", "book"};
  const auto i = static_cast<size_t>(k);
  return i < kSearchKinds ? kNames[i] : "unknown";
}

// What a search thought of its decision beyond MoveStats: the search records (/plies search
// columns and /candidates, docs/records.md). An engine fills what it knows (Engine::report); the
// rest keeps its "not known" value.
template <class Move>
struct SearchReport {
  SearchKind kind = SearchKind::kNone;
  int depth = -1;       // alpha-beta, expectimax, native: deepest completed iteration; -1 none
  double score = 0;     // with depth >= 0: the root's score for the mover in evaluation units
  uint64_t nodes = 0;   // positions searched (alpha-beta, expectimax, native), tree nodes (MCTS)
  uint64_t played = 0;  // rollouts played for this decision (terminal nodes the search scored
                        // exactly count against its budget but are no rollouts)
  // Root moves the search weighed, best first: MCTS the most visited (visits, value for the
  // mover), flat Monte Carlo the best means (visits: the move's rollouts).
  struct Candidate {
    Move move{};
    uint32_t visits = 0;
    double value = 0.5;
  };
  std::vector<Candidate> candidates;
  // The principal variation, starting with the move played. outcome: the chance outcome drawn
  // before the move (0-based, as Game::set_chance takes it); -1 keeps the position's own (the
  // first ply, and every ply of a game without chance).
  struct PvPly {
    int outcome = -1;
    Move move{};
  };
  std::vector<PvPly> pv;
};

// Candidates to report: every root move the search weighed (the root's visit distribution).
inline constexpr uint32_t kAllCandidates = std::numeric_limits<uint32_t>::max();

// How a game ended: by the rules, or by a forfeit of the engine to move, which loses the game
// (/games `termination`, the same numbers).
enum class Termination : uint8_t { kRules = 0, kTimeLoss = 1, kCrash = 2, kIllegalMove = 3 };
inline constexpr int kTerminations = 4;
// "rules", "time loss", "crash", "illegal move".
inline const char* termination_name(Termination t) {
  static constexpr const char* kNames[kTerminations] = {"rules", "time loss", "crash",
                                                        "illegal move"};
  return kNames[static_cast<int>(t)];
}

// Why an engine gives a game up instead of moving, with what happened in words ("no answer
// within 150 ms (timeout_turn_ms 100 + tolerance_ms 50)").
struct Forfeit {
  Termination reason = Termination::kRules;
  std::string detail;
};

// What an undecided engine that collects no leaves waits for outside the process (an external
// program's answer): the descriptor whose readability may decide it, and the time by which
// collect() must be called again in any case (time_point::min(): at once).
struct ExternalWait {
  int fd = -1;
  std::chrono::steady_clock::time_point deadline;
};

template <sp::Game Game>
class Engine {
 public:
  using State = typename Game::State;
  using Move = typename Game::Move;
  using Leaf = rollout::Leaf<Game>;

  virtual ~Engine() = default;
  virtual std::string describe() const = 0;
  // A new game starts: forget trees of the previous one.
  virtual void new_game() = 0;
  // After new_game(), where the driver knows it: the position the game starts from (an external
  // program is sent the start and the moves since).
  virtual void game_started(const State& /*start*/) {}
  // Starts deciding a move at root (chance outcome known, game not over).
  virtual void begin(const State& root, const SearchIds& ids) = 0;
  // Appends the leaves this engine wants evaluated now (possibly none).
  virtual void collect(std::vector<Leaf>& out) = 0;
  // Statistics of the leaves of the last collect(), in order.
  virtual void absorb(std::span<const rollout::LeafStats> stats) = 0;
  // True when decision() is final.
  virtual bool decided() const = 0;
  virtual Move decision(MoveStats* stats) = 0;
  // After decision(): what the search thought (kind, depth, score, nodes, rollouts played, up to
  // `candidates` root moves best first, the principal variation). Engines that report nothing
  // leave it as it is.
  virtual void report(SearchReport<Move>& /*out*/, uint32_t /*candidates*/) const {}
  // A move was played (by anyone) and the next decision state is next_root.
  virtual void observe(Move move, const State& next_root) = 0;
  // A wall-clock limit in ms for each following decision, as a game manager's clock allows it
  // (`selfplay pbrain`); 0 restores the configured limits. MCTS stops early (after a first round),
  // alpha-beta takes it instead of its configured time_ms (its depth stays a cap); engines that
  // decide at once or in one round (random, flat) ignore it.
  virtual void set_time_limit(uint32_t /*ms*/) {}
  // A flag another thread sets to end the decision at once (a protocol session: the manager's
  // STOP or END, the end of its input); the engine then decides with what it has, as when its time
  // runs out. nullptr: none. Engines that decide at once or in one round ignore it.
  virtual void set_interrupt(const std::atomic<bool>* /*flag*/) {}

  // Engines that wait on something outside the process: while not decided() after a collect()
  // that added no leaves, what to wait on before calling collect() again. Engines of this
  // process never wait (nullopt).
  virtual std::optional<ExternalWait> waiting() const { return std::nullopt; }
  // Once decided(): a forfeit instead of a move (the engine's time ran out, its program crashed,
  // it answered an illegal move); decision() is not called then.
  virtual std::optional<Forfeit> forfeit() const { return std::nullopt; }
  // The game ended (by the rules or a forfeit): an external program is told so.
  virtual void end_game() {}
};

}  // namespace sp::search
