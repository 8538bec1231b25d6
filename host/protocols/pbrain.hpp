// The engine side of the Gomocup "pbrain" protocol (../shared/reference/gomoku.md): a game
// manager (piskvork, a tournament runner) sends one command per line, the engine answers on the
// output stream, one line per answer, flushed at once. Commands: START n, RECTSTART w,h, RESTART,
// BEGIN, TURN x,y, BOARD (x,y,f lines) DONE, INFO key value, TAKEBACK x,y, END, ABOUT; anything
// else is answered `UNKNOWN ...`. Bad input (an unreadable line, a square off the board or taken,
// a size or rule the game does not play, x,y,f lines outside BOARD) is answered `ERROR ...` and
// the session goes on; it never ends the process. Only protocol lines go to the output stream;
// notes (each move's search, a capped table) go to the log stream (stderr).
//
// The protocol is game-neutral here; what is the game's (board sizes, rule bits, squares as x,y)
// comes from GameHost<G>'s pbrain hooks (core/game_host.hpp, ProtocolGame). The engine is
// the config's engines.player0 over its rules; START and INFO rule change the board and the rule.
//
// Time: the manager's INFO timeout_turn (ms per move, 0 = as fast as possible), timeout_match
// (ms for the match, 0 = no limit) and time_left (ms of the match left) give each move a budget
// (move_budget_ms) that the engine gets through Engine::set_time_limit; without any of them the
// engine keeps its configured limits. INFO max_memory (bytes, 0 = no limit) caps the engine's
// transposition table or tree (memory_capped_engine).
//
// This file is the session: its state, the dispatch of commands, the engine, its thinking and its
// clock. The text handling (lines, command words, numbers, the text of replies) is
// pbrain_parse.hpp's, which every includer of this file gets too; the BOARD command's lines and
// position are pbrain_board.hpp's.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "core/game_host.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/search/engine.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/selfplay/driver.hpp"
#include "host/protocols/input_pump.hpp"
#include "host/protocols/pbrain_board.hpp"
#include "host/protocols/pbrain_parse.hpp"

namespace sp::selfplay {

// The manager's clock as INFO gave it, in ms; -1 where it said nothing.
struct PbrainClock {
  int64_t timeout_turn = -1;   // per move; 0 = as fast as possible
  int64_t timeout_match = -1;  // the whole match; 0 = no limit
  int64_t time_left = -1;      // of the match
};

// Moves the match's time left is shared over: each move takes at most time_left / kMovesToGo.
inline constexpr int64_t kPbrainMovesToGo = 25;

// The budget of the next move in ms: 0 when the clock says nothing (the engine keeps its configured
// limits), else the tighter of timeout_turn and time_left / kPbrainMovesToGo (time_left only while
// timeout_match is not 0) less a safety margin of 30 ms + 10% (at most half), at least 1 ms (0 in
// the protocol: as fast as possible).
uint32_t move_budget_ms(const PbrainClock& clock);

// The engine config with its transposition table (alphabeta, expectimax) or tree (mcts) capped to
// half of max_memory_bytes (at least 1 MiB), the rest left to the program; unchanged for 0 (no
// limit). *note gets what was capped ("" when nothing was).
config::EngineConfig memory_capped_engine(config::EngineConfig engine, uint64_t max_memory_bytes,
                                          std::string* note);

namespace pbrain_detail {

// Our sessions (pbrain, engine) answer in place with engines.player0; an external program behind
// it would need the driver's polling. Throws InputError naming `command` for such a config.
inline void refuse_external_engine(const config::CampaignConfig& cfg, const char* command) {
  if (config::is_external(cfg.engines[0].type))
    throw InputError(std::string(command) +
                     ": engines.player0 is itself an external program; give a config whose "
                     "engines.player0 is one of ours (alphabeta, mcts, flat, random)");
}

}  // namespace pbrain_detail

template <ProtocolGame G>
class PbrainSession {
 public:
  using State = typename G::State;
  using Move = typename G::Move;
  using Rules = typename G::Rules;

  // The engine is cfg.engines[0]; cfg's rules are the board and rule until START or INFO rule
  // change them. backend, in, out and log must outlive this object.
  PbrainSession(const config::Config<G>& cfg, rollout::Backend<G>& backend, std::istream& in,
                std::ostream& out, std::ostream& log)
      : cfg_(cfg),
        rules_(GameHost<G>::rules_of(cfg.rules)),
        backend_(backend),
        in_(in),
        out_(out),
        log_(log) {
    pbrain_detail::refuse_external_engine(cfg_, "selfplay pbrain");
    params_.seed = cfg_.seed;
    params_.policies[0] = cfg_.policies[0];
    state_ = GameHost<G>::pbrain_start(rules_);
  }

