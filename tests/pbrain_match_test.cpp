// Matches against external Gomocup engines (`type: pbrain`, issue 13): our alpha-beta against the
// scripted engine tests/fake_pbrain.cpp, which plays the first empty square and misbehaves on
// request. Checked: the protocol the manager speaks (START, INFO, BEGIN/BOARD/TURN, END; the
// coordinates pinned against our notation), that MESSAGE/DEBUG lines are ignored, that every way
// an engine can fail (time, crash, illegal answer) forfeits the game with the reason stored in
// /games `termination` and counted in the summary, that the next game gets a fresh process and
// the match goes on, that an engine ignoring END is killed and no child is left behind, that
// `selfplay verify` accepts the forfeits, and the config keys and their errors.
//
// Every test builds its engine from a command line (fake_command), so the same checks run against
// any pbrain program by changing that line.
#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "games/gomoku/host.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/match.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

using search::Termination;

std::string fake_command(const std::string& args = "") {
  return std::string(FAKE_PBRAIN) + (args.empty() ? "" : " " + args);
}

// A match config: alpha-beta at depth 1 (engine A) against the pbrain engine `command` (B), with
// more of its keys in `pbrain_keys` ("timeout_turn_ms: 100, tolerance_ms: 50").
std::string match_text(const std::string& command, const std::string& pbrain_keys = "",
                       int pairs = 2) {
  std::string quoted;  // a YAML single-quoted scalar
  for (const char c : command) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return "game: gomoku\n"
         "rules: {board_size: 15, rule: freestyle, opening: empty}\n"
         "campaign: {concurrency: 4, seed: 5}\n"
         "engines:\n"
         "  player0: {type: alphabeta, depth: 1}\n"
         "  player1: {type: pbrain, command: '" +
         quoted + "'" + (pbrain_keys.empty() ? "" : ", " + pbrain_keys) +
         "}\n"
         "backend: {name: cpu, threads: 2}\n"
         "output: {positions_per_game: 0, flush_seconds: 0.05}\n"
         "match: {pairs: " +
         std::to_string(pairs) + ", sprt: {enabled: false}}\n";
}

struct Played {
  selfplay::MatchResult result;
  std::vector<io::GameRow> games;  // by game id
  std::vector<io::PlyRow> plies;
};

Played play(const std::string& text, const std::string& out) {
  auto cfg = config::load_match_config_text<GomokuGame>(text, "pbrain-match.yaml");
  cfg.output.path = out;
  std::atomic<bool> stop{false};
  Played p;
  p.result = selfplay::run_match<GomokuGame>(cfg, {}, stop);
  io::CampaignReader reader(out);
  p.games = reader.games();
  std::sort(p.games.begin(), p.games.end(),
            [](const auto& a, const auto& b) { return a.game_id < b.game_id; });
  p.plies = reader.plies();
  return p;
}

// The children of this process that still exist (zombies included).
std::vector<pid_t> children() {
  std::vector<pid_t> out;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    int ppid = 0;
    if (std::sscanf(line.c_str() + close + 1, " %c %d", &state, &ppid) == 2 && ppid == getpid())
      out.push_back(std::stoi(name));
  }
  return out;
}

std::string verify(const std::string& path) {
  const auto v = test::run_command(std::string(SELFPLAY_BINARY) + " verify " + path + " 2>&1");
  return std::to_string(v.code) + ": " + v.out;
}

