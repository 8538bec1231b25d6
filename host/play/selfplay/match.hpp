// A match between two engines: engine A (engines.player0 of a match config) against engine B
// (engines.player1) in game pairs. Games 2k and 2k+1 share the start arrangements and the dice,
// and A plays player 0 in the first and player 1 in the second. Every game goes to the HDF5 file as
// in a campaign; the pairs go to /match/pairs with the GSPRT log-likelihood ratio after each.
//
// Pairs are counted in pair order: pair k counts once pairs 0..k are all complete, whatever order
// the games finish in. So the counted pairs, the LLR after each and the point where the SPRT
// decides depend only on the config and seed, not on concurrency, batch sizes, threads or backend.
// When the SPRT decides, no new game starts; the games already running are finished and written
// (their records are valid games) but the test and the reported table count the pairs up to the
// decision only.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <chrono>
#include <cstdio>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/game_host.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/stats/match_stats.hpp"
#include "host/base/system/log.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/play/selfplay/driver.hpp"
#include "host/play/selfplay/memory.hpp"

namespace sp::selfplay {

struct MatchOptions {
  std::optional<uint32_t> pairs;       // overrides match.pairs
  std::optional<std::string> output;   // overrides output.path
  std::optional<std::string> backend;  // overrides backend.name
  std::optional<int> threads;          // overrides backend.threads
  std::optional<int> device;           // overrides backend.device, on every rank alike
  bool resume = false;                 // continue the match in an existing output file
  bool live = false;                   // rewrite one status line in place (a terminal)
};

struct MatchResult;

namespace match_detail {
using Clock = std::chrono::steady_clock;
float score_of(stats::GameResult r);
// "B: 2 time losses, 1 crash" (engines without forfeits left out); "" when there were none.
std::string forfeits_text(const MatchResult& r);
std::string sprt_line(const MatchResult& r);
// The status line: a terminal gets it rewritten in place every half second, a log every 10 s.
class MatchProgress {
 public:
  MatchProgress(uint64_t pairs, bool live, bool quiet)
      : pairs_(pairs), live_(live), quiet_(quiet) {}

  void game_finished() { ++games_; }
  void tick(const MatchResult& r, bool force = false);
  void end() {
    if (live_ && !quiet_) std::fputc('\n', stderr);
  }
  double elapsed_s() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

