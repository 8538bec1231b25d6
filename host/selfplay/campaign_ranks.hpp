// A campaign played by several ranks (mpirun, srun; host/dist/): rank 0 checks the run, then deals
// the game ids; every rank plays the ids it gets into its own crash-safe file (ranks.hpp) and
// reports each finished game to rank 0, which prints the global progress and summary and writes
// the main output as the index over the rank files. A game's record depends only on the config,
// the seed and its id, so the set of records is the same for any number of ranks.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "host/common/log.hpp"
#include "host/dist/comm.hpp"
#include "host/dist/dealer.hpp"
#include "host/io/campaign_file.hpp"
#include "host/selfplay/campaign.hpp"
#include "host/selfplay/ranks.hpp"

namespace sp::selfplay {

// How long rank 0 waits for the other ranks' last word after a stop.
inline constexpr double kStopGraceSeconds = 2.0;

// A finished game as rank 0 counts it.
template <Game G>
dist::GameReport game_report(const FinishedGame<G>& game) {
  dist::GameReport r;
  r.game_id = game.game_id;
  r.winner = game.winner;
  r.first_player = game.first_player;
  r.plies = static_cast<uint32_t>(game.plies.size());
  r.engine_of_player[0] = game.engine_of_player[0];
  r.engine_of_player[1] = game.engine_of_player[1];
  r.termination = static_cast<int32_t>(game.termination);
  return r;
}
dist::BatchReport batch_report(const BatchInfo& b);

// The ids a rank plays come from the dealer; a stop on any rank stops the driver of every rank.
GameFeed dealer_feed(dist::Dealer& dealer, const std::atomic<bool>& signal_stop,
                     std::atomic<bool>& stop);

// The GPU of this rank (dist::pick_device: backend.device offset by the node-local rank, modulo
// the devices it sees), set in cfg.backend.device for the backends that may use one.
void pick_rank_device(config::CampaignConfig& cfg);

// The summary line of the work hand-out's cost: the most seconds a rank spent on it, and their
// share of the run's wall time.
std::string hand_out_line(double busiest_s, double wall_s);

// Ranks' games each rank keeps on hand beyond its slots.
uint32_t dealer_reserve(uint32_t slots);

// Rank 0 before the start: the complete games in the rank files of `path` (resume), each file's
// identity checked with check(part).
std::set<uint64_t> complete_games_in_parts(const std::string& path,
                                           const std::function<void(const std::string&)>& check);

// A rank's own file: resumed when an earlier run left it, else created.
io::CampaignWriter open_rank_file(const std::string& part, const io::FileMeta& meta,
                                  const io::WriterOptions& options);

// This rank's file (open_rank_file) once every rank has started (dist::start_together).
// meta.config_text becomes rank 0's effective config, which every rank file stores, as the index
// over them requires: concurrency auto and backend.device may differ between ranks. nullopt when a
// stop came before the start.
std::optional<io::CampaignWriter> start_rank_file(const std::string& path, int rank,
                                                  io::FileMeta& meta, double flush_seconds,
                                                  const std::atomic<bool>& signal_stop);

// Rank 0 after the run: the rank files of ranks this run did not have are resumed and closed (so
// that the games a killed rank left unfinished are dropped), then the main output becomes the index
// over every rank file (index_lock: rank 0's claim_index, handed over). Returns the parts.
std::vector<std::string> close_ranked_output(FileLock index_lock, const std::string& path,
                                             const io::FileMeta& meta, int ranks);

// Rank 0 at the end of a ranked run: with every rank finished, close_ranked_output; else a warning
// naming the ranks that did not finish (missing), whose files a --resume continues.
void end_ranked_output(FileLock index_lock, const std::string& path, const io::FileMeta& meta,
                       const std::vector<int>& missing);

// run_campaign on several ranks (ranked_run(path)); the same contract, with the files of
// ranks.hpp. Other ranks than 0 print nothing but errors and warnings, and return an empty summary.
template <HostGame G>
RunResult run_campaign_ranks(const config::Config<G>& requested, const RunOptions& options,
                             const std::atomic<bool>& signal_stop) {
  config::Config<G> cfg = requested;
  const int rank = dist::rank();
  if (rank != 0) log::set_quiet(true);
  check_run_memory(cfg);
  const std::string& path = cfg.output.path;
  const std::string identity = run_identity<G>(cfg, false);
  FileLock index_lock;
  std::vector<uint32_t> todo;
  uint64_t in_files = 0;
  if (rank == 0) {
    index_lock = claim_index(path, options.resume, "campaign");
    const std::set<uint64_t> done = complete_games_in_parts(
        path, [&](const std::string& part) { check_resume_identity<G>(part, identity, false); });
    in_files = done.size();
    for (uint32_t g = 0; g < cfg.games; ++g)
      if (!done.count(g)) todo.push_back(g);
  }
  const uint64_t already = cfg.games - todo.size();
  if (!options.device) pick_rank_device(cfg);  // --device: every rank takes that one
  auto backend = make_campaign_backend(cfg);
  const uint32_t slots = static_cast<uint32_t>(std::min<uint64_t>(cfg.concurrency, cfg.games));
  dist::Dealer dealer(std::move(todo), slots, dealer_reserve(slots));
  std::atomic<bool> stop{false};
  std::unique_ptr<Driver<G>> driver =
      make_driver<G>(cfg, *backend, dealer_feed(dealer, signal_stop, stop), size_t{slots});

  RunResult result;
  io::FileMeta meta = file_meta(cfg, backend->info(), config::explain_campaign_config<G>(cfg));
  meta.identity = identity;
  std::optional<io::CampaignWriter> opened =
      start_rank_file(path, rank, meta, cfg.output.flush_seconds, signal_stop);
  if (!opened) {
    result.interrupted = true;
    return result;
  }
  io::CampaignWriter& writer = *opened;
  if (rank == 0) {
    if (options.resume)
      log::info(fmt::format("resume: {} complete games in the rank files of {}", in_files, path));
    log::info(
        fmt::format("campaign: {} games on {} ranks, {} concurrent each, backend {} ({}), "
                    "output {} (rank files {}, ...)",
                    cfg.games - already, dist::size(), cfg.concurrency, backend->info().name,
                    backend->info().device, path, rank_file(path, 0)));
  }

  Progress progress(cfg.games, already, stderr, options.live && !log::quiet(), dist::size());
  uint64_t played = 0;  // rank 0: by every rank
  const auto started = std::chrono::steady_clock::now();
  dealer.on_game = [&](const dist::GameReport& g) {
    const bool decisive = g.winner == 0 || g.winner == 1;
    progress.game_finished(g.winner, g.first_player, g.plies,
                           decisive ? g.engine_of_player[g.winner] : -1);
    ++played;
    if (!log::quiet()) progress.tick();
  };
  dealer.on_batch = [&](const dist::BatchReport& b) {
    progress.batch_done(b.leaves, b.rollouts, b.backend_ms, b.wait_ms, b.host_ms);
    if (!log::quiet()) progress.tick();
  };
  driver->run(
      [&](FinishedGame<G>&& game) {
        GameRows rows = to_rows<G>(cfg, game);
        writer.append_game(rows.game, std::move(rows.plies), std::move(rows.positions),
                           std::move(rows.features));
        if (game.termination != search::Termination::kRules)
          log::warn(fmt::format("game {}: engines.player{} (player {}) loses by {}: {}",
                                game.game_id, game.engine_of_player[1 - game.winner],
                                1 - game.winner, search::termination_name(game.termination),
                                game.termination_detail));
        ++result.games_played;
        dealer.report(game_report(game));
      },
      [&](const BatchInfo& b) {
        writer.append_perf(perf_row(b));
        dealer.report(batch_report(b));
      },
      stop);
  writer.close();
  const std::vector<int> missing = dealer.finish(kStopGraceSeconds);
  result.interrupted = stop.load() || signal_stop.load();
  if (rank != 0) return result;

  end_ranked_output(std::move(index_lock), path, meta, missing);
  result.games_played = played;
  result.games_in_file = in_files + played;
  result.interrupted = already + played < cfg.games;
  if (!log::quiet()) progress.tick(true);
  result.summary = progress.summary(path,
                                    fmt::format("{} ({}) on each of {} ranks", backend->info().name,
                                                backend->info().device, dist::size()),
                                    result.games_in_file);
  result.summary += hand_out_line(
      dealer.busiest_s(),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return result;
}

}  // namespace sp::selfplay
