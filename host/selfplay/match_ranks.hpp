// A match played by several ranks (mpirun, srun): the games are dealt and written as in
// campaign_ranks.hpp; rank 0 gathers every game's result, counts the pairs in pair order and runs
// the SPRT, so the counted pairs and the decision are those of a single-process match. When the
// SPRT decides, rank 0 deals no more ids and the other ranks drop those they hold (a global stop
// of new games; the games already running are finished and written, not counted).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "host/common/log.hpp"
#include "host/dist/comm.hpp"
#include "host/dist/dealer.hpp"
#include "host/selfplay/campaign_ranks.hpp"
#include "host/selfplay/match.hpp"
#include "host/selfplay/ranks.hpp"

namespace sp::selfplay {

// run_match on several ranks (ranked_run(path)); the same contract, with the files of ranks.hpp.
// Other ranks than 0 print nothing but errors and warnings, and return an empty report.
template <HostGame G>
MatchResult run_match_ranks(const config::Config<G>& requested, const MatchOptions& options,
                            const std::atomic<bool>& signal_stop) {
  using namespace match_detail;
  config::Config<G> cfg = requested;
  const int rank = dist::rank();
  if (rank != 0) log::set_quiet(true);
  check_run_memory(cfg);
  if (!cfg.paired || cfg.games != 2 * uint64_t{cfg.match.pairs})
    throw std::invalid_argument("run_match: not a match config (read it with load_match_config)");
  const std::string& path = cfg.output.path;
  MatchResult result;
  result.sprt_config = sprt_config_of(cfg.match.sprt);
  if (cfg.match.sprt.enabled) stats::validate(result.sprt_config);
  const std::string identity = run_identity<G>(cfg, true);
  PairCount pairs(cfg, result);
  FileLock index_lock;
  uint64_t in_files = 0;
  std::vector<uint32_t> todo;
  if (rank == 0) {
    index_lock = claim_index(path, options.resume, "match");
    std::set<uint64_t> ids;
    for (const std::string& part : rank_files(path)) {
      check_resume_identity<G>(part, identity, true);
      in_files += add_stored_results(part, cfg, pairs);
    }
    pairs.advance();  // the pairs already in the files
    todo = match_todo(cfg, pairs);
  }
  if (!options.device) pick_rank_device(cfg);  // --device: every rank takes that one
  auto backend = make_campaign_backend(cfg);
  const uint32_t slots = static_cast<uint32_t>(std::min<uint64_t>(cfg.concurrency, cfg.games));
  dist::Dealer dealer(std::move(todo), slots, dealer_reserve(slots));
  std::atomic<bool> stop{false};
  std::unique_ptr<Driver<G>> driver =
      make_driver<G>(cfg, *backend, dealer_feed(dealer, signal_stop, stop), size_t{slots});

  io::FileMeta meta = match_file_meta(cfg, backend->info(), identity, result);
  std::optional<io::CampaignWriter> opened =
      start_rank_file(path, rank, meta, cfg.output.flush_seconds, signal_stop);
  if (!opened) {
    result.interrupted = true;
    return result;
  }
  io::CampaignWriter& writer = *opened;
  // The /match/pairs rows live in rank 0's file: those a resume kept there, then the rest.
  if (rank == 0) {
    const uint64_t rows_in_file = writer.resume_report().match_pairs;
    for (const io::MatchPairRow& row : pairs.rows)
      if (row.pair_id >= rows_in_file) writer.append_match_pair(row);
    pairs.rows.clear();
    log::info(fmt::format(
        "match: engine A {} against engine B {}, {} pairs{}, {} ranks, backend {} ({}), output {}",
        result.engine_a, result.engine_b, cfg.match.pairs,
        in_files ? fmt::format(" ({} games already in the rank files)", in_files) : "",
        dist::size(), backend->info().name, backend->info().device, path));
  }

  MatchProgress progress(cfg.match.pairs, options.live, log::quiet());
  uint64_t rollouts = 0, after_decision = 0, played = 0;
  dealer.on_game = [&](const dist::GameReport& g) {
    ++played;
    progress.game_finished();
    if (g.termination != static_cast<int32_t>(search::Termination::kRules)) {
      const int loser = 1 - g.winner;
      ++result.forfeits[g.engine_of_player[loser]][g.termination];
    }
    if (pairs.decided()) {
      ++after_decision;
    } else {
      pairs.add(g.game_id, result_for_a(cfg, g.game_id, g.winner));
      for (const io::MatchPairRow& row : pairs.rows) writer.append_match_pair(row);
      pairs.rows.clear();
      if (pairs.decided()) {
        dealer.stop_dealing();
        driver->stop_starting();
      }
    }
    progress.tick(result);
  };
  dealer.on_batch = [&](const dist::BatchReport& b) {
    rollouts += b.rollouts;
    progress.tick(result);
  };
  uint64_t played_here = 0;
  driver->run(
      [&](FinishedGame<G>&& game) {
        GameRows rows = to_rows<G>(cfg, game);
        writer.append_game(rows.game, std::move(rows.plies), std::move(rows.positions),
                           std::move(rows.features));
        if (game.termination != search::Termination::kRules)
          log::warn(fmt::format("game {}: engine {} (player {}) loses by {}: {}", game.game_id,
                                game.engine_of_player[1 - game.winner] == 0 ? 'A' : 'B',
                                1 - game.winner, search::termination_name(game.termination),
                                game.termination_detail));
        ++played_here;
        dealer.report(game_report(game));
      },
      [&](const BatchInfo& b) {
        writer.append_perf(perf_row(b));
        dealer.report(batch_report(b));
      },
      stop);
  // A rank's file is closed before it says it is done (rank 0 then indexes it); rank 0 counts the
  // other ranks' last games into its file's pairs before closing it.
  if (rank != 0) writer.close();
  const std::vector<int> missing = dealer.finish(kStopGraceSeconds);
  if (rank == 0) writer.close();
  if (rank != 0) {
    result.games_played = played_here;
    result.interrupted = stop.load() || signal_stop.load();
    return result;
  }
  progress.tick(result, true);
  progress.end();
  end_ranked_output(std::move(index_lock), path, meta, missing);
  result.games_played = played;
  result.games_in_file = in_files + played;
  write_match_report(result, cfg, after_decision, rollouts, progress.elapsed_s(),
                     fmt::format("{} ({}) on each of {} ranks", backend->info().name,
                                 backend->info().device, dist::size()),
                     path);
  return result;
}

}  // namespace sp::selfplay
