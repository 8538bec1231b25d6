// Progress of a long run: a live status line on a terminal (rewritten in place), plain periodic log
// lines otherwise, and the closing summary a researcher can paste: win rates with 95% intervals,
// game length, throughput.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace sp::selfplay {

// Wilson score interval for k successes in n trials at 95% (z = 1.96).
struct Interval {
  double low = 0, high = 0;
};
Interval wilson95(uint64_t k, uint64_t n);

class Progress {
 public:
  // total: games this run will play; already: games finished before (resume); ranks: the MPI
  // ranks whose batches batch_done() counts (each with its own backend).
  Progress(uint64_t total, uint64_t already, std::FILE* out, bool live, int ranks = 1);

  // winner_engine: index of the engine config (engines.player0 = 0) that won, or -1.
  void game_finished(int winner, int first_player, uint32_t plies, int winner_engine);
  // host_thread_ms: the batch's host work in thread time (BatchInfo::host_thread_ms).
  void batch_done(uint32_t leaves, uint64_t rollouts, double backend_ms, double wait_ms,
                  double host_ms, double host_thread_ms);
  // Prints the status line if enough time has passed (always when force).
  void tick(bool force = false);
  // The closing summary, as lines of text; games_in_file: every complete game in the file, those
  // of earlier runs outside this run's game ids included.
  std::string summary(const std::string& output_path, const std::string& backend,
                      uint64_t games_in_file) const;

  uint64_t games() const { return games_; }

 private:
  double elapsed_s() const;

  uint64_t total_, already_;
  std::FILE* out_;
  bool live_;
  int ranks_;
  std::chrono::steady_clock::time_point start_, last_print_;
  uint64_t games_ = 0, wins_[2] = {0, 0}, engine_wins_[2] = {0, 0}, first_player_wins_ = 0,
           plies_ = 0;
  uint64_t batches_ = 0, leaves_ = 0, rollouts_ = 0;
  double backend_ms_ = 0, wait_ms_ = 0, host_ms_ = 0, host_thread_ms_ = 0;
};

}  // namespace sp::selfplay
