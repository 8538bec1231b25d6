// `selfplay bench` prints two deterministic signatures, both pinned here: any change that alters
// them must update the number and say `Bench: <signature>` in its commit message.
// - The playout signature (host/engines/rollout/bench.hpp: 4096 start positions x 16 uniform
// rollouts,
//   fixed seed; their total plies): any change to the rules, the playout code or the generator
//   changes it.
// - The search signature (host/play/selfplay/search_bench.hpp: 8 games of MCTS against the depth
// engine,
//   played in memory; total plies plus the nodes of every search): any change to what search
//   decides or how much it expands changes it. It must not depend on threads or backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/simd/simd_path.hpp"
#include "games/hosts.hpp"
#include "host/engines/rollout/array_playouts.hpp"
#include "host/engines/rollout/lane_playouts.hpp"
#include "host/play/selfplay/host_bench.hpp"
#include "host/play/selfplay/search_bench.hpp"
#include "tests/games/tictactoe/host.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

constexpr const char* kSignature = "1413994";
constexpr const char* kSearchSignature = "619565";

// The number on the one `<name>: N` line of `selfplay bench ARGS`; "" if there is none.
std::string number_of(const std::string& args, const std::string& name,
                      const std::string& env = "") {
  const test::CommandResult r = test::run_command(env + std::string("'") + SELFPLAY_BINARY +
                                                  "' bench --seconds 0 " + args + " 2>/dev/null");
  EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  const std::regex re("^" + name + ": ([0-9]+)$");
  std::istringstream lines(r.out);
  std::string sig;
  int found = 0;
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, re)) sig = m[1].str(), ++found;
  }
  EXPECT_EQ(found, 1) << args << "\n" << r.out;
  return sig;
}

std::string signature_of(const std::string& args, const std::string& env = "") {
  return number_of("--playouts-only " + args, "signature", env);
}

std::string search_signature_of(const std::string& args, const std::string& env = "") {
  return number_of("--search-only " + args, "search signature", env);
}

TEST(Bench, SignatureIsPinned) {
  EXPECT_EQ(signature_of("--backend cpu --threads 1"), kSignature);
  EXPECT_EQ(signature_of("--game ewn --backend cpu --threads 2 --playout policy=heavy"), kSignature)
      << "the signature workload does not depend on threads or the throughput policy";
  // Without a GPU, check compares cpu on all threads with cpu on one with scalar playouts; with
  // one, cuda with cpu.
  EXPECT_EQ(signature_of("--backend check --threads 2"), kSignature);
  // auto: cuda when built and a device is usable, else cpu.
  EXPECT_EQ(signature_of("--backend auto"), kSignature);
}

// Every playout path of the CPU backend this processor runs (scalar, AVX2, AVX-512 lanes) gives the
// same signatures; bench names the path in use and, on a lane path, measures it against scalar.
TEST(Bench, SignaturesAreTheSameOnEveryPlayoutPath) {
  for (rollout::SimdPath p :
       {rollout::SimdPath::kScalar, rollout::SimdPath::kAvx2, rollout::SimdPath::kAvx512}) {
    if (!rollout::simd_path_supported(p)) {
      std::printf("skipped the %s path: this CPU lacks %s\n", rollout::simd_path_name(p),
                  rollout::simd_path_isa(p));
      continue;
    }
    const std::string name = rollout::simd_path_name(p);
    const std::string env = "SELFPLAY_SIMD=" + name + " ";
    EXPECT_EQ(signature_of("--backend cpu --threads 2", env), kSignature) << name;
    EXPECT_EQ(search_signature_of("--backend cpu --threads 1", env), kSearchSignature) << name;
    const test::CommandResult r = test::run_command(
        env + "'" + SELFPLAY_BINARY + "' bench --seconds 0 --playouts-only --threads 1 2>&1");
    EXPECT_NE(r.out.find(", " + name + " playouts\n"), std::string::npos) << r.out;
    if (p != rollout::SimdPath::kScalar) {
      EXPECT_NE(r.out.find("x scalar)"), std::string::npos) << r.out;
    }
  }
}

// What bench knows of a game's plain reference program (rollout::ArrayPlayouts) and lanes.
struct Reference {
  bool available = false, lanes = false;
  std::string name;
};

Reference reference_of(const std::string& game) {
  return with_game(game, []<class G>() {
    Reference r;
    r.lanes = rollout::LanePlayouts<G>::kAvailable;
    if constexpr (rollout::ArrayPlayouts<G>::kAvailable) {
      r.available = true;
      r.name = rollout::ArrayPlayouts<G>::kName;
    }
    return r;
  });
}

