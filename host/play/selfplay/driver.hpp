// Plays many games of one game G at once, each with its two engines, and feeds all their leaves to
// one rollout backend in double-buffered batches: while one batch runs, the host applies the
// previous batch's results and selects the next one. A game's moves depend only on (seed, game id),
// never on which batch its leaves travelled in, so records are identical for any concurrency,
// batch size, thread count or backend. Chance (dice) is drawn only in games that have it.
#pragma once

#include <poll.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/game_host.hpp"
#include "core/repetition.hpp"
#include "host/base/system/work_pool.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/search/engine.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/external/external_engine.hpp"
#include "host/play/selfplay/batch_sizing.hpp"
#include "host/play/selfplay/engine_factory.hpp"

namespace sp::selfplay {

template <Game G>
struct PlyInfo {
  typename G::State before;  // decision state: side to move (and the drawn chance outcome)
  typename G::Move move;
  search::MoveStats stats;
  float time_ms = 0;  // wall time from the move's first leaf to its decision
  // The engine's own time in its calls for this move (begin, collect, absorb, decision), apart
  // from the time its leaves waited in batches; an external program's: time_ms.
  float think_ms = 0;
  search::SearchReport<typename G::Move> search;  // what the search thought (records: /candidates)
};

template <Game G>
struct FinishedGame {
  uint32_t game_id = 0;
  std::string opening;  // GameHost<G>::start's text ("123456/654321" in EWN)
  int first_player = 0;
  int engine_of_player[2] = {0, 1};  // engine config index playing each player
  int winner = 0;                    // 0, 1, or G::kNoWinner for a draw
  bool repetition = false;           // a draw by the repetition rule (core/repetition.hpp)
  std::vector<PlyInfo<G>> plies;
  double duration_s = 0;
  // kRules, or the forfeit of the player to move after the last ply (who then loses).
  search::Termination termination = search::Termination::kRules;
  std::string termination_detail;  // the forfeit's Forfeit::detail
};

struct BatchInfo {
  uint64_t index = 0;
  double time_s = 0;  // since the driver started, when the batch was waited for
  uint32_t leaves = 0;
  uint64_t rollouts = 0;
  double host_ms = 0;  // host time spent selecting and backing up around this batch
  // The same work in thread time: the pool threads' time stepping the games, summed over the
  // threads, plus the driver thread's own (assembling the batch, handing out the results).
  double host_thread_ms = 0;
  double backend_ms = 0;  // the backend's compute time for the batch
  double wait_ms = 0;     // time the host blocked waiting for it
};

// Paired campaigns: games 2k and 2k+1 draw their opening and chance from stream game k, and the
// engine configured for player p plays player p ^ 1 in odd games. Unpaired: the game id, and p.
uint32_t stream_game(const config::CampaignConfig& cfg, uint32_t game_id);
int engine_for_player(const config::CampaignConfig& cfg, uint32_t game_id, int player);

// The decision state game `game_id` starts from: the game's opening (GameHost::start) for its
// stream game, and in a chance game the outcome of ply 0 drawn. *opening gets the opening text.
template <HostGame G>
typename G::State start_position(const config::Config<G>& cfg, uint32_t game_id,
                                 std::string* opening = nullptr) {
  const uint32_t stream = stream_game(cfg, game_id);
  typename G::State s = GameHost<G>::start(cfg.rules, cfg.seed, stream, opening);
  if constexpr (ChanceGame<G>)
    if (!G::is_over(s) && G::needs_chance(s)) G::set_chance(s, draw_chance<G>(cfg.seed, stream, 0));
  return s;
}

// Where a driver's game ids come from when they are handed out while it runs (a distributed
// campaign, host/base/mpi/dealer.hpp). take: the next id, if one is on hand; exhausted: none is on
// hand and none will come; poll: called from the driver's loop on its thread, with idle when the
// driver has nothing else to do (it may then sleep briefly, never spin).
struct GameFeed {
  std::function<std::optional<uint32_t>()> take;
  std::function<bool()> exhausted;
  std::function<void(bool idle)> poll;
};

// Slots are stepped in waves of at least this many (more when the batch target needs them), a
// number independent of the thread count so that batches are the same on any thread count.
inline constexpr size_t kMinWave = 16;

template <HostGame G>
class Driver {
 public:
  using State = typename G::State;
  using Move = typename G::Move;
  using Leaf = rollout::Leaf<G>;

