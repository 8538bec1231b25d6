// The Gomocup protocol, engine side (`selfplay pbrain`, host/protocols/pbrain.hpp): scripted
// exchanges through streams (every command, malformed lines, the clock, the rule bits, the x,y
// mapping), then the real binary and its pbrain-selfplay link driven over pipes one command at a
// time, so an answer that is not flushed hangs the exchange and fails it.
#include <gtest/gtest.h>
#include <poll.h>

#include <cstring>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "games/hosts.hpp"
#include "host/play/config/load.hpp"
#include "host/play/terminal/human_game.hpp"
#include "host/protocols/pbrain.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

using selfplay::PbrainClock;
using selfplay::PbrainSession;
using G = GomokuGame;

// Alpha-beta at a fixed depth: deterministic without a clock.
std::string alphabeta_config() {
  return "game: gomoku\n"
         "engines:\n"
         "  player0:\n"
         "    type: alphabeta\n"
         "    weights: " +
         test::source_path("configs/gomoku/weights/classic.yaml") +
         "\n"
         "    depth: 2\n"
         "    tt_size_mb: 64\n"
         "backend:\n"
         "  name: cpu\n"
         "  threads: 1\n";
}

// MCTS whose rollout budget alone would take many seconds: only the manager's clock stops it.
constexpr uint32_t kHugeRollouts = 1'000'000;
std::string mcts_config() {
  return "game: gomoku\n"
         "engines:\n"
         "  player0:\n"
         "    type: mcts\n"
         "    rollouts_per_move: " +
         std::to_string(kHugeRollouts) +
         "\n"
         "    rollouts_per_leaf: 8\n"
         "    node_budget_mb: 64\n"
         "backend:\n"
         "  name: cpu\n"
         "  threads: 1\n";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// A square "x,y" of an answer; {-1, -1} when the line is not one.
std::pair<int, int> square_of(const std::string& line) {
  static const std::regex kSquare("^([0-9]+),([0-9]+)$");
  std::smatch m;
  if (!std::regex_match(line, m, kSquare)) return {-1, -1};
  return {std::stoi(m[1]), std::stoi(m[2])};
}

bool is_protocol_line(const std::string& line) {
  static const std::regex kLine("^(OK|[0-9]+,[0-9]+|(ERROR|UNKNOWN|MESSAGE|DEBUG) .+|name=\".*)$");
  return std::regex_match(line, kLine);
}

bool taken(const gomoku::State& s, int x, int y) {
  const int sq = y * s.size + x;
  return gomoku::test_square(s.stones[0], sq) || gomoku::test_square(s.stones[1], sq);
}
int stone_at(const gomoku::State& s, int x, int y) {  // 0 Black, 1 White, -1 empty
  const int sq = y * s.size + x;
  return gomoku::test_square(s.stones[0], sq) ? 0 : gomoku::test_square(s.stones[1], sq) ? 1 : -1;
}

// The first empty square of row y: where the tests' opponent plays.
int free_x(const gomoku::State& s, int y) {
  for (int x = 0; x < s.size; ++x)
    if (!taken(s, x, y)) return x;
  ADD_FAILURE() << "row " << y << " is full";
  return 0;
}

// A session over string streams; each send() answers one line and returns what it wrote.
class Session {
 public:
  explicit Session(const std::string& yaml) {
    const auto path = dir_.write("pbrain.yaml", yaml);
    cfg_ = config::load_campaign_config<G>(path.string());
    backend_ = rollout::make_backend<G>("cpu", selfplay::play_backend_options(cfg_));
    session_ = std::make_unique<PbrainSession<G>>(cfg_, *backend_, in_, out_, log_);
  }
  // The answer lines to one command line; *more is false after END.
  std::vector<std::string> send(const std::string& line, bool* more = nullptr) {
    out_.str("");
    const bool going = session_->handle(line);
    if (more) *more = going;
    return lines_of(out_.str());
  }
  std::string send1(const std::string& line) {
    const std::vector<std::string> answer = send(line);
    EXPECT_EQ(answer.size(), 1u) << "to " << line;
    return answer.empty() ? "" : answer[0];
  }
  const gomoku::State& state() const { return session_->state(); }
  std::string log() const { return log_.str(); }

 private:
  test::TempDir dir_;
  config::Config<G> cfg_;
  std::unique_ptr<rollout::Backend<G>> backend_;
  std::istringstream in_;
  std::ostringstream out_, log_;
  std::unique_ptr<PbrainSession<G>> session_;
};

// The engine's answer is a square that was empty before it and holds its stone after.
void expect_engine_move(const std::string& answer, const gomoku::State& before,
                        const gomoku::State& after) {
  const auto [x, y] = square_of(answer);
  ASSERT_GE(x, 0) << "not a move: " << answer;
  ASSERT_LT(x, before.size);
  ASSERT_LT(y, before.size);
  EXPECT_FALSE(taken(before, x, y)) << answer << " was taken";
  EXPECT_EQ(stone_at(after, x, y), before.side) << answer;
}

// The opponent's TURN on the first empty square of row y and the engine's answer, checked.
void turn_and_check(Session& s, int y) {
  const int x = free_x(s.state(), y);
  gomoku::State after_turn = s.state();
  gomoku::apply(after_turn, gomoku::Move{static_cast<uint8_t>(x), static_cast<uint8_t>(y)});
  const std::string answer = s.send1("TURN " + std::to_string(x) + "," + std::to_string(y));
  expect_engine_move(answer, after_turn, s.state());
  EXPECT_EQ(stone_at(s.state(), x, y), after_turn.side ^ 1) << "the opponent's stone";
}

TEST(Pbrain, XIsTheColumnAndYTheRowFromTheTopAsInTheNotation) {
  Session s(alphabeta_config());
  ASSERT_EQ(s.send1("START 15"), "OK");
  const gomoku::State before = s.state();
  const std::string answer = s.send1("TURN 3,0");
  // The opponent's stone (Black, first) is on column d (x = 3) of row 1, the top row (y = 0).
  EXPECT_EQ(stone_at(s.state(), 3, 0), 0);
  EXPECT_EQ(stone_at(s.state(), 0, 3), -1);
  EXPECT_EQ(gomoku::square_name(3, 0), "d1");
  const gomoku::Move m = GameHost<G>::pbrain_move(before, 3, 0);
  EXPECT_EQ(GameHost<G>::move_text(before, m), "d1");
  EXPECT_EQ(GameHost<G>::pbrain_xy(gomoku::parse_move(before, "o15")), std::make_pair(14, 14));
  EXPECT_EQ(GameHost<G>::pbrain_xy(gomoku::parse_move(before, "a15")), std::make_pair(0, 14));
  gomoku::State after_d1 = before;
  gomoku::apply(after_d1, m);
  // Black's stones on the session's board are those of the position "3x11/..." (d1).
  const std::string position = gomoku::to_string(after_d1);
  EXPECT_EQ(position.substr(0, position.find('/')), "3x11");
  EXPECT_EQ(std::memcmp(s.state().stones[0], after_d1.stones[0], sizeof after_d1.stones[0]), 0);
  expect_engine_move(answer, after_d1, s.state());
}

TEST(Pbrain, StartTakesTheSizesOfTheRulesOnly) {
  Session s(alphabeta_config());
  EXPECT_EQ(s.send1("START 20"), "OK");
  EXPECT_EQ(s.state().size, 20);
  EXPECT_EQ(s.send1("START 19").rfind("ERROR ", 0), 0u);
  EXPECT_EQ(s.state().size, 20) << "a refused size keeps the board";
  EXPECT_EQ(s.send1("RECTSTART 15,20").rfind("ERROR ", 0), 0u);
  EXPECT_EQ(s.send1("RECTSTART 15,15"), "OK");
  EXPECT_EQ(s.state().size, 15);
  for (const char* bad : {"START", "START abc", "START 15,15", "START -1",
                          "START 99999999999999999", "RECTSTART 15", "RECTSTART 15,15,15"})
    EXPECT_EQ(s.send1(bad).rfind("ERROR ", 0), 0u) << bad;
  EXPECT_EQ(s.state().size, 15);
}

TEST(Pbrain, BeginTurnAndRestartPlayLegalMoves) {
  Session s(alphabeta_config());
  ASSERT_EQ(s.send1("START 15"), "OK");
  gomoku::State before = s.state();
  expect_engine_move(s.send1("BEGIN"), before, s.state());
  EXPECT_EQ(s.state().ply, 1);
  // The opponent takes empty squares of the first row; the engine answers each.
  for (int i = 0; i < 4; ++i) turn_and_check(s, 0);
  EXPECT_EQ(s.send1("BEGIN").rfind("ERROR ", 0), 0u) << "BEGIN on a board with stones";
  EXPECT_EQ(s.send1("RESTART"), "OK");
  EXPECT_EQ(s.state().ply, 0);
  EXPECT_EQ(s.state().size, 15);
  before = s.state();
  expect_engine_move(s.send1("BEGIN"), before, s.state());
}

TEST(Pbrain, BoardWithOwnAndOpponentStonesThenDone) {
  Session s(alphabeta_config());
  ASSERT_EQ(s.send1("START 15"), "OK");
  // Two stones each: the engine moves first (Black). Lines in play order, f=1 own, f=2 opponent.
  for (const char* line : {"BOARD", "7,7,1", "8,8,2", "  6,6 ,1\r", "9,5,2"})
    EXPECT_TRUE(s.send(line).empty()) << line;
  const std::string answer = s.send1("DONE");
  const gomoku::State& st = s.state();
  EXPECT_EQ(st.ply, 5);
  EXPECT_EQ(stone_at(st, 7, 7), 0);
  EXPECT_EQ(stone_at(st, 6, 6), 0);
  EXPECT_EQ(stone_at(st, 8, 8), 1);
  EXPECT_EQ(stone_at(st, 9, 5), 1);
  const auto [x, y] = square_of(answer);
  ASSERT_GE(x, 0) << answer;
  EXPECT_EQ(stone_at(st, x, y), 0) << "the engine's stone is Black's";
  EXPECT_FALSE((x == 7 && y == 7) || (x == 6 && y == 6) || (x == 8 && y == 8) ||
               (x == 9 && y == 5));

  // One own stone fewer: the engine is White. The last line's stone can be taken back.
  for (const char* line : {"BOARD", "7,7,2", "8,8,1", "6,6,2"}) EXPECT_TRUE(s.send(line).empty());
  const std::string white = s.send1("DONE");
  const auto [wx, wy] = square_of(white);
  ASSERT_GE(wx, 0) << white;
  EXPECT_EQ(stone_at(s.state(), wx, wy), 1);
  EXPECT_EQ(stone_at(s.state(), 6, 6), 0);
  EXPECT_EQ(s.send1("TAKEBACK " + white), "OK");
  EXPECT_EQ(s.send1("TAKEBACK 6,6"), "OK");
  EXPECT_EQ(s.state().ply, 2);
  EXPECT_EQ(stone_at(s.state(), 6, 6), -1);
}

TEST(Pbrain, AnImmediateWinIsTaken) {
  Session s(alphabeta_config());
  ASSERT_EQ(s.send1("START 15"), "OK");
  // Own four on row 7 from x = 5 to 8, blocked at x = 4: only 9,7 wins. The opponent has an open
  // three elsewhere, which a move that does not win would have to answer.
  for (const char* line :
       {"BOARD", "5,7,1", "4,7,2", "6,7,1", "2,2,2", "7,7,1", "2,3,2", "8,7,1", "2,4,2"})
    EXPECT_TRUE(s.send(line).empty()) << line;
  EXPECT_EQ(s.send1("DONE"), "9,7");
  EXPECT_EQ(s.state().winner, 0);
  EXPECT_EQ(s.send1("TURN 0,0").rfind("ERROR ", 0), 0u) << "the game is over";
}

TEST(Pbrain, TakebackRemovesTheLastStone) {
  Session s(alphabeta_config());
  ASSERT_EQ(s.send1("START 15"), "OK");
  const std::string answer = s.send1("TURN 7,7");
  ASSERT_GE(square_of(answer).first, 0);
  EXPECT_EQ(s.send1("TAKEBACK 7,7").rfind("ERROR ", 0), 0u) << "7,7 is not the last stone";
  EXPECT_EQ(s.state().ply, 2);
  EXPECT_EQ(s.send1("TAKEBACK " + answer), "OK");
  EXPECT_EQ(s.send1("TAKEBACK 7,7"), "OK");
  EXPECT_EQ(s.state().ply, 0);
  EXPECT_EQ(s.send1("TAKEBACK 7,7").rfind("ERROR ", 0), 0u) << "an empty board";
  EXPECT_EQ(s.send1("TAKEBACK x").rfind("ERROR ", 0), 0u);
  const gomoku::State before = s.state();
  expect_engine_move(s.send1("BEGIN"), before, s.state());
}

TEST(Pbrain, MalformedLinesAreAnsweredWithOneErrorLineAndTheSessionGoesOn) {
  Session s(alphabeta_config());
  ASSERT_EQ(s.send1("START 15"), "OK");
  ASSERT_GE(square_of(s.send1("TURN 7,7")).first, 0);
  const gomoku::State kept = s.state();
  const std::vector<std::string> bad = {
      "TURN 15,0",   // off the board
      "TURN -1,3",   // off the board
      "TURN 7,7",    // taken
      "TURN 7",      // no y
      "TURN a,b",    // not numbers
      "TURN 1,2,3",  // one number too many
      "7,7,1",       // an x,y,f line outside BOARD
      "DONE",        // DONE outside BOARD
      "INFO",        // no key
      "INFO timeout_turn abc",
      "INFO time_left -5",
      "INFO max_memory 1e9",
      "INFO rule x",
      "BEGIN now",  // BEGIN takes no arguments
      "RESTART 3",
      std::string("TURN \x01\xff", 7),
  };
  for (const std::string& line : bad) {
    const std::vector<std::string> answer = s.send(line);
    ASSERT_EQ(answer.size(), 1u) << line;
    EXPECT_EQ(answer[0].rfind("ERROR ", 0), 0u) << line << " -> " << answer[0];
    EXPECT_EQ(std::memcmp(&s.state(), &kept, sizeof kept), 0) << line << " changed the board";
  }
  // A bad BOARD: each bad line answered at once, DONE refuses the board and keeps the position.
  EXPECT_TRUE(s.send("BOARD").empty());
  EXPECT_TRUE(s.send("1,1,1").empty());
  EXPECT_EQ(s.send1("1,1").rfind("ERROR ", 0), 0u);
  EXPECT_EQ(s.send1("2,2,4").rfind("ERROR ", 0), 0u) << "f is 1, 2 or 3";
  EXPECT_EQ(s.send1("DONE").rfind("ERROR BOARD ignored", 0), 0u);
  EXPECT_EQ(std::memcmp(&s.state(), &kept, sizeof kept), 0);
  // A square given twice or off the board is answered at its line, naming it (issue 23: before,
  // DONE reported a stone count), and DONE refuses the board.
  for (const auto& [line, what] : {std::pair{"3,3,2", "3,3 is given twice"},
                                   std::pair{"30,3,2", "30,3 is off the 15x15 board"},
                                   std::pair{"3,-1,2", "3,-1 is off the 15x15 board"}}) {
    EXPECT_TRUE(s.send("BOARD").empty());
    EXPECT_TRUE(s.send("3,3,1").empty());
    const std::string answer = s.send1(line);
    EXPECT_EQ(answer.rfind("ERROR ", 0), 0u) << answer;
    EXPECT_NE(answer.find(what), std::string::npos) << answer;
    EXPECT_EQ(s.send1("DONE"), "ERROR BOARD ignored: 1 bad line; the position is unchanged");
    EXPECT_EQ(std::memcmp(&s.state(), &kept, sizeof kept), 0);
  }
  // Counts no side to move can have.
  for (const std::vector<std::string>& board :
       {std::vector<std::string>{"BOARD", "3,3,1", "4,4,1", "5,5,2"},
        std::vector<std::string>{"BOARD", "3,3,2", "4,4,2", "5,5,2", "6,6,1"}}) {
    for (const std::string& line : board) EXPECT_TRUE(s.send(line).empty()) << line;
    const std::string answer = s.send1("DONE");
    EXPECT_EQ(answer.rfind("ERROR BOARD ignored: ", 0), 0u) << answer;
    EXPECT_NE(answer.find(" opponent stones; the side to move has"), std::string::npos) << answer;
    EXPECT_EQ(std::memcmp(&s.state(), &kept, sizeof kept), 0);
  }
  // A command inside BOARD ends it with an error, then runs.
  EXPECT_TRUE(s.send("BOARD").empty());
  const std::vector<std::string> cut = s.send("ABOUT");
  ASSERT_EQ(cut.size(), 2u);
  EXPECT_EQ(cut[0].rfind("ERROR BOARD ended without DONE", 0), 0u);
  EXPECT_EQ(cut[1].rfind("name=", 0), 0u);
  // Still playing.
  turn_and_check(s, 0);
  EXPECT_TRUE(s.send("").empty()) << "an empty line is no command";
}

TEST(Pbrain, UnknownCommandsAboutAndEnd) {
  Session s(alphabeta_config());
  EXPECT_EQ(s.send1("FOO bar"), "UNKNOWN command \"FOO\"");
  EXPECT_EQ(s.send1("PLAY 7,7").rfind("UNKNOWN ", 0), 0u);
  EXPECT_TRUE(std::regex_match(
      s.send1("about"), std::regex("^name=\"selfplay\", version=\"[^\"]+\", author=\"[^\"]+\"$")));
  EXPECT_TRUE(s.send("INFO folder /tmp/x y").empty());
  EXPECT_TRUE(s.send("INFO evaluate 7,7").empty());
  EXPECT_TRUE(s.send("INFO game_type 1").empty());
  EXPECT_TRUE(s.send("INFO some_future_key 3").empty());
  bool more = true;
  EXPECT_TRUE(s.send("END", &more).empty());
  EXPECT_FALSE(more);
}

TEST(Pbrain, RunStopsAtEnd) {
  test::TempDir dir;
  const auto path = dir.write("pbrain.yaml", alphabeta_config());
  const config::Config<G> cfg = config::load_campaign_config<G>(path.string());
  auto backend = rollout::make_backend<G>("cpu", selfplay::play_backend_options(cfg));
  std::istringstream in("START 15\r\nABOUT\nEND\nABOUT\n");
  std::ostringstream out, log;
  PbrainSession<G>(cfg, *backend, in, out, log).run();
  const std::vector<std::string> lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 2u) << out.str();
  EXPECT_EQ(lines[0], "OK");
  EXPECT_EQ(lines[1].rfind("name=", 0), 0u);
}