// For every game with a plain reference program, the playout paths table measures it on the same
// batch, says what it is, and gives the one-thread scalar and SIMD rates as multiples of its rate;
// with --playout and a policy the program does not play, it says that it measured nothing.
TEST(Bench, PlayoutPathsGiveTheRatioToTheArrayProgram) {
  const bool simd = rollout::simd_path_supported(rollout::SimdPath::kAvx2) ||
                    rollout::simd_path_supported(rollout::SimdPath::kAvx512);
  const std::regex array_line("^  array +1 thread +[0-9.e+]+ playouts/s  \\(reference: (.+)\\)$");
  const std::regex scalar_line(
      "^  scalar +1 thread +[0-9.e+]+ playouts/s  \\(([0-9.]+)x array program\\)$");
  const std::regex simd_line(
      "^  avx(2|512) +1 thread +[0-9.e+]+ playouts/s  \\([0-9.]+x scalar, ([0-9.]+)x array "
      "program\\)$");
  int games = 0;
  for (const std::string& game : Games::names()) {
    const Reference ref = reference_of(game);
    if (!ref.available) continue;
    ++games;
    const test::CommandResult r =
        test::run_command(std::string("'") + SELFPLAY_BINARY + "' bench --game " + game +
                          " --seconds 0 --playouts-only --threads 1 2>&1");
    ASSERT_EQ(r.code, 0) << game << "\n" << r.out;
    int arrays = 0, scalars = 0, simds = 0;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      std::smatch m;
      if (std::regex_match(line, m, array_line)) {
        ++arrays;
        EXPECT_EQ(m[1].str(), ref.name) << game;
      } else if (std::regex_match(line, m, scalar_line)) {
        ++scalars;
        EXPECT_GT(std::stod(m[1].str()), 0) << game << ": " << line;
      } else if (std::regex_match(line, m, simd_line)) {
        ++simds;
        EXPECT_GT(std::stod(m[2].str()), 0) << game << ": " << line;
      }
    }
    EXPECT_EQ(arrays, 1) << game << "\n" << r.out;
    EXPECT_EQ(scalars, 1) << game << "\n" << r.out;
    EXPECT_EQ(simds, simd && ref.lanes ? 1 : 0) << game << "\n" << r.out;
  }
  EXPECT_EQ(games, 3) << "ewn, checkers and gomoku have plain reference programs";

  // Gomoku's program plays uniform playouts only.
  const test::CommandResult weighted =
      test::run_command(std::string("'") + SELFPLAY_BINARY +
                        "' bench --game gomoku --seconds 0 --playouts-only --threads 1 "
                        "--playout policy=weighted 2>&1");
  ASSERT_EQ(weighted.code, 0) << weighted.out;
  EXPECT_NE(weighted.out.find("  array   not measured: the reference (" +
                              reference_of("gomoku").name + ") does not play these playouts\n"),
            std::string::npos)
      << weighted.out;
  EXPECT_EQ(weighted.out.find("x array program"), std::string::npos) << weighted.out;
}

TEST(Bench, SearchSignatureIsPinnedAndIndependentOfThreads) {
  EXPECT_EQ(search_signature_of("--backend cpu --threads 1"), kSearchSignature);
  EXPECT_EQ(search_signature_of("--game ewn --backend cpu --threads 2"), kSearchSignature);
  EXPECT_EQ(search_signature_of("--backend check --threads 2"), kSearchSignature);
}

// Every game of the list has both signatures pinned: a new game adds its line here, and a change to
// one game's rules or search shows up under its name.
struct GamePins {
  const char* game;
  const char* playouts;
  const char* search;
};
constexpr GamePins kPins[] = {
    {"ewn", kSignature, kSearchSignature},
    {"checkers", "4638732", "129670"},  // search: quiescence (issue 27)
    {"gomoku", "7150806", "121596"},
};

TEST(Bench, EveryGameHasItsSignaturesPinned) {
  for (const std::string& game : Games::names()) {
    const GamePins* pin = nullptr;
    for (const GamePins& p : kPins)
      if (game == p.game) pin = &p;
    ASSERT_NE(pin, nullptr) << "no signatures pinned for " << game << ": add its line to kPins";
    EXPECT_EQ(signature_of("--game " + game + " --backend cpu --threads 2"), pin->playouts) << game;
    EXPECT_EQ(search_signature_of("--game " + game + " --backend cpu --threads 1"), pin->search)
        << game;
    EXPECT_EQ(search_signature_of("--game " + game + " --backend check --threads 2"), pin->search)
        << game << ": the search signature depends on threads or backend";
  }
}

