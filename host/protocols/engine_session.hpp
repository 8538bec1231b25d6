// The engine side of selfplay's engine protocol (docs/engine-protocol.md), `selfplay engine`: a
// manager sends one command per line, our engine (the config's engines.player0 over its rules)
// answers on the output stream, one line per answer, flushed at once. Commands: START game,
// INFO key value, POSITION text [MOVES m1 m2 ...], GO, STOP, ABOUT, END; anything else is answered
// `UNKNOWN ...`. Bad input (an unreadable position, an illegal move in the list, GO in a finished
// game, START of another game) is answered `ERROR ...`, leaves the position as it was, and never
// ends the session. Only protocol lines go to the output stream; each move's search is noted on
// the log stream (stderr).
//
// The engine keeps its tree or table across the positions of one game: a POSITION that extends
// the last one (same start, its moves first) is told to the engine move by move; any other
// starts a new game for it. Time: INFO timeout_turn, timeout_match and time_left give each move a
// budget as in the Gomocup protocol (move_budget_ms); INFO max_memory caps the table or tree.
#pragma once

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <initializer_list>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "core/game_host.hpp"
#include "core/repetition.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/search/engine.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/external/external_engine.hpp"
#include "host/play/selfplay/driver.hpp"
#include "host/protocols/input_pump.hpp"
#include "host/protocols/pbrain.hpp"
#include "host/protocols/pbrain_parse.hpp"

namespace sp::selfplay {

namespace engine_protocol {

// The words of a line separated by blanks (spaces, tabs, a '\r' before the newline).
inline std::vector<std::string> words(std::string_view line) {
  std::vector<std::string> out;
  size_t i = 0;
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (i < line.size()) {
    while (i < line.size() && blank(line[i])) ++i;
    const size_t first = i;
    while (i < line.size() && !blank(line[i])) ++i;
    if (i > first) out.emplace_back(line.substr(first, i - first));
  }
  return out;
}

}  // namespace engine_protocol

template <LineProtocolGame G>
class EngineSession {
 public:
  using State = typename G::State;
  using Move = typename G::Move;
  using Rules = typename G::Rules;

  // The engine is cfg.engines[0] over cfg's rules. backend, in, out and log must outlive this
  // object.
  EngineSession(const config::Config<G>& cfg, rollout::Backend<G>& backend, std::istream& in,
                std::ostream& out, std::ostream& log)
      : cfg_(cfg),
        rules_(GameHost<G>::rules_of(cfg.rules)),
        backend_(backend),
        in_(in),
        out_(out),
        log_(log) {
    pbrain_detail::refuse_external_engine(cfg_, "selfplay engine");
    params_.seed = cfg_.seed;
    params_.policies[0] = cfg_.policies[0];
    params_.rules = rules_;
  }

  // Answers commands until END or the end of input. The input is read while the engine searches:
  // END, STOP and the end of input stop a running search at once, which is answered with the best
  // move found so far. Bad input never throws; a backend failure propagates.
  void run() {
    const auto word_is = [](std::string_view line, std::initializer_list<std::string_view> set) {
      const std::vector<std::string> w = engine_protocol::words(line);
      return !w.empty() && std::find(set.begin(), set.end(), w[0]) != set.end();
    };
    InputPump::serve(
        in_,
        [&](std::string_view line) {
          return word_is(line, {"END", "STOP"});
        },
        [&](std::string_view line) { return word_is(line, {"END"}); },
        [this](std::string_view line) { return handle(line); },
        [this](const std::atomic<bool>* flag) {
          interrupt_ = flag;
          if (engine_) engine_->set_interrupt(flag);
        });
  }

  // Answers one command line; false after END.
  bool handle(std::string_view line) {
    const std::vector<std::string> w = engine_protocol::words(line);
    if (w.empty()) return true;
    try {
      return dispatch(w);
    } catch (const InputError& e) {
      reply(std::string("ERROR ") + e.what());
      return true;
    }
  }

  // The position to move in (after POSITION), for tests.
  const State& state() const { return state_; }
  bool has_position() const { return has_position_; }

 private:
  bool dispatch(const std::vector<std::string>& w) {
    const std::string& c = w[0];
    if (c == "END") return false;
    if (c == "STOP") {
      // Stops a running search (run() reads it while the engine thinks); nothing to stop now.
      if (w.size() != 1) throw InputError("STOP takes no arguments");
      return true;
    }
    if (c == "START") {
      if (w.size() != 2) throw InputError("START takes the game's name: START " + game_name());
      if (w[1] != game_name())
        throw InputError("this engine plays " + game_name() + ", not '" + excerpt(w[1]) + "'");
      new_game();
      reply("OK");
    } else if (c == "INFO") {
      info(w);
    } else if (c == "POSITION") {
      position(w);
    } else if (c == "GO") {
      if (w.size() != 1) throw InputError("GO takes no arguments");
      think();
    } else if (c == "ABOUT") {
      reply(pbrain_detail::about_text());
    } else {
      reply("UNKNOWN command \"" + excerpt(c) + "\"");
    }
    return true;
  }

  static std::string game_name() { return G::kName; }

  void reply(const std::string& text) {
    out_ << pbrain_detail::one_line(text) << '\n';
    out_.flush();
  }

  // A fresh engine for the game's moves, its table or tree allocated now, while no move's clock
  // runs.
  void make_engine_now() {
    std::string note;
    engine_ = make_engine<G>(memory_capped_engine(cfg_.engines[0], max_memory_, &note), rules_, 0);
    engine_->set_interrupt(interrupt_);
    if (!note.empty()) log_ << "engine: max_memory " << max_memory_ << " bytes: " << note << "\n";
  }