 private:
  uint64_t pairs_;
  bool live_, quiet_;
  uint64_t games_ = 0;
  Clock::time_point start_ = Clock::now(), last_ = start_;
};
}  // namespace match_detail

struct MatchResult {
  stats::PairCounter counter;            // pairs 0..n-1, engine A's results
  std::optional<stats::SprtState> sprt;  // after the counted pairs, when match.sprt.enabled
  stats::SprtConfig sprt_config;
  uint64_t games_played = 0;   // this run
  uint64_t games_in_file = 0;  // every complete game in the file, earlier runs' included
  bool sprt_stopped = false;   // the SPRT decided before every pair was played
  bool interrupted = false;    // stop was set before the match ended
  std::string engine_a, engine_b;
  // Games each engine (0: A, 1: B) lost by a forfeit, by search::Termination (index 0 unused),
  // among this run's games.
  uint64_t forfeits[2][search::kTerminations] = {};
  std::string report;  // engines, format_match_table, the SPRT outcome, throughput, file
};

// Applies the overrides (games = 2 x pairs); throws sp::InputError for bad values.
void apply_overrides(config::CampaignConfig& cfg, const MatchOptions& options);
template <HostGame G>
config::Config<G> with_overrides(config::Config<G> cfg, const MatchOptions& options) {
  apply_overrides(cfg, options);
  return cfg;
}

// The GSPRT a match runs on its pairs after each counted pair: the settings' hypotheses and error
// rates, the default regularisation (stats::kSprtPriorSamples) and min_pairs as min_samples.
stats::SprtConfig sprt_config_of(const config::SprtSettings& settings);

// engine A's result in a finished game of a paired config: game_id's parity says A's player.
stats::GameResult result_for_a(const config::CampaignConfig& cfg, uint32_t game_id, int winner);

// Engine A's results in the two games of one pair: first the game where A plays player 0.
struct PairResult {
  stats::GameResult first, second;
};

// Plays pairs 0..pairs-1 of a match config (cfg.seed decides their setups and dice) on backend,
// writing nothing; for tuners that need many short matches. Returns every pair in pair order, or
// fewer when stop was set (only complete pairs before the first missing one). Throws
// std::invalid_argument unless cfg is paired.
template <HostGame G>
std::vector<PairResult> play_pairs(const config::Config<G>& match_cfg, uint32_t pairs,
                                   rollout::Backend<G>& backend, const std::atomic<bool>& stop) {
  if (!match_cfg.paired) throw std::invalid_argument("play_pairs: not a paired config");
  config::Config<G> cfg = match_cfg;
  cfg.match.pairs = pairs;
  cfg.games = 2 * uint64_t{pairs};
  std::vector<uint32_t> ids(cfg.games);
  for (uint32_t g = 0; g < cfg.games; ++g) ids[g] = g;
  std::vector<std::optional<stats::GameResult>> results(cfg.games);
  Driver<G> driver(cfg, backend, std::move(ids));
  driver.run(
      [&](FinishedGame<G>&& game) {
        results[game.game_id] = result_for_a(cfg, game.game_id, game.winner);
      },
      [](const BatchInfo&) {}, stop);
  std::vector<PairResult> out;
  for (uint32_t k = 0; k < pairs && results[2 * k] && results[2 * k + 1]; ++k)
    out.push_back({*results[2 * k], *results[2 * k + 1]});
  return out;
}

// The root attributes of a match file, /match included; sets result.engine_a and engine_b.
template <HostGame G>
io::FileMeta match_file_meta(const config::Config<G>& cfg, const rollout::BackendInfo& backend,
                             const std::string& identity, MatchResult& result) {
  io::FileMeta meta = file_meta(cfg, backend, config::explain_match_config<G>(cfg));
  meta.identity = identity;
  const auto& rules = GameHost<G>::rules_of(cfg.rules);
  result.engine_a = make_engine<G>(cfg.engines[0], rules, 0)->describe();
  result.engine_b = make_engine<G>(cfg.engines[1], rules, 1)->describe();
  const config::SprtSettings& sprt = cfg.match.sprt;
  io::MatchMeta match;
  match.engine_a = result.engine_a;
  match.engine_b = result.engine_b;
  match.pairs = cfg.match.pairs;
  match.sprt_enabled = sprt.enabled;
  match.sprt_elo0 = sprt.elo0;
  match.sprt_elo1 = sprt.elo1;
  match.sprt_alpha = sprt.alpha;
  match.sprt_beta = sprt.beta;
  if (sprt.enabled) {
    const stats::SprtState bounds = stats::sprt_bounds(result.sprt_config);
    match.sprt_lower = bounds.lower;
    match.sprt_upper = bounds.upper;
  }
  meta.match = match;
  return meta;
}

// Counts a match's pairs in pair order from the games' results as they come (in any order), the
// SPRT after each counted pair, until it decides. The rows of newly counted pairs wait in `rows`
// until they are handed to the writer.
class PairCount {
 public:
  PairCount(const config::CampaignConfig& cfg, MatchResult& result)
      : cfg_(cfg), result_(result), use_sprt_(cfg.match.sprt.enabled) {}
  // A finished game's result (engine A's); counts the pairs it completes.
  void add(uint32_t game_id, stats::GameResult r) {
    waiting_[game_id] = r;
    advance();
  }
  // A result known before the games start (resume); counted by the next advance().
  void add_waiting(uint32_t game_id, stats::GameResult r) { waiting_[game_id] = r; }
  void advance();
  bool decided() const { return decided_; }
  uint64_t next_pair() const { return next_pair_; }
  bool has(uint32_t game_id) const { return waiting_.count(game_id) != 0; }
  std::vector<io::MatchPairRow> rows;

