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
  uint64_t games_in_file = 0;  // including games of earlier runs (resume)
  bool interrupted = false;
  std::string summary;
};

// Applies the overrides; throws sp::InputError for bad values.
config::CampaignConfig with_overrides(config::CampaignConfig cfg, const RunOptions& options);

// Plays the campaign. stop (set by SIGINT/SIGTERM) ends it cleanly: in-flight batches drain,
// finished games are flushed, unfinished ones are dropped (a resume replays them identically).
RunResult run_campaign(const config::CampaignConfig& cfg, const RunOptions& options, const std::atomic<bool>& stop);

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

// Pieces shared by campaigns and matches: the backend named by cfg, sized for its concurrency; the
// root attributes of its file (config_text: the effective config); a batch as a /perf row.
std::unique_ptr<rollout::Backend<EwnGame>> make_campaign_backend(const config::CampaignConfig& cfg);
io::FileMeta file_meta(const config::CampaignConfig& cfg, const rollout::BackendInfo& backend,
                       std::string config_text);
io::PerfRow perf_row(const BatchInfo& batch);

}  // namespace sp::selfplay
