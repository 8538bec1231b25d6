// Endgame databases as host code sees them, game-neutral: what `selfplay egtb` asks a game to
// build and verify, and what a search probes. A game that has them provides the optional
// GameHost<G> hooks of EndgameGame (core/game_host.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sp {

// A position's value for the side to move; kUnknown when the databases do not cover it.
enum class EndgameValue : uint8_t { kUnknown = 0, kWin = 1, kLoss = 2, kDraw = 3 };

// Runs fn(0) .. fn(items - 1), concurrently where it can, and returns when all have run (the
// caller's thread pool: host/base/system/work_pool.hpp). Empty: one item after the other.
using ParallelFor = std::function<void(size_t items, const std::function<void(size_t)>& fn)>;

inline void run_parallel(const ParallelFor& parallel_for, size_t items,
                         const std::function<void(size_t)>& fn) {
  if (parallel_for) {
    parallel_for(items, fn);
  } else {
    for (size_t i = 0; i < items; ++i) fn(i);
  }
}

// Where a build or a verification stands, after each table.
struct EndgameProgress {
  std::string table;  // the file just finished (or found complete on a resume)
  bool kept = false;  // found complete, not built again
  int tables_done = 0, tables_total = 0;
  uint64_t positions_done = 0, positions_total = 0;
  uint64_t wins = 0, losses = 0, draws = 0;  // of this table
  double seconds = 0;                        // since the start of this run
};

struct EndgameBuildOptions {
  std::string dir;  // created when missing
  int pieces = 0;   // every material of 2 .. pieces pieces
  ParallelFor parallel_for;
  std::function<void(const EndgameProgress&)> progress;  // may be empty
  const std::atomic<bool>* stop = nullptr;  // set: finish the table in hand's writes and return
};

struct EndgameBuildResult {
  int tables_built = 0, tables_kept = 0;
  uint64_t positions = 0;  // stored positions of every table (built or kept)
  bool stopped = false;    // *stop was seen before the last table
};

struct EndgameVerifyResult {
  int tables = 0;
  uint64_t positions = 0, errors = 0;
  std::vector<std::string> first_errors;  // at most 20, each naming table, index and position
};

// Lookups into open databases, shared by the engines that probe them (thread-safe, read-only).
template <class State>
class EndgameProbe {
 public:
  virtual ~EndgameProbe() = default;
  virtual EndgameValue probe(const State& s) const = 0;
  // The most pieces of any position the databases cover (a search probes only below it).
  virtual int max_pieces() const = 0;
  // The pieces on the board of s, the number max_pieces compares with.
  virtual int pieces(const State& s) const = 0;
  // For a move from `before` to `after`, both covered and won or lost: how far `after` is from
  // its next conversion (the databases' levels: along the winner's best moves they fall, along
  // any of the loser's too), 0 when the move itself converted (left the material); -1 when the
  // databases hold no levels.
  virtual int plies_after(const State& before, const State& after) const = 0;
};

}  // namespace sp
