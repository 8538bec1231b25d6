// The manager's side of the Gomocup protocol (../shared/reference/gomoku.md) for one external
// engine in one game slot, game-neutral: a fresh process per game (START, the INFO lines), one
// request per move (INFO time_left, then BEGIN, BOARD..DONE or TURN) and its answer read without
// blocking, END at the end of the game. It keeps the engine's clock and turns every way a
// program can fail into a Forfeit: no answer in time (turn or game time plus the tolerance), a
// closed pipe (the program exited or was killed), an ERROR or UNKNOWN reply or a line that is
// neither a move nor MESSAGE/DEBUG (logged at debug level and otherwise ignored).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/common/child_process.hpp"
#include "host/search/engine.hpp"

namespace sp::selfplay {

struct PbrainSettings {
  std::vector<std::string> command;  // program (resolved) and arguments
  uint32_t timeout_turn_ms = 5000;
  uint32_t timeout_match_ms = 0;  // 0: none
  uint32_t tolerance_ms = 1000;
  int board_size = 15;  // START n
  int rule = 0;         // INFO rule bitmask
};

class PbrainClient {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Phase { kIdle, kThinking, kAnswered, kForfeit };

  explicit PbrainClient(PbrainSettings settings) : s_(std::move(settings)) {}
  ~PbrainClient() { end_game(); }

  const PbrainSettings& settings() const { return s_; }
  // Ends the previous game's process, starts a fresh one, sends START and the INFO lines and
  // waits for OK. A program that crashes or does not answer START in time forfeits its first
  // move (phase kForfeit). Throws std::runtime_error when the program cannot be started, and
  // InputError when it refuses START with ERROR (it cannot play this board).
  void start_game();
  // Sends INFO time_left and the lines of one request (BEGIN; BOARD, stones, DONE; TURN x,y).
  void request(const std::vector<std::string>& lines);
  // Reads what the program has printed so far without waiting; moves the phase on.
  void poll();
  Phase phase() const { return phase_; }
  // kAnswered: the answer "x,y" parsed, or nullopt when it is not two numbers (an illegal answer
  // the caller reports with answer_text()).
  const std::optional<std::pair<int, int>>& answer() const { return answer_; }
  const std::string& answer_text() const { return answer_text_; }
  const search::Forfeit& forfeit() const { return forfeit_; }
  // Declares the answer illegal (off the board, an occupied square): phase kForfeit.
  void reject(std::string detail);
  // kThinking: the descriptor to poll and the deadline to come back by (min(): a line is already
  // buffered).
  std::optional<search::ExternalWait> waiting() const;
  // Sends END, gives the program tolerance_ms to exit, then kills it; reaps it. No-op when no
  // game runs.
  void end_game();

 private:
  void fail(search::Termination reason, std::string detail);
  std::string time_limits_text() const;
  std::string command_line_text() const;

  PbrainSettings s_;
  std::unique_ptr<ChildProcess> child_;
  Phase phase_ = Phase::kIdle;
  Clock::time_point sent_{}, deadline_{};
  uint64_t used_ms_ = 0;  // the game's time so far, for time_left
  std::optional<std::pair<int, int>> answer_;
  std::string answer_text_;
  search::Forfeit forfeit_;
};

}  // namespace sp::selfplay
