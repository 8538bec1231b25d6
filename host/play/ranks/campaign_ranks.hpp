// A campaign played by several ranks (mpirun, srun; host/base/mpi/): rank 0 checks the run, then
// deals the game ids; every rank plays the ids it gets into its own crash-safe file (ranks.hpp) and
// reports each finished game to rank 0, which prints the global progress and summary and writes
// the main output as the index over the rank files. A game's record depends only on the config,
// the seed and its id, so the set of records is the same for any number of ranks.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "host/base/mpi/comm.hpp"
#include "host/base/system/log.hpp"
#include "host/play/ranks/ranked_run.hpp"
#include "host/play/selfplay/campaign.hpp"

namespace sp::selfplay {
// run_campaign on several ranks (ranked_run(path)); the same contract, with the files of
// ranks.hpp and the orchestration of ranked_run.hpp. Other ranks than 0 print nothing but errors
// and warnings, and return an empty summary.
template <HostGame G>
RunResult run_campaign_ranks(const config::Config<G>& requested, const RunOptions& options,
                             const std::atomic<bool>& signal_stop) {
  config::Config<G> cfg = requested;
  const int rank = dist::rank();
  if (rank != 0) log::set_quiet(true);
  check_run_memory(cfg);
  const std::string& path = cfg.output.path;
  const std::string identity = run_identity<G>(cfg, false);
  uint64_t already = 0;   // rank 0: of game ids 0..games-1, complete in the rank files
  uint64_t in_files = 0;  // rank 0: every complete game in the rank files
  std::optional<Progress> progress;
  uint64_t played = 0;  // rank 0: by every rank

  RankedPlay<G> play;
  play.what = "campaign";
  play.plan = [&](uint64_t* found) {
    const std::set<uint64_t> done = complete_games_in_parts(
        path, [&](const std::string& part) { check_resume_identity<G>(part, identity, false); });
    *found = in_files = done.size();
    std::vector<uint32_t> todo;
    for (uint32_t g = 0; g < cfg.games; ++g)
      if (!done.count(g)) todo.push_back(g);
    already = cfg.games - todo.size();
    return todo;
  };
  play.meta = [&](const rollout::BackendInfo& backend) {
    io::FileMeta meta = file_meta(cfg, backend, config::explain_campaign_config<G>(cfg));
    meta.identity = identity;
    return meta;
  };
  play.started = [&](RankedControl&, const rollout::BackendInfo& backend) {
    if (options.resume)
      log::info(fmt::format("resume: {} complete games in the rank files of {}", in_files, path));
    log::info(
        fmt::format("campaign: {} games on {} ranks, {} concurrent each, backend {} ({}), "
                    "output {} (rank files {}, ...)",
                    cfg.games - already, dist::size(), cfg.concurrency, backend.name,
                    backend.device, path, rank_file(path, 0)));
    progress.emplace(cfg.games, already, stderr, options.live && !log::quiet(), dist::size());
  };
  play.on_game = [&](RankedControl&, const dist::GameReport& g) {
    if (!progress) return;  // rank 0 alone hears of games
    const bool decisive = g.winner == 0 || g.winner == 1;
    progress->game_finished(g.winner, g.first_player, g.plies,
                            decisive ? g.engine_of_player[g.winner] : -1);
    ++played;
    if (!log::quiet()) progress->tick();
  };
  play.on_batch = [&](const dist::BatchReport& b) {
    if (!progress) return;
    progress->batch_done(b.leaves, b.rollouts, b.backend_ms, b.wait_ms, b.host_ms,
                         b.host_thread_ms);
    if (!log::quiet()) progress->tick();
  };
  play.forfeit_line = [](const FinishedGame<G>& game) {
    return fmt::format("game {}: engines.player{} (player {}) loses by {}: {}", game.game_id,
                       game.engine_of_player[1 - game.winner], 1 - game.winner,
                       search::termination_name(game.termination), game.termination_detail);
  };
  const RankedOutcome ran =
      run_ranked<G>(cfg, options.resume, options.device.has_value(), play, signal_stop);
  RunResult result;
  result.interrupted = ran.interrupted;
  if (!ran.started) return result;
  if (rank != 0) {
    result.games_played = ran.played_here;
    return result;
  }
  result.games_played = played;
  result.games_in_file = in_files + played;
  result.interrupted = already + played < cfg.games;
  if (!log::quiet()) progress->tick(true);
  result.summary = with_engine_labels(
      progress->summary(path,
                        fmt::format("{} ({}) on each of {} ranks", ran.backend.name,
                                    ran.backend.device, dist::size()),
                        result.games_in_file),
      cfg);
  result.summary += hand_out_line(ran.busiest_s, ran.wall_s);
  return result;
}

}  // namespace sp::selfplay
