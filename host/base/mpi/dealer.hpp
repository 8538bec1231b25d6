// The game ids of a run spread over its ranks: rank 0 holds the ids to play and hands them out in
// small chunks as ranks ask (each rank, rank 0 included, keeps a few in reserve), so fast and slow
// ranks stay busy to the end. Finished games are reported back to rank 0 in a few bytes each (their
// records stay in the file of the rank that played them), so rank 0 keeps the global progress and
// the match's pair count. A stop on any rank (a signal) becomes a stop of every rank.
//
// Nothing here blocks: the driver calls poll() from its loop and idle() when it has nothing to do.
// With one rank it sends nothing and take() hands out the ids in order.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sp::dist {

// A finished game as rank 0 counts it.
struct GameReport {
  uint32_t game_id = 0;
  int32_t winner = -1;  // 0, 1, or another value for a draw
  int32_t first_player = 0;
  uint32_t plies = 0;
  int32_t engine_of_player[2] = {0, 1};
  int32_t termination = 0;  // search::Termination
};

// A rollout batch of some rank, for the global throughput.
struct BatchReport {
  uint32_t leaves = 0;
  uint32_t rank = 0;
  uint64_t rollouts = 0;
  double backend_ms = 0, wait_ms = 0, host_ms = 0, host_thread_ms = 0;
};

class Dealer {
 public:
  // Built on every rank after the start (start_together). todo: on rank 0 the game ids of the run
  // in the order they should start; ignored elsewhere. slots: games this rank plays at once;
  // reserve: ids it keeps on hand beyond them, to cover a round trip to rank 0.
  Dealer(std::vector<uint32_t> todo, uint32_t slots, uint32_t reserve);

  // The next game id this rank plays, if one is on hand.
  std::optional<uint32_t> take();
  // No id is on hand and none will come.
  bool exhausted() const;
  // Sends and receives what is due; never blocks. idle(): the same, then a short sleep (1 ms)
  // when nothing arrived.
  void poll();
  void idle();
  // Whether some rank was stopped (by a signal): then every rank stops.
  bool stopped() const { return stopped_; }
  // This rank was stopped (stop_signal set): tells the others.
  void stop();

  // This rank's finished games and batches: to rank 0 (on rank 0, straight to on_game/on_batch).
  void report(const GameReport& game);
  void report(const BatchReport& batch);
  // Rank 0: deals no more ids, and the other ranks drop those they hold (a match's SPRT decided).
  void stop_dealing();
  // Rank 0 of several: deals only ids below `horizon` (the todo ids ascending); a request that
  // finds none below it waits, answered once the horizon moves or the dealing ends. A match keeps
  // its horizon a window past the first pair not yet counted, so that the games played when its
  // SPRT decides are bounded whatever the ranks' speed (match_window_games). One rank ignores it:
  // its driver starts the ids in order anyway.
  void set_horizon(uint32_t horizon);

  // After this rank's driver has returned and its file is closed: the other ranks send their last
  // reports and say they are done; rank 0 serves until every rank is done. When the run was
  // stopped it waits at most grace_s for them. Returns the ranks that were not heard from.
  std::vector<int> finish(double grace_s);
  // Seconds this rank spent dealing, messaging and reporting (idle sleeps left out); on rank 0
  // after finish(), the most any rank spent.
  double busiest_s() const { return busiest_s_; }

  // Rank 0: every rank's finished games and batches, rank 0's own included, as they arrive.
  std::function<void(const GameReport&)> on_game;
  std::function<void(const BatchReport&)> on_batch;

 private:
  using Clock = std::chrono::steady_clock;
  bool receive_one();
  void poll_messages();
  void send_reports();
  void serve_request(int source, uint32_t wanted);
  void serve_waiting();
  // Rank 0: the ids at the front of pool_ below the horizon.
  size_t dealable() const;
  // Rank 0: how many ids one request (or rank 0's own refill) gets at most now.
  size_t share() const;
  void deal_first_shares();

  int rank_, size_;
  uint32_t slots_, reserve_;
  // Rank 0: the ids not yet dealt. Other ranks: none.
  std::deque<uint32_t> pool_;
  bool dealing_ = true;  // rank 0: deals on request
  uint32_t horizon_ = UINT32_MAX;
  // Rank 0: requests that found no id below the horizon: (rank, ids wanted).
  std::vector<std::pair<int, uint32_t>> waiting_;
  // Every rank: the ids on hand (rank 0 of one rank takes straight from pool_).
  std::deque<uint32_t> queue_;
  bool self_served_ = false;         // rank 0: refilled queue_ since the last poll
  bool first_shares_dealt_ = false;  // rank 0: every other rank got its first share
  bool more_coming_ = true;          // ranks > 0: rank 0 may send more
  bool asked_ = false;               // ranks > 0: a request is on its way
  bool first_request_ = true;
  uint32_t starved_ = 0;  // take() found nothing while more may come
  bool stopped_ = false;
  std::vector<GameReport> games_out_;
  std::vector<BatchReport> batches_out_;
  Clock::time_point last_report_ = Clock::now(), last_poll_{};
  std::vector<bool> done_;  // rank 0: ranks that said they are done
  double busy_s_ = 0, busiest_s_ = 0;
};

// A match on `ranks` ranks of `slots` games at once each (and the dealer's reserve): the game ids
// it deals at most past the first pair not yet counted. Every rank can keep its slots and reserve
// busy while the ranks holding the earliest pairs finish them, so a bound that costs no speed
// unless one rank is more than twice as slow as the rest.
uint32_t match_window_games(int ranks, uint32_t slots, uint32_t reserve);

// The start of a run, once rank 0 has checked it: rank 0 sends `text` (what every rank must store
// alike, such as the effective config) and goes on; the other ranks wait here, sleeping between
// polls, and get rank 0's text. Returns the text, or nothing when stop was set first.
std::optional<std::string> start_together(const std::string& text, const std::atomic<bool>& stop);

}  // namespace sp::dist