TEST(Pbrain, ReadLineEndsLinesAtLfCrLfAndBareCr) {
  std::istringstream in("a\rb\r\nc\n\nd");
  std::vector<std::string> got;
  for (std::string line; selfplay::pbrain_detail::read_line(in, line);) got.push_back(line);
  EXPECT_EQ(got, (std::vector<std::string>{"a", "b", "", "c", "", "d"}));
  std::string line = "kept?";
  EXPECT_FALSE(selfplay::pbrain_detail::read_line(in, line));
  EXPECT_EQ(line, "");
}

// A manager that ends its lines with a bare CR (issue 23: the whole input was one line): each
// command is answered, BOARD included.
TEST(Pbrain, BareCarriageReturnsEndLines) {
  test::TempDir dir;
  const auto path = dir.write("pbrain.yaml", alphabeta_config());
  const config::Config<G> cfg = config::load_campaign_config<G>(path.string());
  auto backend = rollout::make_backend<G>("cpu", selfplay::play_backend_options(cfg));
  std::istringstream in("START 15\rBOARD\r7,7,1\r8,8,2\rDONE\r\r\nABOUT\rEND\rABOUT\r");
  std::ostringstream out, log;
  PbrainSession<G> session(cfg, *backend, in, out, log);
  session.run();
  const std::vector<std::string> lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 3u) << out.str();
  EXPECT_EQ(lines[0], "OK");
  EXPECT_EQ(square_of(lines[1]).first >= 0, true) << "a move: " << lines[1];
  EXPECT_EQ(lines[2].rfind("name=", 0), 0u);
  EXPECT_EQ(session.state().ply, 3) << "the two BOARD stones and the engine's";
}

