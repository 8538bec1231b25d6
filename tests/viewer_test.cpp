// Pictures of stored games (host/records/viewer.hpp) and Gomoku's game files
// (games/gomoku/game_files.hpp): the JSON text the pages and lines carry, each game's board
// pictures, `selfplay export --format boards` against boards rebuilt here from the moves,
// `--format html` (its data kept as data, hostile names included; the browser test,
// tests/viewer_browser_test.py, drives the page itself), `--game`, and psq and SGF written,
// read back as openings, and refused with file, line and column when malformed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <regex>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "games/checkers/host.hpp"
#include "games/ewn/host.hpp"
#include "games/gomoku/game_files.hpp"
#include "games/gomoku/host.hpp"
#include "host/records/viewer.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

using selfplay::json_string;

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ViewerJson, EscapesWhatCouldEndAScriptOrBreakTheText) {
  EXPECT_EQ(json_string("h8"), "\"h8\"");
  EXPECT_EQ(json_string("</script><b>&"), R"("\u003c/script\u003e\u003cb\u003e\u0026")");
  EXPECT_EQ(json_string("a\"b\\c\n\t\x01"), R"("a\"b\\c\n\t\u0001")");
  EXPECT_EQ(json_string("w\u00fcrfelt \u2028"), "\"w\u00fcrfelt \\u2028\"") << "UTF-8 kept";
  EXPECT_EQ(json_string("\xff\xc3"), R"("\ufffd\ufffd")") << "bytes that are not UTF-8";
  EXPECT_EQ(json_string("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")") << "a surrogate";
}

TEST(BoardPictures, EwnShowsTheCubesAsTheDiagramDoes) {
  using Host = GameHost<EwnGame>;
  const ewn::State s = Host::opening_position("123456/654321", 0);
  const BoardPicture p = Host::picture(s);
  const BoardFrame f = Host::board_frame(ewn::Rules{});
  EXPECT_EQ(f.style, "ewn");
  ASSERT_EQ(p.cells.size(), 25u);
  // The diagram's squares, row by row from the top ("5 A B C . .").
  std::string diagram;
  std::istringstream lines(Host::board_text(s));
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line[0] >= '1' && line[0] <= '5')
      for (size_t k = 2; k < line.size(); ++k)
        if (line[k] != ' ') diagram += line[k];
  EXPECT_EQ(p.cells, diagram);
  EXPECT_EQ(
      std::count_if(p.cells.begin(), p.cells.end(), [](char c) { return c >= 'A' && c <= 'F'; }),
      6);
  EXPECT_EQ(f.rows.front(), "5");
  EXPECT_EQ(f.columns.back(), "e");
}

TEST(BoardPictures, CheckersNumbersTheDarkSquaresAndShowsKings) {
  using Host = GameHost<CheckersGame>;
  checkers::State s = checkers::initial_state();
  const BoardFrame f = Host::board_frame(checkers::Rules{});
  ASSERT_EQ(f.squares.size(), 64u);
  EXPECT_EQ(f.squares[1], "1") << "square 1 is b8";
  EXPECT_EQ(f.squares[0], "");
  EXPECT_EQ(f.squares[63 - 7], "29") << "a1";
  const std::string start = Host::picture(s).cells;
  EXPECT_EQ(start.substr(0, 8), "-b-b-b-b");
  EXPECT_EQ(std::count(start.begin(), start.end(), 'b'), 12);
  EXPECT_EQ(std::count(start.begin(), start.end(), 'w'), 12);
  EXPECT_EQ(std::count(start.begin(), start.end(), '-'), 32);
  s = Host::parse_position("B:WK4:B1");
  const std::string kings = Host::picture(s).cells;
  EXPECT_EQ(kings[1], 'b') << "square 1";
  EXPECT_EQ(kings[7], 'W') << "square 4, a king";
}

