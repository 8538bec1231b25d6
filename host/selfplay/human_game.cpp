#include "host/selfplay/human_game.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <istream>
#include <ostream>
#include <stdexcept>

#include "games/common/errors.hpp"
#include "games/ewn/notation.hpp"
#include "host/selfplay/driver.hpp"

namespace sp::selfplay {
namespace {

std::string side_name(int side) {
  return side == 0 ? "player 0 (cubes A-F, from the top-left corner to e1)"
                   : "player 1 (cubes a-f, from the bottom-right corner to a5)";
}

std::string trimmed_lower(const std::string& line) {
  size_t b = 0, e = line.size();
  while (b < e && std::isspace(static_cast<unsigned char>(line[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(line[e - 1]))) --e;
  std::string s = line.substr(b, e - b);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string percent(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * p);
  return buf;
}

}  // namespace

rollout::BackendOptions play_backend_options(const config::CampaignConfig& cfg) {
  const config::EngineConfig& e = cfg.engines[0];
  rollout::BackendOptions o;
  o.threads = cfg.backend.threads;
  o.device = cfg.backend.device;
  // One engine's round: an MCTS round of leaves, or a flat engine's root moves sharing the budget.
  o.max_leaves = std::max<size_t>({e.leaves_per_round, ewn::kMaxMoves, 64});
  o.max_rollouts =
      std::clamp<size_t>(std::max<size_t>({size_t{e.leaves_per_round} * e.rollouts_per_leaf,
                                           e.rollouts_per_move, 4096}),
                         1, size_t{1} << 31);
  return o;
}

HumanGame::HumanGame(const config::Config<EwnGame>& cfg, rollout::Backend<EwnGame>& backend,
                     bool human_first, std::istream& in, std::ostream& out)
    : cfg_(cfg), backend_(backend), human_first_(human_first), in_(in), out_(out) {
  cfg_.paired = false;  // game counter g draws the setup and dice of stream g
  engine_ = make_engine<EwnGame>(cfg_.engines[0], cfg_.rules.rules, 0);
  params_.seed = cfg_.seed;
  params_.rules = cfg_.rules.rules;
  params_.policies[0] = cfg_.policies[0];
}

HumanGame::~HumanGame() = default;

SessionSummary HumanGame::run() {
  summary_ = SessionSummary{};
  out_ << "EinStein wuerfelt nicht: you against the engine " << engine_->describe() << "\n"
       << "Rules: capture_own=" << (cfg_.rules.rules.capture_own ? "true" : "false")
       << " substitution="
       << (cfg_.rules.rules.substitution == ewn::Substitution::kNearest ? "nearest"
                                                                       : "next_lower_or_higher")
       << "; backend " << backend_.info().name << "; seed " << cfg_.seed << "\n"
       << "Enter moves such as b4-c3; type help for the commands.\n";
  for (uint32_t game = 0;; ++game) {
    if (play_game(game) == End::kQuit) {
      summary_.quit = true;
      break;
    }
    if (!ask_play_again()) break;
  }
  out_ << "Bye. Games finished: " << summary_.games_finished << " (you " << summary_.human_wins
       << ", engine " << summary_.engine_wins << ").\n";
  out_.flush();
  return summary_;
}

HumanGame::End HumanGame::play_game(uint32_t game) {
  ewn::State s = start_position<EwnGame>(cfg_, game);
  const int first = s.side;
  const ewn::State start = s;
  human_side_ = human_first_ ? first : first ^ 1;
  engine_->new_game();
  out_ << "\nGame " << game + 1 << ": you play " << side_name(human_side_) << ";\n"
       << "the engine plays " << side_name(human_side_ ^ 1) << ". "
       << (s.side == human_side_ ? "You move" : "The engine moves") << " first.\n";

  std::vector<std::string> record;
  for (uint32_t ply = 0;; ++ply) {
    show_position(s, ply);
    ewn::Move m;
    if (s.side == human_side_) {
      const std::optional<ewn::Move> chosen = read_human_move(s);
      if (!chosen) {
        out_ << "Game " << game + 1 << " abandoned after " << ply
             << (ply == 1 ? " ply.\n" : " plies.\n");
        return End::kQuit;
      }
      m = *chosen;
      out_ << "You play " << ewn::ply_to_string(s.die, m) << "\n";
    } else {
      m = engine_move(s, game, ply);
    }
    record.push_back(ewn::ply_to_string(s.die, m));
    const int mover = s.side;
    ewn::apply(s, m);
    if (ewn::is_over(s)) {
      out_ << "\n" << ewn::board_diagram(s);
      const bool human_won = s.winner == human_side_;
      const bool goal = !m.is_pass() && m.to == ewn::goal_square(mover);
      if (human_won) {
        out_ << "You win: "
             << (goal ? "your cube reached " + ewn::square_name(m.to)
                      : std::string("you captured all the engine's cubes"))
             << ".\n";
        ++summary_.human_wins;
      } else {
        out_ << "Engine wins: "
             << (goal ? "its cube reached " + ewn::square_name(m.to)
                      : std::string("it captured all your cubes"))
             << ".\n";
        ++summary_.engine_wins;
      }
      ++summary_.games_finished;
      out_ << "Start: " << ewn::to_string(start) << "\nRecord:";
      for (const std::string& p : record) out_ << ' ' << p;
      out_ << "\nScore: you " << summary_.human_wins << ", engine " << summary_.engine_wins << "\n";
      return End::kFinished;
    }
    EwnGame::set_chance(s, draw_chance<EwnGame>(cfg_.seed, game, ply + 1));
    engine_->observe(m, s);
  }
}

void HumanGame::show_position(const ewn::State& s, uint32_t ply) const {
  out_ << "\n"
       << ewn::board_diagram(s) << "Ply " << ply + 1 << ": "
       << (s.side == human_side_ ? "your turn" : "engine's turn") << " (player " << int{s.side}
       << (s.side == 0 ? ", A-F" : ", a-f") << "), die " << int{s.die} << "\n";
}

void HumanGame::show_moves(const ewn::State& s) const {
  ewn::MoveList legal;
  ewn::generate_moves(s, cfg_.rules.rules, legal);
  out_ << "Legal moves:";
  for (int k = 0; k < legal.size; ++k) out_ << (k ? ", " : " ") << ewn::to_string(legal.moves[k]);
  out_ << "\n";
}

void HumanGame::show_help() const {
  out_ << "Commands:\n"
          "  <from>-<to>  play a move, e.g. b4-c3 (files a-e left to right, ranks 1-5 bottom to "
          "top)\n"
          "  pass         when it is the only legal move\n"
          "  board        draw the board and the legal moves again\n"
          "  help         this text\n"
          "  quit         end the session (so does end of input)\n"
          "The die picks the cube: if it is gone, the next lower or higher one you still have "
          "moves.\n"
          "A cube moving onto any cube, yours or the engine's, captures it.\n";
}

bool HumanGame::read_line(std::string& line) {
  out_.flush();
  if (std::getline(in_, line)) return true;
  out_ << "\n";  // the prompt is left without a newline at end of input
  return false;
}

std::optional<ewn::Move> HumanGame::read_human_move(const ewn::State& s) {
  show_moves(s);
  for (;;) {
    out_ << "Your move> ";
    std::string line;
    if (!read_line(line)) {
      out_ << "End of input.\n";
      return std::nullopt;
    }
    const std::string text = trimmed_lower(line);
    if (text == "quit" || text == "exit") return std::nullopt;
    if (text == "help") {
      show_help();
    } else if (text == "board") {
      out_ << ewn::board_diagram(s);
      show_moves(s);
    } else if (text.empty()) {
      out_ << "Empty input: enter a move such as b4-c3, or help.\n";
    } else {
      try {
        return ewn::parse_move(s, cfg_.rules.rules, text);
      } catch (const InputError& e) {
        out_ << "Invalid " << e.what() << " (help lists the commands)\n";
      }
    }
  }
}

ewn::Move HumanGame::engine_move(const ewn::State& s, uint32_t game, uint32_t ply) {
  const auto t0 = std::chrono::steady_clock::now();
  engine_->begin(s, search::SearchIds{game, ply, cfg_.seed});
  while (!engine_->decided()) {
    leaves_.clear();
    engine_->collect(leaves_);
    if (leaves_.empty()) {
      // A round can spend the rest of the budget on terminal nodes, which need no rollouts.
      if (engine_->decided()) break;
      throw std::logic_error("engine neither decided nor asked for leaves");
    }
    stats_.assign(leaves_.size(), rollout::LeafStats{});
    backend_.run(leaves_, params_, stats_);
    engine_->absorb(stats_);
  }
  search::MoveStats st;
  const ewn::Move m = engine_->decision(&st);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ewn::MoveList legal;
  ewn::generate_moves(s, cfg_.rules.rules, legal);
  out_ << "Engine plays " << ewn::ply_to_string(s.die, m);
  if (legal.size == 1) {
    out_ << " (its only legal move)\n";
  } else if (st.rollouts == 0) {
    out_ << " (no search)\n";
  } else {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  " (visits %u, engine win %s, %llu rollouts, %.1f ms, %u tree nodes)\n", st.visits,
                  percent(st.value).c_str(), static_cast<unsigned long long>(st.rollouts), ms,
                  st.tree_nodes);
    out_ << buf;
  }
  return m;
}

bool HumanGame::ask_play_again() {
  for (;;) {
    out_ << "Play again? [y/n] ";
    std::string line;
    if (!read_line(line)) return false;
    const std::string text = trimmed_lower(line);
    if (text == "y" || text == "yes") return true;
    if (text == "n" || text == "no" || text == "quit" || text == "exit") return false;
    out_ << "Please answer y or n.\n";
  }
}

}  // namespace sp::selfplay
