#include "host/selfplay/driver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <optional>
#include <stdexcept>

#include "games/common/errors.hpp"
#include "host/eval/weights.hpp"
#include "host/search/expectimax.hpp"

namespace sp::selfplay {
namespace {

using Clock = std::chrono::steady_clock;
using EwnLeaf = rollout::Leaf<EwnGame>;

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

}  // namespace

uint32_t stream_game(const config::CampaignConfig& cfg, uint32_t game_id) {
  return cfg.paired ? game_id / 2 : game_id;
}

int engine_for_player(const config::CampaignConfig& cfg, uint32_t game_id, int player) {
  return cfg.paired && (game_id & 1u) ? player ^ 1 : player;
}

ewn::State initial_position(const config::CampaignConfig& cfg, uint32_t game_id, ewn::Arrangement setup[2],
                            int* first_player) {
  WordStream rng({cfg.seed, stream_game(cfg, game_id), 0, kLeafSetup, 0});
  switch (cfg.game.setup) {
    case config::SetupKind::kRandom:
      setup[0] = ewn::random_arrangement(rng);
      setup[1] = ewn::random_arrangement(rng);
      break;
    case config::SetupKind::kMirrored:
      setup[0] = setup[1] = ewn::random_arrangement(rng);
      break;
    case config::SetupKind::kFixed:
      setup[0] = setup[1] = ewn::Arrangement{};
      break;
    case config::SetupKind::kExplicit:
      setup[0] = cfg.game.setup_p0;
      setup[1] = cfg.game.setup_p1;
      break;
  }
  int first = 0;
  switch (cfg.game.first_player) {
    case config::FirstPlayer::kPlayer0: first = 0; break;
    case config::FirstPlayer::kPlayer1: first = 1; break;
    case config::FirstPlayer::kAlternate: first = static_cast<int>(stream_game(cfg, game_id) & 1u); break;
  }
  if (first_player) *first_player = first;
  ewn::State s = ewn::initial_state(setup[0], setup[1], first);
  s.die = static_cast<uint8_t>(roll_die(cfg.seed, stream_game(cfg, game_id), 0));
  return s;
}

int roll_die(uint64_t seed, uint32_t game_id, uint32_t ply) {
  WordStream rng({seed, game_id, ply, kLeafDice, 0});
  return 1 + static_cast<int>(rng.below(6));
}

size_t max_round_leaves(const config::CampaignConfig& cfg) {
  return std::max<size_t>({cfg.engines[0].leaves_per_round, cfg.engines[1].leaves_per_round, ewn::kMaxMoves});
}

uint64_t max_round_rollouts(const config::CampaignConfig& cfg) {
  uint64_t most = 0;
  for (const config::EngineConfig& e : cfg.engines) {
    if (e.type == config::EngineType::kMcts)
      most = std::max<uint64_t>(most, uint64_t{e.leaves_per_round} * e.rollouts_per_leaf);
    else if (e.type == config::EngineType::kFlat)  // max(1, budget / moves) for each root move
      most = std::max<uint64_t>({most, e.rollouts_per_move, uint64_t{ewn::kMaxMoves}});
  }
  return most;
}

uint64_t batch_target(const config::CampaignConfig& cfg, const rollout::BackendInfo& backend) {
  return cfg.backend.batch_rollouts ? cfg.backend.batch_rollouts
                                    : std::max<uint64_t>(1, backend.preferred_rollouts);
}

uint32_t auto_concurrency(const config::CampaignConfig& cfg, uint64_t target, uint64_t most) {
  const uint64_t round = std::max<uint64_t>(1, max_round_rollouts(cfg));
  const uint64_t wanted = (2 * target + round - 1) / round;
  return static_cast<uint32_t>(
      std::clamp<uint64_t>(std::min<uint64_t>({wanted, cfg.games, most}), 1, 65536));
}

std::string batch_shortfall(const config::CampaignConfig& cfg, uint64_t target) {
  const uint64_t round = max_round_rollouts(cfg);
  const uint64_t games = std::min<uint64_t>(cfg.concurrency, cfg.games);
  if (round == 0 || games * round >= target) return "";
  return "batches reach at most " + std::to_string(games * round / 2) + " rollouts (" +
         std::to_string(games) + " games in flight, half of them in each of 2 batches, x " +
         std::to_string(round) + " rollouts per round), under half the target of " +
         std::to_string(target) + ": the backend idles part of the time; raise " +
         // Every game already in flight: only more games help.
         (cfg.games <= cfg.concurrency ? std::string("campaign.games")
                                       : std::string("campaign.concurrency (or set it to auto)")) +
         ", engines.*.leaves_per_round or engines.*.rollouts_per_leaf, or lower "
         "backend.batch_rollouts";
}

search::MctsParams mcts_params(const config::EngineConfig& cfg) {
  search::MctsParams p;
  p.rollouts_per_move = cfg.rollouts_per_move;
  p.rollouts_per_leaf = cfg.rollouts_per_leaf;
  p.exploration = cfg.exploration;
  p.virtual_loss = cfg.virtual_loss;
  p.leaves_per_round = cfg.leaves_per_round;
  p.chance = cfg.chance == config::ChanceMode::kSample ? search::ChanceSelection::kSample
                                                        : search::ChanceSelection::kRoundRobin;
  p.node_budget = cfg.node_budget;
  p.reuse_tree = cfg.reuse_tree;
  p.eval_blend = cfg.eval_blend;
  p.progressive_bias = cfg.progressive_bias;
  return p;
}

search::Mcts<EwnGame>::Evaluator evaluation_prior(std::shared_ptr<const eval::Weights> weights,
                                                  const ewn::Rules& rules, double scale) {
  if (!weights) throw InputError("an evaluation needs weights");
  return [weights = std::move(weights), rules, scale](const ewn::State& s) {
    const double e = eval::evaluate<EwnGame>(*weights, s, rules);  // for the side to move
    const double e0 = s.side == 0 ? e : -e;
    return 1 / (1 + std::exp(-scale * e0));
  };
}

std::unique_ptr<search::Engine<EwnGame>> make_engine(const config::EngineConfig& cfg, const ewn::Rules& rules,
                                                     uint32_t policy_slot) {
  switch (cfg.type) {
    case config::EngineType::kMcts: {
      const search::MctsParams params = mcts_params(cfg);
      if (params.eval_blend == 0 && params.progressive_bias == 0)
        return std::make_unique<search::MctsEngine<EwnGame>>(params, rules, policy_slot);
      return std::make_unique<search::MctsEngine<EwnGame>>(
          params, rules, policy_slot, evaluation_prior(cfg.evaluation, rules, cfg.eval_scale),
          cfg.evaluation ? cfg.evaluation->name : "");
    }
    case config::EngineType::kFlat:
      return std::make_unique<search::FlatEngine<EwnGame>>(cfg.rollouts_per_move, rules, policy_slot);
    case config::EngineType::kRandom:
      return std::make_unique<search::RandomEngine<EwnGame>>(rules);
    case config::EngineType::kExpectimax: {
      if (!cfg.evaluation) throw InputError("an expectimax engine needs weights");
      search::ExpectimaxOptions options;
      options.depth = static_cast<int>(cfg.depth);
      options.time_ms = cfg.time_ms;
      options.tt_size_mb = cfg.tt_size_mb;
      options.use_star1 = cfg.star1;
      return std::make_unique<search::ExpectimaxEngine<EwnGame>>(*cfg.evaluation, rules, options);
    }
  }
  throw std::logic_error("unknown engine type");
}

struct Driver::Slot {
  bool active = false;
  bool searching = false;
  bool waiting = false;  // its leaves are in a batch that has not been waited for
  ewn::State state{};
  FinishedGame game;
  std::unique_ptr<search::Engine<EwnGame>> engines[2];
  Clock::time_point game_start, move_start;
  size_t batch_first = 0, batch_count = 0;  // its leaves in the batch in flight
  // Written by step() on any pool thread, read by the driver thread after the step job:
  std::vector<EwnLeaf> leaves;           // the leaves it wants in the next batch
  std::optional<FinishedGame> finished;  // a game that ended in the step
  // Written by the driver thread when its batch was waited for; absorbed by the next step.
  std::vector<rollout::LeafStats> results;
  bool has_results = false;
};

Driver::Driver(const config::CampaignConfig& cfg, rollout::Backend<EwnGame>& backend, std::vector<uint32_t> game_ids)
    : cfg_(cfg),
      backend_(backend),
      game_ids_(std::move(game_ids)),
      pool_(backend.work_pool() ? backend.work_pool() : std::make_shared<WorkPool>(cfg.backend.threads)) {
  params_.seed = cfg.seed;
  params_.rules = cfg.game.rules;
  params_.policies[0] = cfg.engines[0].policy;
  params_.policies[1] = cfg.engines[1].policy;
  if (cfg.concurrency == 0)
    throw std::invalid_argument("driver: campaign.concurrency auto is not resolved");
  const size_t n = std::min<size_t>(cfg.concurrency, game_ids_.size());
  for (size_t i = 0; i < n; ++i) {
    auto slot = std::make_unique<Slot>();
    for (int p = 0; p < 2; ++p) slot->engines[p] = make_engine(cfg.engines[p], cfg.game.rules, static_cast<uint32_t>(p));
    slots_.push_back(std::move(slot));
  }
}

Driver::~Driver() = default;

int Driver::threads() const { return pool_->threads(); }

void Driver::start_next_game(Slot& slot) {
  if (next_game_ >= game_ids_.size()) {
    slot.active = false;
    return;
  }
  const uint32_t id = game_ids_[next_game_++];
  slot.active = true;
  slot.searching = false;
  slot.waiting = false;
  slot.game = FinishedGame{};
  slot.game.game_id = id;
  slot.state = initial_position(cfg_, id, slot.game.setup, &slot.game.first_player);
  for (int p = 0; p < 2; ++p) slot.game.engine_of_player[p] = engine_for_player(cfg_, id, p);
  slot.game_start = Clock::now();
  for (auto& e : slot.engines) e->new_game();
}

// Steps one slot as far as it goes without rollouts: absorbs the statistics of its last batch,
// plays the moves its engines decide, and leaves in slot.leaves what it needs next, or in
// slot.finished a game that ended (the slot then yields: engines that need no rollouts would
// otherwise play every remaining game in one step). Touches nothing but the slot (and its
// engines), so slots step in parallel on the pool.
void Driver::step(Slot& slot) {
  slot.leaves.clear();
  if (slot.has_results) {
    slot.engines[engine_for_player(cfg_, slot.game.game_id, slot.state.side)]->absorb(slot.results);
    slot.has_results = false;
  }
  while (slot.active) {
    ewn::State& s = slot.state;
    auto& engine = *slot.engines[engine_for_player(cfg_, slot.game.game_id, s.side)];
    const uint32_t ply = static_cast<uint32_t>(slot.game.plies.size());
    if (!slot.searching) {
      slot.move_start = Clock::now();  // before begin(): engines without rollouts decide in it
      engine.begin(s, search::SearchIds{slot.game.game_id, ply, cfg_.seed});
      slot.searching = true;
    }
    if (engine.decided()) {
      PlyInfo info;
      info.before = s;
      info.move = engine.decision(&info.stats);
      info.time_ms = static_cast<float>(ms_since(slot.move_start));
      slot.game.plies.push_back(info);
      slot.searching = false;
      ewn::apply(s, info.move);
      if (ewn::is_over(s)) {
        slot.game.winner = s.winner;
        slot.game.duration_s = ms_since(slot.game_start) / 1000.0;
        slot.finished = std::move(slot.game);
        slot.active = false;
        return;
      }
      s.die = static_cast<uint8_t>(roll_die(cfg_.seed, stream_game(cfg_, slot.game.game_id), ply + 1));
      for (auto& e : slot.engines) e->observe(info.move, s);
      continue;
    }
    engine.collect(slot.leaves);
    if (!slot.leaves.empty()) return;
    // A round can spend the rest of the budget on terminal nodes, which need no rollouts.
    if (!engine.decided()) throw std::logic_error("engine neither decided nor asked for leaves");
  }
}

void Driver::run(const std::function<void(FinishedGame&&)>& on_game, const std::function<void(const BatchInfo&)>& on_batch,
                 const std::atomic<bool>& stop) {
  const auto start = Clock::now();
  for (auto& slot : slots_) start_next_game(*slot);

  struct Batch {
    std::vector<EwnLeaf> leaves;
    std::vector<rollout::LeafStats> stats;
    std::vector<Slot*> slots;
    rollout::Ticket ticket = 0;
    double host_ms = 0;
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
    throw std::invalid_argument("driver: one game's round needs up to " + std::to_string(max_slot_leaves) +
                                " leaves and " + std::to_string(max_slot_rollouts) + " rollouts; backend " +
                                limits.name + " takes at most " + std::to_string(limits.max_leaves) +
                                " leaves and " + std::to_string(limits.max_rollouts) + " rollouts per batch");
  size_t cursor = 0;  // round-robin start, so capped batches do not starve late slots
  std::vector<Slot*> wave;

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
      const size_t by_target = std::max<size_t>(kMinWave, (wanted + max_slot_rollouts - 1) / max_slot_rollouts);
      const size_t room = std::min({by_leaves, by_rollouts, by_target});
      if (room == 0 || wanted == 0) break;
      wave.clear();
      for (; k < slots_.size() && wave.size() < room; ++k) {
        Slot& slot = *slots_[(cursor + k) % slots_.size()];
        if (slot.active && !slot.waiting) wave.push_back(&slot);
      }
      if (wave.empty()) break;
      pool_->run(wave.size(), [&](size_t i) { step(*wave[i]); });
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
        for (const EwnLeaf& leaf : slot->leaves) rollouts += leaf.rollouts;
        batch.slots.push_back(slot);
      }
    }
    cursor = (cursor + k) % std::max<size_t>(1, slots_.size());
  };

  for (;;) {
    bool submitted = false;
    if (!stop.load() && static_cast<int>(in_flight.size()) < depth) {
      int b = 0;
      while (std::find(in_flight.begin(), in_flight.end(), b) != in_flight.end()) ++b;
      Batch& batch = batches[b];
      const auto t0 = Clock::now();
      batch.leaves.clear();
      batch.slots.clear();
      fill(batch);
      if (!batch.leaves.empty()) {
        batch.stats.resize(batch.leaves.size());
        batch.ticket = backend_.submit(batch.leaves, params_);
        in_flight.push_back(b);
        submitted = true;
      }
      batch.host_ms = ms_since(t0);
    }
    if (in_flight.empty()) {
      bool any_active = false;
      for (auto& slot : slots_) any_active |= slot->active;
      if (stop.load() || !any_active) break;
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
    info.host_ms = batch.host_ms + ms_since(t1);
    info.backend_ms = timing.compute_ms;
    info.wait_ms = wait_ms;
    info.time_s = std::chrono::duration<double>(Clock::now() - start).count();
    on_batch(info);
  }
  // A stop leaves results of the last batches unabsorbed: the engines are not used again.
}

}  // namespace sp::selfplay