  // Plays the given game ids (in order of start) with up to cfg.concurrency games in flight
  // (resolved: not auto).
  Driver(const config::Config<G>& cfg, rollout::Backend<G>& backend, std::vector<uint32_t> game_ids)
      : cfg_(cfg),
        backend_(backend),
        game_ids_(std::move(game_ids)),
        pool_(backend.work_pool() ? backend.work_pool()
                                  : std::make_shared<WorkPool>(cfg.backend.threads)) {
    params_.seed = cfg.seed;
    params_.rules = GameHost<G>::rules_of(cfg.rules);
    params_.policies[0] = cfg.policies[0];
    params_.policies[1] = cfg.policies[1];
    if (cfg.concurrency == 0)
      throw std::invalid_argument("driver: campaign.concurrency auto is not resolved");
    make_slots(std::min<size_t>(cfg.concurrency, game_ids_.size()));
  }
  // Plays the game ids that feed hands out, with up to `slots` games in flight.
  Driver(const config::Config<G>& cfg, rollout::Backend<G>& backend, GameFeed feed, size_t slots)
      : Driver(cfg, backend, std::vector<uint32_t>{}) {
    feed_ = std::move(feed);
    make_slots(std::min<size_t>(cfg.concurrency, slots));
  }

  // Runs until every game is finished or stop becomes true (then in-flight batches are drained and
  // unfinished games are dropped). on_game gets each finished game, on_batch each batch.
  void run(const std::function<void(FinishedGame<G>&&)>& on_game,
           const std::function<void(const BatchInfo&)>& on_batch, const std::atomic<bool>& stop);
  // Starts no further game: run() returns when the games already started are finished. For use
  // from on_game or on_batch.
  void stop_starting() {
    next_game_ = game_ids_.size();
    starting_stopped_ = true;
  }
  // Threads of the pool that steps the games (the cpu backend's pool when it is one, so search
  // and rollouts share one thread budget; else a pool of cfg.backend.threads).
  int threads() const { return pool_->threads(); }

 private:
  using Clock = std::chrono::steady_clock;
  static double ms_since(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
  }

  struct Slot {
    bool active = false;
    bool searching = false;
    bool waiting = false;   // its leaves are in a batch that has not been waited for
    bool external = false;  // its engine waits for an external program (ExternalWait)
    State state{};
    PositionHistory<G> history{typename G::Rules{}};  // the repetition rule's positions
    FinishedGame<G> game;
    std::unique_ptr<search::Engine<G>> engines[2];
    Clock::time_point game_start, move_start;
    double think_ms = 0;                      // the move's engine time in step() so far
    size_t batch_first = 0, batch_count = 0;  // its leaves in the batch in flight
    // Written by step() on any pool thread, read by the driver thread after the step job:
    std::vector<Leaf> leaves;                 // the leaves it wants in the next batch
    std::optional<FinishedGame<G>> finished;  // a game that ended in the step
    // Written by the driver thread when its batch was waited for; absorbed by the next step.
    std::vector<rollout::LeafStats> results;
    bool has_results = false;
  };

  // In a chance game, draws the outcome of `ply` into s (a function of seed, stream game, ply).
  void draw_chance_at(State& s, uint32_t game_id, uint32_t ply) const {
    if constexpr (ChanceGame<G>)
      if (G::needs_chance(s))
        G::set_chance(s, draw_chance<G>(cfg_.seed, stream_game(cfg_, game_id), ply));
  }

