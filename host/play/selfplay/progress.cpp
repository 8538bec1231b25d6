#include "host/play/selfplay/progress.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace sp::selfplay {

Interval wilson95(uint64_t k, uint64_t n) {
  if (n == 0) return {0, 1};
  const double z = 1.96, p = static_cast<double>(k) / n, nn = static_cast<double>(n);
  const double denom = 1 + z * z / nn;
  const double centre = (p + z * z / (2 * nn)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / denom;
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

Progress::Progress(uint64_t total, uint64_t already, std::FILE* out, bool live, int ranks)
    : total_(total),
      already_(already),
      out_(out),
      live_(live),
      ranks_(std::max(1, ranks)),
      start_(std::chrono::steady_clock::now()),
      last_print_(start_) {}

double Progress::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::game_finished(int winner, int first_player, uint32_t plies, int winner_engine) {
  ++games_;
  if (winner == 0 || winner == 1) ++wins_[winner];
  if (winner_engine == 0 || winner_engine == 1) ++engine_wins_[winner_engine];
  if (winner == first_player) ++first_player_wins_;
  plies_ += plies;
}

void Progress::batch_done(uint32_t leaves, uint64_t rollouts, double backend_ms, double wait_ms,
                          double host_ms, double host_thread_ms) {
  ++batches_;
  leaves_ += leaves;
  rollouts_ += rollouts;
  backend_ms_ += backend_ms;
  wait_ms_ += wait_ms;
  host_ms_ += host_ms;
  host_thread_ms_ += host_thread_ms;
}

void Progress::tick(bool force) {
  const auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - last_print_).count();
  if (!force && since < (live_ ? 0.5 : 10.0)) return;
  last_print_ = now;
  const double t = elapsed_s();
  const double gps = t > 0 ? games_ / t : 0;
  const uint64_t done = already_ + games_;
  const double eta = gps > 0 ? (total_ - std::min(total_, done)) / gps : 0;
  const std::string line = fmt::format(
      "games {}/{} ({:.1f}%)  {:.2f} games/s  {:.3g} rollouts/s  P0 wins {:.1f}%  ETA {:.0f}s",
      done, total_, total_ ? 100.0 * done / total_ : 100.0, gps, t > 0 ? rollouts_ / t : 0.0,
      games_ ? 100.0 * wins_[0] / games_ : 0.0, eta);
  if (live_)
    std::fprintf(out_, "\r%-100s", line.c_str());
  else
    std::fprintf(out_, "%s\n", line.c_str());
  std::fflush(out_);
}

std::string Progress::summary(const std::string& output_path, const std::string& backend,
                              uint64_t games_in_file) const {
  const double t = elapsed_s();
  const auto w0 = wilson95(wins_[0], games_), w1 = wilson95(wins_[1], games_);
  const auto fp = wilson95(first_player_wins_, games_);
  // Every rank's backend is busy at most all of the wall time: the mean over the ranks.
  const double busy = backend_ms_ + host_ms_ > 0 ? backend_ms_ / (ranks_ * t * 1000.0) : 0;
  std::string s;
  if (live_) s += "\n";
  s += fmt::format("games played        {} (this run), {} in the file\n", games_, games_in_file);
  s += fmt::format("player 0 wins       {:.2f}%  [95% CI {:.2f}, {:.2f}]\n",
                   100.0 * wins_[0] / std::max<uint64_t>(1, games_), 100 * w0.low, 100 * w0.high);
  s += fmt::format("player 1 wins       {:.2f}%  [95% CI {:.2f}, {:.2f}]\n",
                   100.0 * wins_[1] / std::max<uint64_t>(1, games_), 100 * w1.low, 100 * w1.high);
  const uint64_t draws = games_ - std::min(games_, wins_[0] + wins_[1]);
  const auto wd = wilson95(draws, games_);
  s += fmt::format("draws               {:.2f}%  [95% CI {:.2f}, {:.2f}]\n",
                   100.0 * draws / std::max<uint64_t>(1, games_), 100 * wd.low, 100 * wd.high);
  if (engine_wins_[0] != wins_[0]) {  // engines swapped seats (paired games)
    const auto e0 = wilson95(engine_wins_[0], games_);
    s += fmt::format(
        "engine player0 wins {:.2f}%  [95% CI {:.2f}, {:.2f}]  (the engine configured as player0, "
        "on either side)\n",
        100.0 * engine_wins_[0] / std::max<uint64_t>(1, games_), 100 * e0.low, 100 * e0.high);
  }
  s += fmt::format("first mover wins    {:.2f}%  [95% CI {:.2f}, {:.2f}]\n",
                   100.0 * first_player_wins_ / std::max<uint64_t>(1, games_), 100 * fp.low,
                   100 * fp.high);
  s += fmt::format("average length      {:.2f} plies\n",
                   games_ ? static_cast<double>(plies_) / games_ : 0.0);
  s += fmt::format(
      "throughput          {:.3g} rollouts/s, {:.3g} leaves/s, {:.3f} games/s over {:.1f} s\n",
      t > 0 ? rollouts_ / t : 0.0, t > 0 ? leaves_ / t : 0.0, t > 0 ? games_ / t : 0.0, t);
  s += fmt::format("batches             {} (mean {:.0f} leaves, {:.0f} rollouts)\n", batches_,
                   batches_ ? static_cast<double>(leaves_) / batches_ : 0.0,
                   batches_ ? static_cast<double>(rollouts_) / batches_ : 0.0);
  s += fmt::format(
      "backend {}   busy {:.0f}% of wall time{}, host waited {:.1f} s, host work {:.1f} s{}\n",
      backend, 100 * busy, ranks_ > 1 ? fmt::format(" (mean of {} ranks)", ranks_) : "",
      wait_ms_ / 1000, host_ms_ / 1000, ranks_ > 1 ? " (summed over the ranks)" : "");
  // What a GPU would need from the host: leaves per second of host thread time (selection,
  // expansion, backup and the batch's assembly; a descent from the root per MCTS leaf), and the
  // rollouts each leaf asks for.
  s += fmt::format(
      "host rate           {:.3g} leaves per host thread-second, {:.2f} rollouts per "
      "leaf, {:.1f} host thread-s{}\n",
      host_thread_ms_ > 0 ? leaves_ / (host_thread_ms_ / 1000) : 0.0,
      leaves_ ? static_cast<double>(rollouts_) / leaves_ : 0.0, host_thread_ms_ / 1000,
      ranks_ > 1 ? " (summed over the ranks)" : "");
  s += fmt::format("output              {}\n", output_path);
  return s;
}

}  // namespace sp::selfplay
