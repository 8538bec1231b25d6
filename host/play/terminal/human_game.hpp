// A human plays game G against one engine through a pair of text streams (a terminal, or scripted
// streams in tests). Openings, first player and chance come from the same functions as self-play
// (start_position, draw_chance keyed by the seed, a game counter and the ply), so a seed replays
// the same game start and dice; the engine searches to completion on the given backend before
// each of its moves. What the terminal shows of a game (its board, side names, the rules in the
// help, why a game ended) comes from GameHost<G>'s terminal-play hooks where the game has them
// (core/game_host.hpp), with plain defaults otherwise.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <iosfwd>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/game_host.hpp"
#include "core/repetition.hpp"
#include "host/engines/rollout/backend.hpp"
#include "host/engines/search/engine.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/selfplay/driver.hpp"

namespace sp::selfplay {

struct SessionSummary {
  uint32_t games_finished = 0;
  uint32_t human_wins = 0;
  uint32_t engine_wins = 0;  // games_finished - human_wins - engine_wins were drawn
  bool quit = false;  // ended by `quit` or end of input rather than by declining another game
};

// Backend options sized for the rounds of one engine (cfg.engines[0]): a single game in flight.
rollout::BackendOptions play_backend_options(const config::CampaignConfig& cfg);

// The terminal-play hooks of GameHost<G>, or their defaults.

// The board of s, lines ending in '\n'; default: the position text.
template <HostGame G>
std::string board_text(const typename G::State& s) {
  if constexpr (requires { GameHost<G>::board_text(s); })
    return GameHost<G>::board_text(s);
  else
    return GameHost<G>::position_text(s) + "\n";
}

// "player 0 (cubes A-F, from the top-left corner to e1)"; default "player 0".
template <HostGame G>
std::string side_name(int side) {
  if constexpr (requires { GameHost<G>::side_name(side); })
    return GameHost<G>::side_name(side);
  else
    return "player " + std::to_string(side);
}

namespace human_detail {

std::string trimmed_lower(const std::string& line);
std::string percent(double p);

// ", A-F" after "player 0" in the turn line; default nothing.
template <HostGame G>
std::string side_tag(int side) {
  if constexpr (requires { GameHost<G>::side_tag(side); })
    return ", " + GameHost<G>::side_tag(side);
  else
    return "";
}

// ", die 3" after the turn; default ", chance N" (N as chance_value gives it) in a chance game.
template <HostGame G>
std::string chance_tag(const typename G::State& s) {
  if constexpr (requires { GameHost<G>::chance_text(s); })
    return ", " + GameHost<G>::chance_text(s);
  else if constexpr (ChanceGame<G>)
    return ", chance " + std::to_string(GameHost<G>::chance_value(s));
  else
    return "";
}

// A move to quote in messages; default: the first legal move of the usual start.
template <HostGame G>
std::string move_example() {
  if constexpr (requires { GameHost<G>::move_example(); }) {
    return GameHost<G>::move_example();
  } else {
    const typename GameHost<G>::Settings settings{};
    typename G::State s = GameHost<G>::start(settings, 0, 0, nullptr);
    if constexpr (ChanceGame<G>)
      if (G::needs_chance(s)) G::set_chance(s, 0);
    typename G::MoveList list;
    G::generate_moves(s, GameHost<G>::rules_of(settings), list);
    return GameHost<G>::move_text(s, list.moves[0]);
  }
}

// The help's lines on entering moves; default one line.
template <HostGame G>
std::string move_help() {
  if constexpr (requires { GameHost<G>::move_help(); })
    return GameHost<G>::move_help();
  else
    return "  <move>       play a move as the legal moves list it, e.g. " + move_example<G>() +
           "\n";
}

// The help's paragraph on the rules; default none.
template <HostGame G>
std::string rules_help(const typename G::Rules& rules) {
  if constexpr (requires { GameHost<G>::rules_help(rules); })
    return GameHost<G>::rules_help(rules);
  else
    return "";
}

// Why the game ended, from the winner's side ("your cube reached e1"); default none.
template <HostGame G>
std::string win_reason(const typename G::State& before, typename G::Move move, bool human) {
  if constexpr (requires { GameHost<G>::win_reason(before, move, human); })
    return GameHost<G>::win_reason(before, move, human);
  else
    return "";
}

}  // namespace human_detail

template <HostGame G>
class HumanGame {
 public:
  using State = typename G::State;
  using Move = typename G::Move;

  // The engine is cfg.engines[0]; the rules, openings, first player and seed come from cfg (game
  // counter g uses the opening and chance of game g, unpaired). When human_first, the human takes
  // the side that moves first, otherwise the other one. backend, in and out must outlive this
  // object.
  HumanGame(const config::Config<G>& cfg, rollout::Backend<G>& backend, bool human_first,
            std::istream& in, std::ostream& out)
      : cfg_(cfg),
        rules_(GameHost<G>::rules_of(cfg.rules)),
        backend_(backend),
        human_first_(human_first),
        in_(in),
        out_(out) {
    cfg_.paired = false;  // game counter g draws the opening and chance of stream g
    // Terminal play waits for each engine move in place; an external program would need the
    // driver's polling and forfeits.
    if (config::is_external(cfg_.engines[0].type))
      throw InputError(
          "selfplay play: engines.player0 is an external program (type pbrain or external); "
          "play against it with its own manager, or pit it against ours with selfplay match");
    engine_ = make_engine<G>(cfg_.engines[0], rules_, 0);
    params_.seed = cfg_.seed;
    params_.rules = rules_;
    params_.policies[0] = cfg_.policies[0];
  }

