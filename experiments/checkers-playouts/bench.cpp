// Random checkers playouts from the start position on one CPU thread: the bitboard rules of
// games/checkers against a plain array implementation (an 8x8 board of cells, moves collected into
// a list with their paths, as a straightforward program would write them), side by side in one
// run. Both list their moves in the same order and take the same random words, so every playout
// must end the same way in both; the program checks that first and fails if not.
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
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "experiments/common/thread_clock.hpp"
#include "games/checkers/checkers.hpp"
#include "games/checkers/lanes.hpp"
#include "games/checkers/playout.hpp"
#include "games/common/philox.hpp"

namespace {

using namespace sp;

namespace plain {

// Cells of an 8x8 board (row 0 = Black's side), the rules of ../shared/reference/checkers.md.
enum Cell : int8_t { kEmpty, kBlackMan, kBlackKing, kWhiteMan, kWhiteKing };

struct Board {
  int8_t cell[8][8];
  int side = 0, ply = 0, quiet = 0;
};

struct Move {
  int8_t row[11], file[11];  // the path: start, then every landing square
  int8_t cap_row[10], cap_file[10];
  int n = 0, captures = 0;
};

constexpr int kMaxPlies = 400, kQuietLimit = 80;
// Directions in the order of the bitboard code: SW, SE, NE, NW.
constexpr int kRowStep[4] = {1, 1, -1, -1};
constexpr int kFileStep[4] = {-1, 1, 1, -1};

bool on_board(int r, int f) { return r >= 0 && r < 8 && f >= 0 && f < 8; }
bool own(int c, int side) {
  return side == 0 ? (c == kBlackMan || c == kBlackKing) : (c == kWhiteMan || c == kWhiteKing);
}
bool is_king(int c) { return c == kBlackKing || c == kWhiteKing; }
bool may_go(int c, int side, int d) { return is_king(c) || (side == 0 ? d < 2 : d >= 2); }
// PDN square order: row by row, files left to right.
void square_of(int sq, int* r, int* f) {
  *r = sq / 4;
  *f = 2 * (sq % 4) + (*r % 2 == 0 ? 1 : 0);
}

Board start() {
  Board b;
  std::memset(b.cell, kEmpty, sizeof b.cell);
  for (int sq = 0; sq < 32; ++sq) {
    int r, f;
    square_of(sq, &r, &f);
    if (sq < 12) b.cell[r][f] = kBlackMan;
    if (sq >= 20) b.cell[r][f] = kWhiteMan;
  }
  return b;
}

struct Generator {
  Board& b;
  Move* out;
  int n = 0;
  bool jumped[8][8] = {};

  void jumps(Move& m, int piece) {
    const int r = m.row[m.n - 1], f = m.file[m.n - 1];
    bool extended = false;
    for (int d = 0; d < 4; ++d) {
      if (!may_go(piece, b.side, d)) continue;
      const int orow = r + kRowStep[d], ofile = f + kFileStep[d];
      const int lrow = orow + kRowStep[d], lfile = ofile + kFileStep[d];
      if (!on_board(lrow, lfile)) continue;
      const int over = b.cell[orow][ofile];
      if (over == kEmpty || own(over, b.side) || jumped[orow][ofile]) continue;
      if (b.cell[lrow][lfile] != kEmpty) continue;
      extended = true;
      jumped[orow][ofile] = true;
      m.cap_row[m.captures] = static_cast<int8_t>(orow);
      m.cap_file[m.captures++] = static_cast<int8_t>(ofile);
      m.row[m.n] = static_cast<int8_t>(lrow);
      m.file[m.n++] = static_cast<int8_t>(lfile);
      const bool crowns = !is_king(piece) && lrow == (b.side == 0 ? 7 : 0);
      if (crowns)
        out[n++] = m;
      else
        jumps(m, piece);
      --m.n;
      --m.captures;
      jumped[orow][ofile] = false;
    }
    if (!extended && m.captures > 0) out[n++] = m;
  }

  int run() {
    for (int sq = 0; sq < 32; ++sq) {
      int r, f;
      square_of(sq, &r, &f);
      const int piece = b.cell[r][f];
      if (!own(piece, b.side)) continue;
      Move m;
      m.row[0] = static_cast<int8_t>(r);
      m.file[0] = static_cast<int8_t>(f);
      m.n = 1;
      b.cell[r][f] = kEmpty;  // the start square is empty during the jumps
      jumps(m, piece);
      b.cell[r][f] = static_cast<int8_t>(piece);
    }
    if (n) return n;
    for (int d = 0; d < 4; ++d)
      for (int sq = 0; sq < 32; ++sq) {
        int r, f;
        square_of(sq, &r, &f);
        const int piece = b.cell[r][f];
        if (!own(piece, b.side) || !may_go(piece, b.side, d)) continue;
        const int tr = r + kRowStep[d], tf = f + kFileStep[d];
        if (!on_board(tr, tf) || b.cell[tr][tf] != kEmpty) continue;
        Move& m = out[n++];
        m.row[0] = static_cast<int8_t>(r), m.file[0] = static_cast<int8_t>(f);
        m.row[1] = static_cast<int8_t>(tr), m.file[1] = static_cast<int8_t>(tf);
        m.n = 2;
        m.captures = 0;
      }
    return n;
  }
};

void apply(Board& b, const Move& m) {
  const int piece = b.cell[m.row[0]][m.file[0]];
  b.cell[m.row[0]][m.file[0]] = kEmpty;
  for (int i = 0; i < m.captures; ++i) b.cell[m.cap_row[i]][m.cap_file[i]] = kEmpty;
  const int r = m.row[m.n - 1], f = m.file[m.n - 1];
  const bool crowns = !is_king(piece) && r == (b.side == 0 ? 7 : 0);
  b.cell[r][f] = static_cast<int8_t>(crowns ? piece + 1 : piece);
  b.quiet = is_king(piece) && m.captures == 0 ? b.quiet + 1 : 0;
  ++b.ply;
  b.side ^= 1;
}

checkers::PlayoutResult playout(Board b, BlockStream& rng) {
  Move moves[checkers::kMaxMoves];
  uint32_t plies = 0;
  Philox4x32 block{};
  for (;;) {
    Generator g{b, moves};
    const int n = g.run();
    if (n == 0) return {static_cast<uint8_t>(b.side ^ 1), static_cast<uint16_t>(plies)};
    if (b.quiet >= kQuietLimit || b.ply >= kMaxPlies)
      return {checkers::kNoWinner, static_cast<uint16_t>(plies)};
    if ((plies & 3u) == 0) block = rng.next();
    apply(b, moves[bounded(block.v[plies & 3u], static_cast<uint32_t>(n))]);
    ++plies;
  }
}

}  // namespace plain

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
  const plain::Board board = plain::start();
  const checkers::Policy uniform{};
  checkers::Policy weighted;
  weighted.kind = checkers::PolicyKind::kWeighted;

  // The two implementations must agree playout for playout.
  for (uint32_t r = 0; r < 2000; ++r) {
    BlockStream a({2026, 1, 0, 0, r}), b({2026, 1, 0, 0, r});
    const auto x = checkers::playout(start, uniform, a), y = plain::playout(board, b);
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
      measure(seconds, [&](BlockStream& rng) { return plain::playout(board, rng); });
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
