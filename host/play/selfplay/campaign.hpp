// A self-play campaign of game G: the config's games played on a rollout backend, every finished
// game written to the HDF5 file (crash-safe, resumable), progress on the terminal, a summary at
// the end. The game-neutral pieces (identities, the output claim, sizing) are in campaign.cpp;
// what touches the game's states is templated here.
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/game_host.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/records.hpp"
#include "host/base/system/log.hpp"
#include "host/base/system/system.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/search/game_hooks.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/driver.hpp"
#include "host/play/selfplay/memory.hpp"
#include "host/play/selfplay/progress.hpp"

namespace sp::selfplay {

struct RunOptions {
  std::optional<uint32_t> games;       // overrides campaign.games
  std::optional<std::string> output;   // overrides output.path
  std::optional<std::string> backend;  // overrides backend.name
  std::optional<int> threads;          // overrides backend.threads
  std::optional<int> device;           // overrides backend.device, on every rank alike
  bool resume = false;                 // continue the campaign in an existing output file
  bool live = false;                   // rewrite one status line in place (a terminal)
};

struct RunResult {
  uint64_t games_played = 0;   // this run
  uint64_t games_in_file = 0;  // every complete game in the file, earlier runs' included (resume)
  bool interrupted = false;
  std::string summary;
};

// Applies the overrides; throws sp::InputError for bad values.
void apply_overrides(config::CampaignConfig& cfg, const RunOptions& options);
// The summary with a line naming the engines' labels after its first line ("games played"), when
// the config gives either engine one; unchanged otherwise.
std::string with_engine_labels(std::string summary, const config::CampaignConfig& cfg);
// A --backend value, checked against the registry's names (rollout::backend_names) as the config's
// backend.name is; throws sp::InputError naming --backend and the known names.
std::string backend_override(const std::string& name);
template <HostGame G>
config::Config<G> with_overrides(config::Config<G> cfg, const RunOptions& options) {
  apply_overrides(cfg, options);
  return cfg;
}

// "" when the identities are equal; otherwise the first key that differs with its value in each,
// e.g. "engines.player0.weights.own_cubes (120 in the file, 130 in this run)". With
// added_defaults (an identity of the same shape), a key stored lacks (one added by a later
// version) counts as equal where current has the value added_defaults has there.
std::string identity_difference(const std::string& stored, const std::string& current,
                                const std::string& added_defaults = "");

// The checks of a resume, shared by campaigns and matches: throws sp::InputError unless the file
// at path (a readable campaign file) was written with the same identity. Files written
// before identities were stored are compared through their stored config: identity_of(config_text,
// name) loads it (whose weights files are read again from their stored paths). A key the stored
// identity lacks (added by a later build) counts as equal where this run has the value that the
// stored config has in this build (its default: the config could not set it).
void check_resume_identity(const std::string& path, const std::string& identity, bool match,
                           const std::function<std::string(const std::string& config_text,
                                                           const std::string& name)>& identity_of);
// An identity tree as text.
std::string emit_identity(const YAML::Node& tree);
// The ids of the complete games in a readable campaign file: its distinct written /games rows,
// which resume() keeps.
std::set<uint64_t> complete_games(const std::string& path);
// The backend options of a campaign: buffers sized for its concurrency and rounds.
rollout::BackendOptions backend_options(const config::CampaignConfig& cfg);
// The most games whose engines fit in machine_bytes (0: unknown, no limit).
uint64_t games_memory_allows(const config::CampaignConfig& cfg, uint64_t machine_bytes);
// Host, start time and build of a file's metadata.
void stamp_host(io::FileMeta& meta);

// The rows of a finished game as stored in the file; positions are sampled by (seed, game id).
struct GameRows {
  io::GameRow game;
  std::vector<io::PlyRow> plies;
  std::vector<io::PositionRow> positions;
  std::vector<float> features;  // positions.size() x the game's feature count (none: 0)
  std::vector<io::CandidateRow> candidates;
};

// A batch as a /perf row.
io::PerfRow perf_row(const BatchInfo& batch);

// The output file of a campaign or match, claimed for writing: the path checked, its folder
// created, the lock taken (held as long as the result lives), and an existing file refused unless
// resuming. `what` names the run in messages ("campaign", "match"). Throws InputError / io
// errors.
FileLock claim_output(const std::string& path, bool resume, const std::string& what);
// What decides the games (and, for a match, its test): the effective config as YAML without the
// keys a resume may change (campaign.games, campaign.concurrency, backend, output.path,
// output.flush_seconds, what is recorded of the searches: output.search_candidates and
// output.root_policy, match.pairs), each engine's `weights` replaced by the values read from
// its file (the file's path does not matter, its contents do), and the rules' entries that
// GameHost<G>::settings_identity gives where the game has that hook (checkers: its deck of
// openings). Stored in the output file (FileMeta::identity) and compared on resume.
template <HostGame G>
std::string run_identity(const config::Config<G>& cfg, bool match) {
  YAML::Node tree = YAML::Load(match ? config::explain_match_config<G>(cfg, true)
                                     : config::explain_campaign_config<G>(cfg, true));
  for (const char* key : {"games", "concurrency"})
    if (tree["campaign"]) tree["campaign"].remove(key);
  tree.remove("backend");
  for (const char* key : {"path", "flush_seconds", "search_candidates", "root_policy"})
    if (tree["output"]) tree["output"].remove(key);
  // quiet_positions came later; off, the positions are what they were.
  if (tree["output"] && !cfg.output.quiet_positions) tree["output"].remove("quiet_positions");
  if (match && tree["match"]) tree["match"].remove("pairs");
  for (int p = 0; p < 2; ++p) {
    YAML::Node engine = tree["engines"]["player" + std::to_string(p)];
    // The external engines' keys came later than the files of other engines: leaving them out
    // keeps those files' identities what they were.
    if (!config::is_external(cfg.engines[p].type))
      for (const char* key : {"command", "timeout_turn_ms", "timeout_match_ms", "tolerance_ms"})
        engine.remove(key);
    // Likewise threat_nodes (Gomoku's alpha-beta) while it is off, as every earlier file had it.
    if (cfg.engines[p].threat_nodes == 0) engine.remove("threat_nodes");
    // search (Gomoku's pattern search) came later still: the generic search is what they had.
    if (cfg.engines[p].search == config::SearchKind::kGeneric) engine.remove("search");
    // label came later too; without one the file's identity is what it was.
    if (cfg.engines[p].label.empty()) engine.remove("label");
    // fanout too; at 1 the search is what it was before.
    if (cfg.engines[p].fanout == 1) engine.remove("fanout");
    if (!cfg.engines[p].fanout_best) engine.remove("fanout_backup");
    // quiescence (checkers' alpha-beta) came later too: files written before it searched without
    // it, so only `quiescence: false` resumes them.
    if (!cfg.engines[p].quiescence) engine.remove("quiescence");
    // egtb (checkers' endgame databases) too; without them the search is what it was.
    if (cfg.engines[p].egtb.empty()) engine.remove("egtb");
    // book came later still; a book counts by its contents, not its path.
    if (cfg.engines[p].opening_book)
      engine["book"] = cfg.engines[p].opening_book->digest();
    else
      engine.remove("book");
    // And the search features that came later still, while they are off.
    if (cfg.engines[p].pvs) engine.remove("pvs");
    if (cfg.engines[p].killers) engine.remove("killers");
    if (cfg.engines[p].history) engine.remove("history");
    if (!cfg.engines[p].lmr) engine.remove("lmr");
    if (!cfg.engines[p].forced_extension) engine.remove("forced_extension");
    if (!cfg.engines[p].time_management) engine.remove("time_management");
    YAML::Node values;  // null: no weights
    if constexpr (FeatureGame<G>)
      if (const auto& weights = cfg.engines[p].evaluation)
        for (size_t i = 0; i < weights->w.size() && i < G::feature_names().size(); ++i)
          // Table entries came later (eval::required_features): at 0 they are what files
          // written before them had.
          if (i < eval::required_features<G>() || weights->w[i] != 0)
            values[std::string(G::feature_names()[i])] = fmt::format("{}", weights->w[i]);
    engine["weights"] = values;
  }
  // What the rules' text does not show, such as the contents of an openings file.
  if constexpr (requires { GameHost<G>::settings_identity(cfg.rules); })
    for (const auto& [key, value] : GameHost<G>::settings_identity(cfg.rules)) {
      if (value.empty())
        tree["rules"].remove(key);
      else
        tree["rules"][key] = value;
    }
  return emit_identity(tree);
}

// check_resume_identity for a file of game G.
template <HostGame G>
void check_resume_identity(const std::string& path, const std::string& identity, bool match) {
  check_resume_identity(
      path, identity, match, [match](const std::string& text, const std::string& name) {
        return run_identity<G>(match ? config::load_match_config_text<G>(text, name, true)
                                     : config::load_campaign_config_text<G>(text, name, true),
                               match);
      });
}

// A search's principal variation from `before` as /plies `pv` writes it: the plies' texts one
// space apart (ply_text: "3:b4-c3" in a chance game), up to the end of the game. The searches
// give legal lines (`selfplay verify` replays them); this is written for every ply of every game,
// so it checks nothing.
template <HostGame G>
std::string pv_text(const typename G::State& before,
                    const std::vector<typename search::SearchReport<typename G::Move>::PvPly>& pv) {
  std::string text;
  typename G::State s = before;
  for (const auto& ply : pv) {
    if (G::is_over(s)) break;
    if constexpr (ChanceGame<G>)
      if (ply.outcome >= 0) G::set_chance(s, ply.outcome);
    if (!text.empty()) text += ' ';
    text += ply_text<G>(s, ply.move);
    G::apply(s, ply.move);
  }
  return text;
}

// The rows of a finished game; positions are sampled by (seed, game id).
template <HostGame G>
GameRows to_rows(const config::Config<G>& cfg, const FinishedGame<G>& game) {
  GameRows rows;
  io::GameRow& g = rows.game;
  g.game_id = game.game_id;
  g.seed = cfg.seed;
  io::set_text(g.opening, game.opening);
  g.first_player = static_cast<uint8_t>(game.first_player);
  g.winner = static_cast<int8_t>(game.winner == 0 || game.winner == 1 ? game.winner : -1);
  g.plies = static_cast<uint16_t>(game.plies.size());
  g.duration_s = game.duration_s;
  std::string record;
  for (const PlyInfo<G>& p : game.plies) {
    if (!record.empty()) record += ' ';
    record += ply_text<G>(p.before, p.move);
  }
  io::set_record(g, record);
  g.termination = static_cast<uint8_t>(game.termination);

  for (size_t i = 0; i < game.plies.size(); ++i) {
    const PlyInfo<G>& p = game.plies[i];
    io::PlyRow r;
    r.game_id = game.game_id;
    r.ply = static_cast<uint16_t>(i);
    r.player = static_cast<uint8_t>(G::side_to_move(p.before));
    if constexpr (ChanceGame<G>)
      r.chance = static_cast<int8_t>(GameHost<G>::chance_value(p.before));
    io::set_text(r.move, GameHost<G>::move_text(p.before, p.move));
    r.visits = p.stats.visits;
    r.root_value = p.stats.value;
    r.rollouts = p.stats.rollouts;
    r.time_ms = p.time_ms;
    const search::SearchReport<typename G::Move>& thought = p.search;
    r.search = static_cast<uint8_t>(thought.kind);
    r.depth = static_cast<int16_t>(std::clamp(thought.depth, -1, 32767));
    r.score = thought.depth >= 0 ? static_cast<float>(thought.score) : 0.0f;
    r.nodes = thought.nodes;
    r.played = thought.played;
    r.think_ms = p.think_ms;
    io::set_plies_text(r.pv, pv_text<G>(p.before, thought.pv));
    rows.plies.push_back(r);
    for (size_t k = 0; k < thought.candidates.size(); ++k) {
      io::CandidateRow c;
      c.game_id = game.game_id;
      c.ply = r.ply;
      c.rank = static_cast<uint16_t>(std::min<size_t>(k, UINT16_MAX));
      io::set_text(c.move, GameHost<G>::move_text(p.before, thought.candidates[k].move));
      c.visits = thought.candidates[k].visits;
      c.value = static_cast<float>(thought.candidates[k].value);
      rows.candidates.push_back(c);
    }
  }

  // Positions for tuning: every ply, or a sample of distinct plies drawn from (seed, game id);
  // with output.quiet_positions, among the quiet plies only.
  std::vector<size_t> eligible;
  for (size_t i = 0; i < game.plies.size(); ++i) {
    if constexpr (search::hooks::HasQuiet<G>)
      if (cfg.output.quiet_positions && !G::is_quiet(game.plies[i].before)) continue;
    eligible.push_back(i);
  }
  std::vector<size_t> chosen;
  const size_t n = eligible.size(), k = cfg.output.positions_per_game;
  if (k == 0 || k >= n) {
    chosen = eligible;
  } else {
    WordStream rng({cfg.seed, game.game_id, 0, kLeafSetup, 1});
    std::set<size_t> picked;
    while (picked.size() < k) picked.insert(rng.below(static_cast<uint32_t>(n)));
    for (const size_t j : picked) chosen.push_back(eligible[j]);
  }
  for (size_t i : chosen) {
    const typename G::State& s = game.plies[i].before;
    const int side = G::side_to_move(s);
    io::PositionRow r;
    r.game_id = game.game_id;
    r.ply = static_cast<uint16_t>(i);
    r.side_to_move = static_cast<uint8_t>(side);
    r.result = game.winner == side ? 1.0f : (game.winner == 0 || game.winner == 1) ? 0.0f : 0.5f;
    rows.positions.push_back(r);
    if constexpr (FeatureGame<G>) {
      float f[G::kNumFeatures];
      G::extract_features(s, GameHost<G>::rules_of(cfg.rules), f);
      rows.features.insert(rows.features.end(), f, f + G::kNumFeatures);
    }
  }
  return rows;
}

// The engines' memory and the batch buffers of the backend cfg names (backend_options(cfg)), as
// run and match will allocate them.
template <HostGame G>
MemoryEstimate estimate_run_memory(const config::Config<G>& cfg) {
  MemoryEstimate m = estimate_memory(cfg);
  add_backend_memory(m, cfg,
                     rollout::backend_memory<G>(cfg.backend.name, backend_options(cfg),
                                                rollout::cuda_available()));
  return m;
}

// check_memory of estimate_run_memory against this machine's memory and, for a backend that
// names the GPU (cuda, check), the free memory of its device. auto is not refused: it falls back
// to the cpu backend when the device cannot hold the buffers.
template <HostGame G>
void check_run_memory(const config::Config<G>& cfg) {
  const MemoryEstimate m = estimate_run_memory(cfg);
  uint64_t free_bytes = 0, total_bytes = 0;
  if (m.device_bytes > 0 && cfg.backend.name != "auto")
    rollout::cuda_device_memory(cfg.backend.device, &free_bytes, &total_bytes);
  check_memory(cfg, m, usable_memory_bytes(), free_bytes);
}

// Pieces shared by campaigns, matches and SPSA: the backend named by cfg, sized for its
// concurrency; the root attributes of its file (config_text: the effective config); a batch as a
// /perf row. make_campaign_backend resolves campaign.concurrency auto (0) in cfg, once the
// backend's preferred batch is known (auto_concurrency, capped by the machine's memory; logged,
// then check_run_memory), and warns once (unless log::quiet) when the games in flight cannot fill
// half the batch target (batch_shortfall).
template <HostGame G>
std::unique_ptr<rollout::Backend<G>> make_campaign_backend(config::Config<G>& cfg) {
  auto backend = rollout::make_backend<G>(cfg.backend.name, backend_options(cfg));
  const uint64_t target = batch_target(cfg, backend->info());
  if (cfg.concurrency == 0) {
    cfg.concurrency =
        auto_concurrency(cfg, target, games_memory_allows(cfg, usable_memory_bytes()));
    log::info(fmt::format("concurrency: auto -> {} games (target {} rollouts per batch)",
                          cfg.concurrency, target));
    check_run_memory(cfg);  // the games of auto fit unless one does not
    const rollout::BackendOptions sized = backend_options(cfg);
    if (sized.max_leaves > backend->info().max_leaves ||
        sized.max_rollouts > backend->info().max_rollouts) {
      // The backend `auto` chose, by its name: auto is resolved (and logged) once.
      const std::string chosen =
          cfg.backend.name == "auto" ? backend->info().name : cfg.backend.name;
      backend.reset();  // one backend at a time: a device's memory may not hold two
      backend = rollout::make_backend<G>(chosen, sized);
    }
  }
  // Advice on speed, not on the data: --quiet (scripted runs) leaves it out.
  if (const std::string shortfall = batch_shortfall(cfg, target);
      !shortfall.empty() && !log::quiet())
    log::warn(shortfall);
  return backend;
}

// The root attributes of a campaign or match file (config_text: the effective config).
template <HostGame G>
io::FileMeta file_meta(const config::Config<G>& cfg, const rollout::BackendInfo& backend,
                       std::string config_text) {
  io::FileMeta meta;
  meta.game = G::kName;
  meta.rules = GameHost<G>::describe_rules(GameHost<G>::rules_of(cfg.rules));
  meta.config_text = std::move(config_text);
  meta.backend = backend.name;
  meta.device = backend.device;
  meta.seed = cfg.seed;
  stamp_host(meta);
  if constexpr (FeatureGame<G>)
    for (const auto& name : G::feature_names()) meta.feature_names.emplace_back(name);
  return meta;
}

// The driver of game_ids (or of the ids a GameFeed and its slot count hand out) with its engines
// (and their tables) allocated: built before a file is created, so that a config too large for
// memory leaves no file. External engines (pbrain, external) are started once and asked START here
// too, so that one refusing the board or the game (ERROR) leaves no file either. Throws
// std::runtime_error naming campaign.concurrency and tt_size_mb instead of std::bad_alloc.
template <HostGame G, class... Games>
std::unique_ptr<Driver<G>> make_driver(const config::Config<G>& cfg, rollout::Backend<G>& backend,
                                       Games&&... games) {
  for (int p = 0; p < 2; ++p) {
    if constexpr (ProtocolGame<G>)
      if (cfg.engines[p].type == config::EngineType::kPbrain)
        PbrainEngine<G>::probe(client_settings(cfg.engines[p]), GameHost<G>::rules_of(cfg.rules));
    if constexpr (LineProtocolGame<G>)
      if (cfg.engines[p].type == config::EngineType::kExternal)
        ExternalEngine<G>::probe(client_settings(cfg.engines[p]));
  }
  try {
    return std::make_unique<Driver<G>>(cfg, backend, std::forward<Games>(games)...);
  } catch (const std::bad_alloc&) {
    std::string tables;
    for (int p = 0; p < 2; ++p)
      if (cfg.engines[p].type == config::EngineType::kExpectimax ||
          cfg.engines[p].type == config::EngineType::kAlphaBeta)
        tables += fmt::format(", engines.player{}.tt_size_mb {}", p, cfg.engines[p].tt_size_mb);
    throw std::runtime_error(fmt::format(
        "out of memory building the engines of {} concurrent games (campaign.concurrency {}{}): "
        "lower them; nothing was written",
        std::min<size_t>(cfg.concurrency, cfg.games), cfg.concurrency, tables));
  }
}

// Plays the campaign. stop (set by SIGINT/SIGTERM/SIGHUP) ends it cleanly: in-flight batches
// drain, finished games are flushed, unfinished ones are dropped (a resume replays them
// identically). The output is locked for writing (io::lock_for_writing) before it is looked at,
// and the engines are built before the file is created. Throws sp::InputError for an output that
// exists without resume (and the reverse), that another process writes (FileLocked), or whose
// stored identity differs from the config's (the message names the key); a resume of a file that
// is not a readable campaign (empty, cut short) is refused and leaves it as it is.
template <HostGame G>
RunResult run_campaign(const config::Config<G>& requested, const RunOptions& options,
                       const std::atomic<bool>& stop) {
  config::Config<G> cfg = requested;  // make_campaign_backend resolves concurrency auto in it
  check_run_memory(cfg);  // before any file or engine exists (auto: in make_campaign_backend)
  const std::string& path = cfg.output.path;
  // From here on no other writer touches the file: what is read below is what resume() keeps.
  FileLock lock = claim_output(path, options.resume, "campaign");
  const std::string identity = run_identity<G>(cfg, false);
  std::set<uint64_t> done;
  if (options.resume) {
    check_resume_identity<G>(path, identity, false);
    done = complete_games(path);
  }

  std::vector<uint32_t> todo;
  for (uint32_t g = 0; g < cfg.games; ++g)
    if (!done.count(g)) todo.push_back(g);
  const uint64_t already = cfg.games - todo.size();  // of game ids 0..games-1
  auto backend = make_campaign_backend(cfg);
  std::unique_ptr<Driver<G>> driver = make_driver<G>(cfg, *backend, todo);

  io::FileMeta meta = file_meta(cfg, backend->info(), config::explain_campaign_config<G>(cfg));
  meta.identity = identity;
  io::WriterOptions wopts;
  wopts.flush_seconds = cfg.output.flush_seconds;
  io::CampaignWriter writer = options.resume
                                  ? io::CampaignWriter::resume(std::move(lock), path, meta, wopts)
                                  : io::CampaignWriter::create(std::move(lock), path, meta, wopts);
  const io::ResumeReport& report = writer.resume_report();
  if (options.resume) {
    std::string line = "resume: " + std::to_string(done.size()) + " complete games in " + path;
    if (done.size() != already)
      line += ", " + std::to_string(already) + " of them among the " + std::to_string(cfg.games) +
              " of this run";
    if (report.dropped_plies)
      line += ", dropped " + std::to_string(report.dropped_plies) + " plies of unfinished games";
    log::info(line);
  }
  log::info("campaign: " + std::to_string(todo.size()) + " games, " +
            std::to_string(cfg.concurrency) + " concurrent, backend " + backend->info().name +
            " (" + backend->info().device + "), output " + path);

  Progress progress(cfg.games, already, stderr, options.live && !log::quiet());
  RunResult result;
  driver->run(
      [&](FinishedGame<G>&& game) {
        GameRows rows = to_rows<G>(cfg, game);
        writer.append_game(rows.game, std::move(rows.plies), std::move(rows.positions),
                           std::move(rows.features), std::move(rows.candidates));
        if (game.termination != search::Termination::kRules)
          log::warn(fmt::format("game {}: engines.player{} (player {}) loses by {}: {}",
                                game.game_id, game.engine_of_player[1 - game.winner],
                                1 - game.winner, search::termination_name(game.termination),
                                game.termination_detail));
        const int winner_engine =
            game.winner == 0 || game.winner == 1 ? game.engine_of_player[game.winner] : -1;
        progress.game_finished(game.winner, game.first_player,
                               static_cast<uint32_t>(game.plies.size()), winner_engine);
        ++result.games_played;
        if (!log::quiet()) progress.tick();
      },
      [&](const BatchInfo& b) {
        writer.append_perf(perf_row(b));
        progress.batch_done(b.leaves, b.rollouts, b.backend_ms, b.wait_ms, b.host_ms,
                            b.host_thread_ms);
        if (!log::quiet()) progress.tick();
      },
      stop);
  writer.close();
  result.games_in_file = done.size() + result.games_played;
  result.interrupted = already + result.games_played < cfg.games;
  if (!log::quiet()) progress.tick(true);
  result.summary = with_engine_labels(
      progress.summary(path, backend->info().name + " (" + backend->info().device + ")",
                       result.games_in_file),
      cfg);
  return result;
}

}  // namespace sp::selfplay