  // Answers commands until END or the end of input. The input is read while the engine thinks:
  // END and the end of input stop a running search at once, which is answered with the best move
  // found so far. Bad input never throws; a backend failure propagates.
  void run() {
    const auto is_end = [](std::string_view line) {
      return pbrain_detail::split_command(line).word == "END";
    };
    InputPump::serve(
        in_, is_end, is_end, [this](std::string_view line) { return handle(line); },
        [this](const std::atomic<bool>* flag) {
          interrupt_ = flag;
          if (engine_) engine_->set_interrupt(flag);
        });
  }

  // Answers one command line; false after END.
  bool handle(std::string_view line) {
    const pbrain_detail::CommandLine c = pbrain_detail::split_command(line);
    if (c.word.empty()) return true;
    if (board_.active()) {
      if (c.word == "DONE") {
        if (!c.args.empty()) {
          board_.abandon();
          return error("DONE takes no arguments; BOARD ignored");
        }
        finish_board();
        return true;
      }
      if (pbrain_detail::starts_number(c.word)) {
        if (const std::string bad = board_.line(c.text, rules_); !bad.empty()) error(bad);
        return true;
      }
      board_.abandon();
      error("BOARD ended without DONE; it is ignored");
    }
    try {
      return dispatch(c);
    } catch (const InputError& e) {
      return error(e.what());
    }
  }

  const State& state() const { return state_; }
  const Rules& rules() const { return rules_; }

 private:
  bool dispatch(const pbrain_detail::CommandLine& c) {
    const std::string& w = c.word;
    if (w == "END") return false;
    if (w == "START") {
      const int64_t n = pbrain_detail::parse_numbers(c.args, 1, "START n")[0];
      start_board(n, n);
    } else if (w == "RECTSTART") {
      const std::vector<int64_t> wh = pbrain_detail::parse_numbers(c.args, 2, "RECTSTART w,h");
      start_board(wh[0], wh[1]);
    } else if (w == "RESTART") {
      pbrain_detail::no_arguments(c);
      new_game();
      reply("OK");
    } else if (w == "BEGIN") {
      pbrain_detail::no_arguments(c);
      if (!history_.empty())
        throw InputError("BEGIN on a board with stones; send START or RESTART first");
      think();
    } else if (w == "TURN") {
      const std::vector<int64_t> xy = pbrain_detail::parse_numbers(c.args, 2, "TURN x,y");
      const Move m = GameHost<G>::pbrain_move(state_, xy[0], xy[1]);
      play(m);
      if (G::is_over(state_)) throw InputError("the game is over after the opponent's move");
      think();
    } else if (w == "BOARD") {
      pbrain_detail::no_arguments(c);
      board_.begin();
    } else if (w == "DONE") {
      throw InputError("DONE without BOARD");
    } else if (pbrain_detail::starts_number(w)) {
      throw InputError("x,y,f line \"" + excerpt(c.text) + "\" outside BOARD ... DONE");
    } else if (w == "INFO") {
      info(c.args);
    } else if (w == "TAKEBACK") {
      const std::vector<int64_t> xy = pbrain_detail::parse_numbers(c.args, 2, "TAKEBACK x,y");
      take_back(xy[0], xy[1]);
      reply("OK");
    } else if (w == "ABOUT") {
      reply(pbrain_detail::about_text());
    } else {
      reply("UNKNOWN command \"" + excerpt(w) + "\"");
    }
    return true;
  }

  void reply(const std::string& text) {
    out_ << pbrain_detail::one_line(text) << '\n';
    out_.flush();
  }
  bool error(const std::string& message) {
    reply("ERROR " + message);
    return true;
  }

  void start_board(int64_t width, int64_t height) {
    if (width < 1 || height < 1 || width > 1000 || height > 1000)
      throw InputError("a " + std::to_string(width) + "x" + std::to_string(height) +
                       " board is not supported");
    const Rules rules =
        GameHost<G>::pbrain_board(rules_, static_cast<int>(width), static_cast<int>(height));
    set_rules(rules);
    new_game();
    reply("OK");
  }

  void set_rules(const Rules& rules) {
    rules_ = rules;
    make_engine_now();  // engines keep the rules they were made with
  }

  // A fresh engine for rules_ and max_memory_, its table or tree allocated now, while no move's
  // clock runs (managers time moves, not START or INFO).
  void make_engine_now() {
    std::string note;
    engine_ = make_engine<G>(memory_capped_engine(cfg_.engines[0], max_memory_, &note), rules_, 0);
    engine_->set_interrupt(interrupt_);
    if (!note.empty()) log_ << "pbrain: max_memory " << max_memory_ << " bytes: " << note << "\n";
    engine_->new_game();
  }

  void new_game() {
    state_ = GameHost<G>::pbrain_start(rules_);
    history_.clear();
    ++game_;
    if (!engine_) make_engine_now();
    engine_->new_game();
  }

