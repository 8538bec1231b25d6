// selfplay's engine protocol (docs/engine-protocol.md, issue 27) on both sides.
// - The engine side (`selfplay engine`, EngineSession): each command's answer, legal moves in the
//   positions POSITION sets (MOVES replayed), bad input answered ERROR with the position kept, the
//   clock's budget, Gomoku too, and the CLI.
// - The manager side (`type: external` in matches, ExternalEngine): the lines it sends, every way a
//   program fails forfeiting with its reason (tests/fake_engine.cpp misbehaves on request), a
//   program refusing START stopping the match before its file exists, and our own engine over the
//   protocol playing the games it plays in the process.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "games/hosts.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/system/child_process.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/match.hpp"
#include "host/play/terminal/human_game.hpp"
#include "host/protocols/engine_session.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

using search::Termination;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// A session over string streams; send() answers one line and returns what it wrote.
template <class G>
class Session {
 public:
  explicit Session(const std::string& yaml) {
    const auto path = dir_.write("engine.yaml", yaml);
    cfg_ = config::load_campaign_config<G>(path.string());
    backend_ = rollout::make_backend<G>("cpu", selfplay::play_backend_options(cfg_));
    session_ = std::make_unique<selfplay::EngineSession<G>>(cfg_, *backend_, in_, out_, log_);
  }
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
  const selfplay::EngineSession<G>& session() const { return *session_; }
  std::string log() const { return log_.str(); }

 private:
  test::TempDir dir_;
  config::Config<G> cfg_;
  std::unique_ptr<rollout::Backend<G>> backend_;
  std::istringstream in_;
  std::ostringstream out_, log_;
  std::unique_ptr<selfplay::EngineSession<G>> session_;
};

std::string checkers_engine_yaml(int depth = 2, int time_ms = 0) {
  return "game: checkers\n"
         "engines:\n"
         "  player0:\n"
         "    type: alphabeta\n"
         "    weights: " +
         test::source_path("configs/checkers/weights/classic.yaml") +
         "\n"
         "    depth: " +
         std::to_string(depth) +
         "\n"
         "    time_ms: " +
         std::to_string(time_ms) +
         "\n"
         "    tt_size_mb: 1\n"
         "backend: {name: cpu, threads: 1}\n";
}

// The legal moves of s as PDN.
std::set<std::string> legal_texts(const checkers::State& s) {
  checkers::MoveList list;
  CheckersGame::generate_moves(s, checkers::Rules{}, list);
  std::set<std::string> out;
  for (int i = 0; i < list.size; ++i) out.insert(checkers::to_string(list.moves[i]));
  return out;
}

TEST(EngineSession, StartAnswersOkForItsOwnGameOnly) {
  Session<CheckersGame> s(checkers_engine_yaml());
  EXPECT_EQ(s.send1("START checkers"), "OK");
  EXPECT_EQ(s.send1("START gomoku"), "ERROR this engine plays checkers, not 'gomoku'");
  EXPECT_EQ(s.send1("START"), "ERROR START takes the game's name: START checkers");
  EXPECT_EQ(s.send1("ABOUT").rfind("name=\"selfplay\"", 0), 0u);
  EXPECT_EQ(s.send1("HELLO there"), "UNKNOWN command \"HELLO\"");
  EXPECT_TRUE(s.send("").empty());
  EXPECT_TRUE(s.send("INFO timeout_turn 500").empty());
  EXPECT_TRUE(s.send("INFO some_key_it_does_not_know 1").empty());
  EXPECT_EQ(s.send1("INFO timeout_turn soon").rfind("ERROR", 0), 0u);
  // A manager's "no limit" as INT64_MAX, or larger, is a count (issue 41, item 7).
  EXPECT_TRUE(s.send("INFO timeout_turn 9223372036854775807").empty());
  EXPECT_TRUE(s.send("INFO time_left 99999999999999999999999999").empty());
  EXPECT_EQ(s.send1("INFO timeout_turn -1").rfind("ERROR", 0), 0u);
  bool more = true;
  EXPECT_TRUE(s.send("END", &more).empty());
  EXPECT_FALSE(more);
}

