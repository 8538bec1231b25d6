// Random EWN playouts from random start setups on one CPU thread: the packed rules of games/ewn
// against the plain array program of games/ewn/array_playout.hpp (a 5x5 board of cells, the legal
// moves for the die listed each ply, the move applied cell by cell, the win found by scanning the
// board, as a straightforward program would write it; `selfplay bench` measures the same program),
// side by side in one run. Both take the same word of
// the same Philox stream per ply (the die from its high part times 6, the move from the low part)
// and list moves in the same order, so every playout must end the same way in both; the program
// checks that first, on every rules variant and both policies, and fails if not.
//
// The packed playouts are measured one at a time (ewn::playout), four interleaved in one thread
// (EwnGame::playout_many, the CPU backend's scalar path) and in the CPU backend's lanes
// (games/ewn/lanes.hpp, AVX2 and AVX-512 where the processor has them; run.sh compiles their files
// with the ISA flags). The start positions are those of `selfplay bench`'s throughput batches
// (host/engines/rollout/bench.hpp): random arrangements of stream games 2^24 and up, player 0
// first, 16 rollouts per leaf. Rates are per second of this thread's CPU time.
//
// Usage: ewn-bench [--seconds S] (CPU seconds per measurement, default 3). Prints one line per
// measurement with its ratios to the array program and to ewn::playout.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/philox.hpp"
#include "experiments/common/thread_clock.hpp"
#include "games/ewn/array_playout.hpp"
#include "games/ewn/ewn.hpp"
#include "games/ewn/game.hpp"
#include "games/ewn/lanes.hpp"
#include "games/ewn/playout.hpp"

