// The one rank orchestration of campaigns and matches on several ranks (campaign_ranks.hpp,
// match_ranks.hpp): rank 0 claims the main output and plans the game ids, every rank builds its
// backend and driver, opens its own file once all have started, plays the ids the dealer hands
// out and reports each game and batch to rank 0, and rank 0 ends the run by writing the index
// over the rank files (or naming the ranks that did not finish). What differs between a campaign
// and a match (which ids remain, the files' metadata, what rank 0 does with each report) comes in
// as RankedPlay.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/mpi/comm.hpp"
#include "host/base/mpi/dealer.hpp"
#include "host/base/system/log.hpp"
#include "host/play/ranks/ranks.hpp"
#include "host/play/selfplay/campaign.hpp"

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

// What rank 0's handlers may do while the run goes on.
struct RankedControl {
  io::CampaignWriter* writer = nullptr;  // rank 0's own file
  // Deal no more ids and start no more games on any rank (the games running are finished).
  std::function<void()> stop_new_games;
  // Deal only the ids below first_open + dist::match_window_games (a match: first_open is the
  // first game of the first pair not yet counted).
  std::function<void(uint64_t first_open)> deal_window_from;
};

template <HostGame G>
struct RankedPlay {
  const char* what = "campaign";  // names the run in messages
  // Rank 0, the main output claimed: the game ids still to play, read from the rank files of an
  // earlier run; *in_files gets the complete games found there.
  std::function<std::vector<uint32_t>(uint64_t* in_files)> plan;
  // The metadata of every rank file, once this rank's backend exists.
  std::function<io::FileMeta(const rollout::BackendInfo&)> meta;
  // Rank 0, its file open, before the first game.
  std::function<void(RankedControl&, const rollout::BackendInfo&)> started;
  // Rank 0: each finished game and batch of every rank, as the dealer reports them.
  std::function<void(RankedControl&, const dist::GameReport&)> on_game;
  std::function<void(const dist::BatchReport&)> on_batch;
  // The warning for a game of this rank lost by time, a crash or an illegal move.
  std::function<std::string(const FinishedGame<G>&)> forfeit_line;
  // Rank 0 closes its file after the other ranks' last reports (a match writes their games'
  // pairs rows into it), else before, as every other rank does.
  bool rank0_closes_last = false;
};

struct RankedOutcome {
  bool started = false;      // false: a stop came before every rank had started
  bool interrupted = false;  // a stop (a signal, another rank's) ended the run early
  uint64_t in_files = 0;     // rank 0: complete games in the rank files before the run
  uint64_t played_here = 0;  // games this rank played
  rollout::BackendInfo backend;
  double busiest_s = 0;  // rank 0: the most seconds a rank spent on the hand-out
  double wall_s = 0;
};

// Runs `play` on every rank (cfg as the campaign or match loaded it); the summary is the caller's.
// resume and device are the run's options (device: --device given, every rank takes it).
template <HostGame G>
RankedOutcome run_ranked(config::Config<G>& cfg, bool resume, bool device,
                         const RankedPlay<G>& play, const std::atomic<bool>& signal_stop) {
  const int rank = dist::rank();
  const std::string& path = cfg.output.path;
  RankedOutcome out;
  FileLock index_lock;
  std::vector<uint32_t> todo;
  if (rank == 0) {
    index_lock = claim_index(path, resume, play.what);
    todo = play.plan(&out.in_files);
  }
  if (!device) pick_rank_device(cfg);
  auto backend = make_campaign_backend(cfg);
  out.backend = backend->info();
  const uint32_t slots = static_cast<uint32_t>(std::min<uint64_t>(cfg.concurrency, cfg.games));
  dist::Dealer dealer(std::move(todo), slots, dealer_reserve(slots));
  std::atomic<bool> stop{false};
  std::unique_ptr<Driver<G>> driver =
      make_driver<G>(cfg, *backend, dealer_feed(dealer, signal_stop, stop), size_t{slots});

  io::FileMeta meta = play.meta(backend->info());
  std::optional<io::CampaignWriter> opened =
      start_rank_file(path, rank, meta, cfg.output.flush_seconds, signal_stop);
  if (!opened) {
    out.interrupted = true;
    return out;
  }
  out.started = true;
  io::CampaignWriter& writer = *opened;
  RankedControl control;
  control.writer = &writer;
  control.stop_new_games = [&] {
    dealer.stop_dealing();
    driver->stop_starting();
  };
  control.deal_window_from = [&](uint64_t first_open) {
    const uint64_t horizon =
        first_open + dist::match_window_games(dist::size(), slots, dealer_reserve(slots));
    dealer.set_horizon(static_cast<uint32_t>(std::min<uint64_t>(horizon, UINT32_MAX)));
  };
  if (rank == 0 && play.started) play.started(control, backend->info());
  const auto started = std::chrono::steady_clock::now();
  dealer.on_game = [&](const dist::GameReport& g) { play.on_game(control, g); };
  dealer.on_batch = play.on_batch;
  driver->run(
      [&](FinishedGame<G>&& game) {
        GameRows rows = to_rows<G>(cfg, game);
        writer.append_game(rows.game, std::move(rows.plies), std::move(rows.positions),
                           std::move(rows.features), std::move(rows.candidates));
        if (game.termination != search::Termination::kRules) log::warn(play.forfeit_line(game));
        ++out.played_here;
        dealer.report(game_report(game));
      },
      [&](const BatchInfo& b) {
        writer.append_perf(perf_row(b));
        dealer.report(batch_report(b));
      },
      stop);
  // A rank's file is closed before it says it is done: rank 0 then indexes it.
  const bool close_last = rank == 0 && play.rank0_closes_last;
  if (!close_last) writer.close();
  const std::vector<int> missing = dealer.finish(kStopGraceSeconds);
  if (close_last) writer.close();
  out.interrupted = stop.load() || signal_stop.load();
  out.busiest_s = dealer.busiest_s();
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (rank == 0) end_ranked_output(std::move(index_lock), path, meta, missing);
  return out;
}

}  // namespace sp::selfplay