TEST(BoardPictures, GomokuMarksTheWinningRowAndNothingElse) {
  using Host = GameHost<GomokuGame>;
  for (const gomoku::WinRule rule : {gomoku::WinRule::kFreestyle, gomoku::WinRule::kStandard}) {
    const gomoku::Rules rules{15, rule};
    gomoku::State s = gomoku::initial_state(rules);
    // Black a1..e1 (White on row 3), then the game is over.
    for (int k = 0; k < 5; ++k) {
      gomoku::apply(s, gomoku::Move{static_cast<uint8_t>(k), 0});
      if (k < 4) gomoku::apply(s, gomoku::Move{static_cast<uint8_t>(k), 2});
    }
    ASSERT_TRUE(gomoku::is_over(s));
    const BoardPicture p = Host::picture(s);
    EXPECT_EQ(p.marks, (std::vector<int>{0, 1, 2, 3, 4}));
    EXPECT_EQ(p.cells.substr(0, 6), "xxxxx.");
    EXPECT_EQ(p.cells.substr(30, 5), "oooo.");
  }
  gomoku::State open = gomoku::initial_state(gomoku::Rules{});
  gomoku::apply(open, gomoku::Move{7, 7});
  EXPECT_TRUE(Host::picture(open).marks.empty()) << "no winner, no marks";
  EXPECT_EQ(Host::board_frame(gomoku::Rules{20, gomoku::WinRule::kFreestyle}).columns.size(), 20u);
}

// Small campaigns of each game through the CLI, once for the tests below.
class ExportedPictures : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir;
    for (const std::string game : {"ewn", "checkers", "gomoku"}) {
      const std::string config = "game: " + game +
                                 "\ncampaign:\n  games: 4\n  concurrency: 2\n  seed: 3\n"
                                 "engines:\n  player0:\n    type: mcts\n    rollouts_per_move: 24\n"
                                 "    rollouts_per_leaf: 2\n  player1:\n    type: random\n"
                                 "backend:\n  name: cpu\n  threads: 1\noutput:\n  path: x.h5\n";
      dir_->write(game + ".yaml", config);
      const auto r =
          selfplay("run '" + dir_->file(game + ".yaml") + "' --out '" + path(game) + "' --quiet");
      ASSERT_EQ(r.code, 0) << r.out;
    }
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string path(const std::string& game) { return dir_->file(game + ".h5"); }
  static test::CommandResult selfplay(const std::string& args) {
    return test::run_command(std::string(SELFPLAY_BINARY) + " " + args + " 2>&1");
  }
  static inline test::TempDir* dir_ = nullptr;
};

// The tsv export's lines: game id, then the moves of each ply (the last column).
std::vector<std::pair<std::string, std::vector<std::string>>> tsv_games(const std::string& text) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) {
    std::vector<std::string> fields;
    std::istringstream f(line);
    for (std::string field; std::getline(f, field, '\t');) fields.push_back(field);
    std::vector<std::string> moves;
    std::istringstream m(fields.size() > 5 ? fields.back() : "");
    for (std::string move; m >> move;) moves.push_back(move);
    out.emplace_back(fields[0], moves);
  }
  return out;
}