TEST(PbrainMatch, PlaysTheProtocolWithPinnedCoordinatesAndIgnoresChatter) {
  test::TempDir tmp;
  const std::string log = tmp.file("protocol.log");
  const Played p = play(match_text(fake_command("--chatter --log " + log), "timeout_turn_ms: 5000"),
                        tmp.file("m.h5"));
  ASSERT_EQ(p.games.size(), 4u);
  for (const auto& g : p.games) EXPECT_EQ(g.termination, 0) << "game " << g.game_id;
  for (const auto& per_engine : p.result.forfeits)
    for (const uint64_t n : per_engine) EXPECT_EQ(n, 0u);
  EXPECT_EQ(p.result.counter.penta().pairs(), 2u);
  EXPECT_NE(p.result.engine_b.find("pbrain("), std::string::npos) << p.result.engine_b;

  // Coordinates: x is the column (letter), y the row from the top (number - 1). In game 1 the
  // fake engine is Black and opens on the first empty square, 0,0 = a1, then 1,0 = b1 unless our
  // engine took it.
  std::map<uint64_t, std::vector<std::string>> moves;
  for (const auto& ply : p.plies) {
    auto& m = moves[ply.game_id];
    if (m.size() <= ply.ply) m.resize(ply.ply + 1);
    m[ply.ply] = std::string(io::text_of(ply.move));
  }
  ASSERT_GE(moves[1].size(), 3u);
  EXPECT_EQ(moves[1][0], "a1");
  EXPECT_EQ(moves[1][2], moves[1][1] == "b1" ? "c1" : "b1");

  const std::string sent = test::read_text(log);
  for (const char* line : {"START 15\n", "INFO timeout_turn 5000\n", "INFO timeout_match 0\n",
                           "INFO rule 0\n", "INFO time_left 2147483647\n", "BEGIN\n", "END\n"})
    EXPECT_NE(sent.find(line), std::string::npos) << line << " not sent:\n" << sent;
  // Our first move of game 0 (as Black) reaches the engine as TURN with its coordinates.
  const gomoku::Move first = gomoku::parse_move(gomoku::initial_state(), moves[0][0]);
  const std::string turn = "TURN " + std::to_string(first.x) + "," + std::to_string(first.y) + "\n";
  EXPECT_NE(sent.find(turn), std::string::npos) << moves[0][0] << ": " << turn << sent;
  EXPECT_NE(verify(tmp.file("m.h5")).find("0: verified 4 games"), std::string::npos)
      << verify(tmp.file("m.h5"));
}

TEST(PbrainMatch, BoardSetsUpAGameFromAnOpening) {
  test::TempDir tmp;
  const std::string log = tmp.file("protocol.log");
  std::string text = match_text(fake_command("--log " + log), "", 1);
  text.replace(text.find("opening: empty"), 14, "opening: random, opening_moves: 3");
  // One game at a time: both games' engines append to the one log.
  text.replace(text.find("concurrency: 4"), 14, "concurrency: 1");
  const Played p = play(text, tmp.file("m.h5"));
  ASSERT_EQ(p.games.size(), 2u);
  const std::string sent = test::read_text(log);
  // 3 opening stones: the engine to move sees them as BOARD lines x,y,f then DONE.
  EXPECT_NE(sent.find("BOARD\n"), std::string::npos) << sent;
  EXPECT_NE(sent.find("DONE\n"), std::string::npos) << sent;
  // Both games of the pair start from the same 3 stones (Black, White, Black). In game 0 the
  // engine plays White and is to move: its BOARD lists the first Black stone as the opponent's.
  const std::string opening(io::text_of(p.games[0].opening));
  ASSERT_GE(opening.size(), 6u) << opening;
  const gomoku::Move black = gomoku::parse_move(gomoku::initial_state(), opening.substr(0, 2));
  const std::string line = std::to_string(black.x) + "," + std::to_string(black.y) + ",2\n";
  EXPECT_NE(sent.find("BOARD\n"), std::string::npos) << sent;
  EXPECT_NE(sent.find(line), std::string::npos) << line << sent;
  // The stones come in an order of play, alternately from Black (managers send BOARD in move
  // order; engines such as PentaZen ignore f and colour the stones alternately from Black): as
  // White to move after Black, White, Black, the engine reads f = 2, 1, 2 (found by a sparring
  // match: board order gave it another position).
  // Each game's BOARD block is checked (Black's stones first: f = 2, 1, 2
  // for the engine as White with 3 stones, 1, 2, 1, 2 as Black with 4).
  int blocks = 0;
  for (size_t board = sent.find("BOARD\n"); board != std::string::npos;
       board = sent.find("BOARD\n", board + 1)) {
    const size_t done = sent.find("DONE\n", board);
    ASSERT_NE(done, std::string::npos);
    std::vector<int> fields;
    std::istringstream stones(sent.substr(board + 6, done - board - 6));
    for (std::string stone; std::getline(stones, stone);)
      fields.push_back(stone.empty() ? 0 : stone.back() - '0');
    std::vector<int> expected;
    for (size_t i = 0; i < fields.size(); ++i)
      expected.push_back((i % 2 == 0) == (fields.size() % 2 == 0) ? 1 : 2);
    EXPECT_EQ(fields, expected) << sent;
    ++blocks;
  }
  EXPECT_EQ(blocks, 2) << "one BOARD per game";
  EXPECT_NE(verify(tmp.file("m.h5")).find("0: verified 2 games"), std::string::npos)
      << verify(tmp.file("m.h5"));
}

