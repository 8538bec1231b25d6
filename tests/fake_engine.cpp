// A scripted checkers engine speaking selfplay's engine protocol (docs/engine-protocol.md) for the
// manager's tests: it answers the first legal move of the position, or misbehaves at its K-th
// GO (1-based, counted per process, i.e. per game):
//   --exit-at K       exits with status 3 instead of answering
//   --late-at K MS    answers only after sleeping MS milliseconds
//   --garbage-at K    answers "hello"
//   --illegal-at K    answers "1-32", a move that is never legal
//   --error-at K      answers "ERROR no move"
//   --chatter         prints MESSAGE and DEBUG lines before every answer
//   --refuse-start    answers START with "ERROR this engine plays no such game"
//   --log FILE        appends every line it reads to FILE
// It answers START checkers with OK (ERROR for other games), ignores INFO, answers ABOUT, exits on
// END. Each game runs in a fresh process, so the counts restart with every game.
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "games/checkers/game.hpp"
#include "games/checkers/notation.hpp"

namespace {

struct Options {
  int exit_at = 0, late_at = 0, late_ms = 0, garbage_at = 0, illegal_at = 0, error_at = 0;
  bool chatter = false, refuse_start = false;
  std::string log;
};

void say(const std::string& line) { std::cout << line << '\n' << std::flush; }

}  // namespace

int main(int argc, char** argv) {
  using namespace sp;
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> int { return i + 1 < argc ? std::atoi(argv[++i]) : 0; };
    if (a == "--exit-at")
      o.exit_at = next();
    else if (a == "--late-at") {
      o.late_at = next();
      o.late_ms = next();
    } else if (a == "--garbage-at")
      o.garbage_at = next();
    else if (a == "--illegal-at")
      o.illegal_at = next();
    else if (a == "--error-at")
      o.error_at = next();
    else if (a == "--chatter")
      o.chatter = true;
    else if (a == "--refuse-start")
      o.refuse_start = true;
    else if (a == "--log" && i + 1 < argc)
      o.log = argv[++i];
    else {
      std::cerr << "fake_engine: unknown argument " << a << '\n';
      return 2;
    }
  }
  std::ofstream log;
  if (!o.log.empty()) log.open(o.log, std::ios::app);
  checkers::State state = checkers::parse_position("B:W21-32:B1-12");
  int go = 0;
  for (std::string line; std::getline(std::cin, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (log.is_open()) log << line << '\n' << std::flush;
    std::istringstream words(line);
    std::string command;
    words >> command;
    if (command == "START") {
      std::string game;
      words >> game;
      if (o.refuse_start) {
        say("ERROR this engine plays no such game");
      } else {
        say(game == "checkers" ? "OK" : "ERROR checkers only");
      }
    } else if (command == "INFO") {
    } else if (command == "POSITION") {
      const size_t at = line.find(" MOVES ");
      try {
        state = checkers::parse_position(
            line.substr(9, at == std::string::npos ? std::string::npos : at - 9));
        if (at != std::string::npos) {
          std::istringstream moves(line.substr(at + 7));
          for (std::string m; moves >> m;)
            CheckersGame::apply(state, checkers::parse_move(state, m));
        }
      } catch (const std::exception& e) {
        say(std::string("ERROR ") + e.what());
      }
    } else if (command == "GO") {
      ++go;
      if (o.chatter) {
        say("MESSAGE thinking about move " + std::to_string(go));
        say("DEBUG nothing to see");
      }
      if (go == o.exit_at) return 3;
      if (go == o.late_at) ::usleep(static_cast<useconds_t>(o.late_ms) * 1000);
      if (go == o.garbage_at) {
        say("hello");
        continue;
      }
      if (go == o.illegal_at) {
        say("1-32");
        continue;
      }
      if (go == o.error_at) {
        say("ERROR no move");
        continue;
      }
      checkers::MoveList list;
      CheckersGame::generate_moves(state, checkers::Rules{}, list);
      say(list.size ? checkers::to_string(list.moves[0]) : "ERROR no legal move");
    } else if (command == "ABOUT") {
      say("name=\"fake_engine\", version=\"1\", author=\"selfplay tests\"");
    } else if (command == "END") {
      return 0;
    } else if (!command.empty()) {
      say("UNKNOWN " + line);
    }
  }
  return 0;
}