// Every board of each game, rebuilt here from its opening and its moves as the tsv export lists
// them.
template <HostGame G>
std::vector<std::vector<std::string>> boards_from_moves(const std::string& tsv,
                                                        const std::string& boards_text) {
  std::vector<std::vector<std::string>> out;
  std::istringstream lines(boards_text);
  for (const auto& [id, moves] : tsv_games(tsv)) {
    std::string line;
    std::getline(lines, line);
    // The start: the first board the export gives is checked by the EWN/Gomoku/checkers picture
    // tests; here the position after it is rebuilt from the opening text the line carries.
    std::smatch opening;
    EXPECT_TRUE(std::regex_search(line, opening, std::regex(R"re("opening":"([^"]*)")re")));
    typename G::State s{};
    if constexpr (std::is_same_v<G, EwnGame>) {
      const std::smatch::value_type& o = opening[1];
      std::smatch first;
      std::regex_search(line, first, std::regex(R"re("first_player":(\d))re"));
      s = GameHost<G>::opening_position(o.str(), std::stoi(first[1]));
    } else if constexpr (std::is_same_v<G, CheckersGame>) {
      s = checkers::initial_state();
    } else {
      s = gomoku::initial_state(gomoku::Rules{});
    }
    std::vector<std::string> boards{GameHost<G>::picture(s).cells};
    for (const std::string& ply : moves) {
      std::string move = ply;
      if constexpr (ChanceGame<G>) {
        const size_t colon = ply.find(':');
        G::set_chance(s, std::stoi(ply.substr(0, colon)) - 1);
        move = ply.substr(colon + 1);
      }
      G::apply(s, GameHost<G>::parse_move(s, typename G::Rules{}, move));
      boards.push_back(GameHost<G>::picture(s).cells);
    }
    out.push_back(boards);
  }
  return out;
}

// The "boards" list of each line of a boards export.
std::vector<std::vector<std::string>> boards_of(const std::string& text) {
  std::vector<std::vector<std::string>> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const size_t at = line.find("\"boards\":[");
    EXPECT_NE(at, std::string::npos) << line;
    const size_t end = line.find(']', at);
    std::vector<std::string> boards;
    const std::string list = line.substr(at + 10, end - at - 10);
    for (size_t k = 0; k < list.size();) {
      const size_t open = list.find('"', k), close = list.find('"', open + 1);
      if (open == std::string::npos) break;
      boards.push_back(list.substr(open + 1, close - open - 1));
      k = close + 1;
    }
    out.push_back(boards);
  }
  return out;
}

TEST_F(ExportedPictures, BoardsAreThePositionsTheMovesGive) {
  for (const std::string game : {"ewn", "checkers", "gomoku"}) {
    const auto tsv = selfplay("export '" + path(game) + "'");
    const auto boards = selfplay("export '" + path(game) + "' --format boards");
    ASSERT_EQ(boards.code, 0) << boards.out;
    std::vector<std::vector<std::string>> want;
    if (game == "ewn") want = boards_from_moves<EwnGame>(tsv.out, boards.out);
    if (game == "checkers") want = boards_from_moves<CheckersGame>(tsv.out, boards.out);
    if (game == "gomoku") want = boards_from_moves<GomokuGame>(tsv.out, boards.out);
    const auto got = boards_of(boards.out);
    ASSERT_EQ(got.size(), 4u) << game;
    EXPECT_EQ(got, want) << game;
    EXPECT_EQ(boards.out.find("\"problems\":[]"), boards.out.find("\"problems\":")) << game;
  }
}

TEST_F(ExportedPictures, TheViewerIsOnePageWhoseDataStaysData) {
  for (const std::string game : {"ewn", "checkers", "gomoku"}) {
    const std::string out = dir_->file(game + ".html");
    const auto r = selfplay("export '" + path(game) + "' --format html --out '" + out + "'");
    ASSERT_EQ(r.code, 0) << r.out;
    const std::string html = test::read_text(out);
    EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
    EXPECT_NE(html.find("Content-Security-Policy\" content=\"default-src 'none'"),
              std::string::npos);
    EXPECT_EQ(html.find(" src="), std::string::npos) << "nothing loaded from elsewhere";
    EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg")) << "no address";
    // Three data blocks and the script, nothing else.
    size_t scripts = 0;
    for (size_t at = html.find("<script"); at != std::string::npos;
         at = html.find("<script", at + 1))
      ++scripts;
    EXPECT_EQ(scripts, 4u) << game;
    EXPECT_NE(html.find("\"style\":\"" + game + "\""), std::string::npos);
    // The header names the program that played the games and the one that exported them.
    const std::string program = io::CampaignReader(path(game)).meta().program;
    EXPECT_NE(html.find("\"program\":" + json_string(program) + ",\"exported_by\":\"selfplay "),
              std::string::npos);
    EXPECT_EQ(selfplay("export '" + path(game) + "' --format html").out, html) << "same bytes";
  }
}

TEST_F(ExportedPictures, OneGameAloneOrAClearError) {
  const auto one = selfplay("export '" + path("gomoku") + "' --format boards --game 2");
  ASSERT_EQ(one.code, 0) << one.out;
  EXPECT_EQ(std::count(one.out.begin(), one.out.end(), '\n'), 1);
  EXPECT_TRUE(one.out.starts_with("{\"game_id\":2,")) << one.out.substr(0, 40);
  const auto tsv = selfplay("export '" + path("gomoku") + "' --game 3");
  EXPECT_EQ(tsv_games(tsv.out).size(), 1u);
  const auto none = selfplay("export '" + path("gomoku") + "' --format html --game 99");
  EXPECT_EQ(none.code, 2) << none.out;
  EXPECT_NE(none.out.find("--game 99: " + path("gomoku") + " has no game 99 (4 games, ids 0 to 3)"),
            std::string::npos)
      << none.out;
}

TEST_F(ExportedPictures, GomokuGamesAsPsqAndSgfReadBackAsTheirMoves) {
  const auto tsv = tsv_games(selfplay("export '" + path("gomoku") + "'").out);
  const std::string dir = dir_->file("psq");
  const auto r = selfplay("export '" + path("gomoku") + "' --format psq --out '" + dir + "'");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("wrote 4 psq files to " + dir), std::string::npos) << r.out;
  const auto many = selfplay("export '" + path("gomoku") + "' --format psq");
  EXPECT_EQ(many.code, 2);
  EXPECT_NE(many.out.find("holds one game per file"), std::string::npos) << many.out;
  const auto sgf = selfplay("export '" + path("gomoku") + "' --format sgf");
  ASSERT_EQ(sgf.code, 0) << sgf.out;
  const gomoku::OpeningFile trees = gomoku::read_openings(sgf.out, "games.sgf");
  ASSERT_EQ(trees.openings.size(), tsv.size());
  for (size_t k = 0; k < tsv.size(); ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "game-%06zu.psq", k);
    const std::string text = test::read_text(std::filesystem::path(dir) / name);
    EXPECT_TRUE(text.starts_with("Piskvorky 15x15, 11:11, 0\n")) << text.substr(0, 40);
    EXPECT_TRUE(text.ends_with("engines.player0 (mcts)\nengines.player1 (random)\n-1\n") ||
                text.ends_with("engines.player1 (random)\nengines.player0 (mcts)\n-1\n"))
        << text;
    const gomoku::OpeningFile psq = gomoku::read_openings(text, name);
    ASSERT_EQ(psq.openings.size(), 1u);
    std::vector<std::string> moves;
    for (const gomoku::Move m : psq.openings[0].moves) moves.push_back(gomoku::to_string(m));
    EXPECT_EQ(moves, tsv[k].second) << name;
    std::vector<std::string> tree;
    for (const gomoku::Move m : trees.openings[k].moves) tree.push_back(gomoku::to_string(m));
    EXPECT_EQ(tree, tsv[k].second) << "SGF game " << k;
  }
  EXPECT_NE(sgf.out.find("(;FF[4]GM[4]CA[UTF-8]AP[selfplay]SZ[15]GN[game 0]"), std::string::npos);
  EXPECT_NE(sgf.out.find(";B[hh]"), std::string::npos) << "h8 is column h, row 8: hh";
  // The program that played the games, in each game's root comment.
  const std::string program = io::CampaignReader(path("gomoku")).meta().program;
  ASSERT_TRUE(program.starts_with("selfplay ")) << program;
  EXPECT_NE(sgf.out.find(", played by " + program + "]"), std::string::npos) << sgf.out;
}

TEST_F(ExportedPictures, CampaignsOpenFromSgfAndPsqFiles) {
  dir_->write("two.sgf", "(;GM[4]SZ[15];B[hh];W[ii];B[gi])\n(;GM[4]SZ[15]AB[hh][hi]AW[ij])\n");
  dir_->write("one.psq", "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\nblack\nwhite\n-1\n");
  for (const auto& [file, want] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"two.sgf", {"h8i9g9", "h8i10h9"}}, {"one.psq", {"h8i9", "h8i9"}}}) {
    const std::string config = "game: gomoku\nrules:\n  opening: file\n  openings: " + file +
                               "\ncampaign:\n  games: 2\n  concurrency: 1\n  seed: 1\n"
                               "engines:\n  player0:\n    type: random\n  player1:\n"
                               "    type: random\nbackend:\n  name: cpu\n  threads: 1\n"
                               "output:\n  path: x.h5\n";
    dir_->write("open.yaml", config);
    const std::string out = dir_->file(file + ".h5");
    const auto r = selfplay("run '" + dir_->file("open.yaml") + "' --out '" + out + "' --quiet");
    ASSERT_EQ(r.code, 0) << r.out;
    const auto tsv = selfplay("export '" + out + "'").out;
    std::vector<std::string> openings;
    std::istringstream lines(tsv);
    std::string line;
    std::getline(lines, line);
    while (std::getline(lines, line))
      openings.push_back(line.substr(line.find('\t') + 1, line.find('\t', 2) - 2));
    EXPECT_EQ(openings, want) << file;
  }
}