// The bit select (core/hd.hpp) by PDEP and by popcounts plays the same playouts: every
// game's scalar path gives its pinned signature either way, and the device line says which ran.
TEST(Bench, SignaturesDoNotDependOnTheBitSelect) {
  for (const GamePins& pin : kPins) {
    for (const char* pdep : {"on", "off"}) {
      const std::string env = std::string("SELFPLAY_SIMD=scalar SELFPLAY_PDEP=") + pdep + " ";
      EXPECT_EQ(signature_of("--game " + std::string(pin.game) + " --backend cpu --threads 2", env),
                pin.playouts)
          << pin.game << " with PDEP " << pdep;
    }
    EXPECT_EQ(search_signature_of("--game " + std::string(pin.game) + " --backend cpu --threads 1",
                                  "SELFPLAY_PDEP=off "),
              pin.search)
        << pin.game;
  }
  const test::CommandResult off =
      test::run_command(std::string("SELFPLAY_PDEP=off '") + SELFPLAY_BINARY +
                        "' bench --seconds 0 --playouts-only --threads 1 2>&1");
  EXPECT_NE(off.out.find("bit select popcount halves"), std::string::npos) << off.out;
}

TEST(Bench, DefaultRunPrintsBothSignaturesOnce) {
  EXPECT_EQ(number_of("--threads 1", "signature"), kSignature);
  EXPECT_EQ(number_of("--threads 1", "search signature"), kSearchSignature);
  const test::CommandResult playouts = test::run_command(
      std::string("'") + SELFPLAY_BINARY + "' bench --seconds 0 --playouts-only 2>&1");
  EXPECT_EQ(playouts.out.find("search"), std::string::npos) << playouts.out;
  const test::CommandResult search =
      test::run_command(std::string("'") + SELFPLAY_BINARY + "' bench --search-only 2>&1");
  EXPECT_EQ(search.out.find("playouts/s"), std::string::npos) << search.out;
  EXPECT_EQ(search.out.find("\nsignature: "), std::string::npos) << search.out;
  // The last line says where the time went (issue 41, item 7: --seconds 1 took 7 s for Gomoku
  // without saying why): the fixed signature workloads apart from what --seconds sets.
  const std::regex both(
      R"(\ntime: signature [0-9.]+ s, throughput and playout paths [0-9.]+ s \(--seconds 0\), search signature [0-9.]+ s, host [0-9.]+ s\n$)");
  const test::CommandResult all = test::run_command(std::string("'") + SELFPLAY_BINARY +
                                                    "' bench --game gomoku --seconds 0 2>&1");
  EXPECT_TRUE(std::regex_search(all.out, both)) << all.out;
  // The host's rate at 8 rollouts a leaf (issue 44, item 1), once, in a full run only.
  const std::regex host(
      R"(\nhost: [0-9.e+]+ leaves per host thread-second \([0-9.e+]+ leaves/s on 1 thread\), 8\.00 rollouts per descent \(null backend)");
  EXPECT_TRUE(std::regex_search(all.out, host)) << all.out;
  EXPECT_EQ(search.out.find("\nhost:"), std::string::npos) << search.out;
  EXPECT_EQ(playouts.out.find("\nhost:"), std::string::npos) << playouts.out;
  EXPECT_TRUE(std::regex_search(search.out, std::regex(R"(\ntime: search signature [0-9.]+ s\n$)")))
      << search.out;
}

// The search workload of a game without chance (alpha-beta as the depth engine), in the library:
// the same on one thread and on four, and every search counted.
TEST(Bench, SearchWorkloadWithoutChanceIsIndependentOfThreads) {
  rollout::BackendOptions options;
  options.max_leaves = 4096;
  options.max_rollouts = 1 << 16;
  selfplay::SearchBenchResult runs[2];
  for (int i = 0; i < 2; ++i) {
    options.threads = i == 0 ? 1 : 4;
    auto backend = rollout::make_backend<TicTacToe>("cpu", options);
    runs[i] = selfplay::run_search_bench<TicTacToe>(*backend, options.threads);
  }
  EXPECT_EQ(runs[0].games, selfplay::kSearchBenchGames);
  EXPECT_GE(runs[0].plies, 5u * selfplay::kSearchBenchGames);
  EXPECT_GT(runs[0].nodes, runs[0].plies);
  EXPECT_GT(runs[0].rollouts, 0u);
  EXPECT_EQ(runs[0].mcts_wins + runs[0].depth_wins + runs[0].draws, runs[0].games);
  EXPECT_EQ(runs[1].signature(), runs[0].signature());
  EXPECT_EQ(runs[1].rollouts, runs[0].rollouts);
  EXPECT_EQ(runs[1].draws, runs[0].draws);
  const auto cfg = selfplay::search_bench_config<TicTacToe>(1);
  EXPECT_EQ(cfg.engines[1].type, config::EngineType::kAlphaBeta);
  EXPECT_EQ(selfplay::search_bench_config<EwnGame>(1).engines[1].type,
            config::EngineType::kExpectimax);
}