TEST(Pbrain, InfoRuleSetsTheWinRuleAndRefusesRenju) {
  Session s(alphabeta_config());
  ASSERT_EQ(s.send1("START 15"), "OK");
  EXPECT_TRUE(s.send("INFO rule 1").empty());
  EXPECT_EQ(s.state().rule, gomoku::WinRule::kStandard);
  const std::string renju = s.send1("INFO rule 4");
  EXPECT_EQ(renju.rfind("ERROR ", 0), 0u);
  EXPECT_NE(renju.find("renju"), std::string::npos) << renju;
  EXPECT_EQ(s.state().rule, gomoku::WinRule::kStandard) << "a refused rule keeps the rule";
  EXPECT_EQ(s.send1("INFO rule 8").rfind("ERROR ", 0), 0u) << "caro";
  EXPECT_EQ(s.send1("INFO rule 16").rfind("ERROR ", 0), 0u) << "an unknown bit";
  EXPECT_TRUE(s.send("INFO rule 2").empty()) << "continuous games: ignored";
  EXPECT_EQ(s.state().rule, gomoku::WinRule::kFreestyle);
  EXPECT_TRUE(s.send("INFO rule 3").empty());
  EXPECT_EQ(s.state().rule, gomoku::WinRule::kStandard);
  // The rule holds for the stones already played and for the next game.
  ASSERT_GE(square_of(s.send1("TURN 7,7")).first, 0);
  EXPECT_TRUE(s.send("INFO rule 0").empty());
  EXPECT_EQ(s.state().rule, gomoku::WinRule::kFreestyle);
  EXPECT_EQ(s.state().ply, 2);
  EXPECT_EQ(s.send1("START 20"), "OK");
  EXPECT_EQ(s.state().rule, gomoku::WinRule::kFreestyle);
}