TEST(EngineSession, GoAnswersALegalMoveOfThePositionTheMovesLeadTo) {
  Session<CheckersGame> s(checkers_engine_yaml());
  ASSERT_EQ(s.send1("START checkers"), "OK");
  EXPECT_TRUE(s.send("POSITION B:W21-32:B1-12").empty());
  const std::set<std::string> black = {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"};
  EXPECT_EQ(black.count(s.send1("GO")), 1u);
  EXPECT_TRUE(s.send("POSITION B:W21-32:B1-12 MOVES 11-15").empty());
  EXPECT_EQ(s.session().state().side, 1);
  const std::set<std::string> white = {"21-17", "22-17", "22-18", "23-18",
                                       "23-19", "24-19", "24-20"};
  EXPECT_EQ(white.count(s.send1("GO")), 1u);
  // The moves of the game so far, the short form of a capture among them: 11-15 23-19 8-11
  // 22-18 15x22 (x22 is the short form of the only capture) 25x18 ...
  EXPECT_TRUE(s.send("POSITION B:W21-32:B1-12 MOVES 11-15 23-19 8-11 22-18 15x22").empty());
  const checkers::State after = s.session().state();
  EXPECT_EQ(after.side, 1);
  const std::set<std::string> legal = legal_texts(after);
  for (const std::string& m : legal) EXPECT_NE(m.find('x'), std::string::npos) << m;
  EXPECT_EQ(legal.count(s.send1("GO")), 1u) << "a capture is forced";
  // A king position with the draw counters.
  EXPECT_TRUE(s.send("POSITION W:WK18:BK14,K27 ply=90/400 quiet=10/80").empty());
  EXPECT_EQ(s.session().state().ply, 90);
  EXPECT_EQ(legal_texts(s.session().state()).count(s.send1("GO")), 1u);
}

TEST(EngineSession, BadInputIsAnsweredWithAnErrorAndKeepsThePosition) {
  Session<CheckersGame> s(checkers_engine_yaml());
  EXPECT_EQ(s.send1("GO"), "ERROR GO before POSITION");
  EXPECT_EQ(s.send1("POSITION nonsense").rfind("ERROR", 0), 0u);
  EXPECT_FALSE(s.session().has_position());
  ASSERT_TRUE(s.send("POSITION B:W21-32:B1-12 MOVES 11-15").empty());
  const checkers::State kept = s.session().state();
  const std::string illegal = s.send1("POSITION B:W21-32:B1-12 MOVES 11-15 1-5");
  EXPECT_EQ(illegal.rfind("ERROR move 2: ", 0), 0u) << illegal;
  EXPECT_EQ(s.send1("POSITION W:W99:B1").rfind("ERROR", 0), 0u);
  EXPECT_EQ(GameHost<CheckersGame>::position_text(s.session().state()),
            GameHost<CheckersGame>::position_text(kept))
      << "an error keeps the position";
  EXPECT_TRUE(s.send("POSITION B:W21-32:B1-12 MOVES").empty()) << "MOVES with none is the start";
  EXPECT_EQ(s.session().state().side, 0);
  EXPECT_EQ(s.send1("POSITION MOVES 11-15"), "ERROR POSITION needs a position before MOVES");
  EXPECT_EQ(s.send1("GO x"), "ERROR GO takes no arguments");
  // Black has no piece left: the game is over, no move to make.
  ASSERT_TRUE(s.send("POSITION B:W21:B").empty()) << "a finished position is a position";
  EXPECT_EQ(s.send1("GO"), "ERROR the game is over; no move to make");
  EXPECT_EQ(s.send1("POSITION B:W21:B MOVES 1-5"), "ERROR move 1 '1-5': the game is already over");
}

// Threefold repetition ends the game as the driver sees it (issue 41, item 5): the kings' shuffle
// brings W:WK18:BK3 back a third time, then GO has no move to make and a move after it is refused;
// two occurrences still leave a game to play.
TEST(EngineSession, ThreefoldRepetitionEndsTheGame) {
  Session<CheckersGame> s(checkers_engine_yaml());
  const std::string cycle = " 18-22 3-7 22-18 7-3";
  ASSERT_TRUE(s.send("POSITION W:WK18:BK3 MOVES" + cycle).empty());
  EXPECT_EQ(legal_texts(s.session().state()).count(s.send1("GO")), 1u) << "seen twice: play on";
  ASSERT_TRUE(s.send("POSITION W:WK18:BK3 MOVES" + cycle + cycle).empty());
  EXPECT_EQ(s.send1("GO"),
            "ERROR the game is over: the position occurred 3 times (drawn by repetition); no move "
            "to make");
  EXPECT_EQ(s.send1("POSITION W:WK18:BK3 MOVES" + cycle + cycle + " 18-22"),
            "ERROR move 9 '18-22': the game is already over (drawn by repetition)");
  // The refused POSITION kept the drawn one; a new one plays again.
  EXPECT_EQ(s.send1("GO").rfind("ERROR the game is over", 0), 0u);
  ASSERT_TRUE(s.send("POSITION W:WK18:BK3 MOVES 18-22").empty());
  EXPECT_EQ(legal_texts(s.session().state()).count(s.send1("GO")), 1u);
}

// The manager's clock gives the move its budget (move_budget_ms: 500 ms less 30 ms + 10%).
TEST(EngineSession, TheManagersClockGivesEachMoveItsBudget) {
  Session<CheckersGame> s(checkers_engine_yaml(2, 1000));
  ASSERT_TRUE(s.send("INFO timeout_turn 500").empty());
  ASSERT_TRUE(s.send("POSITION B:W21-32:B1-12").empty());
  EXPECT_FALSE(s.send1("GO").empty());
  EXPECT_NE(s.log().find("budget 420 ms"), std::string::npos) << s.log();
}

TEST(EngineSession, PlaysGomokuToo) {
  Session<GomokuGame> s(
      "game: gomoku\n"
      "engines:\n"
      "  player0: {type: alphabeta, weights: " +
      test::source_path("configs/gomoku/weights/classic.yaml") +
      ", depth: 1, tt_size_mb: 1}\n"
      "backend: {name: cpu, threads: 1}\n");
  ASSERT_EQ(s.send1("START gomoku"), "OK");
  const std::string empty =
      GameHost<GomokuGame>::position_text(GameHost<GomokuGame>::pbrain_start(GomokuGame::Rules{}));
  ASSERT_TRUE(s.send("POSITION " + empty + " MOVES h8 h9").empty());
  const std::string answer = s.send1("GO");
  EXPECT_NO_THROW(gomoku::parse_move(s.session().state(), answer)) << answer;
}

// --- The manager side --------------------------------------------------------------------------

std::string fake_command(const std::string& args = "") {
  return std::string(FAKE_ENGINE) + (args.empty() ? "" : " " + args);
}

// A checkers match over the ballots: alpha-beta at depth 1 (A) against the external program
// `command` (B), with more of its keys in `keys`.
std::string match_text(const std::string& command, const std::string& keys = "", int pairs = 2) {
  std::string quoted;
  for (const char c : command) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return "game: checkers\n"
         "rules: {start: ballots}\n"
         "campaign: {concurrency: 2, seed: 5}\n"
         "engines:\n"
         "  player0: {type: alphabeta, weights: " +
         test::source_path("configs/checkers/weights/classic.yaml") +
         ", depth: 1, tt_size_mb: 1}\n"
         "  player1: {type: external, command: '" +
         quoted + "'" + (keys.empty() ? "" : ", " + keys) +
         "}\n"
         "backend: {name: cpu, threads: 2}\n"
         "output: {positions_per_game: 0, flush_seconds: 0.05}\n"
         "match: {pairs: " +
         std::to_string(pairs) + ", sprt: {enabled: false}}\n";
}

struct Played {
  selfplay::MatchResult result;
  std::vector<io::GameRow> games;  // by game id
};

Played play(const std::string& text, const std::string& out) {
  auto cfg = config::load_match_config_text<CheckersGame>(text, "external-match.yaml");
  cfg.output.path = out;
  std::atomic<bool> stop{false};
  Played p;
  p.result = selfplay::run_match<CheckersGame>(cfg, {}, stop);
  io::CampaignReader reader(out);
  p.games = reader.games();
  std::sort(p.games.begin(), p.games.end(),
            [](const auto& a, const auto& b) { return a.game_id < b.game_id; });
  return p;
}

std::string verify(const std::string& path) {
  const auto v = test::run_command(std::string(SELFPLAY_BINARY) + " verify " + path + " 2>&1");
  return std::to_string(v.code) + ": " + v.out;
}

// What the manager sends: START checkers and the clock, then per move the game's start (the
// ballot's position) with the moves since and GO; END at the end. The fake's chatter is ignored.
TEST(ExternalMatch, SpeaksTheProtocolAndIgnoresChatter) {
  test::TempDir tmp;
  const std::string log = tmp.file("protocol.log");
  // One game at a time: both games' processes append to the one log.
  std::string text = match_text(fake_command("--chatter --log " + log),
                                "timeout_turn_ms: 5000, tolerance_ms: 200", 1);
  text.replace(text.find("concurrency: 2"), 14, "concurrency: 1");
  const Played p = play(text, tmp.file("m.h5"));
  ASSERT_EQ(p.games.size(), 2u);
  for (const auto& g : p.games) EXPECT_EQ(g.termination, 0) << g.game_id;
  const std::vector<std::string> sent = lines_of(test::read_text(log));
  ASSERT_GE(sent.size(), 8u);
  // The probe before the match.
  EXPECT_EQ(sent[0], "START checkers");
  EXPECT_EQ(sent[1], "INFO timeout_turn 5000");
  EXPECT_EQ(sent[2], "INFO timeout_match 0");
  EXPECT_EQ(sent[3], "END");
  int starts = 0, gos = 0, ends = 0;
  for (size_t i = 0; i < sent.size(); ++i) {
    if (sent[i] == "START checkers") ++starts;
    if (sent[i] == "END") ++ends;
    if (sent[i] != "GO") continue;
    ++gos;
    ASSERT_GE(i, 2u);
    EXPECT_EQ(sent[i - 1].rfind("POSITION ", 0), 0u) << sent[i - 1];
    EXPECT_EQ(sent[i - 2].rfind("INFO time_left ", 0), 0u) << sent[i - 2];
  }
  EXPECT_EQ(starts, 3);
  EXPECT_EQ(ends, 3);
  EXPECT_GT(gos, 4);
  EXPECT_EQ(std::count(sent.begin(), sent.end(), "INFO timeout_turn 5000"), 3);
  EXPECT_EQ(std::count(sent.begin(), sent.end(), "INFO timeout_match 0"), 3);
  // Every POSITION of a game names the same start, with the moves since in PDN.
  std::string start;
  size_t with_moves = 0;
  for (const std::string& line : sent) {
    if (line == "START checkers") start.clear();
    if (line.rfind("POSITION ", 0) != 0) continue;
    const size_t at = line.find(" MOVES ");
    const std::string this_start =
        line.substr(9, at == std::string::npos ? std::string::npos : at - 9);
    if (start.empty()) start = this_start;
    EXPECT_EQ(this_start, start);
    EXPECT_NO_THROW(checkers::parse_position(this_start)) << this_start;
    with_moves += at != std::string::npos;
  }
  EXPECT_GT(with_moves, 2u);
  EXPECT_NE(verify(tmp.file("m.h5")).find("0: verified 2 games"), std::string::npos)
      << verify(tmp.file("m.h5"));
}

struct Fault {
  const char* name;
  const char* args;
  Termination reason;
  const char* detail;  // in the summary's forfeit line
  // Generous turns, so that a loaded machine never turns the legal moves before the fault into
  // time losses; the late engine's case has short ones.
  const char* keys = "timeout_turn_ms: 5000, tolerance_ms: 100";
};

class ExternalFault : public ::testing::TestWithParam<Fault> {};

// B misbehaves at its second move in every game: each game is forfeited there for the fault's
// reason, the next game gets a fresh process, and the match plays all its games.
TEST_P(ExternalFault, ForfeitsEveryGameAtTheFaultyMove) {
  const Fault& f = GetParam();
  test::TempDir tmp;
  const Played p = play(match_text(fake_command(f.args), f.keys), tmp.file("m.h5"));
  ASSERT_EQ(p.games.size(), 4u);
  for (const auto& g : p.games) {
    EXPECT_EQ(g.termination, static_cast<int>(f.reason)) << g.game_id;
    // B (player1 in even games, player0 in odd ones: pairs swap colours) lost.
    const int b_player = g.game_id % 2 == 0 ? 1 : 0;
    EXPECT_EQ(g.winner, 1 - b_player) << g.game_id;
  }
  EXPECT_EQ(p.result.forfeits[1][static_cast<int>(f.reason)], 4u);
  const std::string text = selfplay::match_detail::forfeits_text(p.result);
  EXPECT_NE(text.find(f.detail), std::string::npos) << text;
  EXPECT_NE(verify(tmp.file("m.h5")).find("0: verified 4 games"), std::string::npos)
      << verify(tmp.file("m.h5"));
}

INSTANTIATE_TEST_SUITE_P(
    Faults, ExternalFault,
    ::testing::Values(Fault{"Exit", "--exit-at 2", Termination::kCrash, "crash"},
                      Fault{"Late", "--late-at 2 1000", Termination::kTimeLoss, "time loss",
                            "timeout_turn_ms: 300, tolerance_ms: 100"},
                      Fault{"Garbage", "--garbage-at 2", Termination::kIllegalMove, "illegal"},
                      Fault{"Illegal", "--illegal-at 2", Termination::kIllegalMove, "illegal"},
                      Fault{"Error", "--error-at 2", Termination::kIllegalMove, "illegal"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(ExternalMatch, AProgramRefusingTheGameLeavesNoFile) {
  test::TempDir tmp;
  const std::string out = tmp.file("m.h5");
  try {
    play(match_text(fake_command("--refuse-start"), "tolerance_ms: 50", 1), out);
    ADD_FAILURE() << "the match ran";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("this engine plays no such game"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(out)) << "a file without games was left";
}

// Our own engine as the external program: `selfplay engine` over the same alpha-beta as engine A
// at a fixed depth plays, through the protocol, the games it plays in the process.
TEST(ExternalMatch, OurOwnEngineOverTheProtocolPlaysAsItDoesInProcess) {
  test::TempDir tmp;
  const std::string own = tmp.write("own.yaml", checkers_engine_yaml(1)).string();
  const std::string command = std::string(SELFPLAY_BINARY) + " engine --config " + own;
  const Played external = play(match_text(command), tmp.file("external.h5"));
  std::string internal_text = match_text(command);
  internal_text.replace(
      internal_text.find("{type: external"), std::string::npos,
      "{type: alphabeta, weights: " + test::source_path("configs/checkers/weights/classic.yaml") +
          ", depth: 1, tt_size_mb: 1}\n"
          "backend: {name: cpu, threads: 2}\n"
          "output: {positions_per_game: 0, flush_seconds: 0.05}\n"
          "match: {pairs: 2, sprt: {enabled: false}}\n");
  const Played internal = play(internal_text, tmp.file("internal.h5"));
  ASSERT_EQ(external.games.size(), 4u);
  ASSERT_EQ(internal.games.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE("game " + std::to_string(i));
    EXPECT_EQ(external.games[i].termination, 0);
    EXPECT_EQ(external.games[i].plies, internal.games[i].plies);
    EXPECT_EQ(external.games[i].winner, internal.games[i].winner);
    EXPECT_EQ(std::string(external.games[i].record), std::string(internal.games[i].record));
  }
}

TEST(ExternalConfig, KeysAndErrors) {
  const auto fails = [](const std::string& text) -> std::string {
    try {
      config::load_match_config_text<CheckersGame>(text, "m.yaml");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  std::string text = match_text("");
  text.replace(text.find(", command: ''"), std::string(", command: ''").size(), "");
  const std::string missing = fails(text);
  EXPECT_NE(missing.find("engines.player1.command"), std::string::npos) << missing;
  EXPECT_NE(missing.find("required for type external"), std::string::npos) << missing;
  // EWN has chance outcomes, which the protocol does not carry: no such engine type there.
  const std::string ewn = [&] {
    try {
      config::load_match_config_text<EwnGame>(
          "game: ewn\nengines:\n  player0: {type: random}\n"
          "  player1: {type: external, command: /bin/true}\nmatch: {pairs: 1}\n",
          "m.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  EXPECT_NE(ewn.find("engines.player1.type"), std::string::npos) << ewn;
  const auto cfg = config::load_match_config_text<CheckersGame>(
      match_text(fake_command(), "timeout_turn_ms: 250, timeout_match_ms: 9000, tolerance_ms: 7"),
      "m.yaml");
  EXPECT_EQ(cfg.engines[1].type, config::EngineType::kExternal);
  EXPECT_EQ(cfg.engines[1].timeout_turn_ms, 250u);
  EXPECT_EQ(cfg.engines[1].timeout_match_ms, 9000u);
  EXPECT_EQ(cfg.engines[1].tolerance_ms, 7u);
  EXPECT_EQ(cfg.engines[1].command.at(0), FAKE_ENGINE);
}

// The command line: the shipped checkers engine answers a session on stdin; a game with chance
// is refused with the reason.
// The session hears its manager while it searches (issue 41, item 2): with a clock of 24 days
// (timeout_turn 2147483647) and no depth limit a search would never end by itself, yet STOP, END
// and the end of input each end it at once, answered with the best move so far; the process then
// exits 0 at END and at the end of input. (Before, the engine searched on, deaf: the reads below
// waited until their guard of minutes ran out.)
TEST(EngineCli, StopEndAndTheEndOfInputStopASearchAtOnce) {
  test::TempDir dir;
  const std::string config =
      dir.write("endless.yaml",
                "game: checkers\nengines:\n  player0: {type: alphabeta, weights: " +
                    test::source_path("configs/checkers/weights/classic.yaml") +
                    ", depth: 0, time_ms: 3600000, tt_size_mb: 1}\nbackend: {name: cpu, "
                    "threads: 1}\n")
          .string();
  const std::set<std::string> legal = legal_texts(checkers::parse_position("B:W21-32:B1-12"));
  // A guard against a hang, not a measure: an answer comes in milliseconds.
  const auto guard = [] { return ChildProcess::Clock::now() + std::chrono::minutes(5); };
  const auto start = [&](ChildProcess& p) {
    std::string line;
    for (const char* command :
         {"START checkers", "INFO timeout_turn 2147483647", "POSITION B:W21-32:B1-12"})
      ASSERT_TRUE(p.write_line(command));
    ASSERT_EQ(p.read_line(line, guard()), ChildProcess::Read::kLine);
    EXPECT_EQ(line, "OK");
  };
  {
    ChildProcess p({SELFPLAY_BINARY, "engine", "--config", config});
    start(p);
    std::string move;
    ASSERT_TRUE(p.write_line("GO"));
    ASSERT_TRUE(p.write_line("STOP"));
    ASSERT_EQ(p.read_line(move, guard()), ChildProcess::Read::kLine) << "STOP ended no search";
    EXPECT_EQ(legal.count(move), 1u) << move;
    ASSERT_TRUE(p.write_line("GO"));
    ASSERT_TRUE(p.write_line("END"));
    ASSERT_EQ(p.read_line(move, guard()), ChildProcess::Read::kLine) << "END ended no search";
    EXPECT_EQ(legal.count(move), 1u) << move;
    EXPECT_EQ(p.read_line(move, guard()), ChildProcess::Read::kClosed) << move;
    EXPECT_EQ(p.finish(std::chrono::minutes(5)), "exited with status 0");
  }
  // The end of input (the example of the issue): answered, then exit 0. timeout: a guard
  // against a hang, which was what happened.
  const auto r = test::run_command(
      "printf 'START checkers\\nINFO timeout_turn 2147483647\\nPOSITION B:W21-32:B1-12\\nGO\\n' | "
      "timeout 300 '" +
      std::string(SELFPLAY_BINARY) + "' engine --config '" + config + "' 2>/dev/null");
  EXPECT_EQ(r.code, 0) << "124: it searched on after its input ended\n" << r.out;
  const std::vector<std::string> out = lines_of(r.out);
  ASSERT_EQ(out.size(), 2u) << r.out;
  EXPECT_EQ(out[0], "OK");
  EXPECT_EQ(legal.count(out[1]), 1u) << out[1];
}

TEST(EngineCli, TheShippedCheckersEngineAnswersASession) {
  const auto r = test::run_command(
      "printf 'START checkers\\nINFO timeout_turn 100\\nPOSITION B:W21-32:B1-12\\nGO\\nEND\\n' | " +
      std::string(SELFPLAY_BINARY) + " engine --game checkers 2>/dev/null");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::vector<std::string> out = lines_of(r.out);
  ASSERT_EQ(out.size(), 2u) << r.out;
  EXPECT_EQ(out[0], "OK");
  EXPECT_EQ(legal_texts(checkers::parse_position("B:W21-32:B1-12")).count(out[1]), 1u) << out[1];
  const auto ewn =
      test::run_command(std::string(SELFPLAY_BINARY) + " engine --game ewn </dev/null 2>&1");
  EXPECT_EQ(ewn.code, 2) << ewn.out;
  EXPECT_NE(ewn.out.find("chance"), std::string::npos) << ewn.out;
}

}  // namespace
}  // namespace sp