  void make_slots(size_t n) {
    for (size_t i = 0; i < n; ++i) {
      auto slot = std::make_unique<Slot>();
      for (int p = 0; p < 2; ++p)
        slot->engines[p] = make_engine<G>(cfg_.engines[p], params_.rules, static_cast<uint32_t>(p));
      slot->history = PositionHistory<G>(params_.rules);
      slots_.push_back(std::move(slot));
    }
  }

  std::optional<uint32_t> next_game_id() {
    if (feed_) return starting_stopped_ ? std::nullopt : feed_->take();
    if (next_game_ >= game_ids_.size()) return std::nullopt;
    return game_ids_[next_game_++];
  }

  void start_next_game(Slot& slot) {
    const std::optional<uint32_t> next = next_game_id();
    if (!next) {
      slot.active = false;
      return;
    }
    const uint32_t id = *next;
    slot.active = true;
    slot.searching = false;
    slot.think_ms = 0;
    slot.waiting = false;
    slot.external = false;
    slot.game = FinishedGame<G>{};
    slot.game.game_id = id;
    slot.state = start_position<G>(cfg_, id, &slot.game.opening);
    slot.game.first_player = G::side_to_move(slot.state);
    slot.history.reset(slot.state);
    for (int p = 0; p < 2; ++p) slot.game.engine_of_player[p] = engine_for_player(cfg_, id, p);
    slot.game_start = Clock::now();
    for (auto& e : slot.engines) {
      e->new_game();
      e->game_started(slot.state);
    }
  }

  // Steps one slot as far as it goes without rollouts: absorbs the statistics of its last batch,
  // plays the moves its engines decide, and leaves in slot.leaves what it needs next, or in
  // slot.finished a game that ended (the slot then yields: engines that need no rollouts would
  // otherwise play every remaining game in one step). Touches nothing but the slot (and its
  // engines), so slots step in parallel on the pool.
  void step(Slot& slot);
  // The game of slot ended (winner set): its engines are told, the slot yields it.

  void finish(Slot& slot) {
    slot.game.duration_s = ms_since(slot.game_start) / 1000.0;
    for (auto& e : slot.engines) e->end_game();
    slot.finished = std::move(slot.game);
    slot.active = false;
  }
  // Clears `external` of the slots whose engine may go on: its descriptor is readable or its
  // deadline has passed. block: when none may, sleeps in poll() until one may, or at most
  // kExternalWakeMs so that a stop is seen. Returns whether any slot waits on an external engine.
  bool wake_external(bool block);
  static constexpr int kExternalWakeMs = 200;