TEST(Pbrain, InfoRuleDecidesWhatWins) {
  // Own stones x = 2..5 and 7 on row 7, x = 1 blocked: 6,7 makes six in a row, a win under
  // freestyle (rule 0) and none under exactly five (rule 1), where no move wins at once.
  for (const bool exact : {false, true}) {
    Session s(alphabeta_config());
    ASSERT_EQ(s.send1("START 15"), "OK");
    ASSERT_TRUE(s.send(exact ? "INFO rule 1" : "INFO rule 0").empty());
    for (const char* line : {"BOARD", "2,7,1", "1,7,2", "3,7,1", "0,0,2", "4,7,1", "0,2,2", "5,7,1",
                             "0,4,2", "7,7,1", "14,14,2"})
      EXPECT_TRUE(s.send(line).empty()) << line;
    const std::string answer = s.send1("DONE");
    ASSERT_GE(square_of(answer).first, 0) << answer;
    if (exact) {
      EXPECT_EQ(s.state().winner, gomoku::kNoWinner) << answer << ": six is no win";
    } else {
      EXPECT_EQ(answer, "6,7");
      EXPECT_EQ(s.state().winner, 0);
    }
  }
}

TEST(Pbrain, MoveBudgetFromTheManagersClock) {
  using selfplay::move_budget_ms;
  EXPECT_EQ(move_budget_ms(PbrainClock{}), 0u) << "no clock: the configured limits";
  EXPECT_EQ(move_budget_ms(PbrainClock{1000, -1, -1}), 870u);  // less 30 ms + 10%
  EXPECT_EQ(move_budget_ms(PbrainClock{0, -1, -1}), 1u) << "0: as fast as possible";
  EXPECT_EQ(move_budget_ms(PbrainClock{40, -1, -1}), 20u) << "the margin is at most half";
  // time_left shared over 25 moves, the tighter of the two.
  EXPECT_EQ(move_budget_ms(PbrainClock{30000, 180000, 100000}), 3570u);
  EXPECT_EQ(move_budget_ms(PbrainClock{1000, 180000, 100000}), 870u);
  EXPECT_EQ(move_budget_ms(PbrainClock{-1, -1, 100000}), 3570u);
  EXPECT_EQ(move_budget_ms(PbrainClock{1000, 0, 100}), 870u) << "timeout_match 0: no match limit";
  EXPECT_EQ(move_budget_ms(PbrainClock{1000, 180000, 10}), 1u) << "almost no time left";
}

