// A self-play campaign: the config's games played on a rollout backend, every finished game
// written to the HDF5 file (crash-safe, resumable), progress on the terminal, a summary at the end.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/config/campaign_config.hpp"
#include "host/io/campaign_file.hpp"
#include "host/io/records.hpp"
#include "host/selfplay/driver.hpp"

namespace sp::selfplay {

struct RunOptions {
  std::optional<uint32_t> games;        // overrides campaign.games
  std::optional<std::string> output;    // overrides output.path
  std::optional<std::string> backend;   // overrides backend.name
  std::optional<int> threads;           // overrides backend.threads
  bool resume = false;                  // continue the campaign in an existing output file
  bool live = false;                    // rewrite one status line in place (a terminal)
};

struct RunResult {
  uint64_t games_played = 0;   // this run
  uint64_t games_in_file = 0;  // every complete game in the file, earlier runs' included (resume)
  bool interrupted = false;
  std::string summary;
};

// Applies the overrides; throws sp::InputError for bad values.
config::CampaignConfig with_overrides(config::CampaignConfig cfg, const RunOptions& options);

// Plays the campaign. stop (set by SIGINT/SIGTERM/SIGHUP) ends it cleanly: in-flight batches
// drain, finished games are flushed, unfinished ones are dropped (a resume replays them
// identically). The output is locked for writing (io::lock_for_writing) before it is looked at,
// and the engines are built before the file is created. Throws sp::InputError for an output that
// exists without resume (and the reverse), that another process writes (FileLocked), or whose
// stored identity differs from the config's (the message names the key); a resume of a file that
// holds no complete game (io::is_unfinished_file) starts it afresh.
RunResult run_campaign(const config::CampaignConfig& cfg, const RunOptions& options, const std::atomic<bool>& stop);

// What decides the games (and, for a match, its test): the effective config as YAML without the
// keys a resume may change (campaign.games, campaign.concurrency, backend, output.path,
// output.flush_seconds, match.pairs), each engine's `weights` replaced by the values read from
// its file (the file's path does not matter, its contents do). Stored in the output file
// (FileMeta::identity) and compared on resume.
std::string run_identity(const config::CampaignConfig& cfg, bool match);
// "" when the identities are equal; otherwise the first key that differs with its value in each,
// e.g. "engines.player0.weights.own_cubes (120 in the file, 130 in this run)".
std::string identity_difference(const std::string& stored, const std::string& current);

// The checks of a resume, shared by campaigns and matches: throws sp::InputError unless the file
// at path (readable, not is_unfinished_file) was written with the same identity. Files written
// before identities were stored are compared through their stored config (config_text loaded
// with load, whose weights files are read again from their stored paths).
void check_resume_identity(const std::string& path, const std::string& identity, bool match);

// The rows of a finished game as stored in the file; positions are sampled by (seed, game id).
struct GameRows {
  io::GameRow game;
  std::vector<io::PlyRow> plies;
  std::vector<io::PositionRow> positions;
  std::vector<float> features;  // positions.size() x ewn::kNumFeatures
};
GameRows to_rows(const config::CampaignConfig& cfg, const FinishedGame& game);

// "capture_own=true substitution=next_lower_or_higher" and the like, for file metadata.
std::string describe_rules(const config::CampaignConfig& cfg);

// Pieces shared by campaigns, matches and SPSA: the backend named by cfg, sized for its
// concurrency; the root attributes of its file (config_text: the effective config); a batch as a
// /perf row. make_campaign_backend resolves campaign.concurrency auto (0) in cfg, once the
// backend's preferred batch is known (auto_concurrency, capped by the machine's memory; logged,
// then check_memory), and warns once (unless log::quiet) when the games in flight cannot fill half
// the batch target (batch_shortfall).
std::unique_ptr<rollout::Backend<EwnGame>> make_campaign_backend(config::CampaignConfig& cfg);
io::FileMeta file_meta(const config::CampaignConfig& cfg, const rollout::BackendInfo& backend,
                       std::string config_text);
io::PerfRow perf_row(const BatchInfo& batch);

// The output file of a campaign or match, claimed for writing: the path checked, its folder
// created, the lock taken (held as long as the result lives), and an existing file refused unless
// resuming. unfinished: the file holds nothing a resume keeps, so the run starts afresh. `what`
// names the run in messages ("campaign", "match"). Throws InputError / io errors.
struct ClaimedOutput {
  FileLock lock;
  bool unfinished = false;
};
ClaimedOutput claim_output(const std::string& path, bool resume, const std::string& what);
// The driver of game_ids with its engines (and their tables) allocated: built before a file is
// created, so that a config too large for memory leaves no file. Throws std::runtime_error naming
// campaign.concurrency and tt_size_mb instead of std::bad_alloc.
std::unique_ptr<Driver> make_driver(const config::CampaignConfig& cfg,
                                    rollout::Backend<EwnGame>& backend,
                                    std::vector<uint32_t> game_ids);

}  // namespace sp::selfplay