struct FaultCase {
  const char* name;
  const char* args;
  Termination reason;
  int at;  // the fake engine's move (1-based) that fails
  // Generous turns, so that a loaded machine never turns the legal moves before the fault into
  // time losses; the late engine's case has short ones.
  const char* keys = "timeout_turn_ms: 5000, tolerance_ms: 100";
};

class PbrainFault : public ::testing::TestWithParam<FaultCase> {};

// Each game runs in a fresh process: the fault happens at the same move of every game, and every
// game after a crash is played by a restarted engine up to that move.
TEST_P(PbrainFault, ForfeitsEveryGameAtTheFaultyMoveAndTheMatchGoesOn) {
  const FaultCase& c = GetParam();
  test::TempDir tmp;
  const std::string path = tmp.file("m.h5");
  const Played p = play(match_text(fake_command(c.args), c.keys), path);
  ASSERT_EQ(p.games.size(), 4u);
  for (const auto& g : p.games) {
    SCOPED_TRACE("game " + std::to_string(g.game_id));
    EXPECT_EQ(g.termination, static_cast<int>(c.reason));
    // Engine A plays player 0 in even games: the fake engine is White there, Black in odd ones.
    const bool fake_white = g.game_id % 2 == 0;
    EXPECT_EQ(g.winner, fake_white ? 0 : 1);
    EXPECT_EQ(g.plies, fake_white ? 2 * c.at - 1 : 2 * c.at - 2);
  }
  EXPECT_EQ(p.result.forfeits[1][static_cast<int>(c.reason)], 4u);
  EXPECT_EQ(p.result.counter.penta().pairs(), 2u);
  EXPECT_TRUE(children().empty()) << "a child process was left behind";
  EXPECT_NE(verify(path).find("0: verified 4 games"), std::string::npos) << verify(path);
}