namespace {

using namespace sp;

// `selfplay bench`'s throughput batches (host/app/cmd_bench.cpp, host/engines/rollout/bench.hpp):
// seed kSignatureSeed + 1, leaf i the start of stream game 2^24 + i at ply 0, 16 rollouts per leaf.
constexpr uint64_t kSeed = 20261130;
constexpr uint32_t kFirstGame = 1u << 24, kLeaves = 4096, kPerLeaf = 16;
constexpr uint32_t kChunk = 64;  // leaves per lane call: 1024 rollouts, a CPU backend work item

struct Leaf {
  ewn::State state;
  ewn::plain::Board board;
  PhiloxKey key;
  uint32_t leaf;
};

// The default rules' start (games/ewn/host.cpp: random setups, player 0 first).
std::vector<Leaf> make_leaves() {
  std::vector<Leaf> leaves(kLeaves);
  for (uint32_t i = 0; i < kLeaves; ++i) {
    WordStream rng({kSeed, kFirstGame + i, 0, kLeafSetup, 0});
    const ewn::Arrangement p0 = ewn::random_arrangement(rng), p1 = ewn::random_arrangement(rng);
    const ewn::State state = ewn::initial_state(p0, p1, 0);
    leaves[i] = Leaf{state, ewn::plain::board(state), stream_key(kSeed, kFirstGame + i), i};
  }
  return leaves;
}

struct Totals {
  uint64_t games = 0, plies = 0, wins0 = 0, wins1 = 0, draws = 0;
  void add(const ewn::PlayoutResult& r) {
    ++games, plies += r.plies, wins0 += r.winner == 0, wins1 += r.winner == 1;
    draws += r.winner == ewn::kNoWinner;
  }
  bool operator==(const Totals&) const = default;
};

// Plays rollouts [first, last) of leaves [begin, end) into totals.
using PlayChunk = void (*)(const Leaf* begin, const Leaf* end, uint32_t first, uint32_t last,
                           const ewn::Rules& rules, const ewn::PlayoutPolicy& policy, Totals& t);

void play_plain(const Leaf* begin, const Leaf* end, uint32_t first, uint32_t last,
                const ewn::Rules& rules, const ewn::PlayoutPolicy& policy, Totals& t) {
  for (const Leaf* l = begin; l != end; ++l)
    for (uint32_t r = first; r < last; ++r) {
      BlockStream rng(l->key, 0, l->leaf, r);
      t.add(ewn::plain::playout(l->board, rules, policy, rng));
    }
}

void play_scalar(const Leaf* begin, const Leaf* end, uint32_t first, uint32_t last,
                 const ewn::Rules& rules, const ewn::PlayoutPolicy& policy, Totals& t) {
  for (const Leaf* l = begin; l != end; ++l)
    for (uint32_t r = first; r < last; ++r) {
      BlockStream rng(l->key, 0, l->leaf, r);
      t.add(ewn::playout(l->state, rules, policy, rng));
    }
}

void play_interleaved(const Leaf* begin, const Leaf* end, uint32_t first, uint32_t last,
                      const ewn::Rules& rules, const ewn::PlayoutPolicy& policy, Totals& t) {
  for (const Leaf* l = begin; l != end; ++l)
    EwnGame::playout_many(l->state, rules, policy, l->key, 0, l->leaf, first, last,
                          [&](uint32_t, const ewn::PlayoutResult& r) { t.add(r); });
}

template <void (*Run)(const ewn::lanes::Task*, size_t, const ewn::Rules&, ewn::lanes::Counts*)>
void play_lanes(const Leaf* begin, const Leaf* end, uint32_t first, uint32_t last,
                const ewn::Rules& rules, const ewn::PlayoutPolicy& policy, Totals& t) {
  ewn::lanes::Task tasks[kChunk];
  ewn::lanes::Counts counts[kChunk];
  const auto n = static_cast<size_t>(end - begin);
  for (size_t i = 0; i < n; ++i)
    tasks[i] =
        ewn::lanes::Task{begin[i].state, begin[i].key, 0, begin[i].leaf, first, last, policy};
  Run(tasks, n, rules, counts);
  for (size_t i = 0; i < n; ++i) {
    t.games += last - first, t.plies += counts[i].plies;
    t.wins0 += counts[i].wins[0], t.wins1 += counts[i].wins[1], t.draws += counts[i].draws;
  }
}

struct Measure {
  double per_second;
  Totals totals;
};

// Plays the leaves round after round (round k: rollouts 16k..16k+15 of every leaf, fresh streams)
// until `seconds` of CPU time have passed, checking the clock after every chunk of leaves.
Measure measure(double seconds, const std::vector<Leaf>& leaves, PlayChunk play,
                const ewn::PlayoutPolicy& policy) {
  const ewn::Rules rules{};
  const auto t0 = experiments::ThreadClock::now();
  Totals t;
  double elapsed = 0;
  for (uint32_t round = 0, c = 0; elapsed < seconds;) {
    play(leaves.data() + c, leaves.data() + c + kChunk, round * kPerLeaf, (round + 1) * kPerLeaf,
         rules, policy, t);
    c += kChunk;
    if (c == leaves.size()) c = 0, ++round;
    elapsed = experiments::cpu_seconds_since(t0);
  }
  return {t.games / elapsed, t};
}

void print(const char* name, const Measure& m, double array_rate, double playout_rate) {
  std::printf("%-26s %11.0f playouts/s  %5.2f plies/game  player 0 wins %.4f  x%.2f array", name,
              m.per_second, static_cast<double>(m.totals.plies) / m.totals.games,
              static_cast<double>(m.totals.wins0) / m.totals.games, m.per_second / array_rate);
  if (playout_rate > 0) std::printf("  x%.2f ewn::playout", m.per_second / playout_rate);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 3;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--seconds" && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--seconds S]\n", argv[0]);
      return 2;
    }
  }
  const std::vector<Leaf> leaves = make_leaves();
  ewn::PlayoutPolicy uniform, heavy;
  heavy.kind = ewn::PolicyKind::kHeavy;

  struct Path {
    const char* name;
    bool supported;
    PlayChunk play;
  };
  std::vector<Path> paths = {{"bitboard (ewn::playout)", true, play_scalar},
                             {"bitboard x4 (scalar path)", true, play_interleaved}};