TEST(Pbrain, MaxMemoryCapsTheTableOrTree) {
  std::string note;
  config::EngineConfig ab;
  ab.type = config::EngineType::kAlphaBeta;
  ab.tt_size_mb = 64;
  EXPECT_EQ(selfplay::memory_capped_engine(ab, 0, &note).tt_size_mb, 64u);
  EXPECT_EQ(note, "");
  EXPECT_EQ(selfplay::memory_capped_engine(ab, 40u << 20, &note).tt_size_mb, 20u);
  EXPECT_NE(note.find("transposition table capped from 64 to 20 MiB"), std::string::npos) << note;
  EXPECT_EQ(selfplay::memory_capped_engine(ab, 1000, &note).tt_size_mb, 1u);
  EXPECT_EQ(selfplay::memory_capped_engine(ab, 1u << 30, &note).tt_size_mb, 64u);
  config::EngineConfig mcts;
  mcts.node_budget = 16;
  EXPECT_EQ(selfplay::memory_capped_engine(mcts, 8u << 20, &note).node_budget, 4u);

  Session s(alphabeta_config());
  ASSERT_EQ(s.send1("START 15"), "OK");
  EXPECT_TRUE(s.send("INFO max_memory 20971520").empty());
  const gomoku::State before = s.state();
  expect_engine_move(s.send1("BEGIN"), before, s.state());
  EXPECT_NE(s.log().find("capped from 64 to 10 MiB"), std::string::npos) << s.log();
}