 private:
  const config::CampaignConfig& cfg_;
  MatchResult& result_;
  bool use_sprt_;
  std::map<uint32_t, stats::GameResult> waiting_;
  uint64_t next_pair_ = 0;
  bool decided_ = false;
};

// Adds the results of the complete games of the match file at path (resume) to pairs; returns the
// number of distinct complete games, those outside the match's game ids included.
uint64_t add_stored_results(const std::string& path, const config::CampaignConfig& cfg,
                            PairCount& pairs);
// The game ids still to play: none once the SPRT decided, else those of the pairs not counted
// whose result is not known.
std::vector<uint32_t> match_todo(const config::CampaignConfig& cfg, const PairCount& pairs);

// The closing report of a match (result.report): engines, table, SPRT, counted pairs, games,
// forfeits, throughput, backend and file.
void write_match_report(MatchResult& result, const config::CampaignConfig& cfg,
                        uint64_t after_decision, uint64_t rollouts, double seconds,
                        const std::string& backend, const std::string& path);

// Plays the match of a match config (config::load_match_config). stop (SIGINT/SIGTERM/SIGHUP)
// ends it like a campaign: in-flight batches drain, unfinished games are dropped, the file is
// closed, and --resume continues it. The output is locked and checked as in run_campaign: throws
// sp::InputError for an existing output without resume (and the reverse), for one another process
// writes, and for a resume of a file written with another identity (run_identity: game, seed,
// engines with their weights' values, positions_per_game, SPRT).
template <HostGame G>
MatchResult run_match(const config::Config<G>& requested, const MatchOptions& options,
                      const std::atomic<bool>& stop) {
  using namespace match_detail;
  using stats::GameResult;
  config::Config<G> cfg = requested;  // make_campaign_backend resolves concurrency auto in it
  check_run_memory(cfg);  // before any file or engine exists (auto: in make_campaign_backend)
  if (!cfg.paired || cfg.games != 2 * uint64_t{cfg.match.pairs})
    throw std::invalid_argument("run_match: not a match config (read it with load_match_config)");
  const std::string& path = cfg.output.path;
  // From here on no other writer touches the file: what is read below is what resume() keeps.
  FileLock lock = claim_output(path, options.resume, "match");

  MatchResult result;
  result.sprt_config = sprt_config_of(cfg.match.sprt);
  if (cfg.match.sprt.enabled) stats::validate(result.sprt_config);

  // Results of the games already in the file, by game id (resume).
  const std::string identity = run_identity<G>(cfg, true);
  PairCount pairs(cfg, result);
  uint64_t in_file = 0;  // complete games, those outside this run's game ids included
  if (options.resume) {
    check_resume_identity<G>(path, identity, true);
    in_file = add_stored_results(path, cfg, pairs);
  }
  pairs.advance();  // the pairs already in the file

  auto backend = make_campaign_backend(cfg);
  const std::vector<uint32_t> todo = match_todo(cfg, pairs);
  // The driver, its engines and their tables exist before the file is touched: a config too large
  // for memory leaves no file.
  std::unique_ptr<Driver<G>> driver = make_driver<G>(cfg, *backend, todo);
  io::FileMeta meta = match_file_meta(cfg, backend->info(), identity, result);
  io::WriterOptions wopts;
  wopts.flush_seconds = cfg.output.flush_seconds;
  io::CampaignWriter writer = options.resume
                                  ? io::CampaignWriter::resume(std::move(lock), path, meta, wopts)
                                  : io::CampaignWriter::create(std::move(lock), path, meta, wopts);
  const uint64_t rows_in_file = options.resume ? writer.resume_report().match_pairs : 0;
  for (const io::MatchPairRow& row : pairs.rows)
    if (row.pair_id >= rows_in_file) writer.append_match_pair(row);
  pairs.rows.clear();
  log::info(
      fmt::format("match: engine A {} against engine B {}, {} pairs{}, backend {} ({}), output {}",
                  result.engine_a, result.engine_b, cfg.match.pairs,
                  in_file ? fmt::format(" ({} games already in the file)", in_file) : "",
                  backend->info().name, backend->info().device, path));

  MatchProgress progress(cfg.match.pairs, options.live, log::quiet());
  uint64_t rollouts = 0, after_decision = 0;
  driver->run(
      [&](FinishedGame<G>&& game) {
        GameRows rows = to_rows<G>(cfg, game);
        writer.append_game(rows.game, std::move(rows.plies), std::move(rows.positions),
                           std::move(rows.features), std::move(rows.candidates));
        if (game.termination != search::Termination::kRules) {
          const int loser = 1 - game.winner;
          const int engine = game.engine_of_player[loser];
          ++result.forfeits[engine][static_cast<int>(game.termination)];
          log::warn(fmt::format("game {}: engine {} (player {}) loses by {}: {}", game.game_id,
                                engine == 0 ? 'A' : 'B', loser,
                                search::termination_name(game.termination),
                                game.termination_detail));
        }
        ++result.games_played;
        progress.game_finished();
        if (pairs.decided()) {
          ++after_decision;
        } else {
          pairs.add(game.game_id, result_for_a(cfg, game.game_id, game.winner));
          for (const io::MatchPairRow& row : pairs.rows) writer.append_match_pair(row);
          pairs.rows.clear();
          if (pairs.decided()) driver->stop_starting();
        }
        progress.tick(result);
      },
      [&](const BatchInfo& b) {
        writer.append_perf(perf_row(b));
        rollouts += b.rollouts;
        progress.tick(result);
      },
      stop);
  writer.close();
  progress.tick(result, true);
  progress.end();

  result.games_in_file = in_file + result.games_played;
  write_match_report(result, cfg, after_decision, rollouts, progress.elapsed_s(),
                     backend->info().name + " (" + backend->info().device + ")", path);
  return result;
}

}  // namespace sp::selfplay