#if defined(__x86_64__) || defined(__i386__)
  paths.push_back(
      {"lanes avx2", __builtin_cpu_supports("avx2") != 0, play_lanes<ewn::lanes::run_avx2>});
  paths.push_back({"lanes avx512",
                   __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                       __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"),
                   play_lanes<ewn::lanes::run_avx512>});
#endif

  // The array program must agree with ewn::playout playout for playout, on every rules variant and
  // both policies; the other paths must give the same totals on the default rules.
  constexpr uint32_t kCheckLeaves = 256;
  const Leaf* check_end = leaves.data() + kCheckLeaves;
  for (const bool capture_own : {true, false})
    for (const auto sub : {ewn::Substitution::kNextLowerOrHigher, ewn::Substitution::kNearest})
      for (const ewn::PlayoutPolicy& policy : {uniform, heavy}) {
        const ewn::Rules rules{capture_own, sub};
        for (const Leaf* l = leaves.data(); l != check_end; ++l)
          for (uint32_t r = 0; r < kPerLeaf; ++r) {
            BlockStream a(l->key, 0, l->leaf, r), b(l->key, 0, l->leaf, r);
            const ewn::PlayoutResult x = ewn::playout(l->state, rules, policy, a),
                                     y = ewn::plain::playout(l->board, rules, policy, b);
            if (x.winner != y.winner || x.plies != y.plies) {
              std::printf(
                  "MISMATCH leaf %u rollout %u (capture_own %d, substitution %d, %s): "
                  "ewn::playout winner %d plies %d, array winner %d plies %d\n",
                  l->leaf, r, capture_own, static_cast<int>(sub),
                  policy.kind == ewn::PolicyKind::kUniform ? "uniform" : "heavy", x.winner, x.plies,
                  y.winner, y.plies);
              return 1;
            }
          }
      }
  for (const ewn::PlayoutPolicy& policy : {uniform, heavy}) {
    Totals want;
    for (const Leaf* l = leaves.data(); l != check_end; l += kChunk)
      play_scalar(l, l + kChunk, 0, kPerLeaf, ewn::Rules{}, policy, want);
    for (const Path& p : paths) {
      if (!p.supported) continue;
      Totals got;
      for (const Leaf* l = leaves.data(); l != check_end; l += kChunk)
        p.play(l, l + kChunk, 0, kPerLeaf, ewn::Rules{}, policy, got);
      if (!(got == want)) {
        std::printf("MISMATCH %s: plies %llu, player 0 wins %llu; ewn::playout %llu, %llu\n",
                    p.name, static_cast<unsigned long long>(got.plies),
                    static_cast<unsigned long long>(got.wins0),
                    static_cast<unsigned long long>(want.plies),
                    static_cast<unsigned long long>(want.wins0));
        return 1;
      }
    }
  }
  std::printf(
      "agreement: %u playouts identical in the array program and ewn::playout on each of "
      "4 rules variants x 2 policies; equal totals on every path\n",
      kCheckLeaves * kPerLeaf);

  for (const ewn::PlayoutPolicy& policy : {uniform, heavy}) {
    const bool is_uniform = policy.kind == ewn::PolicyKind::kUniform;
    std::printf("%s policy, default rules, %u start setups x %u rollouts per round:\n",
                is_uniform ? "uniform" : "heavy", kLeaves, kPerLeaf);
    const Measure arr = measure(seconds, leaves, play_plain, policy);
    print("array", arr, arr.per_second, 0);
    double playout_rate = 0;
    for (const Path& p : paths) {
      if (!p.supported) {
        std::printf("%-26s skipped: this CPU lacks the ISA\n", p.name);
        continue;
      }
      const Measure m = measure(seconds, leaves, p.play, policy);
      if (playout_rate == 0) playout_rate = m.per_second;
      print(p.name, m, arr.per_second, playout_rate);
    }
  }
  return 0;
}
