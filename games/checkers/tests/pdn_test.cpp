// Checkers PDN game files (games/checkers/pdn.hpp): games written and read back are the same
// games (random games with multi-jumps and kings, FEN starts with either side to move, positions
// without moves, tags that need escapes); the writer's text against a golden file; the forms real
// files use (comments, variations, NAGs, glued move numbers, short jumps, CRLF); and a corpus of
// malformed files, each refused with the line and column of the fault.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/philox.hpp"
#include "games/checkers/notation.hpp"
#include "games/checkers/pdn.hpp"
#include "tests/test_util.hpp"

namespace sp::checkers {
namespace {

// A game of uniformly random moves from start, at most max_plies long; its result from the end.
PdnGame random_game(const State& start, uint32_t seed, int max_plies) {
  PdnGame g;
  g.start = without_draw_limits(start);
  g.tags = {{"Event", "random " + std::to_string(seed)}, {"Black", "b"}, {"White", "w"}};
  WordStream rng({seed, 0, 0, kLeafSearch, 0});
  State s = g.start;
  for (int ply = 0; ply < max_plies && has_move(s); ++ply) {
    MoveList list;
    generate_moves(s, list);
    const Move m = list.moves[rng.below(static_cast<uint32_t>(list.size))];
    g.moves.push_back(m);
    apply(s, m);
  }
  g.result = has_move(s) ? "*" : pdn_result(s.side ^ 1);
  return g;
}

std::string error_of(const std::string& text) {
  try {
    read_pdn(text, "f.pdn");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CheckersPdn, WrittenGamesReadBackAsTheSameGames) {
  std::vector<PdnGame> games;
  int jumps = 0, kings = 0;
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    games.push_back(random_game(initial_state(), seed, 1000));
    State s = games.back().start;
    for (const Move m : games.back().moves) {
      jumps += move_jumps(m) > 1;
      apply(s, m);
    }
    kings += s.kings != 0;
  }
  ASSERT_GT(jumps, 0) << "the games include multi-jumps";
  ASSERT_GT(kings, 0) << "and kings";
  // FEN starts: White to move (numbered 1...), kings, a position without moves.
  games.push_back(random_game(parse_position("W:W18,22,K30:B1,5,K9,14"), 7, 60));
  games.push_back(random_game(parse_position("B:WK3,K4,20:BK29,K30,12"), 8, 60));
  PdnGame position;
  position.start = without_draw_limits(parse_position("W:W21-32:B1-12"));
  position.tags = {{"Event", "quotes \" and \\ backslashes"}};
  games.push_back(position);
  PdnGame drawn = random_game(initial_state(), 99, 30);
  drawn.result = "1/2-1/2";
  games.push_back(drawn);

  std::string text;
  for (const PdnGame& g : games) text += write_pdn(g);
  const std::vector<PdnGame> read = read_pdn(text, "games.pdn");
  ASSERT_EQ(read.size(), games.size());
  for (size_t i = 0; i < games.size(); ++i) EXPECT_TRUE(read[i] == games[i]) << "game " << i;
  // Writing what was read gives the same bytes.
  std::string again;
  for (const PdnGame& g : read) again += write_pdn(g);
  EXPECT_EQ(again, text);
  for (std::string::size_type at = 0, end; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    EXPECT_LE(end - at, 79u) << text.substr(at, end - at);
  }
}

TEST(CheckersPdn, WriterMatchesTheGoldenFile) {
  PdnGame g = random_game(initial_state(), 3, 1000);
  g.tags = {{"Event", "golden"}, {"Site", "?"},    {"Date", "2026.12.01"},
            {"Round", "1"},      {"Black", "one"}, {"White", "two"}};
  PdnGame fen = random_game(parse_position("W:W18,22,K30:B1,5,K9,14"), 4, 12);
  fen.tags = {{"Event", "from a FEN"}};
  const std::string text = write_pdn(g) + write_pdn(fen);
  const std::string golden = test::source_path("games/checkers/tests/golden_games.pdn");
  if (std::getenv("SELFPLAY_UPDATE_GOLDEN")) std::ofstream(golden, std::ios::binary) << text;
  EXPECT_EQ(text, test::read_text(golden))
      << "regenerate with SELFPLAY_UPDATE_GOLDEN=1 after review";
}

TEST(CheckersPdn, ReadsTheFormsRealFilesUse) {
  const std::string text =
      "; a file comment\r\n"
      "[Event \"club\"]\r\n[Black \"Ann\"]\r\n[White \"Bob\"]\r\n[Result \"0-1\"]\r\n"
      "[GameType \"21\"]\r\n\r\n"
      "1.11-15 {the Old Faithful} 23x19 2. 8-11! (2. 9-14 22-18) 22-17 $1 3...9-13?\r\n"
      "17-14 ( 3. 10-14 {nested (parentheses)} (3. 12-16) ) 0-1\r\n"
      "[FEN \"W:W18:B14\"]\n1... 18x9 *\n"
      "[FEN \"B:W6,15:BK1.\"] 1. 1x10x19? 1-0\n";
  const std::vector<PdnGame> games = read_pdn(text, "real.pdn");
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(games[0].tags.size(), 4u) << "Result is the game's field, not a kept tag";
  EXPECT_EQ(games[0].tags[1].value, "Ann");
  EXPECT_EQ(games[0].result, "0-1");
  std::string moves;
  for (const Move m : games[0].moves) moves += to_string(m) + " ";
  EXPECT_EQ(moves, "11-15 23-19 8-11 22-17 9-13 17-14 ") << "x read for plain moves too";
  EXPECT_EQ(games[0].moves.size(), 6u);
  ASSERT_EQ(games[1].moves.size(), 1u);
  EXPECT_EQ(to_string(games[1].moves[0]), "18x9");
  EXPECT_EQ(games[1].start.side, 1);
  ASSERT_EQ(games[2].moves.size(), 1u);
  EXPECT_EQ(to_string(games[2].moves[0]), "1x10x19") << "a king's jumps written in full";
}

TEST(CheckersPdn, ShortJumpFormsAndAFileOfPositionsRead) {
  // 9x27 leaves the landing square 18 out; one path fits.
  const auto games =
      read_pdn("[FEN \"B:W14,23,32:B9\"] 1. 9x27 *\n[FEN \"W:W21-32:B1-12\"] *\n", "short.pdn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(to_string(games[0].moves.at(0)), "9x18x27");
  EXPECT_TRUE(games[1].moves.empty());
  EXPECT_EQ(fen(games[1].start), "W:W21-32:B1-12");
}

// Each malformed file is refused with "f.pdn:LINE:COLUMN: " and what is wrong.
TEST(CheckersPdn, MalformedFilesNameTheLineAndColumn) {
  struct Case {
    std::string text, where, what;
  };
  const std::vector<Case> corpus = {
      {"", "", "no game in the file"},
      {"{just a comment}\n", "", "no game in the file"},
      {"[Event \"x\"]\n1. 11-15\n",
       "f.pdn:3:1: ", "end of file: the game from line 1 has no result"},
      {"[Event \"x\"]\n1. 11-15\n[Event \"y\"] *",
       "f.pdn:3:1: ", "a tag after the moves of the game from line 1"},
      {"[Event \"x]\n*", "f.pdn:1:8: ", "not closed by '\"' on its line"},
      {"[Event x]\n*", "f.pdn:1:8: ", "expected '\"' and the value of tag Event"},
      {"[ \"x\"]\n*", "f.pdn:1:3: ", "expected a tag name"},
      {"[Event \"x\" *", "f.pdn:1:12: ", "expected ']' to close tag Event"},
      {"[Event \"x\"]\n[Event \"y\"]\n*", "f.pdn:2:1: ", "tag Event given twice"},
      {"[Result \"2-0\"]\n*", "f.pdn:1:10: ", "expected 1-0, 0-1, 1/2-1/2 or *"},
      {"[Result \"1-0\"]\n1. 11-15 0-1", "f.pdn:2:10: ", "[Result] tag on line 1 says 1-0"},
      {"[SetUp \"1\"]\n1. 11-15 *", "f.pdn:1:1: ", "[SetUp \"1\"] without a [FEN] tag"},
      {"[SetUp \"yes\"]\n*", "f.pdn:1:9: ", "[SetUp] is \"1\" or \"0\""},
      {"[FEN \"B:W21-32:B1-13\"]\n*", "f.pdn:1:7: ", "more than 12 pieces"},
      {"[FEN \"B:W21-32:B1-12 ply=1/400\"]\n*", "f.pdn:1:21: ", "no spaces"},
      {"[FEN \"B:W32:B28\"]\n*", "f.pdn:1:7: ", "Black is to move and has no move"},
      {"1. 11-15 22-18\n2. 15-19 *", "f.pdn:2:4: ", "15-19 is not a legal move for Black"},
      {"1. 11-15 22-18\n2. 15-19 *", "f.pdn:2:4: ", "(legal: 15x22)"},
      {"1. 11-18 *", "f.pdn:1:4: ", "not a legal move for Black in B:W21-32:B1-12"},
      {"1. e3-d4 *", "f.pdn:1:4: ", "\"e3-d4\" is not a move (expected a square number 1-32)"},
      {"1. 11-15 *\n  4. 11-33 *", "f.pdn:2:9: ", "square 33 is not in 1-32"},
      {"1. 11/15 *", "f.pdn:1:6: ", "expected '-' or 'x' after a square"},
      {"1. 11-15 {unclosed\n 23-19 *", "f.pdn:1:10: ", "comment not closed"},
      {"1. 11-15 (2. 23-19 *", "f.pdn:1:10: ", "variation not closed"},
      {"1. 11-15 ) *", "f.pdn:1:10: ", "unexpected ')'"},
      {"1. 11-15 $x *", "f.pdn:1:11: ", "a NAG is '$' and digits"},
      {"[FEN \"B:W14:B9\"] 1. 9x18 23-19 *",
       "f.pdn:1:26: ", "after the end of the game: White has no move"},
      {"[FEN \"B:W14,15,22,23:BK10\"]\n1. 10x10 *", "f.pdn:2:4: ", "fits 2 legal moves"},
  };
  for (const Case& c : corpus) {
    const std::string error = error_of(c.text);
    EXPECT_EQ(error.rfind(c.where.empty() ? "f.pdn: " : c.where, 0), 0u)
        << c.text << "\n-> " << error;
    EXPECT_NE(error.find(c.what), std::string::npos) << c.text << "\n-> " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << "one line: " << error;
  }
}

}  // namespace
}  // namespace sp::checkers