INSTANTIATE_TEST_SUITE_P(
    Faults, PbrainFault,
    ::testing::Values(FaultCase{"exit", "--exit-at 2", Termination::kCrash, 2},
                      FaultCase{"abort", "--abort-at 1", Termination::kCrash, 1},
                      FaultCase{"kill", "--kill-at 3", Termination::kCrash, 3},
                      FaultCase{"late", "--late-at 1 5000", Termination::kTimeLoss, 1,
                                "timeout_turn_ms: 100, tolerance_ms: 100"},
                      FaultCase{"occupied", "--occupied-at 2", Termination::kIllegalMove, 2},
                      FaultCase{"offboard", "--offboard-at 1", Termination::kIllegalMove, 1},
                      FaultCase{"garbage", "--garbage-at 2", Termination::kIllegalMove, 2},
                      FaultCase{"error", "--error-at 1", Termination::kIllegalMove, 1}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(PbrainMatch, MatchTimeRunsOut) {
  test::TempDir tmp;
  // 150 ms for the whole game, the second move takes 400: the game time is gone.
  const Played p = play(match_text(fake_command("--late-at 2 400"),
                                   "timeout_turn_ms: 1000, timeout_match_ms: 150, "
                                   "tolerance_ms: 50"),
                        tmp.file("m.h5"));
  ASSERT_EQ(p.games.size(), 4u);
  for (const auto& g : p.games) EXPECT_EQ(g.termination, static_cast<int>(Termination::kTimeLoss));
  EXPECT_EQ(p.result.forfeits[1][static_cast<int>(Termination::kTimeLoss)], 4u);
}

TEST(PbrainMatch, AnEngineIgnoringEndIsKilledAndNothingIsLeftBehind) {
  test::TempDir tmp;
  const Played p =
      play(match_text(fake_command("--ignore-end"), "tolerance_ms: 50", 1), tmp.file("m.h5"));
  ASSERT_EQ(p.games.size(), 2u);
  for (const auto& g : p.games) EXPECT_EQ(g.termination, 0);
  EXPECT_TRUE(children().empty()) << "a child process was left behind";
}

// Whether process `pid` has ended: no such process, or a zombie its parent has not reaped yet
// (init reaps those whose parent is gone, whenever it gets to it).
bool process_gone(pid_t pid) {
  if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const size_t close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z';
}

// Waits until every process whose id is in `pids_file` (one a line) has ended; a guard of a
// minute against a hang (they end in milliseconds). Returns how many there were, and fails for
// each that outlived it (killing it then).
int expect_all_gone(const std::string& pids_file, const std::string& what) {
  std::ifstream in(pids_file);
  int count = 0;
  for (pid_t pid; in >> pid;) {
    ++count;
    const auto guard = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (!process_gone(pid) && std::chrono::steady_clock::now() < guard) ::usleep(10000);
    EXPECT_TRUE(process_gone(pid)) << what << " " << pid << " outlived its engine";
    if (!process_gone(pid)) ::kill(pid, SIGKILL);
  }
  return count;
}

// What a wrapper script starts ends with the engine after END, though the engine itself exits as
// it should: a background job in the engine's process group (found by a hostile test: such jobs
// outlived every normal game), and one that left the group and its session with setsid (issue
// 41, item 6: it outlived the match).
TEST(PbrainMatch, WhatAWrapperScriptStartsEndsWithTheEngine) {
  for (const std::string job : {"sleep 300", "setsid sleep 300"}) {
    SCOPED_TRACE(job);
    test::TempDir tmp;
    const std::string pids = tmp.file("pids");
    const std::string wrapper =
        "sh -c '" + job + " & echo $! >> " + pids + "; exec " + fake_command() + "'";
    const Played p = play(match_text(wrapper, "tolerance_ms: 200", 1), tmp.file("m.h5"));
    ASSERT_EQ(p.games.size(), 2u);
    for (const auto& g : p.games) EXPECT_EQ(g.termination, 0) << "the engine played normally";
    EXPECT_GE(expect_all_gone(pids, "background job"), 2) << "one engine process per game";
  }
}

// A SIGKILLed `selfplay match` leaves no engine running (issue 41, item 6): the kernel kills each
// engine when selfplay dies (PR_SET_PDEATHSIG). The engines write their ids, then selfplay is
// killed while they play.
TEST(PbrainMatch, AKilledMatchLeavesNoEngineRunning) {
  test::TempDir tmp;
  const std::string pids = tmp.file("pids");
  const std::string wrapper =
      "sh -c 'echo $$ >> " + pids + "; exec " + fake_command("--late-at 1 600000") + "'";
  const std::string config = tmp.file("m.yaml");
  std::ofstream(config) << match_text(wrapper, "timeout_turn_ms: 3600000", 1);
  {
    test::Child match({SELFPLAY_BINARY, "match", config, "--out", tmp.file("m.h5"), "--quiet"});
    const auto guard = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (std::chrono::steady_clock::now() < guard) {
      std::ifstream in(pids);
      pid_t pid = 0;
      if (in >> pid) break;
      ::usleep(10000);
    }
    match.signal(SIGKILL);
    match.wait();
  }
  EXPECT_GE(expect_all_gone(pids, "engine"), 1) << "no engine was started";
}

// An engine that refuses START (ERROR: it cannot play this board) stops the match before its
// output exists, with the engine's words in the error; no child is left behind.
TEST(PbrainMatch, AnEngineRefusingStartLeavesNoFile) {
  test::TempDir tmp;
  const std::string out = tmp.file("m.h5");
  try {
    play(match_text(fake_command("--refuse-start"), "tolerance_ms: 50", 1), out);
    ADD_FAILURE() << "the match ran";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("this engine plays no such board"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(out)) << "a file without games was left";
  EXPECT_TRUE(children().empty()) << "a child process was left behind";
}

// START handshakes run side by side and never block the driver (found by a hostile test: each
// slot waited for its engine's OK in turn, so an engine slow to start cost its time once per
// slot). The engine answers START after 800 ms; both games' engines must have read START before
// either answers it (the first pair of events is the probe before the match). And the wait for
// START is not the move's time: the first answers, 800 ms after the game began, are on time
// at 100 ms a move.
TEST(PbrainMatch, StartHandshakesRunSideBySide) {
  test::TempDir tmp;
  const std::string events = tmp.file("events");
  const Played p = play(match_text(fake_command("--start-late 800 --events " + events),
                                   "timeout_turn_ms: 100, tolerance_ms: 100", 1),
                        tmp.file("m.h5"));
  ASSERT_EQ(p.games.size(), 2u);
  for (const auto& g : p.games)
    EXPECT_EQ(g.termination, 0) << "START's wait counted as move time: " << g.game_id;
  std::ifstream in(events);
  std::vector<std::string> seen;
  for (std::string pid, what; in >> pid >> what;) seen.push_back(what);
  const std::vector<std::string> expected = {"START", "OK", "START", "START", "OK", "OK"};
  EXPECT_EQ(seen, expected) << "the probe, then both games' handshakes at once";
}

TEST(PbrainMatch, TheCliSummaryCountsForfeits) {
  test::TempDir tmp;
  const std::string config = tmp.file("m.yaml");
  std::ofstream(config) << match_text(fake_command("--exit-at 1"), "tolerance_ms: 100");
  const auto r = test::run_command(std::string(SELFPLAY_BINARY) + " match " + config +
                                   " --quiet --out " + tmp.file("m.h5") + " 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("forfeits            B: 4 crashes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("loses by crash: its output closed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("exited with status 3"), std::string::npos) << r.out;
}

// Config: the keys, a relative program path, and the errors naming the key.
// Our own engine as the external program: `selfplay pbrain` over a config whose engine is the same
// alpha-beta as engine A. Every game ends by the rules, verifies, and a fixed-depth search plays
// the same moves through the protocol as in the process: the match equals one against the internal
// engine, game by game.
std::string own_engine_config(const test::TempDir& tmp) {
  const std::string path = tmp.file("own-pbrain.yaml");
  std::ofstream(path) << "game: gomoku\n"
                         "rules: {board_size: 15, rule: freestyle}\n"
                         "engines:\n"
                         "  player0: {type: alphabeta, depth: 1, time_ms: 0, tt_size_mb: 1}\n"
                         "backend: {name: cpu, threads: 1}\n";
  return path;
}

TEST(PbrainMatch, OurOwnEngineOverTheProtocolPlaysAsItDoesInProcess) {
  test::TempDir tmp;
  const std::string command =
      std::string(SELFPLAY_BINARY) + " pbrain --config " + own_engine_config(tmp);
  const Played external = play(match_text(command), tmp.file("external.h5"));
  std::string internal_text = match_text(command);
  internal_text.replace(internal_text.find("{type: pbrain"), std::string::npos,
                        "{type: alphabeta, depth: 1}\n"
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
  EXPECT_TRUE(children().empty()) << "a child process was left behind";
  EXPECT_NE(verify(tmp.file("external.h5")).find("0: verified 4 games"), std::string::npos)
      << verify(tmp.file("external.h5"));
}

// `selfplay pbrain` killed (SIGKILL) when it is asked for its third move, in every game: each game
// is lost by crash at that point, the next game starts a fresh engine, and the match goes on.
TEST(PbrainMatch, OurOwnEngineKilledMidGameLosesByCrashAndIsRestarted) {
  test::TempDir tmp;
  const std::string command = "sh " + std::string(SELFPLAY_SOURCE_DIR) +
                              "/tests/pbrain_kill_after.sh 3 " + SELFPLAY_BINARY +
                              " pbrain --config " + own_engine_config(tmp);
  const std::string path = tmp.file("m.h5");
  const Played p = play(match_text(command, "timeout_turn_ms: 5000, tolerance_ms: 200"), path);
  ASSERT_EQ(p.games.size(), 4u);
  for (const auto& g : p.games) {
    SCOPED_TRACE("game " + std::to_string(g.game_id));
    EXPECT_EQ(g.termination, static_cast<int>(Termination::kCrash));
    const bool ours_white = g.game_id % 2 == 0;  // engine A is player 0 in even games
    EXPECT_EQ(g.winner, ours_white ? 0 : 1);
    // Killed on its third request: before or just after that answer reached the manager.
    const int at = ours_white ? 5 : 4;
    EXPECT_TRUE(g.plies == at || g.plies == at + 2) << g.plies << " plies";
  }
  EXPECT_EQ(p.result.forfeits[1][static_cast<int>(Termination::kCrash)], 4u);
  EXPECT_EQ(p.result.counter.penta().pairs(), 2u);
  EXPECT_TRUE(children().empty()) << "a child process was left behind";
  EXPECT_NE(verify(path).find("0: verified 4 games"), std::string::npos) << verify(path);
}

TEST(PbrainConfig, KeysPathsAndErrors) {
  test::TempDir tmp;
  const std::filesystem::path dir = tmp.file("cfg");
  std::filesystem::create_directories(dir / "engines");
  std::filesystem::create_symlink(FAKE_PBRAIN, dir / "engines" / "pbrain-fake");
  const std::string config = (dir / "m.yaml").string();
  std::ofstream(config) << match_text("engines/pbrain-fake --chatter 'two words'",
                                      "timeout_turn_ms: 300, timeout_match_ms: 9000, "
                                      "tolerance_ms: 20");
  const auto cfg = config::load_match_config<GomokuGame>(config);
  ASSERT_EQ(cfg.engines[1].type, config::EngineType::kPbrain);
  EXPECT_EQ(cfg.engines[1].command,
            (std::vector<std::string>{(dir / "engines" / "pbrain-fake").string(), "--chatter",
                                      "two words"}));
  EXPECT_EQ(cfg.engines[1].timeout_turn_ms, 300u);
  EXPECT_EQ(cfg.engines[1].timeout_match_ms, 9000u);
  EXPECT_EQ(cfg.engines[1].tolerance_ms, 20u);

  const auto explain = test::run_command(std::string(SELFPLAY_BINARY) +
                                         " config --match --explain " + config + " 2>&1");
  ASSERT_EQ(explain.code, 0) << explain.out;
  for (const char* key : {"command: ", "timeout_turn_ms: 300", "timeout_match_ms: 9000",
                          "tolerance_ms: 20", "'two words'"})
    EXPECT_NE(explain.out.find(key), std::string::npos) << key << "\n" << explain.out;
  // The explained config reads back the same (the program is absolute now).
  const auto again = config::load_match_config_text<GomokuGame>(
      explain.out.substr(explain.out.find('#')), "/elsewhere/x.yaml");
  EXPECT_EQ(again.engines[1].command, cfg.engines[1].command);

  const auto error = [&](const std::string& text, const std::string& game = "gomoku") {
    try {
      if (game == "ewn")
        config::load_match_config_text<EwnGame>(text, config);
      else
        config::load_match_config_text<GomokuGame>(text, config);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string base = match_text("engines/pbrain-fake");
  EXPECT_NE(
      error("engines:\n  player1: {type: pbrain, command: " + std::string(FAKE_PBRAIN) + "}\n",
            "ewn")
          .find("key 'engines.player1.type': pbrain engines speak the Gomocup protocol, "
                "which ewn does not have; known games that have it: gomoku"),
      std::string::npos)
      << error("engines:\n  player1: {type: pbrain, command: x}\n", "ewn");
  EXPECT_NE(error("engines:\n  player1: {type: pbrain}\n")
                .find("key 'engines.player1.command': "
                      "required for type pbrain"),
            std::string::npos);
  EXPECT_NE(error("engines:\n  player1: {type: pbrain, command: engines/none}\n")
                .find("key 'engines.player1.command': cannot run '" +
                      (dir / "engines/none").string() + "': No such file or directory"),
            std::string::npos)
      << error("engines:\n  player1: {type: pbrain, command: engines/none}\n");
  EXPECT_NE(error("engines:\n  player1: {type: pbrain, command: \"engines/pbrain-fake 'x\"}\n")
                .find("unterminated ' quote"),
            std::string::npos);
  EXPECT_NE(error("engines:\n  player1: {type: pbrain, command: engines/pbrain-fake, depth: 3}\n")
                .find("key 'engines.player1.depth': applies only for type alphabeta"),
            std::string::npos);
  EXPECT_NE(error("engines:\n  player0: {type: mcts, timeout_turn_ms: 3}\n")
                .find("key 'engines.player0.timeout_turn_ms': applies only for type pbrain"),
            std::string::npos);
  EXPECT_NE(error(base).find("no error"), std::string::npos) << error(base);
}

// The shipped example: valid, and it plays (its command names the built fake engine, taken here
// from this build wherever the build folder is).
TEST(PbrainConfig, TheShippedExampleLoadsAndPlays) {
  const std::string path = test::source_path("configs/gomoku/match-pbrain.yaml");
  std::string text = test::read_text(path);
  const std::string shipped = "../../build/release/tests/fake_pbrain";
  ASSERT_NE(text.find(shipped), std::string::npos);
  text.replace(text.find(shipped), shipped.size(), FAKE_PBRAIN);
  auto cfg = config::load_match_config_text<GomokuGame>(text, path);
  ASSERT_EQ(cfg.engines[1].type, config::EngineType::kPbrain);
  EXPECT_EQ(cfg.engines[1].command, (std::vector<std::string>{FAKE_PBRAIN, "--chatter"}));
  test::TempDir tmp;
  cfg.output.path = tmp.file("m.h5");
  cfg.match.pairs = 1;
  cfg.games = 2;
  std::atomic<bool> stop{false};
  const auto r = selfplay::run_match<GomokuGame>(cfg, {}, stop);
  EXPECT_EQ(r.games_played, 2u);
}

// concurrency auto starts no more games (so external processes) than the run's threads.
TEST(PbrainConfig, AutoConcurrencyIsCappedByTheThreads) {
  auto cfg = config::load_match_config_text<GomokuGame>(match_text(fake_command()), "m.yaml");
  cfg.backend.threads = 3;
  EXPECT_EQ(selfplay::auto_concurrency(cfg, 1 << 20, 1000), 3u);
  cfg.engines[1].type = config::EngineType::kRandom;
  EXPECT_EQ(selfplay::auto_concurrency(cfg, 1 << 20, 1000), 4u) << "the games: 2 pairs";
}

// A format-2 file written before /games had `termination` (commit b7f0ce0) reads with every game
// ended by the rules, verifies, and, converted to format 3, resumes: the identity of a config
// without pbrain engines is what it was before the pbrain keys existed.
TEST(PbrainRecords, FilesWithoutTheTerminationColumnReadAndResume) {
  test::TempDir tmp;
  const std::string path = tmp.file("old.h5");
  std::filesystem::copy_file(test::source_path("tests/data/format2-match-no-termination.h5"), path);
  {
    io::CampaignReader reader(path);
    ASSERT_EQ(reader.format_version(), 2u);
    const auto games = reader.games();
    ASSERT_EQ(games.size(), 2u);
    for (const auto& g : games) {
      EXPECT_EQ(g.termination, 0);
      EXPECT_GT(g.plies, 0);
      EXPECT_FALSE(io::text_of(g.record).empty());
    }
  }
  EXPECT_NE(verify(path).find("0: verified 2 games"), std::string::npos) << verify(path);
  const std::string config = test::source_path("tests/data/format2-match-no-termination.yaml");
  const auto resume = [&](const std::string& file) {
    return test::run_command(std::string(SELFPLAY_BINARY) + " match " + config +
                             " --pairs 2 --resume --quiet --out " + file + " 2>&1");
  };
  const auto refused = resume(path);
  EXPECT_EQ(refused.code, 2) << refused.out;
  EXPECT_NE(refused.out.find("format-2 campaign file, which this build reads but does not extend"),
            std::string::npos)
      << refused.out;
  const std::string copy = tmp.file("new.h5");
  const auto converted =
      test::run_command(std::string(SELFPLAY_BINARY) + " convert " + path + " " + copy + " 2>&1");
  ASSERT_EQ(converted.code, 0) << converted.out;
  const auto r = resume(copy);
  ASSERT_EQ(r.code, 0) << r.out;
  io::CampaignReader reader(copy);
  const auto games = reader.games();
  EXPECT_EQ(games.size(), 4u);
  for (const auto& g : games) EXPECT_EQ(g.termination, 0);
  EXPECT_NE(verify(copy).find("0: verified 4 games"), std::string::npos) << verify(copy);
}

// The manager's child processes: lines, deadlines, the end of the pipe, and END's grace period.
TEST(ChildProcess, SplitsCommandsLikeAShell) {
  EXPECT_EQ(split_command("a  'b c' \"d \\\" e\" f\\ g"),
            (std::vector<std::string>{"a", "b c", "d \" e", "f g"}));
  EXPECT_THROW(split_command("a 'b"), InputError);
  EXPECT_THROW(split_command("   "), InputError);
  EXPECT_EQ(config::command_text({"/x y/p", "it's", "plain"}), "'/x y/p' 'it'\\''s' plain");
  EXPECT_EQ(split_command(config::command_text({"/x y/p", "it's", "plain"})),
            (std::vector<std::string>{"/x y/p", "it's", "plain"}));
}

}  // namespace
}  // namespace sp