  void new_game() {
    if (!engine_) make_engine_now();
    engine_->new_game();
    ++game_;
    synced_ = false;
    has_position_ = false;
  }

  void info(const std::vector<std::string>& w) {
    if (w.size() < 2) throw InputError("INFO needs a key and a value");
    std::string key = w[1];
    for (char& ch : key) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const std::string value = w.size() > 2 ? w[2] : "";
    if (key == "timeout_turn") {
      clock_.timeout_turn = pbrain_detail::parse_count(key, value);
    } else if (key == "timeout_match") {
      clock_.timeout_match = pbrain_detail::parse_count(key, value);
    } else if (key == "time_left") {
      clock_.time_left = pbrain_detail::parse_count(key, value);
    } else if (key == "max_memory") {
      max_memory_ = static_cast<uint64_t>(pbrain_detail::parse_count(key, value));
      make_engine_now();
      synced_ = false;
    }
    // Keys this engine does not know are accepted and ignored.
  }

  // POSITION text [MOVES m1 m2 ...]: the start and the moves since, each checked; on any error
  // the position stays as it was.
  void position(const std::vector<std::string>& w) {
    size_t moves_at = w.size();
    for (size_t i = 1; i < w.size(); ++i)
      if (w[i] == "MOVES") {
        moves_at = i;
        break;
      }
    if (moves_at == 1) throw InputError("POSITION needs a position before MOVES");
    std::string start;
    for (size_t i = 1; i < moves_at; ++i) start += (i > 1 ? " " : "") + w[i];
    State s = GameHost<G>::parse_position(start);
    std::vector<Move> moves;
    // The repetition rule (checkers' threefold) over the moves, as the driver keeps it: a game it
    // drew is over like one its counters ended.
    PositionHistory<G> history(rules_);
    history.reset(s);
    bool repeated = false;
    for (size_t i = moves_at + 1; i < w.size(); ++i) {
      if (G::is_over(s) || repeated)
        throw InputError("move " + std::to_string(i - moves_at) + " '" + excerpt(w[i]) +
                         "': the game is already over" +
                         (repeated ? " (drawn by repetition)" : ""));
      try {
        moves.push_back(GameHost<G>::parse_move(s, rules_, w[i]));
      } catch (const InputError& e) {
        throw InputError("move " + std::to_string(i - moves_at) + ": " + e.what());
      }
      G::apply(s, moves.back());
      repeated = history.push(s);
    }
    if (!engine_) make_engine_now();
    // A position that extends the last one is told move by move; any other is a new game.
    const bool extends = synced_ && start == start_ && moves.size() >= moves_.size() &&
                         std::equal(moves_.begin(), moves_.end(), moves.begin());
    State at = GameHost<G>::parse_position(start);
    size_t from = 0;
    if (extends) {
      at = state_;
      from = moves_.size();
    } else {
      engine_->new_game();
      engine_->game_started(at);
      ++game_;
    }
    for (size_t i = from; i < moves.size(); ++i) {
      G::apply(at, moves[i]);
      engine_->observe(moves[i], at);
    }
    start_ = std::move(start);
    moves_ = std::move(moves);
    state_ = at;
    drawn_by_repetition_ = repeated;
    synced_ = true;
    has_position_ = true;
  }

  void think() {
    if (!has_position_) throw InputError("GO before POSITION");
    if (G::is_over(state_)) throw InputError("the game is over; no move to make");
    if (drawn_by_repetition_)
      throw InputError("the game is over: the position occurred " +
                       std::to_string(repetition_limit<G>(rules_)) +
                       " times (drawn by repetition); no move to make");
    const uint32_t budget = move_budget_ms(clock_);
    engine_->set_time_limit(budget);
    const auto t0 = std::chrono::steady_clock::now();
    search::MoveStats st;
    const Move m = search::decide_in_place(
        *engine_, state_, search::SearchIds{game_, static_cast<uint32_t>(moves_.size()), cfg_.seed},
        backend_, params_, &st, leaves_, stats_);
    const int64_t ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    if (clock_.time_left >= 0) clock_.time_left = std::max<int64_t>(0, clock_.time_left - ms);
    const std::string text = GameHost<G>::move_text(state_, m);
    log_ << "engine: " << text << " ply " << moves_.size() << ", budget " << budget << " ms, " << ms
         << " ms, " << st.rollouts << " rollouts, " << st.tree_nodes << " nodes\n";
    log_.flush();
    reply(text);
  }

  config::Config<G> cfg_;
  Rules rules_;
  rollout::Backend<G>& backend_;
  std::istream& in_;
  std::ostream& out_;
  std::ostream& log_;
  std::unique_ptr<search::Engine<G>> engine_;     // made at the first START or POSITION
  const std::atomic<bool>* interrupt_ = nullptr;  // run()'s input: stops a search when raised
  rollout::PlayoutParams<G> params_;
  std::vector<rollout::Leaf<G>> leaves_;
  std::vector<rollout::LeafStats> stats_;
  std::string start_;        // the last POSITION's start text
  std::vector<Move> moves_;  // and its moves
  State state_{};            // the position after them
  bool synced_ = false;      // the engine has seen start_ and moves_
  bool has_position_ = false;
  bool drawn_by_repetition_ = false;  // state_ is drawn by the repetition rule
  uint32_t game_ = 0;                 // counts the engine's games, for the search streams
  PbrainClock clock_;
  uint64_t max_memory_ = 0;
};

}  // namespace sp::selfplay
