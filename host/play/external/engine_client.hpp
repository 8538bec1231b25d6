// The manager's side of a line protocol for one external engine in one game slot, game-neutral:
// the Gomocup protocol (../shared/reference/gomoku.md; pbrain_engine.hpp) and selfplay's engine
// protocol (docs/engine-protocol.md; external_engine.hpp) share it. A fresh process per game
// (START, then the INFO lines once it answers OK), one request per move (INFO time_left, then the
// protocol's lines) and its answer read without blocking, END at the end of the game. Nothing
// blocks the driver: START is sent when the game starts and its OK read while the games go on; a
// request made before the OK is sent once it comes, and the move's clock starts then. It keeps the
// engine's clock and turns every way a program can fail into a Forfeit: no answer in time (turn or
// game time plus the tolerance), a closed pipe (the program exited or was killed), an ERROR or
// UNKNOWN reply. MESSAGE and DEBUG lines are logged at debug level and otherwise ignored; what the
// answer line means is the caller's (it may reject() it).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/base/system/child_process.hpp"
#include "host/engines/search/engine.hpp"

namespace sp::selfplay {

struct ClientSettings {
  std::vector<std::string> command;  // program (resolved) and arguments
  uint32_t timeout_turn_ms = 5000;
  uint32_t timeout_match_ms = 0;  // 0: none
  uint32_t tolerance_ms = 1000;
  std::string protocol = "pbrain";  // in log lines
  std::string start;                // "START 15"
  std::vector<std::string> info;    // sent once START is answered: "INFO timeout_turn 500", ...
};

class EngineClient {
 public:
  using Clock = std::chrono::steady_clock;
  // kStarting: START sent, its OK not read yet (a request made then waits in pending_).
  enum class Phase { kStarting, kIdle, kThinking, kAnswered, kForfeit };

  explicit EngineClient(ClientSettings settings) : s_(std::move(settings)) {}
  ~EngineClient() { end_game(); }
  EngineClient(const EngineClient&) = delete;
  EngineClient& operator=(const EngineClient&) = delete;

  const ClientSettings& settings() const { return s_; }
  // Ends the previous game's process, starts a fresh one and sends START (phase kStarting);
  // poll() reads the OK and sends the INFO lines. A program that crashes, does not answer START
  // in time or refuses it forfeits its first move (phase kForfeit). Throws std::runtime_error
  // when the program cannot be started.
  void start_game();
  // Waits for the answer to START. Throws InputError when the program refuses it with ERROR (it
  // cannot play this board); a crash or no answer in time leaves phase kForfeit. For a probe
  // before a match; the games never wait.
  void wait_started();
  // Sends INFO time_left and the lines of one request (pbrain: BEGIN; BOARD, stones, DONE; TURN
  // x,y), or keeps them until START is answered.
  void request(const std::vector<std::string>& lines);
  // Reads what the program has printed so far without waiting; moves the phase on.
  void poll();
  Phase phase() const { return phase_; }
  // kAnswered: the answer line (not ERROR, UNKNOWN or chatter), trimmed.
  const std::string& answer_text() const { return answer_text_; }
  const search::Forfeit& forfeit() const { return forfeit_; }
  // Declares the answer illegal (not a move, off the board, not legal): phase kForfeit.
  void reject(std::string detail);
  // kThinking, or kStarting with a request waiting: the descriptor to poll and the deadline to
  // come back by (min(): a line is already buffered).
  std::optional<search::ExternalWait> waiting() const;
  // Sends END, gives the program tolerance_ms to exit, then kills it; reaps it. No-op when no
  // game runs.
  void end_game();

 private:
  void fail(search::Termination reason, std::string detail);
  // What one line read in kStarting means: chatter (stays kStarting), OK (kIdle, INFO sent) or
  // anything else, a refusal (returned, phase unchanged).
  std::optional<std::string> start_line(const std::string& line);
  // kStarting: reads what has arrived; a refusal or a passed deadline forfeits.
  void poll_start();
  void send(const std::vector<std::string>& lines);
  std::string time_limits_text() const;
  std::string command_line_text() const;

  ClientSettings s_;
  std::unique_ptr<ChildProcess> child_;
  Phase phase_ = Phase::kIdle;
  Clock::time_point sent_{}, deadline_{};
  Clock::time_point start_deadline_{};               // by when START must be answered
  std::optional<std::vector<std::string>> pending_;  // a request made in kStarting
  uint64_t used_ms_ = 0;                             // the game's time so far, for time_left
  std::string answer_text_;
  search::Forfeit forfeit_;
};

}  // namespace sp::selfplay