  // Plays games until the human quits, input ends or another game is declined. Never throws on
  // bad input; backend failures propagate.
  SessionSummary run();

 private:
  enum class End { kFinished, kQuit };
  End play_game(uint32_t game);
  // The human's move, or nothing when the human quits or input ends.
  std::optional<Move> read_human_move(const State& s);
  Move engine_move(const State& s, uint32_t game, uint32_t ply);
  bool ask_play_again();
  bool read_line(std::string& line);  // prompt already written; false at end of input
  void show_position(const State& s, uint32_t ply) const;
  void show_moves(const State& s) const;
  void show_help() const;
  void show_score();
  // repeated: the repetition rule drew the game (G::is_over(after) is false).
  void announce_end(const State& before, Move move, const State& after, bool repeated);

  config::Config<G> cfg_;
  typename G::Rules rules_;
  rollout::Backend<G>& backend_;
  bool human_first_;
  std::istream& in_;
  std::ostream& out_;
  std::unique_ptr<search::Engine<G>> engine_;
  rollout::PlayoutParams<G> params_;
  std::vector<rollout::Leaf<G>> leaves_;
  std::vector<rollout::LeafStats> stats_;
  int human_side_ = 0;
  SessionSummary summary_;
};

template <HostGame G>
SessionSummary HumanGame<G>::run() {
  summary_ = SessionSummary{};
  out_ << GameHost<G>::kTitle << ": you against the engine " << engine_->describe() << "\n"
       << "Rules: " << GameHost<G>::describe_rules(rules_) << "; backend " << backend_.info().name
       << "; seed " << cfg_.seed << "\n"
       << "Enter moves such as " << human_detail::move_example<G>()
       << "; type help for the commands.\n";
  for (uint32_t game = 0;; ++game) {
    if (play_game(game) == End::kQuit) {
      summary_.quit = true;
      break;
    }
    if (!ask_play_again()) break;
  }
  out_ << "Bye. Games finished: " << summary_.games_finished << " (you " << summary_.human_wins
       << ", engine " << summary_.engine_wins;
  const uint32_t draws = summary_.games_finished - summary_.human_wins - summary_.engine_wins;
  if (draws > 0) out_ << ", draws " << draws;
  out_ << ").\n";
  out_.flush();
  return summary_;
}

template <HostGame G>
typename HumanGame<G>::End HumanGame<G>::play_game(uint32_t game) {
  State s = start_position<G>(cfg_, game);
  const int first = G::side_to_move(s);
  const State start = s;
  human_side_ = human_first_ ? first : first ^ 1;
  engine_->new_game();
  out_ << "\nGame " << game + 1 << ": you play " << side_name<G>(human_side_) << ";\n"
       << "the engine plays " << side_name<G>(human_side_ ^ 1) << ". "
       << (first == human_side_ ? "You move" : "The engine moves") << " first.\n";

  std::vector<std::string> record;
  PositionHistory<G> history(rules_);
  history.reset(s);
  for (uint32_t ply = 0;; ++ply) {
    show_position(s, ply);
    Move m;
    if (G::side_to_move(s) == human_side_) {
      const std::optional<Move> chosen = read_human_move(s);
      if (!chosen) {
        out_ << "Game " << game + 1 << " abandoned after " << ply
             << (ply == 1 ? " ply.\n" : " plies.\n");
        return End::kQuit;
      }
      m = *chosen;
      out_ << "You play " << ply_text<G>(s, m) << "\n";
    } else {
      m = engine_move(s, game, ply);
    }
    record.push_back(ply_text<G>(s, m));
    const State before = s;
    G::apply(s, m);
    const bool repeated = history.push(s);
    if (G::is_over(s) || repeated) {
      announce_end(before, m, s, repeated && !G::is_over(s));
      out_ << "Start: " << GameHost<G>::position_text(start) << "\nRecord:";
      for (const std::string& p : record) out_ << ' ' << p;
      out_ << "\n";
      show_score();
      return End::kFinished;
    }
    if constexpr (ChanceGame<G>)
      if (G::needs_chance(s)) G::set_chance(s, draw_chance<G>(cfg_.seed, game, ply + 1));
    engine_->observe(m, s);
  }
}

template <HostGame G>
void HumanGame<G>::announce_end(const State& before, Move move, const State& after, bool repeated) {
  out_ << "\n" << board_text<G>(after);
  ++summary_.games_finished;
  if (repeated) {
    out_ << "Draw: the same position occurred " << repetition_limit<G>(rules_) << " times.\n";
    return;
  }
  const int winner = G::winner(after);
  if (winner != 0 && winner != 1) {
    out_ << "Draw.\n";
    return;
  }
  const bool human_won = winner == human_side_;
  const std::string reason = human_detail::win_reason<G>(before, move, human_won);
  out_ << (human_won ? "You win" : "Engine wins") << (reason.empty() ? "" : ": " + reason) << ".\n";
  ++(human_won ? summary_.human_wins : summary_.engine_wins);
}

template <HostGame G>
void HumanGame<G>::show_score() {
  out_ << "Score: you " << summary_.human_wins << ", engine " << summary_.engine_wins;
  const uint32_t draws = summary_.games_finished - summary_.human_wins - summary_.engine_wins;
  if (draws > 0) out_ << ", draws " << draws;
  out_ << "\n";
}

template <HostGame G>
void HumanGame<G>::show_position(const State& s, uint32_t ply) const {
  const int side = G::side_to_move(s);
  out_ << "\n"
       << board_text<G>(s) << "Ply " << ply + 1 << ": "
       << (side == human_side_ ? "your turn" : "engine's turn") << " (player " << side
       << human_detail::side_tag<G>(side) << ")" << human_detail::chance_tag<G>(s) << "\n";
}

template <HostGame G>
void HumanGame<G>::show_moves(const State& s) const {
  if constexpr (requires { GameHost<G>::moves_hint(s); }) {
    out_ << GameHost<G>::moves_hint(s);
    return;
  }
  typename G::MoveList legal;
  G::generate_moves(s, rules_, legal);
  out_ << "Legal moves:";
  for (int k = 0; k < legal.size; ++k)
    out_ << (k ? ", " : " ") << GameHost<G>::move_text(s, legal.moves[k]);
  out_ << "\n";
}

template <HostGame G>
void HumanGame<G>::show_help() const {
  out_ << "Commands:\n"
       << human_detail::move_help<G>()
       << "  board        draw the board and the legal moves again\n"
          "  help         this text\n"
          "  quit         end the session (so does end of input)\n"
       << human_detail::rules_help<G>(rules_);
}

template <HostGame G>
bool HumanGame<G>::read_line(std::string& line) {
  out_.flush();
  if (std::getline(in_, line)) return true;
  out_ << "\n";  // the prompt is left without a newline at end of input
  return false;
}

template <HostGame G>
std::optional<typename G::Move> HumanGame<G>::read_human_move(const State& s) {
  show_moves(s);
  for (;;) {
    out_ << "Your move> ";
    std::string line;
    if (!read_line(line)) {
      out_ << "End of input.\n";
      return std::nullopt;
    }
    const std::string text = human_detail::trimmed_lower(line);
    if (text == "quit" || text == "exit") return std::nullopt;
    if (text == "help") {
      show_help();
    } else if (text == "board") {
      out_ << board_text<G>(s);
      show_moves(s);
    } else if (text.empty()) {
      out_ << "Empty input: enter a move such as " << human_detail::move_example<G>()
           << ", or help.\n";
    } else {
      try {
        return GameHost<G>::parse_move(s, rules_, text);
      } catch (const InputError& e) {
        out_ << "Invalid " << e.what() << " (help lists the commands)\n";
      }
    }
  }
}

template <HostGame G>
typename G::Move HumanGame<G>::engine_move(const State& s, uint32_t game, uint32_t ply) {
  const auto t0 = std::chrono::steady_clock::now();
  search::MoveStats st;
  const Move m = search::decide_in_place(*engine_, s, search::SearchIds{game, ply, cfg_.seed},
                                         backend_, params_, &st, leaves_, stats_);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  typename G::MoveList legal;
  G::generate_moves(s, rules_, legal);
  out_ << "Engine plays " << ply_text<G>(s, m);
  if (legal.size == 1) {
    out_ << " (its only legal move)\n";
  } else if (st.rollouts == 0 && st.tree_nodes > 0) {
    // A search without rollouts (alpha-beta, expectimax): its nodes and evaluations.
    char buf[160];
    std::snprintf(buf, sizeof buf, " (%u nodes, %u evaluations, %.1f ms)\n", st.tree_nodes,
                  st.leaves, ms);
    out_ << buf;
  } else if (st.rollouts == 0) {
    out_ << " (no search)\n";
  } else {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  " (visits %u, engine win %s, %llu rollouts, %.1f ms, %u tree nodes)\n", st.visits,
                  human_detail::percent(st.value).c_str(),
                  static_cast<unsigned long long>(st.rollouts), ms, st.tree_nodes);
    out_ << buf;
  }
  return m;
}

template <HostGame G>
bool HumanGame<G>::ask_play_again() {
  for (;;) {
    out_ << "Play again? [y/n] ";
    std::string line;
    if (!read_line(line)) return false;
    const std::string text = human_detail::trimmed_lower(line);
    if (text == "y" || text == "yes") return true;
    if (text == "n" || text == "no" || text == "quit" || text == "exit") return false;
    out_ << "Please answer y or n.\n";
  }
}

}  // namespace sp::selfplay
