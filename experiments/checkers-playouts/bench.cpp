// Random checkers playouts from the start position on one CPU thread: the bitboard rules of
// games/checkers against the plain array program of games/checkers/array_playout.hpp (an 8x8 board
// of cells, moves collected into a list with their paths, as a straightforward program would write
// them; `selfplay bench` measures the same program), side by side in one run. Both list their moves
// in the same order and take the same random words, so every playout must end the same way in both;
// the program checks that first and fails if not.
//
// On x86 it also measures the CPU backend's lane-parallel playouts (games/checkers/lanes.hpp, AVX2
// and AVX-512 where the processor has them) on the same streams, after checking that they agree
// with the scalar playout.
//
// Usage: checkers-bench [--seconds S] (per implementation and policy, default 3). Prints one line
// per measurement and the ratios. Times are this thread's CPU time.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "core/philox.hpp"
#include "experiments/common/thread_clock.hpp"
#include "games/checkers/array_playout.hpp"
#include "games/checkers/checkers.hpp"
#include "games/checkers/lanes.hpp"
#include "games/checkers/playout.hpp"

namespace {

using namespace sp;

struct Measure {
  double per_second, plies_per_game;
  uint64_t games;
};

template <class Play>
Measure measure(double seconds, Play&& play) {
  using Clock = experiments::ThreadClock;
  const auto t0 = Clock::now();
  uint64_t games = 0, plies = 0;
  double elapsed = 0;
  while (elapsed < seconds) {
    for (int i = 0; i < 256; ++i, ++games) {
      BlockStream rng({2026, 0, 0, 0, static_cast<uint32_t>(games)});
      plies += play(rng).plies;
    }
    elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  }
  return {games / elapsed, static_cast<double>(plies) / games, games};
}

using LaneRun = void (*)(const checkers::lanes::Task*, size_t, checkers::lanes::Counts*);

// The lane-parallel playouts on the streams measure() uses: batches of 16 tasks of 256 rollouts.
Measure measure_lanes(double seconds, const checkers::State& start, const checkers::Policy& policy,
                      LaneRun run) {
  using Clock = experiments::ThreadClock;
  const auto t0 = Clock::now();
  uint64_t games = 0, plies = 0;
  double elapsed = 0;
  std::vector<checkers::lanes::Task> tasks(16);
  std::vector<checkers::lanes::Counts> counts(tasks.size());
  while (elapsed < seconds) {
    for (auto& t : tasks) {
      const auto first = static_cast<uint32_t>(games);
      t = checkers::lanes::Task{start, stream_key(2026, 0), 0, 0, first, first + 256, policy};
      games += 256;
    }
    run(tasks.data(), tasks.size(), counts.data());
    for (const auto& c : counts) plies += c.plies;
    elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  }
  return {games / elapsed, static_cast<double>(plies) / games, games};
}

// The lanes' plies over 4096 rollouts equal the scalar playout's, rollout by rollout summed.
bool lanes_agree(const checkers::State& start, const checkers::Policy& policy, LaneRun run) {
  std::vector<checkers::lanes::Task> tasks;
  for (uint32_t r = 0; r < 4096; ++r)
    tasks.push_back(checkers::lanes::Task{start, stream_key(2026, 1), 0, 0, r, r + 1, policy});
  std::vector<checkers::lanes::Counts> counts(tasks.size());
  run(tasks.data(), tasks.size(), counts.data());
  for (uint32_t r = 0; r < tasks.size(); ++r) {
    BlockStream rng({2026, 1, 0, 0, r});
    const auto x = checkers::playout(start, policy, rng);
    if (counts[r].plies != x.plies || counts[r].wins[0] != (x.winner == 0)) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 3;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--seconds" && i + 1 < argc)
      seconds = std::atof(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--seconds S]\n", argv[0]);
      return 2;
    }
  }
  const checkers::State start = checkers::initial_state();
  const checkers::plain::Board board = checkers::plain::board(start);
  const checkers::Policy uniform{};
  checkers::Policy weighted;
  weighted.kind = checkers::PolicyKind::kWeighted;

  // The two implementations must agree playout for playout.
  for (uint32_t r = 0; r < 2000; ++r) {
    BlockStream a({2026, 1, 0, 0, r}), b({2026, 1, 0, 0, r});
    const auto x = checkers::playout(start, uniform, a), y = checkers::plain::playout(board, b);
    if (x.winner != y.winner || x.plies != y.plies) {
      std::printf("MISMATCH rollout %u: bitboard winner %d plies %d, array winner %d plies %d\n", r,
                  x.winner, x.plies, y.winner, y.plies);
      return 1;
    }
  }
  std::printf("agreement: 2000 playouts identical in both implementations\n");

  const Measure bit =
      measure(seconds, [&](BlockStream& rng) { return checkers::playout(start, uniform, rng); });
  const Measure arr =
      measure(seconds, [&](BlockStream& rng) { return checkers::plain::playout(board, rng); });
  const Measure heavy =
      measure(seconds, [&](BlockStream& rng) { return checkers::playout(start, weighted, rng); });
  std::printf("bitboard uniform   %10.0f playouts/s  %5.1f plies/game  (%llu games)\n",
              bit.per_second, bit.plies_per_game, static_cast<unsigned long long>(bit.games));
  std::printf("array uniform      %10.0f playouts/s  %5.1f plies/game  (%llu games)\n",
              arr.per_second, arr.plies_per_game, static_cast<unsigned long long>(arr.games));
  std::printf("bitboard weighted  %10.0f playouts/s  %5.1f plies/game  (%llu games)\n",
              heavy.per_second, heavy.plies_per_game, static_cast<unsigned long long>(heavy.games));
  std::printf("ratio bitboard / array (uniform): %.2f\n", bit.per_second / arr.per_second);
#if defined(__x86_64__) || defined(__i386__)
  struct Path {
    const char *name, *isa;
    bool supported;
    LaneRun run;
  };
  const Path paths[] = {
      {"avx2", "AVX2", __builtin_cpu_supports("avx2") != 0, checkers::lanes::run_avx2},
      {"avx512", "AVX-512",
       __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"),
       checkers::lanes::run_avx512}};
  for (const Path& p : paths) {
    if (!p.supported) {
      std::printf("lanes %-12s skipped: this CPU lacks %s\n", p.name, p.isa);
      continue;
    }
    if (!lanes_agree(start, uniform, p.run) || !lanes_agree(start, weighted, p.run)) {
      std::printf("MISMATCH: the %s lanes differ from the scalar playout\n", p.name);
      return 1;
    }
    const Measure u = measure_lanes(seconds, start, uniform, p.run);
    const Measure w = measure_lanes(seconds, start, weighted, p.run);
    std::printf("lanes %-6s uniform  %10.0f playouts/s  %5.1f plies/game  (%llu games)\n", p.name,
                u.per_second, u.plies_per_game, static_cast<unsigned long long>(u.games));
    std::printf("lanes %-6s weighted %10.0f playouts/s  %5.1f plies/game  (%llu games)\n", p.name,
                w.per_second, w.plies_per_game, static_cast<unsigned long long>(w.games));
    std::printf(
        "ratio lanes %s / array (uniform): %.2f, / bitboard: %.2f; weighted / bitboard "
        "weighted: %.2f\n",
        p.name, u.per_second / arr.per_second, u.per_second / bit.per_second,
        w.per_second / heavy.per_second);
  }
#endif
  return 0;
}