// The search's own report (the log line of each move): its rollouts.
uint64_t logged_rollouts(const std::string& log) {
  static const std::regex kRollouts(", ([0-9]+) rollouts,");
  std::smatch m;
  std::string last;
  for (const std::string& line : lines_of(log))
    if (std::regex_search(line, m, kRollouts)) last = m[1];
  return last.empty() ? 0 : std::stoull(last);
}

TEST(Pbrain, MctsAnswersWithinTheClockInsteadOfItsRolloutBudget) {
  Session s(mcts_config());
  ASSERT_EQ(s.send1("START 15"), "OK");
  EXPECT_TRUE(s.send("INFO timeout_turn 200").empty());
  // The opponent's first stone: on the empty board MCTS has a single candidate (the centre) and
  // answers without a search, so the clock is tested on a reply.
  turn_and_check(s, 7);
  const uint64_t first = logged_rollouts(s.log());
  EXPECT_GT(first, 0u) << s.log();
  EXPECT_LT(first, kHugeRollouts) << "stopped by the clock, not the rollout budget";
  // Time pressure: a few ms of the match left still gives a legal move, after one round.
  EXPECT_TRUE(s.send("INFO timeout_turn 30000").empty());
  EXPECT_TRUE(s.send("INFO timeout_match 180000").empty());
  EXPECT_TRUE(s.send("INFO time_left 40").empty());
  turn_and_check(s, 0);
  const uint64_t pressed = logged_rollouts(s.log());
  EXPECT_GT(pressed, 0u);
  EXPECT_LT(pressed, kHugeRollouts);
}

// A config whose engine is itself an external program is refused with the key, not relayed.
TEST(Pbrain, AnExternalEngineAsOurEngineIsRefused) {
  try {
    Session s("game: gomoku\nengines:\n  player0: {type: pbrain, command: /bin/cat}\n");
    FAIL() << "a pbrain engine behind selfplay pbrain was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("engines.player0 is itself an external program"),
              std::string::npos)
        << e.what();
  }
}

