// A match played by several ranks (mpirun, srun): the games are dealt and written as in
// campaign_ranks.hpp; rank 0 gathers every game's result, counts the pairs in pair order and runs
// the SPRT, so the counted pairs and the decision are those of a single-process match. When the
// SPRT decides, rank 0 deals no more ids and the other ranks drop those they hold (a global stop
// of new games; the games already running are finished and written, not counted). Rank 0 deals
// only a window of ids past the first pair not yet counted (dist::match_window_games), so that a
// slow rank holding an early pair cannot let the others play far past the decision: the games
// played are at most 2 x (pairs counted) + the window, on any machine load.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "host/base/mpi/comm.hpp"
#include "host/base/mpi/dealer.hpp"
#include "host/base/system/log.hpp"
#include "host/play/ranks/ranked_run.hpp"
#include "host/play/ranks/ranks.hpp"
#include "host/play/selfplay/match.hpp"

namespace sp::selfplay {

// run_match on several ranks (ranked_run(path)); the same contract, with the files of ranks.hpp
// and the orchestration of ranked_run.hpp. Other ranks than 0 print nothing but errors and
// warnings, and return an empty report.
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
  MatchProgress progress(cfg.match.pairs, options.live, log::quiet());
  uint64_t rollouts = 0, after_decision = 0, played = 0;

  uint64_t in_files = 0;  // rank 0: complete games in the rank files before the run

  RankedPlay<G> play;
  play.what = "match";
  play.rank0_closes_last = true;  // it writes the pairs rows of the other ranks' last games
  play.plan = [&](uint64_t* found) {
    for (const std::string& part : rank_files(path)) {
      check_resume_identity<G>(part, identity, true);
      in_files += add_stored_results(part, cfg, pairs);
    }
    *found = in_files;
    pairs.advance();  // the pairs already in the files
    return match_todo(cfg, pairs);
  };
  play.meta = [&](const rollout::BackendInfo& backend) {
    return match_file_meta(cfg, backend, identity, result);
  };
  // The /match/pairs rows live in rank 0's file: those a resume kept there, then the rest.
  play.started = [&](RankedControl& control, const rollout::BackendInfo& backend) {
    const uint64_t rows_in_file = control.writer->resume_report().match_pairs;
    for (const io::MatchPairRow& row : pairs.rows)
      if (row.pair_id >= rows_in_file) control.writer->append_match_pair(row);
    pairs.rows.clear();
    control.deal_window_from(2 * pairs.next_pair());
    log::info(fmt::format(
        "match: engine A {} against engine B {}, {} pairs{}, {} ranks, backend {} ({}), output {}",
        result.engine_a, result.engine_b, cfg.match.pairs,
        in_files ? fmt::format(" ({} games already in the rank files)", in_files) : "",
        dist::size(), backend.name, backend.device, path));
  };
  play.on_game = [&](RankedControl& control, const dist::GameReport& g) {
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
      for (const io::MatchPairRow& row : pairs.rows) control.writer->append_match_pair(row);
      pairs.rows.clear();
      if (pairs.decided())
        control.stop_new_games();
      else
        control.deal_window_from(2 * pairs.next_pair());
    }
    progress.tick(result);
  };
  play.on_batch = [&](const dist::BatchReport& b) {
    rollouts += b.rollouts;
    progress.tick(result);
  };
  play.forfeit_line = [](const FinishedGame<G>& game) {
    return fmt::format("game {}: engine {} (player {}) loses by {}: {}", game.game_id,
                       game.engine_of_player[1 - game.winner] == 0 ? 'A' : 'B', 1 - game.winner,
                       search::termination_name(game.termination), game.termination_detail);
  };
  const RankedOutcome ran =
      run_ranked<G>(cfg, options.resume, options.device.has_value(), play, signal_stop);
  result.interrupted = ran.interrupted;
  if (!ran.started) return result;
  if (rank != 0) {
    result.games_played = ran.played_here;
    return result;
  }
  progress.tick(result, true);
  progress.end();
  result.games_played = played;
  result.games_in_file = in_files + played;
  write_match_report(result, cfg, after_decision, rollouts, progress.elapsed_s(),
                     fmt::format("{} ({}) on each of {} ranks", ran.backend.name,
                                 ran.backend.device, dist::size()),
                     path);
  return result;
}

}  // namespace sp::selfplay