TEST(GomokuGameFiles, WritesOpeningsAndNamesAsTheFormatsSay) {
  GameFileRecord g;
  g.game_id = 7;
  g.opening = "h8i9";
  g.moves = {"g7", "a1"};
  g.times_ms = {312.4f, 0.2f};
  g.winner = -1;
  g.players[0] = "odd ]name\\";
  g.players[1] = "two\nlines";
  EXPECT_EQ(
      gomoku::write_psq(g, 15),
      "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n7,7,312\n1,1,0\nodd ]name\\\ntwo lines\n-1\n");
  const std::string sgf = gomoku::write_sgf(g, 15, "standard");
  EXPECT_NE(sgf.find("PB[odd \\]name\\\\]"), std::string::npos) << sgf;
  EXPECT_NE(sgf.find("RE[Draw]"), std::string::npos);
  EXPECT_NE(sgf.find(";B[hh];W[ii];B[gg];W[aa]"), std::string::npos) << sgf;
  EXPECT_NE(sgf.find("C[rule standard, opening h8i9]"), std::string::npos) << sgf;
  const auto back = gomoku::read_openings(sgf, "g.sgf");
  EXPECT_EQ(back.openings.at(0).moves.size(), 4u);
  g.moves = {"p1"};
  EXPECT_NE(error_of([&] { gomoku::write_psq(g, 15); }).find("p1 is not on the 15x15 board"),
            std::string::npos);
}

