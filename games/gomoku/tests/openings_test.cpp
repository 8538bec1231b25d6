// Gomoku opening files (games/gomoku/openings.hpp, configs/gomoku/openings.pos): the `pos` format
// counts rows from the top as Gomocup tools do; malformed files are refused with file, line and
// column; files round-trip through the writer; the shipped file is built in, parses, and every
// opening is legal, not won and listed once (also up to symmetry), and a sample re-checks with
// the generator's search; `opening: file` gives pair k opening k mod N with the colours swapped,
// from the shipped file or a user file named relative to the config, whose faults are config
// errors; a match from a user file stores its openings in pair order and verifies; the shipped
// match config plays the shipped openings.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/text_lines.hpp"
#include "experiments/common/position_score.hpp"
#include "games/gomoku/host.hpp"
#include "games/gomoku/openings.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/play/selfplay/driver.hpp"
#include "host/records/verify.hpp"
#include "tests/config_docs.hpp"
#include "tests/test_util.hpp"

namespace sp::gomoku {
namespace {

using Host = GameHost<GomokuGame>;

std::string error_of(const std::string& text, const Rules& rules = {}) {
  try {
    parse_openings(text, "o.pos", rules);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The Gomocup convention, pinned: a square is a column letter from `a` at the left (Gomocup
// x = 0) and a row number from 1 at the top (Gomocup y = 0), as c-gomoku-cli reads `pos`
// openings (src/position.cpp, parse_opening_pos_linestr: x = letter - 'a', y = number - 1, in the
// protocol's coordinates, whose y = 0 is the top row). Its example file
// opening_examples/pos_freestyle_20x20.txt starts with d3e5f6d7.
TEST(GomokuOpenings, RowsCountFromTheTopAsGomocupToolsRead) {
  const OpeningFile f = parse_openings("d3e5f6d7\n", "example", Rules{20, WinRule::kFreestyle});
  ASSERT_EQ(f.openings.size(), 1u);
  const std::vector<Move> want = {{3, 2}, {4, 4}, {5, 5}, {3, 6}};
  EXPECT_EQ(f.openings[0].moves, want);
  const State s = opening_state(parse_openings("a1o15\n", "corners", Rules{}).openings[0], Rules{});
  EXPECT_TRUE(test_square(s.stones[0], 0)) << "a1 is Gomocup 0,0, the top-left corner";
  EXPECT_TRUE(test_square(s.stones[1], 14 * 15 + 14)) << "o15 is Gomocup 14,14";
  // The board the terminal draws puts row 1 at the top: its first board line holds a1's stone.
  const std::string board = Host::board_text(s);
  const size_t letters_end = board.find('\n');
  EXPECT_EQ(board.compare(letters_end + 1, 5, "  1 x"), 0) << board;
  EXPECT_EQ(to_string(Move{7, 7}), "h8") << "the centre of 15x15";
}

TEST(GomokuOpenings, FilesWithFaultsNameTheLineAndColumn) {
  struct Case {
    std::string text, want;
  };
  const std::vector<Case> corpus = {
      {"", "o.pos: no opening in the file"},
      {"# only a comment\n\n  \n", "o.pos: no opening in the file"},
      {"h8i9g7\nh8i9#g7\nh8 i9\n", "o.pos:3:3: write the squares of an opening without spaces"},
      {"h8i9g7\n  h8*9\n", "o.pos:2:5: expected a column letter"},
      {"h8z9\n", "o.pos:1:3: square z9 is not on the 15x15 board (columns a-o, rows 1-15)"},
      {"h8i9g7\nh8p9\n", "o.pos:2:3: square p9 is not on the 15x15 board (columns a-o, rows 1-15)"},
      {"h8i16\n", "o.pos:1:3: square i16 is not on the 15x15 board"},
      {"h8i25\n", "o.pos:1:4: row number above 20, the largest board"},
      {"h8i09\n", "o.pos:1:4: a row number has no leading zero"},
      {"h8i\n", "o.pos:1:4: expected a row number after the column letter"},
      {"h8i9g7i8h8\n", "o.pos:1:9: square h8 is placed twice (first at column 1)"},
      {"h8i9g7\r\ng7i9h8\n", "o.pos:2:1: the position of line 1 again"},
      {"a1o1b1o2c1o3d1o4e1\n", "o.pos:1:17: e1 makes a winning row for Black"},
      {"a1o1b1o2c1o3d1o4e1o5\n", "o.pos:1:17: e1 makes a winning row for Black"},
  };
  for (const Case& c : corpus)
    EXPECT_EQ(error_of(c.text).rfind(c.want, 0), 0u) << c.want << "\n-> " << error_of(c.text);
  // Under the standard rule six in a row does not win: an opening holding one is playable.
  const std::string six = "a1o1b1o3c1o5e1o7f1o9d1\n";
  EXPECT_EQ(error_of(six).rfind("o.pos:1:21: d1 makes a winning row for Black", 0), 0u)
      << error_of(six);
  EXPECT_EQ(error_of(six, Rules{15, WinRule::kStandard}), "");
  // Comments, blank lines, spaces around an opening, capitals and CRLF line ends read.
  const OpeningFile f =
      parse_openings("# openings\n\n  H8i9G7  # three\r\n\th8i9\n", "o.pos", Rules{});
  ASSERT_EQ(f.openings.size(), 2u);
  EXPECT_EQ(moves_text(f.openings[0].moves), "h8i9g7");
  EXPECT_EQ(f.openings[0].line, 3);
  EXPECT_EQ(f.openings[1].line, 4);
}

TEST(GomokuOpenings, WrittenFilesReadBackTheSame) {
  const std::vector<std::vector<Move>> openings = {
      {{7, 7}, {8, 8}, {6, 6}}, {{0, 0}}, {{14, 14}, {7, 7}, {3, 12}, {12, 3}}};
  const std::string text = write_openings(openings, "made by a test\n\nsecond paragraph");
  EXPECT_EQ(text, "# made by a test\n#\n# second paragraph\nh8i9g7\na1\no15h8d13m4\n");
  const OpeningFile f = parse_openings(text, "w.pos", Rules{});
  ASSERT_EQ(f.openings.size(), openings.size());
  for (size_t i = 0; i < openings.size(); ++i) EXPECT_EQ(f.openings[i].moves, openings[i]);
  EXPECT_EQ(write_openings({}, ""), "");
}

// A number the file's header states, from the text that follows it ("(\d+) kept").
double header_number(const std::string& header, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(header, m, std::regex(pattern))) return -1;
  return std::stod(m[1]);
}

TEST(GomokuOpenings, TheShippedFileIsBuiltInLegalUnwonAndUnique) {
  const std::string file = test::read_text(test::source_path("configs/gomoku/openings.pos"));
  EXPECT_EQ(file, shipped_openings_text()) << "rebuild after editing configs/gomoku/openings.pos";
  const OpeningFile& shipped = *shipped_openings();
  const size_t n = shipped.openings.size();
  EXPECT_GE(n, 200u);
  EXPECT_EQ(header_number(file, R"(The (\d+) kept)"), static_cast<double>(n));
  std::set<std::vector<int>> seen;  // up to the board's symmetries
  for (const Opening& o : shipped.openings) {
    ASSERT_GE(o.moves.size(), 3u);
    ASSERT_LE(o.moves.size(), 5u);
    State s = initial_state();
    for (const Move m : o.moves) {
      ASSERT_FALSE(is_over(s));
      EXPECT_LE(std::abs(m.x - 7), kOpeningRadius) << "line " << o.line;
      EXPECT_LE(std::abs(m.y - 7), kOpeningRadius) << "line " << o.line;
      MoveList legal;
      generate_moves(s, legal);
      ASSERT_TRUE(std::find(legal.moves, legal.moves + legal.size, m) != legal.moves + legal.size);
      apply(s, m);
    }
    EXPECT_FALSE(is_over(s)) << "line " << o.line;
    EXPECT_TRUE(state_ok(s));
    std::vector<int> best;
    for (int t = 0; t < 8; ++t) {
      std::array<std::vector<int>, 2> side;
      for (size_t i = 0; i < o.moves.size(); ++i) {
        int x = o.moves[i].x, y = o.moves[i].y;
        if (t & 1) x = 14 - x;
        if (t & 2) y = 14 - y;
        if (t & 4) std::swap(x, y);
        side[i % 2].push_back(y * 15 + x);
      }
      std::vector<int> key;
      for (auto& v : side) {
        std::sort(v.begin(), v.end());
        key.insert(key.end(), v.begin(), v.end());
        key.push_back(-1);
      }
      if (best.empty() || key < best) best = key;
    }
    EXPECT_TRUE(seen.insert(best).second) << "line " << o.line << " repeats an earlier opening";
  }
}

// The generator's decision for the first opening of the file, re-made with the search at the
// depth and threshold the header names.
TEST(GomokuOpenings, TheFirstShippedOpeningReChecksWithTheGeneratorsSearch) {
  const std::string file(shipped_openings_text());
  const double depth = header_number(file, R"(--depth (\d+))");
  const double threshold = header_number(file, R"(--threshold ([0-9.]+))");
  ASSERT_GT(depth, 0);
  ASSERT_GE(threshold, 0);
  const eval::Weights weights =
      eval::load_weights<GomokuGame>(test::source_path("configs/gomoku/weights/classic.yaml"));
  experiments::PositionScorer<GomokuGame> scorer(weights, Rules{}, static_cast<int>(depth));
  const Opening& first = shipped_openings()->openings.front();
  const experiments::PositionScore score = scorer.score(opening_state(first, Rules{}));
  EXPECT_TRUE(experiments::keeps(score, threshold))
      << moves_text(first.moves) << " scores " << score.black;
  EXPECT_EQ(score.depth, static_cast<int>(depth));
}

TEST(GomokuOpenings, OpeningFileGivesPairKOpeningKModNWithTheColoursSwapped) {
  const auto cfg = config::load_campaign_config_text<GomokuGame>(
      "game: gomoku\nrules: {opening: file}\ncampaign: {games: 8, paired: true}\n", "x.yaml");
  ASSERT_EQ(cfg.rules.opening, OpeningKind::kFile);
  EXPECT_EQ(cfg.rules.openings_path, "") << "the shipped file by default";
  const OpeningFile& shipped = *shipped_openings();
  const uint32_t n = static_cast<uint32_t>(shipped.openings.size());
  for (const uint32_t stream : {0u, 1u, n - 1, n, n + 2}) {
    std::string opening;
    const State s = Host::start(cfg.rules, cfg.seed, stream, &opening);
    const Opening& want = shipped.openings[stream % n];
    EXPECT_EQ(opening, moves_text(want.moves)) << "stream game " << stream;
    const State w = opening_state(want, Rules{});
    EXPECT_EQ(std::memcmp(&s, &w, sizeof s), 0) << "stream game " << stream;
  }
  for (uint32_t game = 0; game < 8; ++game) {
    std::string opening;
    selfplay::start_position<GomokuGame>(cfg, game, &opening);
    EXPECT_EQ(opening, moves_text(shipped.openings[game / 2].moves)) << "game " << game;
    EXPECT_EQ(selfplay::engine_for_player(cfg, game, 0), game % 2 == 0 ? 0 : 1);
  }
}

TEST(GomokuOpenings, AUserFileIsReadRelativeToTheConfigAndCheckedAgainstTheRules) {
  test::TempDir tmp;
  write_file(tmp.file("mine.pos"), "# two openings\nh8i9g7\nb2c3\n");
  const std::string config = tmp.file("c.yaml");
  write_file(config, "game: gomoku\nrules: {opening: file, openings: mine.pos, rule: standard}\n");
  const auto cfg = config::load_campaign_config<GomokuGame>(config);
  EXPECT_EQ(cfg.rules.openings_path, tmp.file("mine.pos")) << "absolute, from the config's folder";
  ASSERT_TRUE(cfg.rules.openings);
  std::string opening;
  const State s = Host::start(cfg.rules, cfg.seed, 3, &opening);
  EXPECT_EQ(opening, "b2c3");
  EXPECT_EQ(s.rule, WinRule::kStandard);
  EXPECT_EQ(s.side, 0);

  const auto error = [&](const std::string& rules) {
    write_file(config, "game: gomoku\nrules: " + rules + "\n");
    try {
      config::load_campaign_config<GomokuGame>(config);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error("{opening: file, openings: gone.pos}")
                .find("key 'rules.openings': cannot read " + tmp.file("gone.pos")),
            std::string::npos)
      << error("{opening: file, openings: gone.pos}");
  write_file(tmp.file("big.pos"), "h8i9\nr18s19\n");
  const std::string off = error("{opening: file, openings: big.pos}");
  EXPECT_NE(off.find("key 'rules.openings': " + tmp.file("big.pos") +
                     ":2:1: square r18 is not on the 15x15 board"),
            std::string::npos)
      << off;
  EXPECT_EQ(error("{opening: file, openings: big.pos, board_size: 20}"), "")
      << "the same file fits 20x20, read before the board size";
  write_file(tmp.file("long.pos"),
             "a1c1e1g1i1k1m1o1a3c3e3g3i3k3m3o3a5c5e5g5i5k5m5o5a7c7e7g7i7k7m7o7\n");
  EXPECT_NE(error("{opening: file, openings: long.pos}").find("longer than the 63 characters"),
            std::string::npos)
      << error("{opening: file, openings: long.pos}");
}

// A match through the CLI from a user file: /games stores pair k's opening (line k mod N) in both
// of its games, the engines swap colours within the pair, and the file verifies.
TEST(GomokuOpenings, AMatchFromAUserFilePlaysItsOpeningsInPairs) {
  test::TempDir tmp;
  write_file(tmp.file("three.pos"), "h8i9g7\nh8h9\ng7h8i9j10\n");
  const std::string config = tmp.file("m.yaml");
  write_file(config,
             "game: gomoku\nrules: {opening: file, openings: three.pos}\n"
             "campaign: {seed: 3, concurrency: 4}\n"
             "engines:\n"
             "  player0: {type: mcts, rollouts_per_move: 64, rollouts_per_leaf: 4, "
             "policy: weighted}\n"
             "  player1: {type: alphabeta, depth: 1, weights: " +
                 test::source_path("configs/gomoku/weights/classic.yaml") +
                 "}\n"
                 "backend: {name: cpu, threads: 2}\n"
                 "output: {positions_per_game: 1, flush_seconds: 0.05}\n"
                 "match: {pairs: 4}\n");
  const std::string out = tmp.file("m.h5");
  const auto r = test::run_command(std::string(SELFPLAY_BINARY) + " match '" + config +
                                   "' --quiet --out '" + out + "' 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto cfg = config::load_match_config<GomokuGame>(config);
  const std::vector<std::string> lines = {"h8i9g7", "h8h9", "g7h8i9j10"};
  const int first_player[] = {1, 0, 0};  // White moves after 3 stones, Black after 2 or 4
  auto games = io::CampaignReader(out).games();
  ASSERT_EQ(games.size(), 8u);
  for (const auto& g : games) {
    const uint32_t id = static_cast<uint32_t>(g.game_id);
    EXPECT_EQ(io::text_of(g.opening), lines[(id / 2) % 3]) << "game " << id;
    EXPECT_EQ(g.first_player, first_player[(id / 2) % 3]) << "game " << id;
    EXPECT_EQ(selfplay::engine_for_player(cfg, id, 0), id % 2) << "A plays Black in game 2k";
  }
  const selfplay::VerifyReport report = selfplay::verify_file(out, 10);
  EXPECT_EQ(report.problems.count(), 0u)
      << (report.problems.lines().empty() ? "" : report.problems.lines()[0]);
}

// Resume checks the openings by content: the same openings in another file resume, other openings
// are refused naming the key, and a campaign without opening: file keeps the identity it had
// before the openings key existed (no rules.openings in it).
TEST(GomokuOpenings, ResumeChecksTheOpeningsByContent) {
  test::TempDir tmp;
  write_file(tmp.file("a.pos"), "h8i9g7\nh8h9\n");
  write_file(tmp.file("b.pos"), "# the same openings\nh8i9g7\nh8h9\n");
  write_file(tmp.file("c.pos"), "h8i9g7\nh8h10\n");
  const auto config = [&](const std::string& file) {
    const std::string path = tmp.file("c-" + file + ".yaml");
    write_file(path, "game: gomoku\nrules: {opening: file, openings: " + file +
                         "}\ncampaign: {games: 4, seed: 3, concurrency: 2}\n"
                         "engines:\n  player0: {type: random}\n  player1: {type: random}\n"
                         "backend: {name: cpu, threads: 1}\n"
                         "output: {positions_per_game: 0, flush_seconds: 0.05}\n");
    return path;
  };
  const std::string out = tmp.file("c.h5");
  const auto run = [&](const std::string& cfg, const std::string& more) {
    return test::run_command(std::string(SELFPLAY_BINARY) + " run '" + cfg + "' --quiet --out '" +
                             out + "' " + more + " 2>&1");
  };
  auto r = run(config("a.pos"), "--games 2");
  ASSERT_EQ(r.code, 0) << r.out;
  r = run(config("c.pos"), "--resume");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("rules.openings"), std::string::npos) << r.out;
  r = run(config("b.pos"), "--resume");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(io::CampaignReader(out).games().size(), 4u);

  const auto cfg = config::load_campaign_config<GomokuGame>(config("a.pos"));
  EXPECT_NE(selfplay::run_identity<GomokuGame>(cfg, false).find("2 openings, fnv1a64"),
            std::string::npos);
  auto empty = cfg;
  empty.rules.opening = OpeningKind::kEmpty;
  EXPECT_EQ(selfplay::run_identity<GomokuGame>(empty, false).find("openings"), std::string::npos)
      << selfplay::run_identity<GomokuGame>(empty, false);
}

// The shipped match config: the shipped openings, one pass over them, every key that applies
// written with a comment.
TEST(GomokuOpenings, TheShippedMatchConfigPlaysTheShippedOpenings) {
  const std::string path = test::source_path("configs/gomoku/match-mcts-vs-alphabeta.yaml");
  const auto cfg = config::load_match_config<GomokuGame>(path);
  EXPECT_EQ(cfg.rules.opening, OpeningKind::kFile);
  EXPECT_EQ(cfg.rules.openings_path, "");
  EXPECT_EQ(cfg.match.pairs, shipped_openings()->openings.size()) << "one pass over the file";
  EXPECT_EQ(cfg.engines[0].type, config::EngineType::kMcts);
  EXPECT_EQ(cfg.engines[1].type, config::EngineType::kAlphaBeta);
  test::expect_documented_config(path, config::explain_match_config(cfg));
}

// The strength match's config: the threat search against the plain engine, both at 1 s a move,
// over the first 100 shipped openings; documented key by key. The Gomocup engine's config uses
// the pattern search with its threat searches on, and every other shipped Gomoku config leaves
// them off.
TEST(GomokuOpenings, TheShippedStrengthMatchPitsTheThreatSearchAgainstThePlainEngine) {
  const std::string path = test::source_path("configs/gomoku/match-best-vs-classic.yaml");
  const auto cfg = config::load_match_config<GomokuGame>(path);
  EXPECT_EQ(cfg.rules.opening, OpeningKind::kFile);
  EXPECT_EQ(cfg.match.pairs, 100u);
  for (int p = 0; p < 2; ++p) {
    EXPECT_EQ(cfg.engines[p].type, config::EngineType::kAlphaBeta);
    EXPECT_EQ(cfg.engines[p].time_ms, 1000u);
    EXPECT_EQ(cfg.engines[p].weights, cfg.engines[0].weights);
  }
  EXPECT_GT(cfg.engines[0].threat_nodes, 0u);
  EXPECT_EQ(cfg.engines[1].threat_nodes, 0u);
  test::expect_documented_config(path, config::explain_match_config(cfg));
  const auto pbrain =
      config::load_campaign_config<GomokuGame>(test::source_path("configs/gomoku/pbrain.yaml"));
  EXPECT_EQ(pbrain.engines[0].search, config::SearchKind::kPattern);
  EXPECT_GT(pbrain.engines[0].threat_nodes, 0u);
  EXPECT_EQ(cfg.engines[0].search, config::SearchKind::kGeneric);
  EXPECT_EQ(
      config::load_campaign_config<GomokuGame>(test::source_path("configs/gomoku/campaign.yaml"))
          .engines[1]
          .threat_nodes,
      0u);
}

// threat_nodes joins a run's identity only when it is on, so files written before the key
// existed (all with the search off) still resume; a change of it is refused like any other key.
TEST(GomokuOpenings, ThreatNodesJoinTheIdentityOnlyWhenOn) {
  auto cfg = config::load_match_config<GomokuGame>(
      test::source_path("configs/gomoku/match-best-vs-classic.yaml"));
  const std::string on = selfplay::run_identity<GomokuGame>(cfg, true);
  EXPECT_NE(on.find("threat_nodes"), std::string::npos) << on;
  cfg.engines[0].threat_nodes = 0;
  const std::string off = selfplay::run_identity<GomokuGame>(cfg, true);
  EXPECT_EQ(off.find("threat_nodes"), std::string::npos) << off;
  EXPECT_NE(selfplay::identity_difference(on, off).find("threat_nodes"), std::string::npos)
      << selfplay::identity_difference(on, off);
}

// A pos file from a Windows editor (a UTF-8 byte order mark) or with classic Mac line ends (a bare
// CR) reads as the same openings, on the same lines (issue 41, item 7).
TEST(GomokuOpenings, AByteOrderMarkAndBareCarriageReturnsAreRead) {
  const OpeningFile plain = read_openings("h8i9\nh8j10\n# c\ng7\n", "o.pos");
  for (const char* text : {"\xEF\xBB\xBFh8i9\nh8j10\n# c\ng7\n", "h8i9\rh8j10\r# c\rg7\r",
                           "\xEF\xBB\xBFh8i9\r\nh8j10\r\n# c\r\ng7"}) {
    const OpeningFile file = read_openings(text, "o.pos");
    ASSERT_EQ(file.openings.size(), 3u) << text;
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(file.openings[i].moves, plain.openings[i].moves);
      EXPECT_EQ(file.openings[i].line, plain.openings[i].line);
    }
  }
}

// Readers of large psq/SGF files are linear (issue 41, item 3): 40,000 SGF game trees are read
// with a bounded number of position steps (counted by TextLines, not timed); before, every stone
// counted the lines from the start of the file (40k games: 49 s).
TEST(GomokuOpenings, LargeSgfFilesReadInLinearWork) {
  std::string text;
  size_t games = 0;
  for (int k = 0; games < 40000; ++k) {
    const int black = k % 225, white = (k / 225) % 225;
    if (black == white) continue;
    const auto point = [](int square) {
      return std::string{static_cast<char>('a' + square % 15),
                         static_cast<char>('a' + square / 15)};
    };
    text += "(;GM[4]SZ[15];B[" + point(black) + "];W[" + point(white) + "])\n";
    ++games;
  }
  TextLines::work() = 0;
  const OpeningFile file = read_openings(text, "big.sgf");
  EXPECT_EQ(file.openings.size(), games);
  EXPECT_EQ(file.openings.back().line, static_cast<int>(games));
  EXPECT_LE(TextLines::work(), text.size() + 4 * games)
      << "position lookups grew faster than the file";
}

// Numbers in psq and SGF files are read with range checks (issue 41, item 4): a coordinate that
// wrapped around in sscanf ("4294967304" read as 8) or a huge SZ is refused, and a file made for
// another board than the rules' is refused with where it says so.
TEST(GomokuOpenings, PsqAndSgfNumbersAreRangeCheckedAndTheBoardMustMatch) {
  const Rules rules{};  // 15x15
  const auto psq = [](const std::string& header, const std::string& moves) {
    return header + "\n" + moves + "Black\nWhite\n-1\n";
  };
  EXPECT_NE(error_of(psq("Piskvorky 15x15, 11:11, 0", "8,8,0\n4294967304,8,0\n"), rules)
                .find("o.pos:3:1: square 4294967304,8 is not on the 15x15 board"),
            std::string::npos)
      << error_of(psq("Piskvorky 15x15, 11:11, 0", "8,8,0\n4294967304,8,0\n"), rules);
  EXPECT_NE(error_of(psq("Piskvorky 15x15, 11:11, 0", "8,99999999999999999999999,0\n"), rules)
                .find("is not on the 15x15 board"),
            std::string::npos);
  EXPECT_NE(
      error_of(psq("Piskvorky 4294967311x4294967311, 11:11, 0", "8,8,0\n"), rules).find("huge"),
      std::string::npos);
  EXPECT_EQ(error_of(psq("Piskvorky 15x15, 11:11, 0", "8,8,0\n9,9,-3\n"), rules), "");
  EXPECT_EQ(error_of(psq("Piskvorky 20x20, 11:11, 0", "8,8,0\n"), rules),
            "o.pos:1:1: the file is for a 20x20 board, the rules play on 15x15");
  Rules twenty;
  twenty.size = 20;
  EXPECT_EQ(error_of(psq("Piskvorky 20x20, 11:11, 0", "8,8,0\n"), twenty), "");
  EXPECT_NE(error_of("(;GM[4]SZ[4294967311];B[hh])\n", rules).find("SZ[4294967311]"),
            std::string::npos);
  EXPECT_EQ(error_of("(;GM[4]SZ[20];B[hh])\n", rules),
            "o.pos:1:11: the file is for a 20x20 board, the rules play on 15x15");
  EXPECT_EQ(error_of("(;GM[4]SZ[20];B[hh])\n", twenty), "");
  EXPECT_NE(error_of("(;GM[4]SZ[15];B[hh])\n(;GM[4]SZ[20];B[hh])\n", rules)
                .find("SZ[20], but the game tree of line 1 is 15x15"),
            std::string::npos);
}

}  // namespace
}  // namespace sp::gomoku