  // Plays m (legal) for the side to move and tells the engine.
  void play(Move m) {
    G::apply(state_, m);
    history_.push_back(m);
    if (engine_ && !G::is_over(state_)) engine_->observe(m, state_);
  }

  // The position of history_ under rules_, replayed from the empty board.
  State replay(const std::vector<Move>& moves) const {
    State s = GameHost<G>::pbrain_start(rules_);
    for (const Move m : moves) {
      const auto [x, y] = GameHost<G>::pbrain_xy(m);
      G::apply(s, GameHost<G>::pbrain_move(s, x, y));
    }
    return s;
  }

  void take_back(int64_t x, int64_t y) {
    if (history_.empty()) throw InputError("TAKEBACK on an empty board");
    const auto [lx, ly] = GameHost<G>::pbrain_xy(history_.back());
    if (lx != x || ly != y)
      throw InputError("TAKEBACK " + std::to_string(x) + "," + std::to_string(y) +
                       ": the last stone is on " + std::to_string(lx) + "," + std::to_string(ly));
    history_.pop_back();
    state_ = replay(history_);
  }

  // DONE: the position of the BOARD lines, the engine to move, or ERROR and nothing changed.
  void finish_board() {
    auto done = board_.finish(rules_);
    if (const auto* message = std::get_if<std::string>(&done)) {
      error(*message);
      return;
    }
    auto& position = std::get<typename PbrainBoard<G>::Position>(done);
    state_ = position.state;
    history_ = std::move(position.moves);
    ++game_;
    if (!engine_) make_engine_now();
    engine_->new_game();
    think();
  }

  void info(const std::string& args) {
    const auto [key, value] = pbrain_detail::split_info(args);
    if (key == "timeout_turn") {
      clock_.timeout_turn = pbrain_detail::parse_count(key, value);
    } else if (key == "timeout_match") {
      clock_.timeout_match = pbrain_detail::parse_count(key, value);
    } else if (key == "time_left") {
      clock_.time_left = pbrain_detail::parse_count(key, value);
    } else if (key == "max_memory") {
      max_memory_ = static_cast<uint64_t>(pbrain_detail::parse_count(key, value));
      make_engine_now();
    } else if (key == "rule") {
      const Rules rules = GameHost<G>::pbrain_rule(rules_, pbrain_detail::parse_count(key, value));
      const Rules before = rules_;
      rules_ = rules;
      try {
        state_ = replay(history_);  // the stones on the board under the new rule
      } catch (const InputError& e) {
        rules_ = before;
        throw InputError(
            std::string("INFO rule: the stones on the board do not replay under it: ") + e.what());
      }
      set_rules(rules);
    }
    // game_type, folder, evaluate and keys this engine does not know are accepted and ignored.
  }

  // Decides, plays and answers the engine's move.
  void think() {
    if (G::is_over(state_)) throw InputError("the game is over; no move to make");
    if (!engine_) make_engine_now();
    params_.rules = rules_;
    const uint32_t budget = move_budget_ms(clock_);
    engine_->set_time_limit(budget);
    const auto t0 = std::chrono::steady_clock::now();
    search::MoveStats st;
    const Move m = search::decide_in_place(
        *engine_, state_,
        search::SearchIds{game_, static_cast<uint32_t>(history_.size()), cfg_.seed}, backend_,
        params_, &st, leaves_, stats_);
    const int64_t ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    if (clock_.time_left >= 0) clock_.time_left = std::max<int64_t>(0, clock_.time_left - ms);
    const auto [x, y] = GameHost<G>::pbrain_xy(m);
    const std::string text = GameHost<G>::move_text(state_, m);
    // The engine's move is checked like the opponent's before it is played.
    play(GameHost<G>::pbrain_move(state_, x, y));
    log_ << "pbrain: " << x << "," << y << " (" << text << ") ply " << history_.size()
         << ", budget " << budget << " ms, " << ms << " ms, " << st.rollouts << " rollouts, "
         << st.tree_nodes << " nodes\n";
    log_.flush();
    reply(std::to_string(x) + "," + std::to_string(y));
  }

  config::Config<G> cfg_;
  Rules rules_;
  rollout::Backend<G>& backend_;
  std::istream& in_;
  std::ostream& out_;
  std::ostream& log_;
  std::unique_ptr<search::Engine<G>> engine_;     // made at the first START or before a first move
  const std::atomic<bool>* interrupt_ = nullptr;  // run()'s input: stops a search when raised
  rollout::PlayoutParams<G> params_;
  std::vector<rollout::Leaf<G>> leaves_;
  std::vector<rollout::LeafStats> stats_;
  State state_{};
  std::vector<Move> history_;  // the moves from the empty board to state_
  uint32_t game_ = 0;          // counts games (START, RESTART, BOARD) for the search streams
  PbrainClock clock_;
  uint64_t max_memory_ = 0;
  PbrainBoard<G> board_;  // BOARD ... DONE
};

}  // namespace sp::selfplay