TEST(GomokuGameFiles, ReadsSetupStonesAndTheMainLineOnly) {
  const auto file = gomoku::read_openings(
      "(;GM[4]SZ[15]AB[hh][jj]AW[ii]C[a comment]\n;W[aa](;B[bb])(;B[cc];W[dd]))", "s.sgf");
  ASSERT_EQ(file.openings.size(), 1u);
  std::string moves;
  for (const gomoku::Move m : file.openings[0].moves) moves += gomoku::to_string(m);
  EXPECT_EQ(moves, "h8i9j10a1b2");
}

TEST(GomokuGameFiles, MalformedFilesNameTheirLineAndColumn) {
  const auto read = [](const std::string& text) {
    return error_of([&] { gomoku::read_openings(text, "o.sgf"); });
  };
  EXPECT_EQ(read("Piskvorky 15, 11:11, 0\n8,8,0\n"),
            "o.sgf:1:1: a psq file starts \"Piskvorky WIDTHxHEIGHT, 11:11, 0\"");
  EXPECT_EQ(read("Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n"),
            "o.sgf:3:1: square 16,1 is not on the 15x15 board (psq counts from 1)");
  EXPECT_EQ(read("Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,5\n"),
            "o.sgf:3:1: square h8 is placed twice in one game");
  EXPECT_EQ(read("Piskvorky 15x15, 11:11, 0\nname\n"), "o.sgf:1:1: the psq file has no stones");
  EXPECT_EQ(read("(;GM[4];B[hh];B[ii])"), "o.sgf:1:15: B[ii]: White is to move");
  EXPECT_EQ(read("(;GM[4]\n;B[hh];W[zz])"), "o.sgf:2:10: W[zz] is not a point of the 15x15 board");
  EXPECT_EQ(read("(;GM[1];B[hh])"), "o.sgf:1:6: GM[1] is not Gomoku (GM[4])");
  EXPECT_EQ(read("(;GM[4];B[hh"), "o.sgf:1:10: the value of B is not closed with ']'");
  EXPECT_EQ(read("(;GM[4];B[hh]"), "o.sgf:1:1: the game tree is not closed with ')'");
  EXPECT_EQ(read("(;B[hh])\n(;B[hh])"),
            "o.sgf:2:5: the position of line 1 again (openings are listed once)");
  // A finished game is no opening: check_openings says so with the rules.
  const auto five =
      gomoku::read_openings("(;B[aa];W[ac];B[ba];W[bc];B[ca];W[cc];B[da];W[dc];B[ea])", "five.sgf");
  EXPECT_NE(error_of([&] {
              gomoku::check_openings(five, gomoku::Rules{});
            }).find("makes a winning row for Black"),
            std::string::npos);
}

}  // namespace
}  // namespace sp
