// Checkers endgame databases (issue 46 item 1): the perfect index, retrograde analysis against an
// independent solver, verify catching a wrong value, damaged files refused, a stopped or killed
// build resumed to the same files, and the CLI.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "games/checkers/egtb/build.hpp"
#include "games/checkers/egtb/index.hpp"
#include "games/checkers/egtb/tables.hpp"
#include "games/checkers/egtb/verify.hpp"
#include "games/checkers/host.hpp"
#include "games/checkers/notation.hpp"
#include "host/engines/search/alphabeta.hpp"
#include "host/engines/search/mcts.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/engine_factory.hpp"
#include "tests/test_util.hpp"

namespace sp::checkers::egtb {
namespace {

ParallelFor threads_for(int threads) {
  return [threads](size_t items, const std::function<void(size_t)>& fn) {
    std::atomic<size_t> next{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&] {
        for (size_t i; (i = next.fetch_add(1)) < items;) fn(i);
      });
    for (auto& t : pool) t.join();
  };
}

// Every material of n pieces, one side alone included.
std::vector<Material> all_materials(int n) {
  std::vector<Material> out;
  for (int bk = 0; bk <= n; ++bk)
    for (int bm = 0; bk + bm <= n; ++bm)
      for (int wk = 0; bk + bm + wk <= n; ++wk) out.push_back({bk, bm, wk, n - bk - bm - wk});
  return out;
}

bool boards_ok(const Boards& b, const Material& m) {
  return (b.black & b.white) == 0 && (b.kings & ~(b.black | b.white)) == 0 &&
         (b.black & ~b.kings & kRow7) == 0 && (b.white & ~b.kings & kRow0) == 0 &&
         material_of(b) == m;
}

TEST(EgtbIndex, RankAndUnrankAreInverseOnEveryPositionOfUpToThreePieces) {
  for (int n = 1; n <= 3; ++n)
    for (const Material& m : all_materials(n)) {
      const SignatureIndex index(m);
      for (uint64_t i = 0; i < index.size(); ++i) {
        const Boards b = index.unrank(i);
        ASSERT_TRUE(boards_ok(b, m)) << table_file_name(m) << " index " << i;
        ASSERT_EQ(index.rank(b), i) << table_file_name(m);
      }
    }
}

TEST(EgtbIndex, RankAndUnrankAreInverseOnRandomIndicesOfFiveAndSixPieces) {
  std::mt19937_64 rng(46);
  for (int n : {5, 6})
    for (const Material& m : all_materials(n)) {
      const SignatureIndex index(m);
      for (int k = 0; k < 200; ++k) {
        const uint64_t i = k == 0 ? 0 : k == 1 ? index.size() - 1 : rng() % index.size();
        const Boards b = index.unrank(i);
        ASSERT_TRUE(boards_ok(b, m)) << table_file_name(m) << " index " << i;
        ASSERT_EQ(index.rank(b), i) << table_file_name(m);
      }
    }
}

// The index's sizes are the number of placements counted square by square.
TEST(EgtbIndex, SizesEqualABruteForceCountAndThePublishedCounts) {
  for (const Material& m : all_materials(2)) {
    uint64_t n = 0;
    for (int a = 0; a < 32; ++a)
      for (int b = 0; b < 32; ++b) {
        if (a == b) continue;
        // Piece kinds in a fixed order: black kings, black men, white kings, white men.
        int kinds[4] = {m.black_kings, m.black_men, m.white_kings, m.white_men};
        int first = 0;
        while (kinds[first] == 0) ++first;
        --kinds[first];
        int second = 0;
        while (kinds[second] == 0) ++second;
        if (first == second && b < a) continue;  // the same kind twice: one order only
        const auto ok = [](int kind, int sq) {
          return !(kind == 1 && (1u << sq) & kRow7) && !(kind == 3 && (1u << sq) & kRow0);
        };
        n += ok(first, a) && ok(second, b);
      }
    EXPECT_EQ(SignatureIndex(m).size(), n) << table_file_name(m);
  }
  const uint64_t published[] = {0, 120, 6972, 261224, 7092774, 148688232, 2503611964};
  for (int n = 1; n <= 6; ++n) EXPECT_EQ(configurations(n), published[n]) << n << " pieces";
}

TEST(EgtbIndex, ColourFlipIsAnInvolutionThatSwapsTheSides) {
  State s = parse_position("W:WK3,18:B7,K30");
  const Boards b = canonical(s);
  EXPECT_EQ(material_of(b), (Material{1, 1, 1, 1}));
  EXPECT_EQ(reverse_bits(reverse_bits(0x12345678u)), 0x12345678u);
  EXPECT_EQ(reverse_bits(1u), 0x80000000u);
  // White's man on 18 (0-based 17) becomes Black's on 32 - 18 = 14 (0-based 14).
  EXPECT_TRUE(b.black & (1u << 14));
}

// Values by naive value iteration over every position of two sides with at most `pieces`
// pieces, from the move generator alone (no index, no predecessors).
struct Solved {
  std::unordered_map<uint64_t, Value> values;  // key: black, white, kings, side
};

uint64_t key_of(const State& s) {
  // 32 squares x 2 bits (empty, black man/king, white) is too much for one word with kings:
  // black | white << 32 names the squares, kings hashed in through a second map level below.
  return (static_cast<uint64_t>(s.pieces[0]) | static_cast<uint64_t>(s.pieces[1]) << 32) ^
         (static_cast<uint64_t>(s.kings) * 0x9E3779B97F4A7C15ull) ^ s.side;
}

struct Node {
  State s;
  std::vector<int> children;  // -1: a child whose side to move has no piece (a loss for it)
  Value value = kUnknown;
};

// Every state reachable from `roots`, solved by value iteration; at most `cap` states (returns
// false beyond).
bool solve_graph(const std::vector<State>& roots, size_t cap, std::vector<Node>* nodes,
                 std::unordered_map<uint64_t, std::vector<int>>* by_key) {
  const auto find = [&](const State& s) -> int {
    auto it = by_key->find(key_of(s));
    if (it == by_key->end()) return -2;
    for (int i : it->second)
      if (same_position((*nodes)[i].s, s)) return i;
    return -2;
  };
  const auto add = [&](const State& s) {
    const int at = static_cast<int>(nodes->size());
    nodes->push_back({s, {}, kUnknown});
    (*by_key)[key_of(s)].push_back(at);
    return at;
  };
  for (const State& r : roots)
    if (find(r) == -2) add(r);
  for (size_t i = 0; i < nodes->size(); ++i) {
    if (nodes->size() > cap) return false;
    const State s = (*nodes)[i].s;
    MoveList list;
    generate_moves(s, list);
    for (int k = 0; k < list.size; ++k) {
      State c = s;
      apply(c, list.moves[k]);
      c.ply = 0;
      c.quiet = 0;
      if (own_pieces(c) == 0) {
        (*nodes)[i].children.push_back(-1);
        continue;
      }
      int at = find(c);
      if (at == -2) at = add(c);
      (*nodes)[i].children.push_back(at);
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (Node& n : *nodes) {
      if (n.value != kUnknown) continue;
      bool win = false, all_won = true;
      for (int c : n.children) {
        const Value v = c == -1 ? kLoss : (*nodes)[c].value;
        if (v == kLoss) win = true;
        if (v != kWin) all_won = false;
      }
      if (win || all_won) {
        n.value = win ? kWin : kLoss;
        changed = true;
      }
    }
  }
  for (Node& n : *nodes)
    if (n.value == kUnknown) n.value = kDraw;
  return true;
}

// The databases of up to four pieces, which every test of this suite reads and none writes
// (damage goes to copies). ctest runs each test in a process of its own, so they are built once
// per test binary and shared: in the temporary folder, named by the binary's size and time, built
// in a folder of this process and renamed into place, so that a test never reads a build in
// progress. Two tests starting together may both build; the second rename fails and its copy is
// dropped. (Under the sanitizers a build takes 10-20 s, and there are over 20 tests.)
class EgtbBuilt : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    namespace fs = std::filesystem;
    struct stat self {};
    ASSERT_EQ(stat("/proc/self/exe", &self), 0);
    const std::string shared =
        (fs::temp_directory_path() /
         ("selfplay_egtb4_" + std::to_string(self.st_size) + "_" +
          std::to_string(self.st_mtim.tv_sec) + "_" + std::to_string(self.st_mtim.tv_nsec)))
            .string();
    dir_ = new std::string(shared);
    if (fs::is_directory(shared)) return;
    const std::string building = shared + ".building-" + std::to_string(::getpid());
    fs::remove_all(building);
    fs::create_directories(building);
    EndgameBuildOptions o;
    o.dir = building;
    o.pieces = 4;
    o.parallel_for = threads_for(2);
    const EndgameBuildResult r = build(o);
    ASSERT_FALSE(r.stopped);
    ASSERT_EQ(r.tables_kept, 0);
    std::error_code ec;
    fs::rename(building, shared, ec);
    if (ec) {  // another test's build got there first
      ASSERT_TRUE(fs::is_directory(shared)) << ec.message();
      fs::remove_all(building, ec);
    }
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string* dir_;
};
std::string* EgtbBuilt::dir_ = nullptr;

TEST_F(EgtbBuilt, EveryPositionOfUpToThreePiecesEqualsAnIndependentSolver) {
  const Tables tables(*dir_);
  std::vector<State> roots;
  for (int n = 2; n <= 3; ++n)
    for (const Material& m : materials_of(n)) {
      const SignatureIndex index(m);
      for (uint64_t i = 0; i < index.size(); ++i)
        for (int side = 0; side < 2; ++side) {
          State s = state_of(index.unrank(i));
          if (side == 1) {
            // The same boards with White to move.
            s.side = 1;
          }
          roots.push_back(s);
        }
    }
  std::vector<Node> nodes;
  std::unordered_map<uint64_t, std::vector<int>> by_key;
  ASSERT_TRUE(solve_graph(roots, 1u << 22, &nodes, &by_key));
  size_t compared = 0, wins = 0, draws = 0;
  for (const Node& n : nodes) {
    ASSERT_EQ(tables.probe(n.s), n.value) << to_string(n.s);
    ++compared;
    wins += n.value == kWin;
    draws += n.value == kDraw;
  }
  EXPECT_GE(compared, 2 * 199520u);
  EXPECT_GT(wins, 0u);
  EXPECT_GT(draws, 0u);
}

// Positions compared: each full-width solve takes seconds under the sanitizers (12 took 140 s
// there, 28 s in Release), whose point is memory safety, which a few show as well as many.
#ifdef __SANITIZE_ADDRESS__
constexpr int kRandomFourPiecePositions = 3;
#else
constexpr int kRandomFourPiecePositions = 12;
#endif

TEST_F(EgtbBuilt, RandomFourPiecePositionsEqualAFullWidthSolveOfWhatFollowsThem) {
  const Tables tables(*dir_);
  std::mt19937_64 rng(4646);
  const std::vector<Material> materials = materials_of(4);
  int compared = 0;
  for (int attempt = 0; attempt < 400 && compared < kRandomFourPiecePositions; ++attempt) {
    const Material m = materials[rng() % materials.size()];
    if (m.black_kings + m.white_kings > 2) continue;  // kings reach too much for a test
    const SignatureIndex index(m);
    State s = state_of(index.unrank(rng() % index.size()));
    s.side = static_cast<uint8_t>(rng() & 1);
    std::vector<Node> nodes;
    std::unordered_map<uint64_t, std::vector<int>> by_key;
    if (!solve_graph({s}, 600000, &nodes, &by_key)) continue;
    EXPECT_EQ(tables.probe(s), nodes[0].value) << to_string(s);
    ++compared;
  }
  EXPECT_GE(compared, kRandomFourPiecePositions);
}

TEST_F(EgtbBuilt, VerifyFindsEveryTableConsistent) {
  const EndgameVerifyResult r = verify(*dir_, threads_for(2), nullptr);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_EQ(r.tables, static_cast<int>(materials_of(2).size() + materials_of(3).size() +
                                       materials_of(4).size()));
}

TEST_F(EgtbBuilt, ProbeOfWhiteToMoveIsTheFlippedPosition) {
  const Tables tables(*dir_);
  // Two kings against one in the open: the two kings win, whoever moves.
  EXPECT_EQ(tables.probe(parse_position("B:WK32:BK14,K15")), kWin);
  EXPECT_EQ(tables.probe(parse_position("W:WK32:BK14,K15")), kLoss);
  EXPECT_EQ(tables.probe(parse_position("W:WK14,K15:BK32")), kWin);
  // One king each: a draw unless a capture comes at once.
  EXPECT_EQ(tables.probe(parse_position("B:WK1:BK32")), kDraw);
  EXPECT_EQ(tables.probe(parse_position("B:WK19:BK15")), kWin);  // K15 takes 19 at once
  // Outside the databases: five pieces.
  EXPECT_EQ(tables.probe(parse_position("B:WK1,K2,K3:BK30,K31")), kUnknown);
  EXPECT_EQ(tables.max_pieces(), 4);
}

// A copy of the databases in a fresh folder.
std::string copy_of(const std::string& dir, const test::TempDir& tmp, const std::string& name) {
  const std::string out = tmp.file(name);
  std::filesystem::copy(dir, out);
  return out;
}

TEST_F(EgtbBuilt, AWrongValueWithAValidChecksumIsFoundByVerify) {
  test::TempDir tmp;
  const std::string dir = copy_of(*dir_, tmp, "db");
  const Material m{1, 1, 0, 2};
  const SignatureIndex index(m);
  std::vector<uint8_t> values(index.size());
  // The stored values, one changed (a win made a loss, or a loss or draw made a win).
  {
    const TableFile file(dir + "/" + table_file_name(m), m);
    for (uint64_t i = 0; i < index.size(); ++i) values[i] = file.value(i);
  }
  const uint64_t changed = index.size() / 3;
  values[changed] = values[changed] == kWin ? kLoss : kWin;
  std::vector<uint8_t> plies(index.size());
  {
    const TableFile levels(dir + "/" + plies_file_name(m), m, TableFile::Kind::kPlies);
    for (uint64_t i = 0; i < index.size(); ++i) plies[i] = static_cast<uint8_t>(levels.plies(i));
  }
  write_table(dir, m, values, plies);
  const EndgameVerifyResult r = verify(dir, threads_for(2), nullptr);
  EXPECT_GE(r.errors, 1u);
  ASSERT_FALSE(r.first_errors.empty());
  bool named = false;
  for (const std::string& e : r.first_errors)
    named |=
        e.find(table_file_name(m) + " index " + std::to_string(changed) + " ") != std::string::npos;
  EXPECT_TRUE(named) << r.first_errors[0];
}

TEST_F(EgtbBuilt, WrongPliesAreFoundByVerify) {
  test::TempDir tmp;
  const std::string dir = copy_of(*dir_, tmp, "db");
  const Material m{2, 0, 1, 0};
  const SignatureIndex index(m);
  std::vector<uint8_t> values(index.size()), plies(index.size());
  {
    const TableFile file(dir + "/" + table_file_name(m), m);
    const TableFile levels(dir + "/" + plies_file_name(m), m, TableFile::Kind::kPlies);
    for (uint64_t i = 0; i < index.size(); ++i) {
      values[i] = file.value(i);
      plies[i] = static_cast<uint8_t>(levels.plies(i));
    }
  }
  // A won position of a level above 1 claimed one level lower than its best move's successor.
  uint64_t changed = 0;
  while (!(values[changed] == kWin && plies[changed] > 2)) ++changed;
  plies[changed] = 1;
  write_table(dir, m, values, plies);
  const EndgameVerifyResult r = verify(dir, threads_for(2), nullptr);
  EXPECT_GE(r.errors, 1u);
  bool named = false;
  for (const std::string& e : r.first_errors)
    named |= e.find(table_file_name(m) + " index " + std::to_string(changed) + " ") !=
                 std::string::npos &&
             e.find("plies") != std::string::npos;
  EXPECT_TRUE(named) << (r.first_errors.empty() ? "" : r.first_errors[0]);
}

TEST_F(EgtbBuilt, DamagedFilesAreRefusedWithTheirName) {
  test::TempDir tmp;
  const Material m{0, 2, 1, 1};
  const std::string name = table_file_name(m);
  const auto expect_refused = [&](const std::string& dir, const std::string& why) {
    try {
      const Tables tables(dir);
      FAIL() << "a damaged table was opened: " << why;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  {
    const std::string dir = copy_of(*dir_, tmp, "flipped");
    std::fstream f(dir + "/" + name, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(64 + 1000);
    char c;
    f.read(&c, 1);
    f.seekp(64 + 1000);
    c = static_cast<char>(c ^ 0x0C);
    f.write(&c, 1);
    f.close();
    expect_refused(dir, "checksum");
  }
  {
    const std::string dir = copy_of(*dir_, tmp, "cut");
    std::filesystem::resize_file(dir + "/" + name,
                                 std::filesystem::file_size(dir + "/" + name) - 10);
    expect_refused(dir, "cut short");
  }
  {
    const std::string dir = copy_of(*dir_, tmp, "foreign");
    std::ofstream(dir + "/" + name, std::ios::binary) << std::string(200, 'x');
    expect_refused(dir, "not a selfplay checkers endgame database");
  }
  {
    const std::string dir = copy_of(*dir_, tmp, "renamed");
    std::filesystem::rename(dir + "/" + name, dir + "/" + table_file_name({0, 2, 2, 0}));
    std::filesystem::copy_file(dir + "/" + table_file_name({0, 1, 1, 1}), dir + "/" + name);
    expect_refused(dir, "another material");
  }
}

// Every file of the folder, by name, byte for byte.
std::map<std::string, std::string> files_of(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    out[e.path().filename().string()] = test::read_text(e.path());
  return out;
}

TEST_F(EgtbBuilt, AStoppedBuildResumesToTheSameFiles) {
  test::TempDir tmp;
  std::atomic<bool> stop{false};
  EndgameBuildOptions o;
  o.dir = tmp.file("db");
  o.pieces = 4;
  o.parallel_for = threads_for(2);
  o.stop = &stop;
  int seen = 0;
  o.progress = [&](const EndgameProgress&) {
    if (++seen == 20) stop = true;
  };
  const EndgameBuildResult first = build(o);
  EXPECT_TRUE(first.stopped);
  EXPECT_GE(first.tables_built, 20);
  // What a kill in the middle of a write leaves.
  std::ofstream(o.dir + "/" + table_file_name({0, 2, 0, 2}) + ".tmp") << "half a table";
  stop = false;
  o.progress = nullptr;
  const EndgameBuildResult second = build(o);
  EXPECT_FALSE(second.stopped);
  EXPECT_EQ(second.tables_kept, first.tables_built);
  EXPECT_EQ(
      second.tables_kept + second.tables_built,
      static_cast<int>(materials_of(2).size() + materials_of(3).size() + materials_of(4).size()));
  EXPECT_EQ(files_of(o.dir), files_of(*dir_));
}

TEST_F(EgtbBuilt, OneThreadBuildsTheSameFiles) {
  test::TempDir tmp;
  EndgameBuildOptions o;
  o.dir = tmp.file("db");
  o.pieces = 4;
  EXPECT_FALSE(build(o).stopped);
  EXPECT_EQ(files_of(o.dir), files_of(*dir_));
}

std::string selfplay() { return SELFPLAY_BINARY; }

TEST_F(EgtbBuilt, TheCommandBuildsVerifiesAndProbes) {
  test::TempDir tmp;
  const std::string dir = tmp.file("db");
  const auto built =
      test::run_command(selfplay() + " egtb build --pieces 3 --out " + dir + " --threads 2 2>&1");
  ASSERT_EQ(built.code, 0) << built.out;
  EXPECT_NE(built.out.find("16 tables (16 built, 0 kept)"), std::string::npos) << built.out;
  EXPECT_NE(built.out.find("3 pieces: 261224"), std::string::npos) << built.out;
  EXPECT_NE(built.out.find("ETA"), std::string::npos) << built.out;
  const auto again =
      test::run_command(selfplay() + " egtb build --pieces 3 --out " + dir + " 2>&1");
  ASSERT_EQ(again.code, 0) << again.out;
  EXPECT_NE(again.out.find("(0 built, 16 kept)"), std::string::npos) << again.out;
  const auto verified = test::run_command(selfplay() + " egtb verify --dir " + dir);
  EXPECT_EQ(verified.code, 0) << verified.out;
  EXPECT_NE(verified.out.find("verified 16 tables, 199520 positions: OK"), std::string::npos)
      << verified.out;
  const auto probed =
      test::run_command(selfplay() + " egtb probe --dir " + dir + " --position 'B:WK32:BK14,K15'");
  EXPECT_EQ(probed.code, 0) << probed.out;
  EXPECT_NE(probed.out.find(": win for the side to move"), std::string::npos) << probed.out;
  EXPECT_NE(probed.out.find("15-19: win"), std::string::npos) << probed.out;
  // Another game, a damaged file, a missing folder: clear errors, exit code 2.
  const auto gomoku =
      test::run_command(selfplay() + " egtb verify --game gomoku --dir " + dir + " 2>&1");
  EXPECT_EQ(gomoku.code, 2) << gomoku.out;
  EXPECT_NE(gomoku.out.find("has no endgame databases"), std::string::npos) << gomoku.out;
  std::filesystem::resize_file(dir + "/checkers-0101.egtb", 70);
  const auto damaged = test::run_command(selfplay() + " egtb verify --dir " + dir + " 2>&1");
  EXPECT_EQ(damaged.code, 2) << damaged.out;
  EXPECT_NE(damaged.out.find("checkers-0101.egtb"), std::string::npos) << damaged.out;
  const auto missing =
      test::run_command(selfplay() + " egtb verify --dir " + tmp.file("none") + " 2>&1");
  EXPECT_EQ(missing.code, 2) << missing.out;
  EXPECT_NE(missing.out.find("is not a folder"), std::string::npos) << missing.out;
}

TEST_F(EgtbBuilt, AKilledBuildResumesToTheSameFiles) {
  test::TempDir tmp;
  const std::string dir = tmp.file("db");
  {
    test::Child child(
        {selfplay(), "egtb", "build", "--pieces", "4", "--out", dir, "--threads", "1"});
    // Kill it once the first four-piece table is written.
    for (int i = 0; i < 6000; ++i) {
      if (std::filesystem::exists(dir + "/" + table_file_name(materials_of(4)[0]))) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    child.signal(SIGKILL);
    EXPECT_EQ(child.wait(), 128 + SIGKILL);
  }
  const size_t before = files_of(dir).size();
  EXPECT_GT(before, 0u);
  const auto resumed =
      test::run_command(selfplay() + " egtb build --pieces 4 --out " + dir + " --threads 2 2>&1");
  ASSERT_EQ(resumed.code, 0) << resumed.out;
  EXPECT_NE(resumed.out.find("already built"), std::string::npos) << resumed.out;
  EXPECT_EQ(files_of(dir), files_of(*dir_));
}

}  // namespace
}  // namespace sp::checkers::egtb

namespace sp::checkers::egtb {
namespace {

std::shared_ptr<const EndgameProbe<State>> probe_of(const std::string& dir) {
  return GameHost<CheckersGame>::egtb_open(dir);
}

// The databases' value of the position after m, for the side that played m.
Value value_after(const Tables& tables, const State& s, Move m) {
  State child = s;
  apply(child, m);
  const Value v = tables.probe(child);
  return v == kWin ? kLoss : v == kLoss ? kWin : v;
}

// A covered root: the search keeps the moves that preserve the win and probes nothing below.
TEST_F(EgtbBuilt, AlphaBetaWithTheDatabasesKeepsEveryWinAgainstRandomReplies) {
  const Tables tables(*dir_);
  std::mt19937_64 rng(7);
  int games = 0;
  for (const char* fen : {"B:WK23:BK14,K15", "W:WK10,K11:BK28", "B:W25,26:BK1,K5"}) {
    State s = parse_position(fen);
    ASSERT_EQ(tables.probe(s), kWin) << fen;
    ++games;
    const int winner = s.side;
    search::AlphaBetaOptions o;
    o.depth = 3;
    search::AlphaBeta<CheckersGame> ab([](const State&) { return 0; }, Rules{}, o);
    ab.set_endgame(probe_of(*dir_));
    for (int ply = 0; ply < 60 && !is_over(s); ++ply) {
      if (s.side == winner) {
        const auto st = ab.search(s);
        EXPECT_EQ(st.endgame_hits, 0u);  // a covered root probes nothing below
        ASSERT_EQ(value_after(tables, s, st.best), kWin)
            << fen << " ply " << ply << ": " << to_string(s);
        apply(s, st.best);
      } else {
        MoveList list;
        generate_moves(s, list);
        apply(s, list.moves[rng() % list.size]);
      }
      s.ply = 0;
    }
    // The levels lead the winner to its conversions: the win comes, whatever the replies.
    EXPECT_TRUE(is_over(s) && checkers::winner(s) == winner) << fen << ": " << to_string(s);
  }
  EXPECT_EQ(games, 3);
}

// A root the databases do not cover: the positions below that they cover score from them.
TEST_F(EgtbBuilt, AlphaBetaProbesBelowARootOfMorePieces) {
  // Five pieces, Black must take 18 (14x23): every reply position has four.
  const State root = parse_position("B:W18,K30,K31:BK14,K15");
  search::AlphaBetaOptions o;
  o.depth = 2;
  search::AlphaBeta<CheckersGame> ab([](const State&) { return 0; }, Rules{}, o);
  ab.set_endgame(probe_of(*dir_));
  const auto st = ab.search(root);
  EXPECT_GT(st.endgame_hits, 0u);
  const Tables tables(*dir_);
  State child = root;
  apply(child, st.best);
  const Value v = tables.probe(child);
  EXPECT_NE(v, kUnknown);
  // The score says what the databases say (from the root's side).
  if (v == kLoss) {
    EXPECT_GT(st.value, search::AlphaBeta<CheckersGame>::kMaxEval);
  } else if (v == kDraw) {
    EXPECT_EQ(st.value, 0);
  } else {
    EXPECT_LT(st.value, -search::AlphaBeta<CheckersGame>::kMaxEval);
  }
}

// Databases that do not cover a position change nothing: a search of a position of more pieces
// whose captures lead to no material of the folder is the search without databases.
TEST_F(EgtbBuilt, DatabasesThatCoverNothingOfTheSearchChangeNothing) {
  test::TempDir tmp;
  const std::string dir = tmp.file("kings");
  std::filesystem::create_directories(dir);
  // Only kings against kings: a search among men never meets them within 4 plies.
  for (const char* name : {"checkers-1010.egtb", "checkers-1010.plies"})
    std::filesystem::copy_file(*dir_ + "/" + name, dir + "/" + name);
  const State root = parse_position("B:W18,21,22,25,K30:B5,6,9,10,14");
  search::AlphaBetaOptions o;
  o.depth = 4;
  const auto eval = [](const State& s) {
    return 100 * (count(own_pieces(s)) - count(opponent_pieces(s)));
  };
  search::AlphaBeta<CheckersGame> with(eval, Rules{}, o), without(eval, Rules{}, o);
  with.set_endgame(probe_of(dir));
  const auto a = with.search(root), b = without.search(root);
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.value, b.value);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.endgame_hits, 0u);
  // Two pieces, but a material the folder lacks (a man against a king; the man cannot crown
  // within the search): searched as without.
  const State absent = parse_position("B:WK30:B5");
  search::AlphaBeta<CheckersGame> with2(eval, Rules{}, o), without2(eval, Rules{}, o);
  with2.set_endgame(probe_of(dir));
  const auto c = with2.search(absent), d = without2.search(absent);
  EXPECT_EQ(c.best, d.best);
  EXPECT_EQ(c.value, d.value);
  EXPECT_EQ(c.nodes, d.nodes);
  EXPECT_EQ(c.endgame_hits, 0u);
  // With every table of up to 4 pieces the same search does probe (the test can fail).
  search::AlphaBeta<CheckersGame> full(eval, Rules{}, o);
  full.set_endgame(probe_of(*dir_));
  const State few = parse_position("B:W18,K30,K31:BK14,K15");
  EXPECT_GT(full.search(few).endgame_hits, 0u);
}

// Drives one MCTS search to its end, every leaf answered with draws; returns the leaves sent.
size_t run_mcts(search::Mcts<CheckersGame>& tree, const State& root) {
  tree.begin(root, {});
  std::vector<rollout::Leaf<CheckersGame>> leaves;
  std::vector<rollout::LeafStats> stats;
  size_t sent = 0;
  for (int round = 0; round < 100000 && !tree.finished(); ++round) {
    leaves.clear();
    tree.select_leaves(leaves);
    stats.assign(leaves.size(), rollout::LeafStats{});
    for (size_t i = 0; i < leaves.size(); ++i) {
      stats[i].rollouts = leaves[i].rollouts;
      stats[i].draws = leaves[i].rollouts;
    }
    sent += leaves.size();
    tree.backup(stats);
  }
  EXPECT_TRUE(tree.finished());
  return sent;
}

TEST_F(EgtbBuilt, MctsSolvesCoveredNodesBelowAnUncoveredRootAndKeepsWinsAtACoveredOne) {
  const Tables tables(*dir_);
  search::MctsParams p;
  p.rollouts_per_move = 400;
  p.rollouts_per_leaf = 4;
  {
    // Five pieces, every move a capture into four: all children solved, no leaf sent.
    search::Mcts<CheckersGame> tree(p, Rules{}, {});
    tree.set_endgame(probe_of(*dir_));
    const State root = parse_position("B:W18,K30,K31:BK14,K15");
    EXPECT_EQ(run_mcts(tree, root), 0u);
    search::Mcts<CheckersGame> plain(p, Rules{}, {});
    EXPECT_GT(run_mcts(plain, root), 0u);
  }
  {
    // A covered won root: the databases' move at once (the one nearest its conversion), no leaf.
    const State root = parse_position("B:WK23:BK14,K15");  // 14-18 and 15-19 only draw
    search::Mcts<CheckersGame> tree(p, Rules{}, {});
    tree.set_endgame(probe_of(*dir_));
    EXPECT_EQ(run_mcts(tree, root), 0u);
    EXPECT_EQ(value_after(tables, root, tree.best_move()), kWin);
    MoveList all;
    generate_moves(root, all);
    int winning = 0;
    for (int i = 0; i < all.size; ++i) winning += value_after(tables, root, all.moves[i]) == kWin;
    EXPECT_LT(winning, all.size);  // some moves throw the win away: the test can fail
  }
}

TEST_F(EgtbBuilt, TheEngineKeyOpensTheDatabasesAndRefusesAFolderWithout) {
  test::TempDir tmp;
  const std::string base =
      "game: checkers\nengines:\n  player0:\n    type: alphabeta\n    depth: 2\n";
  const auto cfg = config::load_campaign_config_text<CheckersGame>(
      base + "    egtb: " + *dir_ + "\n", tmp.file("c.yaml"));
  ASSERT_TRUE(cfg.engines[0].endgame);
  const auto engine = selfplay::make_engine<CheckersGame>(cfg.engines[0], cfg.rules.rules, 0);
  EXPECT_NE(engine->describe().find("endgame databases"), std::string::npos) << engine->describe();
  std::filesystem::create_directories(tmp.file("empty"));
  try {
    config::load_campaign_config_text<CheckersGame>(base + "    egtb: empty\n", tmp.file("c.yaml"));
    FAIL() << "a folder without databases was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("egtb"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no endgame database"), std::string::npos) << e.what();
  }
  // MCTS takes the key too; flat does not (the key does not apply).
  const auto mcts = config::load_campaign_config_text<CheckersGame>(
      "game: checkers\nengines:\n  player0:\n    type: mcts\n    egtb: " + *dir_ + "\n",
      tmp.file("m.yaml"));
  EXPECT_TRUE(mcts.engines[0].endgame);
  EXPECT_THROW(
      config::load_campaign_config_text<CheckersGame>(
          "game: checkers\nengines:\n  player0:\n    type: flat\n    egtb: " + *dir_ + "\n",
          tmp.file("f.yaml")),
      InputError);
}

}  // namespace
}  // namespace sp::checkers::egtb
