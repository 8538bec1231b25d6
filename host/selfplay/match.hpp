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

#include "games/ewn/game.hpp"
#include "host/config/campaign_config.hpp"
#include "host/rollout/backend.hpp"
#include "host/stats/match_stats.hpp"

namespace sp::selfplay {

struct MatchOptions {
  std::optional<uint32_t> pairs;       // overrides match.pairs
  std::optional<std::string> output;   // overrides output.path
  std::optional<std::string> backend;  // overrides backend.name
  std::optional<int> threads;          // overrides backend.threads
  bool resume = false;                 // continue the match in an existing output file
  bool live = false;                   // rewrite one status line in place (a terminal)
};

struct MatchResult {
  stats::PairCounter counter;            // pairs 0..n-1, engine A's results
  std::optional<stats::SprtState> sprt;  // after the counted pairs, when match.sprt.enabled
  stats::SprtConfig sprt_config;
  uint64_t games_played = 0;   // this run
  uint64_t games_in_file = 0;  // every complete game in the file, earlier runs' included
  bool sprt_stopped = false;   // the SPRT decided before every pair was played
  bool interrupted = false;    // stop was set before the match ended
  std::string engine_a, engine_b;
  std::string report;  // engines, format_match_table, the SPRT outcome, throughput, file
};

// Applies the overrides (games = 2 x pairs); throws sp::InputError for bad values.
config::CampaignConfig with_overrides(config::CampaignConfig cfg, const MatchOptions& options);

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
std::vector<PairResult> play_pairs(const config::CampaignConfig& cfg, uint32_t pairs,
                                   rollout::Backend<EwnGame>& backend,
                                   const std::atomic<bool>& stop);

// Plays the match of a match config (config::load_match_config). stop (SIGINT/SIGTERM/SIGHUP)
// ends it like a campaign: in-flight batches drain, unfinished games are dropped, the file is
// closed, and --resume continues it. The output is locked and checked as in run_campaign: throws
// sp::InputError for an existing output without resume (and the reverse), for one another process
// writes, and for a resume of a file written with another identity (run_identity: game, seed,
// engines with their weights' values, positions_per_game, SPRT).
MatchResult run_match(const config::CampaignConfig& cfg, const MatchOptions& options,
                      const std::atomic<bool>& stop);

}  // namespace sp::selfplay