TEST(Pbrain, AlphaBetaAsFastAsPossible) {
  Session s(alphabeta_config());
  ASSERT_EQ(s.send1("START 15"), "OK");
  EXPECT_TRUE(s.send("INFO timeout_turn 0").empty());
  for (int i = 0; i < 3; ++i) turn_and_check(s, 14);
  EXPECT_NE(s.log().find("budget 1 ms"), std::string::npos) << s.log();
}

// ---- The binary over pipes.

// `selfplay pbrain` (or the link) as a child with its stdin and stdout on pipes: each ask() writes
// a line and reads the answer, failing after a generous timeout, so an answer left in a buffer
// (not flushed before the engine waits for the next command) fails the test instead of arriving
// at exit.
class PbrainProcess {
 public:
  PbrainProcess(const std::string& program, const std::vector<std::string>& args,
                const std::vector<std::string>& env) {
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) throw std::runtime_error("pipe failed");
    std::vector<std::string> all = {program};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_strings;
    for (char** e = environ; *e; ++e) {
      const std::string entry(*e);
      bool replaced = false;
      for (const std::string& mine : env)
        replaced |= entry.substr(0, entry.find('=') + 1) == mine.substr(0, mine.find('=') + 1);
      if (!replaced) env_strings.push_back(entry);
    }
    env_strings.insert(env_strings.end(), env.begin(), env.end());
    std::vector<char*> envp;
    for (auto& e : env_strings) envp.push_back(e.data());
    envp.push_back(nullptr);
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      const int null = open("/dev/null", O_WRONLY);
      if (dup2(to_child[0], 0) < 0 || dup2(from_child[1], 1) < 0 || dup2(null, 2) < 0) _exit(126);
      for (const int fd : {to_child[0], to_child[1], from_child[0], from_child[1], null}) close(fd);
      execve(argv[0], argv.data(), envp.data());
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = to_child[1];
    out_ = from_child[0];
  }
  ~PbrainProcess() {
    if (in_ >= 0) close(in_);
    if (out_ >= 0) close(out_);
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }

  void send(const std::string& line) {
    const std::string text = line + "\n";
    ASSERT_EQ(write(in_, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  }
  // The next line of output; "" (and a failure) when none comes within 30 s or the output ends.
  std::string read_line() {
    for (;;) {
      const size_t nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        all_.push_back(line);
        return line;
      }
      pollfd p{out_, POLLIN, 0};
      if (poll(&p, 1, 30'000) <= 0) {
        ADD_FAILURE() << "no answer within 30 s (not flushed?)";
        return "";
      }
      char buf[512];
      const ssize_t n = read(out_, buf, sizeof buf);
      if (n <= 0) {
        ADD_FAILURE() << "the output ended";
        return "";
      }
      buffer_.append(buf, static_cast<size_t>(n));
    }
  }
  std::string ask(const std::string& line) {
    send(line);
    return read_line();
  }
  // Closes stdin after END and returns the exit code; *rest gets what was written after the last
  // line read.
  int finish(std::string* rest) {
    close(in_);
    in_ = -1;
    char buf[512];
    ssize_t n;
    while ((n = read(out_, buf, sizeof buf)) > 0) buffer_.append(buf, static_cast<size_t>(n));
    *rest = buffer_;
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = 0;
    return test::exit_code(status);
  }
  const std::vector<std::string>& lines() const { return all_; }

 private:
  pid_t pid_ = 0;
  int in_ = -1, out_ = -1;
  std::string buffer_;
  std::vector<std::string> all_;
};

// One game over the pipes: every answer on time, legal, and nothing but protocol lines.
void play_over_pipes(PbrainProcess& p) {
  EXPECT_EQ(p.ask("START 15"), "OK");
  p.send("INFO timeout_turn 300");
  p.send("INFO timeout_match 100000");
  p.send("INFO time_left 100000");
  p.send("INFO max_memory 83886080");
  p.send("INFO rule 1");
  std::set<std::pair<int, int>> stones;
  const std::pair<int, int> first = square_of(p.ask("BEGIN"));
  EXPECT_GE(first.first, 0);
  stones.insert(first);
  for (int i = 0; i < 3; ++i) {
    int x = 0;
    while (stones.count({x, 0})) ++x;
    stones.insert({x, 0});
    p.send("INFO time_left 90000");
    const std::pair<int, int> answer = square_of(p.ask("TURN " + std::to_string(x) + ",0"));
    EXPECT_GE(answer.first, 0);
    EXPECT_TRUE(stones.insert(answer).second) << "the engine played on a taken square";
  }
  EXPECT_EQ(p.ask("TURN 99,0").rfind("ERROR ", 0), 0u);
  EXPECT_EQ(p.ask("HELLO").rfind("UNKNOWN ", 0), 0u);
  EXPECT_EQ(p.ask("INFO rule 4").rfind("ERROR ", 0), 0u);
  EXPECT_EQ(p.ask("RESTART"), "OK");
  p.send("BOARD");
  p.send("7,7,2");
  EXPECT_GE(square_of(p.ask("DONE")).first, 0);
  EXPECT_EQ(p.ask("ABOUT").rfind("name=\"selfplay\"", 0), 0u);
  p.send("END");
  std::string rest;
  EXPECT_EQ(p.finish(&rest), 0);
  EXPECT_EQ(rest, "") << "nothing after END";
  for (const std::string& line : p.lines()) EXPECT_TRUE(is_protocol_line(line)) << line;
}

TEST(PbrainCli, PlaysOverPipesFlushingEveryAnswer) {
  test::TempDir dir;
  const auto config = dir.write("pbrain.yaml", alphabeta_config());
  PbrainProcess p(SELFPLAY_BINARY, {"pbrain", "--config", config.string()}, {});
  play_over_pipes(p);
}

// The session hears its manager while it thinks (issue 41, item 2): with a clock of 24 days and no
// depth limit a search would never end by itself, yet END and the end of input end it at once,
// answered with the best move so far, and the process exits 0. (Before, it thought on, deaf, and
// this test hung.)
TEST(PbrainCli, EndAndTheEndOfInputStopASearchAtOnce) {
  test::TempDir dir;
  const auto config = dir.write(
      "endless.yaml", "game: gomoku\nengines:\n  player0: {type: alphabeta, weights: " +
                          test::source_path("configs/gomoku/weights/classic.yaml") +
                          ", depth: 0, time_ms: 3600000, tt_size_mb: 8}\nbackend: {name: cpu, "
                          "threads: 1}\n");
  for (const bool end : {true, false}) {
    PbrainProcess p(SELFPLAY_BINARY, {"pbrain", "--config", config.string()}, {});
    EXPECT_EQ(p.ask("START 15"), "OK");
    p.send("INFO timeout_turn 2147483647");
    p.send("BEGIN");
    if (end) p.send("END");
    std::string rest;
    EXPECT_EQ(p.finish(&rest), 0);
    EXPECT_GE(square_of(rest.substr(0, rest.find('\n'))).first, 0) << rest;
  }
}

TEST(PbrainCli, TheLinkIsSelfplayPbrainWithTheConfigOfTheEnvironment) {
  const std::filesystem::path link =
      std::filesystem::path(SELFPLAY_BINARY).parent_path() / "pbrain-selfplay";
  ASSERT_TRUE(std::filesystem::is_symlink(link)) << link;
  EXPECT_EQ(std::filesystem::read_symlink(link), "selfplay");
  test::TempDir dir;
  const auto config = dir.write("pbrain.yaml", alphabeta_config());
  PbrainProcess p(link.string(), {}, {"SELFPLAY_PBRAIN_CONFIG=" + config.string()});
  play_over_pipes(p);
}

TEST(PbrainCli, TheLinkFindsTheShippedConfig) {
  const std::string link =
      (std::filesystem::path(SELFPLAY_BINARY).parent_path() / "pbrain-selfplay").string();
  PbrainProcess p(link, {}, {"SELFPLAY_PBRAIN_CONFIG="});
  EXPECT_EQ(p.ask("START 20"), "OK");
  p.send("INFO timeout_turn 100");
  EXPECT_GE(square_of(p.ask("TURN 10,10")).first, 0);
  p.send("END");
  std::string rest;
  EXPECT_EQ(p.finish(&rest), 0);
  const test::CommandResult check =
      test::run_command("'" + std::string(SELFPLAY_BINARY) + "' config --check '" +
                        test::source_path("configs/gomoku/pbrain.yaml") + "' 2>&1");
  EXPECT_EQ(check.code, 0) << check.out;
}

TEST(PbrainCli, GamesWithoutTheProtocolAndBadConfigsExitTwo) {
  const std::string bin = std::string("'") + SELFPLAY_BINARY + "'";
  test::CommandResult r = test::run_command(bin + " pbrain --game ewn </dev/null 2>&1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("ewn has no Gomocup (pbrain) protocol"), std::string::npos) << r.out;
  r = test::run_command(bin + " pbrain --config '" +
                        test::source_path("configs/ewn/campaign.yaml") + "' </dev/null 2>&1");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("has no Gomocup (pbrain) protocol"), std::string::npos) << r.out;
  r = test::run_command(bin + " pbrain --config /nonexistent.yaml </dev/null 2>&1");
  EXPECT_EQ(r.code, 2) << r.out;
  // End of input without END is a normal end too.
  r = test::run_command("printf 'START 15\\n' | " + bin + " pbrain --config '" +
                        test::source_path("configs/gomoku/pbrain.yaml") + "' 2>/dev/null");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "OK\n");
}

}  // namespace
}  // namespace sp