// The host workload in the library: it plays leaves on the null backend, asks rollouts_per_leaf
// of each (a move's last leaf may ask fewer, when the move's budget runs out), and counts the
// host's thread time.
TEST(Bench, HostWorkloadCountsLeavesRolloutsAndThreadTime) {
  for (uint32_t rpl : {1u, 8u}) {
    auto null = rollout::make_backend<TicTacToe>(
        "null", selfplay::host_bench_backend_options<TicTacToe>(rpl));
    const selfplay::HostBenchResult r = selfplay::run_host_bench<TicTacToe>(*null, 2, rpl, 0.05);
    EXPECT_EQ(r.threads, 2);
    EXPECT_GT(r.batches, 0u);
    EXPECT_GT(r.leaves, 0u);
    EXPECT_LE(r.rollouts, r.leaves * rpl);
    EXPECT_GT(r.rollouts, r.leaves * rpl / 2) << rpl;
    if (rpl == 1) {
      EXPECT_EQ(r.rollouts, r.leaves);
    }
    EXPECT_GT(r.host_thread_ms, 0.0);
    EXPECT_GT(r.leaves_per_thread_second(), 0.0);
    EXPECT_GE(r.seconds, 0.05);
    const auto cfg = selfplay::host_bench_config<TicTacToe>(2, rpl);
    for (const auto& e : cfg.engines) {
      EXPECT_EQ(e.type, config::EngineType::kMcts);
      EXPECT_EQ(e.rollouts_per_leaf, rpl);
    }
  }
}

// `bench --host`: rows at 1, 8 and 64 rollouts a leaf on one thread and on --threads, in the
// table and in the CSV.
TEST(Bench, HostTableHasEveryRowAndItsCsv) {
  test::TempDir dir;
  const std::string csv = dir.file("host.csv");
  const test::CommandResult r = test::run_command(
      std::string("'") + SELFPLAY_BINARY +
      "' bench --game checkers --host --fanout 4 --at-once 96 --threads 2 --seconds 0.05 --csv '" +
      csv + "' 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::regex row(R"(^ +([12]) +(1|8|64) +[0-9.e+]+ +[0-9.e+]+ +[0-9.e+]+ +[0-9]+%$)");
  std::istringstream lines(r.out);
  std::vector<std::string> seen;
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, row)) seen.push_back(m[1].str() + "/" + m[2].str());
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"1/1", "1/8", "1/64", "2/1", "2/8", "2/64"})) << r.out;
  const std::string text = test::read_text(csv);
  std::istringstream rows(text);
  std::string header;
  std::getline(rows, header);
  EXPECT_EQ(header,
            "game,threads,rollouts_per_leaf,fanout,at_once,leaves,rollouts,batches,seconds,"
            "host_thread_s,leaves_per_s,leaves_per_host_thread_s");
  int n = 0;
  for (std::string line; std::getline(rows, line); ++n) {
    EXPECT_EQ(line.rfind("checkers,", 0), 0u) << line;
    EXPECT_NE(line.find(",4,96,"), std::string::npos) << line;  // the fanout and at_once columns
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), 11) << line;
  }
  EXPECT_EQ(n, 6) << text;
  EXPECT_NE(r.out.find("fanout 4, 96 games at once"), std::string::npos) << r.out;
  EXPECT_NE(test::run_command(std::string("'") + SELFPLAY_BINARY +
                              "' bench --host --search-only 2>/dev/null")
                .code,
            0);
  EXPECT_EQ(test::run_command(std::string("'") + SELFPLAY_BINARY +
                              "' bench --host --at-once 0 2>/dev/null")
                .code,
            2);
}

}  // namespace
}  // namespace sp