  const config::Config<G>& cfg_;
  rollout::Backend<G>& backend_;
  std::vector<uint32_t> game_ids_;
  size_t next_game_ = 0;
  std::optional<GameFeed> feed_;  // instead of game_ids_
  bool starting_stopped_ = false;
  std::vector<std::unique_ptr<Slot>> slots_;
  rollout::PlayoutParams<G> params_;
  std::shared_ptr<WorkPool> pool_;
};

template <HostGame G>
void Driver<G>::step(Slot& slot) {
  // step() runs nothing but the slot's engines: the time in it is their thinking, and a move's is
  // the sum over the steps from its begin() to its decision (think_ms).
  struct Thinking {
    Slot& slot;
    Clock::time_point since = Clock::now();
    // The move's thinking time so far, restarting the count.
    double take() {
      const Clock::time_point now = Clock::now();
      slot.think_ms += std::chrono::duration<double, std::milli>(now - since).count();
      since = now;
      const double ms = slot.think_ms;
      slot.think_ms = 0;
      return ms;
    }
    ~Thinking() {
      slot.think_ms += std::chrono::duration<double, std::milli>(Clock::now() - since).count();
    }
  } thinking{slot};
  slot.leaves.clear();
  if (slot.has_results) {
    slot.engines[engine_for_player(cfg_, slot.game.game_id, G::side_to_move(slot.state))]->absorb(
        slot.results);
    slot.has_results = false;
  }
  while (slot.active) {
    State& s = slot.state;
    auto& engine = *slot.engines[engine_for_player(cfg_, slot.game.game_id, G::side_to_move(s))];
    const uint32_t ply = static_cast<uint32_t>(slot.game.plies.size());
    if (!slot.searching) {
      slot.move_start = Clock::now();  // before begin(): engines without rollouts decide in it
      engine.begin(s, search::SearchIds{slot.game.game_id, ply, cfg_.seed});
      slot.searching = true;
    }
    if (engine.decided()) {
      if (std::optional<search::Forfeit> forfeit = engine.forfeit()) {
        slot.game.winner = 1 - G::side_to_move(s);  // the player to move loses
        slot.game.termination = forfeit->reason;
        slot.game.termination_detail = std::move(forfeit->detail);
        slot.searching = false;
        finish(slot);
        return;
      }
      PlyInfo<G> info;
      info.before = s;
      info.move = engine.decision(&info.stats);
      info.time_ms = static_cast<float>(ms_since(slot.move_start));
      engine.report(info.search, cfg_.output.root_policy ? search::kAllCandidates
                                                         : cfg_.output.search_candidates);
      info.think_ms = static_cast<float>(thinking.take());
      if (info.search.kind == search::SearchKind::kExternal) info.think_ms = info.time_ms;
      const Move move = info.move;
      // An engine's move is checked against the rules before it is played: a bug in a search
      // stops the run here instead of filling a file with games the rules never allowed.
      if (!search::is_legal_move<G>(s, params_.rules, move))
        throw std::logic_error(
            "internal error: " + engine.describe() + " chose an illegal move in game " +
            std::to_string(slot.game.game_id) + " at ply " + std::to_string(ply) + " (" +
            GameHost<G>::position_text(s) + "): " + GameHost<G>::move_text(s, move));
      slot.game.plies.push_back(std::move(info));
      slot.searching = false;
      G::apply(s, move);
      const bool repeated = slot.history.push(s);
      if (G::is_over(s) || repeated) {
        slot.game.winner = G::is_over(s) ? G::winner(s) : G::kNoWinner;
        slot.game.repetition = !G::is_over(s);
        finish(slot);
        return;
      }
      draw_chance_at(s, slot.game.game_id, ply + 1);
      for (auto& e : slot.engines) e->observe(move, s);
      continue;
    }
    engine.collect(slot.leaves);
    if (!slot.leaves.empty()) return;
    if (!engine.decided() && engine.waiting()) {
      slot.external = true;  // run() steps it again when its program may have answered
      return;
    }
    // A round can spend the rest of the budget on terminal nodes, which need no rollouts.
    if (!engine.decided()) throw std::logic_error("engine neither decided nor asked for leaves");
  }
}

template <HostGame G>
void Driver<G>::run(const std::function<void(FinishedGame<G>&&)>& on_game,
                    const std::function<void(const BatchInfo&)>& on_batch,
                    const std::atomic<bool>& stop) {
  const auto start = Clock::now();
  for (auto& slot : slots_) start_next_game(*slot);

  struct Batch {
    std::vector<Leaf> leaves;
    std::vector<rollout::LeafStats> stats;
    std::vector<Slot*> slots;
    rollout::Ticket ticket = 0;
    double host_ms = 0, host_thread_ms = 0;
  };
  const int depth = std::max(1, std::min(2, backend_.info().max_in_flight));
  std::vector<Batch> batches(depth);
  std::deque<int> in_flight;
  uint64_t batch_index = 0;
  // A batch closes before the next slot could push it past the backend's limits (the one batch
  // rule of rollout::check_batch).
  const rollout::BackendInfo& limits = backend_.info();
  const uint64_t target = batch_target(cfg_, limits);
  const size_t max_slot_leaves = max_round_leaves(cfg_);
  const uint64_t max_slot_rollouts = std::max<uint64_t>(1, max_round_rollouts(cfg_));
  if (max_slot_leaves > limits.max_leaves || max_slot_rollouts > limits.max_rollouts)
    throw std::invalid_argument(
        "driver: one game's round needs up to " + std::to_string(max_slot_leaves) + " leaves and " +
        std::to_string(max_slot_rollouts) + " rollouts; backend " + limits.name +
        " takes at most " + std::to_string(limits.max_leaves) + " leaves and " +
        std::to_string(limits.max_rollouts) + " rollouts per batch");
  size_t cursor = 0;  // round-robin start, so capped batches do not starve late slots
  std::vector<Slot*> wave;
  double waves_wall_ms = 0, waves_work_ms = 0;  // of the waves fill() stepped, for host_thread_ms

  // Fills `batch` from the slots not waiting for results, in waves stepped in parallel on the
  // pool. The waves and their order depend only on the config and the slots' states, never on the
  // thread count or timing: games start, end and enter batches in the same order on any number
  // of threads.
  auto fill = [&](Batch& batch) {
    uint64_t rollouts = 0;
    size_t k = 0;
    while (k < slots_.size()) {
      const size_t by_leaves = (limits.max_leaves - batch.leaves.size()) / max_slot_leaves;
      const size_t by_rollouts = (limits.max_rollouts - rollouts) / max_slot_rollouts;
      const uint64_t wanted = target > rollouts ? target - rollouts : 0;
      const size_t by_target =
          std::max<size_t>(kMinWave, (wanted + max_slot_rollouts - 1) / max_slot_rollouts);
      const size_t room = std::min({by_leaves, by_rollouts, by_target});
      if (room == 0 || wanted == 0) break;
      wave.clear();
      for (; k < slots_.size() && wave.size() < room; ++k) {
        Slot& slot = *slots_[(cursor + k) % slots_.size()];
        if (slot.active && !slot.waiting && !slot.external) wave.push_back(&slot);
      }
      if (wave.empty()) break;
      const auto tw = Clock::now();
      const WorkPool::JobRef job = pool_->submit(
          wave.size(), [&](size_t i) { step(*wave[i]); }, pool_->grain_for(wave.size()));
      pool_->wait(job);
      waves_wall_ms += ms_since(tw);
      waves_work_ms += WorkPool::work_ms(job);
      for (Slot* slot : wave) {
        if (slot->finished) {
          on_game(std::move(*slot->finished));
          slot->finished.reset();
          if (!stop.load()) start_next_game(*slot);  // a stop (a signal) starts no new game
        }
        if (slot->leaves.empty()) continue;
        slot->waiting = true;
        slot->batch_first = batch.leaves.size();
        slot->batch_count = slot->leaves.size();
        batch.leaves.insert(batch.leaves.end(), slot->leaves.begin(), slot->leaves.end());
        for (const Leaf& leaf : slot->leaves) rollouts += leaf.rollouts;
        batch.slots.push_back(slot);
      }
    }
    cursor = (cursor + k) % std::max<size_t>(1, slots_.size());
  };

  bool externals = false;  // some slot waits on an external engine
  for (;;) {
    if (feed_) {
      // Ids handed out meanwhile go to the slots that found none.
      feed_->poll(false);
      if (!stop.load())
        for (auto& slot : slots_)
          if (!slot->active) start_next_game(*slot);
    }
    if (externals) externals = wake_external(false);
    bool submitted = false;
    if (!stop.load() && static_cast<int>(in_flight.size()) < depth) {
      int b = 0;
      while (std::find(in_flight.begin(), in_flight.end(), b) != in_flight.end()) ++b;
      Batch& batch = batches[b];
      const auto t0 = Clock::now();
      batch.leaves.clear();
      batch.slots.clear();
      waves_wall_ms = waves_work_ms = 0;
      fill(batch);
      for (auto& slot : slots_) externals |= slot->external;
      if (!batch.leaves.empty()) {
        batch.stats.resize(batch.leaves.size());
        batch.ticket = backend_.submit(batch.leaves, params_);
        in_flight.push_back(b);
        submitted = true;
      }
      batch.host_ms = ms_since(t0);
      batch.host_thread_ms = std::max(0.0, batch.host_ms - waves_wall_ms) + waves_work_ms;
    }
    if (in_flight.empty()) {
      bool any_active = false;
      for (auto& slot : slots_) any_active |= slot->active;
      if (stop.load() || (!any_active && (!feed_ || feed_->exhausted()))) break;
      // Nothing to compute: every game in flight waits for an external program's answer, or
      // for ids from the feed.
      if (!submitted && externals) {
        externals = wake_external(true);
      } else if (feed_ && !any_active) {
        feed_->poll(true);
      }
      continue;
    }
    if (submitted && static_cast<int>(in_flight.size()) < depth && !stop.load()) continue;

    Batch& batch = batches[in_flight.front()];
    in_flight.pop_front();
    const auto tw = Clock::now();
    const rollout::BatchTiming timing = backend_.wait(batch.ticket, batch.stats);
    const double wait_ms = ms_since(tw);
    const auto t1 = Clock::now();
    BatchInfo info;
    info.index = batch_index++;
    info.leaves = static_cast<uint32_t>(batch.leaves.size());
    for (const auto& st : batch.stats) info.rollouts += st.rollouts;
    for (Slot* slot : batch.slots) {
      const auto first = batch.stats.begin() + static_cast<std::ptrdiff_t>(slot->batch_first);
      slot->results.assign(first, first + static_cast<std::ptrdiff_t>(slot->batch_count));
      slot->has_results = true;
      slot->waiting = false;
    }
    const double absorb_ms = ms_since(t1);
    info.host_ms = batch.host_ms + absorb_ms;
    info.host_thread_ms = batch.host_thread_ms + absorb_ms;
    info.backend_ms = timing.compute_ms;
    info.wait_ms = wait_ms;
    info.time_s = std::chrono::duration<double>(Clock::now() - start).count();
    on_batch(info);
  }
  // A stop leaves results of the last batches unabsorbed: the engines are not used again.
}

template <HostGame G>
bool Driver<G>::wake_external(bool block) {
  std::vector<pollfd> fds;
  std::vector<Slot*> owners;
  auto earliest = Clock::time_point::max();
  for (auto& slot : slots_) {
    if (!slot->external) continue;
    const auto& engine =
        *slot->engines[engine_for_player(cfg_, slot->game.game_id, G::side_to_move(slot->state))];
    const std::optional<search::ExternalWait> wait = engine.waiting();
    if (!wait || wait->deadline <= Clock::now()) {
      slot->external = false;
      block = false;
      continue;
    }
    earliest = std::min(earliest, wait->deadline);
    fds.push_back(pollfd{wait->fd, POLLIN, 0});
    owners.push_back(slot.get());
  }
  if (fds.empty()) return false;
  int timeout = 0;
  if (block) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(earliest - Clock::now()).count();
    timeout = static_cast<int>(std::clamp<int64_t>(left, 0, kExternalWakeMs));
  }
  const int ready = ::poll(fds.data(), fds.size(), timeout);
  bool still = false;
  const auto now = Clock::now();
  for (size_t i = 0; i < fds.size(); ++i) {
    Slot& slot = *owners[i];
    const auto& engine =
        *slot.engines[engine_for_player(cfg_, slot.game.game_id, G::side_to_move(slot.state))];
    if ((ready > 0 && fds[i].revents != 0) || engine.waiting()->deadline <= now)
      slot.external = false;
    still |= slot.external;
  }
  return still;
}

}  // namespace sp::selfplay
