// Plays many EWN games at once, each with its two engines, and feeds all their leaves to one rollout
// backend in double-buffered batches: while one batch runs, the host applies the previous batch's
// results and selects the next one. A game's moves depend only on (seed, game id), never on which
// batch its leaves travelled in, so records are identical for any concurrency, batch size, thread
// count or backend.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "games/ewn/ewn.hpp"
#include "games/ewn/game.hpp"
#include "host/common/work_pool.hpp"
#include "host/config/campaign_config.hpp"
#include "host/rollout/backend.hpp"
#include "host/search/engine.hpp"

namespace sp::selfplay {

struct PlyInfo {
  ewn::State before;  // decision state: side to move and rolled die
  ewn::Move move;
  search::MoveStats stats;
  float time_ms = 0;  // wall time from the move's first leaf to its decision
};

struct FinishedGame {
  uint32_t game_id = 0;
  ewn::Arrangement setup[2];
  int first_player = 0;
  int engine_of_player[2] = {0, 1};  // engine config index playing each player
  int winner = 0;
  std::vector<PlyInfo> plies;
  double duration_s = 0;
};

struct BatchInfo {
  uint64_t index = 0;
  double time_s = 0;       // since the driver started, when the batch was waited for
  uint32_t leaves = 0;
  uint64_t rollouts = 0;
  double host_ms = 0;      // host time spent selecting and backing up around this batch
  double backend_ms = 0;   // the backend's compute time for the batch
  double wait_ms = 0;      // time the host blocked waiting for it
};

// The start position of game `game_id` under the config (setup, first player), and its die roll at
// each ply: functions of (seed, game id, ply) only.
ewn::State initial_position(const config::CampaignConfig& cfg, uint32_t game_id, ewn::Arrangement setup[2],
                            int* first_player);
int roll_die(uint64_t seed, uint32_t game_id, uint32_t ply);

// Paired campaigns: games 2k and 2k+1 draw setup and dice from stream game k, and the engine
// configured for player p plays player p ^ 1 in odd games. Unpaired: the game id, and p.
uint32_t stream_game(const config::CampaignConfig& cfg, uint32_t game_id);
int engine_for_player(const config::CampaignConfig& cfg, uint32_t game_id, int player);

// Engine of one player built from its config; policy_slot is its index into the batch's policies.
std::unique_ptr<search::Engine<EwnGame>> make_engine(const config::EngineConfig& cfg, const ewn::Rules& rules,
                                                     uint32_t policy_slot);
search::MctsParams mcts_params(const config::EngineConfig& cfg);
// The MCTS prior of a weights file: player 0's win probability sigmoid(scale * eval), eval turned
// to player 0's view. Throws InputError without weights.
search::Mcts<EwnGame>::Evaluator evaluation_prior(std::shared_ptr<const eval::Weights> weights,
                                                  const ewn::Rules& rules, double scale);

// The most leaves and rollouts one game adds to a batch at once: an MCTS round
// (leaves_per_round leaves of rollouts_per_leaf), or a flat engine's root moves sharing its
// budget. Backends are sized so that one game always fits a batch.
size_t max_round_leaves(const config::CampaignConfig& cfg);
uint64_t max_round_rollouts(const config::CampaignConfig& cfg);

// The rollouts per batch the driver fills toward: backend.batch_rollouts, or when that is 0 the
// backend's preferred_rollouts.
uint64_t batch_target(const config::CampaignConfig& cfg, const rollout::BackendInfo& backend);

// campaign.concurrency auto: two batches are in flight, so about half the games fill each; enough
// games that half of them reach `target` with full rounds, ceil(2 * target / max_round_rollouts),
// but no more than the games, than `most` (what memory allows) and 65536, and at least 1.
uint32_t auto_concurrency(const config::CampaignConfig& cfg, uint64_t target, uint64_t most);

// "" when min(concurrency, games) games in flight, half of them in each batch, reach half of
// `target` rollouts per batch with full rounds (or when no engine plays out); otherwise one line
// with the numbers and the keys that change them, for a warning at the start of a run.
std::string batch_shortfall(const config::CampaignConfig& cfg, uint64_t target);

class Driver {
 public:
  // Plays the given game ids (in order of start) with up to cfg.concurrency games in flight
  // (resolved: not auto).
  Driver(const config::CampaignConfig& cfg, rollout::Backend<EwnGame>& backend, std::vector<uint32_t> game_ids);
  ~Driver();

  // Runs until every game is finished or stop becomes true (then in-flight batches are drained and
  // unfinished games are dropped). on_game gets each finished game, on_batch each batch.
  void run(const std::function<void(FinishedGame&&)>& on_game, const std::function<void(const BatchInfo&)>& on_batch,
           const std::atomic<bool>& stop);
  // Starts no further game: run() returns when the games already started are finished. For use
  // from on_game or on_batch.
  void stop_starting() { next_game_ = game_ids_.size(); }
  // Threads of the pool that steps the games (the cpu backend's pool when it is one, so search
  // and rollouts share one thread budget; else a pool of cfg.backend.threads).
  int threads() const;

 private:
  struct Slot;
  // Slots are stepped in waves of at least this many (more when the batch target needs them), a
  // number independent of the thread count so that batches are the same on any thread count.
  static constexpr size_t kMinWave = 16;
  void start_next_game(Slot& slot);
  void step(Slot& slot);

  const config::CampaignConfig& cfg_;
  rollout::Backend<EwnGame>& backend_;
  std::vector<uint32_t> game_ids_;
  size_t next_game_ = 0;
  std::vector<std::unique_ptr<Slot>> slots_;
  rollout::PlayoutParams<EwnGame> params_;
  std::shared_ptr<WorkPool> pool_;
};

}  // namespace sp::selfplay
