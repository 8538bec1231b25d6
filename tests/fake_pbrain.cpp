// A scripted Gomocup engine for the tests of `type: pbrain` engines (tests/pbrain_match_test.cpp):
// it plays the first empty square (rows from the top, each from the left) and misbehaves on
// request, at its k-th move of a game (1-based):
//   --exit-at K       exits with status 3 instead of answering
//   --abort-at K      abort()s
//   --kill-at K       kills itself with SIGKILL
//   --late-at K MS    answers only after sleeping MS milliseconds
//   --occupied-at K   answers a square that holds a stone
//   --offboard-at K   answers a square off the board
//   --garbage-at K    answers "hello"
//   --error-at K      answers "ERROR no move"
//   --chatter         prints MESSAGE and DEBUG lines before every answer
//   --refuse-start    answers START with "ERROR this engine plays no such board"
//   --ignore-end      does not exit on END (sleeps until it is killed)
//   --log FILE        appends every line it reads to FILE
//   --start-late MS   sleeps MS milliseconds before it answers START
//   --events FILE     appends "<pid> START" when it reads START and "<pid> OK" as it answers
// It answers START with OK (ERROR for sizes other than 15 and 20), ignores INFO, and answers
// ABOUT. Each game runs in a fresh process, so the counts restart with every game.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

struct Options {
  int exit_at = 0, abort_at = 0, kill_at = 0, late_at = 0, late_ms = 0, occupied_at = 0,
      offboard_at = 0, garbage_at = 0, error_at = 0, start_late_ms = 0;
  bool chatter = false, ignore_end = false, refuse_start = false;
  std::string log, events;
};

int size = 0;
std::vector<int> board;  // 0 empty, 1 own, 2 opponent

void say(const std::string& line) { std::cout << line << '\n' << std::flush; }

bool parse_xy(const std::string& text, int& x, int& y) {
  return std::sscanf(text.c_str(), "%d,%d", &x, &y) == 2 && x >= 0 && y >= 0 && x < size &&
         y < size;
}

void answer(const Options& o, int move_number) {
  if (o.chatter) {
    say("MESSAGE thinking about move " + std::to_string(move_number));
    say("DEBUG board has " + std::to_string(size) + " rows");
  }
  if (move_number == o.exit_at) std::exit(3);
  if (move_number == o.abort_at) std::abort();
  if (move_number == o.kill_at) ::kill(::getpid(), SIGKILL);
  if (move_number == o.late_at) ::usleep(static_cast<useconds_t>(o.late_ms) * 1000);
  if (move_number == o.garbage_at) return say("hello");
  if (move_number == o.error_at) return say("ERROR no move");
  if (move_number == o.offboard_at) return say(std::to_string(size) + ",0");
  for (int sq = 0; sq < size * size; ++sq) {
    if ((board[sq] != 0) == (move_number == o.occupied_at)) {
      if (board[sq] == 0) board[sq] = 1;
      return say(std::to_string(sq % size) + "," + std::to_string(sq / size));
    }
  }
  say("ERROR board full");
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> int { return i + 1 < argc ? std::atoi(argv[++i]) : 0; };
    if (a == "--exit-at")
      o.exit_at = next();
    else if (a == "--abort-at")
      o.abort_at = next();
    else if (a == "--kill-at")
      o.kill_at = next();
    else if (a == "--late-at") {
      o.late_at = next();
      o.late_ms = next();
    } else if (a == "--occupied-at")
      o.occupied_at = next();
    else if (a == "--offboard-at")
      o.offboard_at = next();
    else if (a == "--garbage-at")
      o.garbage_at = next();
    else if (a == "--error-at")
      o.error_at = next();
    else if (a == "--chatter")
      o.chatter = true;
    else if (a == "--ignore-end")
      o.ignore_end = true;
    else if (a == "--refuse-start")
      o.refuse_start = true;
    else if (a == "--log" && i + 1 < argc)
      o.log = argv[++i];
    else if (a == "--start-late")
      o.start_late_ms = next();
    else if (a == "--events" && i + 1 < argc)
      o.events = argv[++i];
    else {
      std::cerr << "fake_pbrain: unknown argument " << a << '\n';
      return 2;
    }
  }
  std::ofstream log, events;
  if (!o.log.empty()) log.open(o.log, std::ios::app);
  if (!o.events.empty()) events.open(o.events, std::ios::app);
  const auto event = [&](const char* what) {
    if (events.is_open()) events << ::getpid() << ' ' << what << '\n' << std::flush;
  };
  int moves = 0;
  bool in_board = false;
  for (std::string line; std::getline(std::cin, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (log.is_open()) log << line << '\n' << std::flush;
    int x = 0, y = 0;
    if (in_board) {
      if (line == "DONE") {
        in_board = false;
        answer(o, ++moves);
      } else {
        int f = 0;
        if (std::sscanf(line.c_str(), "%d,%d,%d", &x, &y, &f) == 3 && x >= 0 && y >= 0 &&
            x < size && y < size)
          board[y * size + x] = f == 1 ? 1 : 2;
      }
    } else if (line.rfind("START ", 0) == 0) {
      size = std::atoi(line.c_str() + 6);
      event("START");
      if (o.start_late_ms) ::usleep(static_cast<useconds_t>(o.start_late_ms) * 1000);
      if (o.refuse_start) {
        say("ERROR this engine plays no such board");
        continue;
      }
      if (size != 15 && size != 20) {
        say("ERROR unsupported size");
        continue;
      }
      board.assign(size * size, 0);
      event("OK");
      say("OK");
    } else if (line.rfind("INFO ", 0) == 0) {
    } else if (line == "BEGIN") {
      answer(o, ++moves);
    } else if (line == "BOARD") {
      in_board = true;
    } else if (line.rfind("TURN ", 0) == 0) {
      if (parse_xy(line.substr(5), x, y)) board[y * size + x] = 2;
      answer(o, ++moves);
    } else if (line == "ABOUT") {
      say("name=\"fake_pbrain\", version=\"1\", author=\"selfplay tests\"");
    } else if (line == "END") {
      if (!o.ignore_end) return 0;
      for (;;) ::pause();
    } else {
      say("UNKNOWN " + line);
    }
  }
  return 0;
}
