// Random Gomoku playouts from the empty board on one CPU thread: the bitboard rules of
// games/gomoku against the plain array program of games/gomoku/array_playout.hpp (a board of cells,
// the k-th empty square found by walking the cells, a five found by walking the four lines through
// the last stone, as a straightforward program would write it; `selfplay bench` measures the same
// program), side by side in one run. Both take the same random words and number the empty squares
// the same way (row by row), so every playout must end the same way in both; the program checks
// that first and fails if not.
//
// The bitboard playouts are measured as the CPU runs them (line words, gomoku::playout) and as the
// kernels do (bitboard walks, BitRep), uniform, weighted and pattern (line words), and as the CPU
// backend's lane-parallel paths play them, uniform and weighted (games/gomoku/lanes.hpp, AVX2 and
// AVX-512 where the processor has them; run.sh compiles their files with the ISA flags). Rates are
// per second of this thread's CPU time, so that other processes on a shared machine do not count
// against them.
//
// Usage: gomoku-bench [--seconds S] [--size 15|20] (CPU seconds per measurement, default 3, board
// 15x15). Prints one line per measurement and the ratio.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/philox.hpp"
#include "experiments/common/thread_clock.hpp"
#include "games/gomoku/array_playout.hpp"
#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/lanes.hpp"
#include "games/gomoku/playout.hpp"
#include "games/gomoku/playout_variants.hpp"

namespace {

using namespace sp;

struct Measure {
  double per_second, plies_per_game, black_wins;
  uint64_t games;
};

template <class Play>
Measure measure(double seconds, Play&& play) {
  const auto t0 = experiments::ThreadClock::now();
  uint64_t games = 0, plies = 0, black = 0;
  double elapsed = 0;
  while (elapsed < seconds) {
    for (int i = 0; i < 256; ++i, ++games) {
      BlockStream rng({2026, 0, 0, 0, static_cast<uint32_t>(games)});
      const gomoku::PlayoutResult r = play(rng);
      plies += r.plies;
      black += r.winner == 0;
    }
    elapsed = experiments::cpu_seconds_since(t0);
  }
  return {games / elapsed, static_cast<double>(plies) / games, static_cast<double>(black) / games,
          games};
}

// The lane-parallel playouts with `policy` on the streams measure() uses: batches of 16 tasks of
// 256 rollouts.
Measure measure_lanes(double seconds, const gomoku::State& start, const gomoku::Policy& policy,
                      void (*run)(const gomoku::lanes::Task*, size_t, gomoku::lanes::Counts*)) {
  const auto t0 = experiments::ThreadClock::now();
  uint64_t games = 0, plies = 0, black = 0;
  double elapsed = 0;
  std::vector<gomoku::lanes::Task> tasks(16);
  std::vector<gomoku::lanes::Counts> counts(tasks.size());
  while (elapsed < seconds) {
    for (auto& t : tasks) {
      const auto first = static_cast<uint32_t>(games);
      t = gomoku::lanes::Task{start, stream_key(2026, 0), 0, 0, first, first + 256, policy};
      games += 256;
    }
    run(tasks.data(), tasks.size(), counts.data());
    for (const auto& c : counts) plies += c.plies, black += c.wins[0];
    elapsed = experiments::cpu_seconds_since(t0);
  }
  return {games / elapsed, static_cast<double>(plies) / games, static_cast<double>(black) / games,
          games};
}

void print(const char* name, const Measure& m) {
  std::printf("%-20s %10.0f playouts/s  %6.1f plies/game  black wins %.3f  (%llu games)\n", name,
              m.per_second, m.plies_per_game, m.black_wins,
              static_cast<unsigned long long>(m.games));
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 3;
  int size = 15;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--seconds" && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else if (std::string(argv[i]) == "--size" && i + 1 < argc) {
      size = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--seconds S] [--size 15|20]\n", argv[0]);
      return 2;
    }
  }
  if (!gomoku::is_board_size(size)) {
    std::fprintf(stderr, "--size: 15 or 20\n");
    return 2;
  }
  const gomoku::State start = gomoku::initial_state(gomoku::Rules{static_cast<uint8_t>(size)});
  const gomoku::plain::Board board = gomoku::plain::board(start);
  const gomoku::Policy uniform{};
  gomoku::Policy weighted;
  weighted.kind = gomoku::PolicyKind::kWeighted;
  gomoku::Policy pattern = weighted;
  pattern.kind = gomoku::PolicyKind::kPattern;
  // The two implementations must agree playout for playout.
  for (uint32_t r = 0; r < 2000; ++r) {
    BlockStream a({2026, 1, 0, 0, r}), b({2026, 1, 0, 0, r});
    const auto x = gomoku::playout(start, uniform, a), y = gomoku::plain::playout(board, b);
    if (x.winner != y.winner || x.plies != y.plies) {
      std::printf("MISMATCH rollout %u: bitboard winner %d plies %d, array winner %d plies %d\n", r,
                  x.winner, x.plies, y.winner, y.plies);
      return 1;
    }
  }
  std::printf("agreement: 2000 playouts identical in both implementations (%dx%d freestyle)\n",
              size, size);
  const Measure bit =
      measure(seconds, [&](BlockStream& rng) { return gomoku::playout(start, uniform, rng); });
  const Measure arr =
      measure(seconds, [&](BlockStream& rng) { return gomoku::plain::playout(board, rng); });
  const Measure heavy =
      measure(seconds, [&](BlockStream& rng) { return gomoku::playout(start, weighted, rng); });
  const Measure patterned =
      measure(seconds, [&](BlockStream& rng) { return gomoku::playout(start, pattern, rng); });
  // The kernels' representation (bitboard walks) on the CPU, for comparison.
  const Measure walks = measure(seconds, [&](BlockStream& rng) {
    return size == 20 ? gomoku::uniform_playout<20, gomoku::playout_detail::BitRep<20>>(start, rng)
                      : gomoku::uniform_playout<15, gomoku::playout_detail::BitRep<15>>(start, rng);
  });
  print("bitboard uniform", bit);
  print("array uniform", arr);
  print("bitboard weighted", heavy);
  print("bitboard pattern", patterned);
  print("walks uniform", walks);
  std::printf("ratio bitboard / array (uniform): %.2f\n", bit.per_second / arr.per_second);
#if defined(__x86_64__) || defined(__i386__)
  struct Path {
    const char *name, *isa;
    bool supported;
    void (*run)(const gomoku::lanes::Task*, size_t, gomoku::lanes::Counts*);
  };
  const Path paths[] = {
      {"lanes avx2", "AVX2", __builtin_cpu_supports("avx2") != 0, gomoku::lanes::run_avx2},
      {"lanes avx512", "AVX-512",
       __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"),
       gomoku::lanes::run_avx512}};
  for (const Path& p : paths) {
    if (!p.supported) {
      std::printf("%-20s skipped: this CPU lacks %s\n", p.name, p.isa);
      continue;
    }
    const Measure m = measure_lanes(seconds, start, uniform, p.run);
    print(p.name, m);
    std::printf("ratio %s / array: %.2f, / bitboard: %.2f\n", p.name, m.per_second / arr.per_second,
                m.per_second / bit.per_second);
    const std::string weighted_name = std::string(p.name) + " weighted";
    const Measure w = measure_lanes(seconds, start, weighted, p.run);
    print(weighted_name.c_str(), w);
    std::printf("ratio %s / bitboard weighted: %.2f\n", weighted_name.c_str(),
                w.per_second / heavy.per_second);
  }
#endif
  return 0;
}
