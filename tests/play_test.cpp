// `selfplay play`: the human-vs-engine loop driven by scripted streams (a cheap MCTS engine on one
// CPU thread), its records replayed through the library, and the real binary with piped stdin.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <functional>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "games/ewn/host.hpp"
#include "games/ewn/notation.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/driver.hpp"
#include "host/play/terminal/human_game.hpp"
#include "tests/games/tictactoe/host.hpp"
#include "tests/test_util.hpp"

namespace sp::selfplay {
namespace {

config::Config<EwnGame> test_config(const std::string& first_player = "0",
                                    const std::string& engine = "mcts") {
  return config::load_campaign_config_text<EwnGame>(
      "rules:\n  first_player: " + first_player +
          "\n  setup: random\n"
          "campaign:\n  seed: 7\n"
          "engines:\n  player0:\n    type: " +
          engine +
          (engine == "mcts"   ? "\n    rollouts_per_move: 50\n    rollouts_per_leaf: 5\n"
           : engine == "flat" ? "\n    rollouts_per_move: 50\n"
                              : "\n") +
          "backend:\n  name: cpu\n  threads: 1\n",
      "play_test.yaml");
}

// An input stream whose next line is chosen only when the loop reads it, from the output so far:
// a test answers the prompt it sees, like a person at a terminal.
class Responder : public std::streambuf {
 public:
  using Answer = std::function<std::optional<std::string>(const std::string& output)>;
  Responder(const std::ostringstream& out, Answer answer) : out_(out), answer_(std::move(answer)) {}

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (++answered_ > kMaxAnswers)
      return traits_type::eof();  // a loop that never ends fails, not hangs
    const std::optional<std::string> line = answer_(out_.str());
    if (!line) return traits_type::eof();
    line_ = *line + "\n";
    setg(line_.data(), line_.data(), line_.data() + line_.size());
    return traits_type::to_int_type(*gptr());
  }

 private:
  const std::ostringstream& out_;
  static constexpr int kMaxAnswers = 2000;
  Answer answer_;
  std::string line_;
  int answered_ = 0;
};

struct Session {
  std::string out;
  SessionSummary summary;
};

Session play(const config::Config<EwnGame>& cfg, bool human_first, std::istream& in,
             std::ostringstream& out) {
  auto backend = rollout::make_backend<EwnGame>("cpu", play_backend_options(cfg));
  HumanGame<EwnGame> game(cfg, *backend, human_first, in, out);
  Session s;
  s.summary = game.run();
  s.out = out.str();
  return s;
}

Session play_script(const config::Config<EwnGame>& cfg, bool human_first,
                    const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out;
  return play(cfg, human_first, in, out);
}

Session play_responding(const config::Config<EwnGame>& cfg, bool human_first,
                        Responder::Answer answer) {
  std::ostringstream out;
  Responder buf(out, std::move(answer));
  std::istream in(&buf);
  return play(cfg, human_first, in, out);
}

// The output's lines without the prompts that start them (input is not echoed into the output).
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    for (const std::string prompt : {"Your move> ", "Play again? [y/n] "})
      while (line.rfind(prompt, 0) == 0) line.erase(0, prompt.size());
    out.push_back(line);
  }
  return out;
}

bool has_line(const std::string& text, const std::string& line) {
  for (const std::string& l : lines_of(text))
    if (l == line) return true;
  return false;
}

std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The lines starting with prefix, prefix removed.
std::vector<std::string> lines_after(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  for (const std::string& line : lines_of(text))
    if (line.rfind(prefix, 0) == 0) out.push_back(line.substr(prefix.size()));
  return out;
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// The first move of the last "Legal moves:" line.
std::string first_legal_move(const std::string& output) {
  const std::vector<std::string> listed = lines_after(output, "Legal moves: ");
  if (listed.empty()) return "";
  return listed.back().substr(0, listed.back().find(','));
}

// Plays the first legal move at every prompt and answers `Play again?` from the list, then "n".
Responder::Answer first_move_player(std::vector<std::string> again = {}, int max_moves = -1) {
  auto answers = std::make_shared<std::vector<std::string>>(std::move(again));
  auto moves = std::make_shared<int>(0);
  return [answers, moves, max_moves](const std::string& out) -> std::optional<std::string> {
    if (ends_with(out, "Play again? [y/n] ")) {
      if (answers->empty()) return "n";
      std::string a = answers->front();
      answers->erase(answers->begin());
      return a;
    }
    if (max_moves >= 0 && (*moves)++ >= max_moves) return "quit";
    return first_legal_move(out);
  };
}

ewn::State start_of(const config::Config<EwnGame>& cfg, uint32_t game, int* first) {
  config::Config<EwnGame> c = cfg;
  c.paired = false;
  const ewn::State s = selfplay::start_position<EwnGame>(c, game);
  *first = s.side;
  return s;
}

// Replays one printed game (Start and Record lines) through the library and checks its dice, the
// human's moves (always the first legal one) and the announced winner. Returns the winner.
int replay_game(const config::Config<EwnGame>& cfg, uint32_t game, int human_side,
                const std::string& start, const std::string& record, const std::string& result) {
  int first = 0;
  EXPECT_EQ(start, ewn::to_string(start_of(cfg, game, &first)));
  ewn::State s = ewn::parse_position(start);
  const std::vector<std::string> plies = words_of(record);
  EXPECT_FALSE(plies.empty());
  ewn::Move last{};
  int mover = 0;
  for (size_t i = 0; i < plies.size(); ++i) {
    const std::string& p = plies[i];
    EXPECT_FALSE(ewn::is_over(s)) << "ply " << i << " after the end: " << record;
    EXPECT_EQ(
        p.substr(0, 2),
        std::to_string(1 + draw_chance<EwnGame>(cfg.seed, game, static_cast<uint32_t>(i))) + ":")
        << p;
    EXPECT_EQ(p.substr(0, 2), std::to_string(s.die) + ":") << p;
    last = ewn::parse_move(s, cfg.rules.rules, p.substr(2));
    if (s.side == human_side) {
      ewn::MoveList legal;
      ewn::generate_moves(s, cfg.rules.rules, legal);
      EXPECT_EQ(last, legal.moves[0]) << p;
    }
    mover = s.side;
    ewn::apply(s, last);
    EXPECT_TRUE(ewn::state_ok(s));
    if (!ewn::is_over(s))
      EwnGame::set_chance(s, draw_chance<EwnGame>(cfg.seed, game, static_cast<uint32_t>(i + 1)));
  }
  EXPECT_TRUE(ewn::is_over(s));
  const bool goal = last.to == ewn::goal_square(mover);
  if (s.winner == human_side)
    EXPECT_EQ(result, goal ? "You win: your cube reached " + ewn::square_name(last.to) + "."
                           : "You win: you captured all the engine's cubes.");
  else
    EXPECT_EQ(result, goal ? "Engine wins: its cube reached " + ewn::square_name(last.to) + "."
                           : "Engine wins: it captured all your cubes.");
  return s.winner;
}

std::vector<std::string> results_of(const std::string& out) {
  std::vector<std::string> r;
  for (const std::string& line : lines_of(out))
    if (line.rfind("You win: ", 0) == 0 || line.rfind("Engine wins: ", 0) == 0) r.push_back(line);
  return r;
}

TEST(Play, GameToTheEndMatchesReplayOfItsRecord) {
  const config::Config<EwnGame> cfg = test_config();
  for (bool human_first : {true, false}) {
    SCOPED_TRACE(human_first ? "human first" : "engine first");
    const Session s = play_responding(cfg, human_first, first_move_player());
    EXPECT_EQ(s.summary.games_finished, 1u);
    EXPECT_FALSE(s.summary.quit);
    const auto starts = lines_after(s.out, "Start: ");
    const auto records = lines_after(s.out, "Record: ");
    const auto results = results_of(s.out);
    ASSERT_EQ(starts.size(), 1u) << s.out;
    ASSERT_EQ(records.size(), 1u) << s.out;
    ASSERT_EQ(results.size(), 1u) << s.out;
    const int human_side = human_first ? 0 : 1;  // first_player: 0
    const int winner = replay_game(cfg, 0, human_side, starts[0], records[0], results[0]);
    EXPECT_EQ(s.summary.human_wins, winner == human_side ? 1u : 0u);
    EXPECT_EQ(s.summary.engine_wins, winner == human_side ? 0u : 1u);

    // Every engine ply is announced with its stats, every human ply echoed; plies alternate.
    const std::vector<std::string> plies = words_of(records[0]);
    const auto engine_lines = lines_after(s.out, "Engine plays ");
    const auto human_lines = lines_after(s.out, "You play ");
    EXPECT_EQ(engine_lines.size() + human_lines.size(), plies.size());
    for (size_t i = 0; i < plies.size(); ++i) {
      const bool human = (i % 2 == 0) == human_first;
      const auto& said = human ? human_lines : engine_lines;
      ASSERT_LT(i / 2, said.size());
      EXPECT_EQ(said[i / 2].substr(0, plies[i].size()), plies[i]);
    }
    const std::regex stats_re(
        R"(^[1-6]:(pass|[a-e][1-5]-[a-e][1-5]) (\(its only legal move\)|\(visits [0-9]+, engine win )"
        R"((100|[1-9]?[0-9])\.[0-9]%, [0-9]+ rollouts, [0-9]+\.[0-9] ms, [0-9]+ tree nodes\))$)");
    for (const std::string& line : engine_lines)
      EXPECT_TRUE(std::regex_match(line, stats_re)) << line;
    EXPECT_EQ(count_of(s.out, "Play again? [y/n] "), 1u);
    EXPECT_TRUE(ends_with(s.out, "Bye. Games finished: 1 (you " +
                                     std::to_string(s.summary.human_wins) + ", engine " +
                                     std::to_string(s.summary.engine_wins) + ").\n"));

    // The same seed gives the same game; the seed decides the dice.
    const Session again = play_responding(cfg, human_first, first_move_player());
    EXPECT_EQ(lines_after(again.out, "Record: "), records);
  }
}

TEST(Play, BadInputGetsOneLineMessageAndTheGameContinues) {
  const config::Config<EwnGame> cfg = test_config();
  int first = 0;
  const ewn::State start = start_of(cfg, 0, &first);
  ASSERT_EQ(first, 0);
  ewn::MoveList legal;
  ewn::generate_moves(start, cfg.rules.rules, legal);
  std::string upper = "  " + ewn::to_string(legal.moves[0]) + " ";
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  // c3 is empty in every start position; z9 is no square.
  const Session s = play_script(cfg, true, "c3-d2\nhello\nz9-a1\n\nhelp\n" + upper + "\nquit\n");
  const std::string die = std::to_string(start.die);
  std::string options;
  for (int k = 0; k < legal.size; ++k) options += (k ? ", " : "") + ewn::to_string(legal.moves[k]);
  const std::string help = " (help lists the commands)";
  EXPECT_TRUE(has_line(s.out, "Invalid move \"c3-d2\": column 1: not legal with die " + die +
                                  "; legal: " + options + help))
      << s.out;
  EXPECT_TRUE(has_line(
      s.out, "Invalid move \"hello\": column 1: expected <from>-<to> such as b4-c3" + help));
  EXPECT_TRUE(
      has_line(s.out, "Invalid move \"z9-a1\": column 1: 'z9' is not a square (a1..e5)" + help));
  EXPECT_TRUE(has_line(s.out, "Empty input: enter a move such as b4-c3, or help."));
  EXPECT_TRUE(has_line(s.out, "Commands:"));
  EXPECT_TRUE(has_line(s.out, "You play " + ewn::ply_to_string(start.die, legal.moves[0])));
  EXPECT_EQ(lines_after(s.out, "Engine plays ").size(), 1u);  // the game went on
  EXPECT_EQ(count_of(s.out, "Your move> "), 7u);  // five rejected or help, one move, quit
  EXPECT_EQ(count_of(s.out, "Invalid move "), 3u);
  EXPECT_TRUE(s.summary.quit);
  EXPECT_EQ(s.summary.games_finished, 0u);
}

TEST(Play, QuitMidGameEndsTheSession) {
  const config::Config<EwnGame> cfg = test_config();
  const Session s = play_responding(cfg, true, first_move_player({}, 3));
  EXPECT_TRUE(s.summary.quit);
  EXPECT_EQ(s.summary.games_finished, 0u);
  EXPECT_EQ(lines_after(s.out, "You play ").size(), 3u);
  EXPECT_TRUE(has_line(s.out, "Game 1 abandoned after 6 plies.")) << s.out;
  EXPECT_EQ(s.out.find("Record:"), std::string::npos);
  EXPECT_EQ(s.out.find("Play again?"), std::string::npos);
  EXPECT_TRUE(ends_with(s.out, "Bye. Games finished: 0 (you 0, engine 0).\n")) << s.out;
}

TEST(Play, EndOfInputEndsTheSession) {
  // At the first prompt, with the engine (a random one, no search) having moved first.
  const Session s = play_script(test_config("0", "random"), false, "");
  EXPECT_TRUE(s.summary.quit);
  EXPECT_EQ(lines_after(s.out, "Engine plays ").size(), 1u);
  EXPECT_NE(s.out.find(" (no search)\n"), std::string::npos);
  EXPECT_NE(s.out.find("Your move> \nEnd of input.\nGame 1 abandoned after 1 ply.\n"),
            std::string::npos)
      << s.out;
  EXPECT_TRUE(ends_with(s.out, "Bye. Games finished: 0 (you 0, engine 0).\n"));

  // At the play-again prompt: the finished game counts, no second game starts.
  const config::Config<EwnGame> cfg = test_config();
  const Session end =
      play_responding(cfg, true, [inner = first_move_player()](const std::string& out) {
        return ends_with(out, "Play again? [y/n] ") ? std::nullopt : inner(out);
      });
  EXPECT_EQ(end.summary.games_finished, 1u);
  EXPECT_FALSE(end.summary.quit);
  EXPECT_EQ(end.out.find("Game 2"), std::string::npos);
  EXPECT_NE(end.out.find("Play again? [y/n] \nBye."), std::string::npos);
}

TEST(Play, PlayAgainStartsTheNextGameWithItsOwnDice) {
  const config::Config<EwnGame> cfg = test_config("alternate");
  const Session s = play_responding(cfg, true, first_move_player({"maybe", "y", "n"}));
  EXPECT_EQ(s.summary.games_finished, 2u);
  EXPECT_EQ(s.summary.human_wins + s.summary.engine_wins, 2u);
  EXPECT_NE(s.out.find("Please answer y or n.\n"), std::string::npos);
  EXPECT_EQ(count_of(s.out, "Play again? [y/n] "), 3u);
  // first_player alternate: the human, moving first, is player 0 in game 1 and player 1 in game 2.
  EXPECT_NE(s.out.find("\nGame 1: you play player 0 "), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("\nGame 2: you play player 1 "), std::string::npos) << s.out;
  const auto starts = lines_after(s.out, "Start: ");
  const auto records = lines_after(s.out, "Record: ");
  const auto results = results_of(s.out);
  ASSERT_EQ(starts.size(), 2u);
  ASSERT_EQ(records.size(), 2u);
  ASSERT_EQ(results.size(), 2u);
  for (uint32_t g = 0; g < 2; ++g)
    replay_game(cfg, g, static_cast<int>(g), starts[g], records[g], results[g]);
  EXPECT_NE(starts[0], starts[1]);
}

// The help's rules paragraph follows the rules variant (GameHost<EwnGame>::rules_help); the
// default rules keep the text players know.
TEST(Play, HelpDescribesTheRulesVariant) {
  const Session standard = play_script(test_config(), true, "help\nquit\n");
  EXPECT_TRUE(has_line(standard.out,
                       "The die picks the cube: if it is gone, the next lower or "
                       "higher one you still have moves."))
      << standard.out;
  EXPECT_TRUE(
      has_line(standard.out, "A cube moving onto any cube, yours or the engine's, captures it."));
  EXPECT_TRUE(has_line(standard.out, "  pass         when it is the only legal move"));
  config::Config<EwnGame> variant = test_config();
  variant.rules.rules.capture_own = false;
  variant.rules.rules.substitution = ewn::Substitution::kNearest;
  const Session s = play_script(variant, true, "help\nquit\n");
  EXPECT_NE(s.out.find("Rules: capture_own=false substitution=nearest;"), std::string::npos);
  EXPECT_TRUE(has_line(s.out,
                       "The die picks the cube: if it is gone, the nearest by number you "
                       "still have moves (either one on a tie)."))
      << s.out;
  EXPECT_EQ(s.out.find("yours or the engine's"), std::string::npos) << s.out;
}

// A game without terminal-play hooks and without chance (tests/games/tictactoe/host.hpp): the
// defaults show the position text, plain side names, no chance, and a draw is a result.
TEST(Play, GameWithoutHooksPlaysWithTheDefaults) {
  const auto cfg = config::load_campaign_config_text<TicTacToe>(
      "game: tictactoe\ncampaign:\n  seed: 3\nengines:\n  player0:\n    type: random\n"
      "backend:\n  name: cpu\n  threads: 1\n",
      "ttt.yaml");
  std::ostringstream out;
  Responder buf(out, first_move_player({"y", "n"}));
  std::istream in(&buf);
  auto backend = rollout::make_backend<TicTacToe>("cpu", play_backend_options(cfg));
  HumanGame<TicTacToe> game(cfg, *backend, true, in, out);
  const SessionSummary summary = game.run();
  const std::string text = out.str();
  EXPECT_EQ(summary.games_finished, 2u);
  EXPECT_EQ(text.rfind(std::string(GameHost<TicTacToe>::kTitle) + ": you against the engine", 0),
            0u)
      << text;
  EXPECT_NE(text.find("Enter moves such as a1; type help"), std::string::npos) << text;
  EXPECT_NE(text.find("\nGame 1: you play player 0;\nthe engine plays player 1. You move first.\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n.../.../... x\nPly 1: your turn (player 0)\n"), std::string::npos) << text;
  // Each game's result line is one of the defaults, and the score counts draws apart.
  const uint32_t draws = summary.games_finished - summary.human_wins - summary.engine_wins;
  size_t results = 0;
  for (const std::string& line : lines_of(text))
    if (line == "You win." || line == "Engine wins." || line == "Draw.") ++results;
  EXPECT_EQ(results, 2u) << text;
  EXPECT_EQ(count_of(text, "\nDraw.\n"), draws);
  EXPECT_TRUE(ends_with(text, "Bye. Games finished: 2 (you " + std::to_string(summary.human_wins) +
                                  ", engine " + std::to_string(summary.engine_wins) +
                                  (draws ? ", draws " + std::to_string(draws) : "") + ").\n"))
      << text;
  // Records replay through the rules: the human always played the first legal move.
  for (const std::string& record : lines_after(text, "Record: ")) {
    ttt::State s = ttt::initial_state(0);
    for (const std::string& ply : words_of(record)) ttt::apply(s, ttt::parse_move(s, ply));
    EXPECT_TRUE(ttt::is_over(s)) << record;
  }
}

using Outcome = ::sp::test::CommandResult;

// Runs the binary with `input` on stdin; out gets stdout and stderr.
Outcome run_binary(const std::string& args, const std::string& input) {
  const std::string cmd = "printf '" + input + "' | '" + SELFPLAY_BINARY + "' " + args + " 2>&1";
  return ::sp::test::run_command(cmd);
}

const std::string kCampaign = std::string(SELFPLAY_SOURCE_DIR) + "/configs/ewn/campaign.yaml";

TEST(PlayCli, QuitAtOnceExitsZero) {
  const Outcome r = run_binary(
      "play --game ewn --engine '" + kCampaign + "' --human-first --backend cpu", "quit\\n");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("Legal moves: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Your move> "), std::string::npos);
  EXPECT_EQ(r.out.find("Engine plays"), std::string::npos);
  EXPECT_TRUE(ends_with(r.out, "Bye. Games finished: 0 (you 0, engine 0).\n")) << r.out;
}

TEST(PlayCli, EngineMovesFirstThenEndOfInputExitsZero) {
  const Outcome r = run_binary("play --engine '" + kCampaign + "' --seed 3 --backend cpu", "");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("seed 3\n"), std::string::npos) << r.out;
  EXPECT_EQ(lines_after(r.out, "Engine plays ").size(), 1u) << r.out;
}

TEST(PlayCli, BadConfigOrGameExitsTwo) {
  const Outcome missing =
      run_binary("play --engine /nonexistent/engine.yaml --backend cpu", "quit\\n");
  EXPECT_EQ(missing.code, 2) << missing.out;
  EXPECT_NE(missing.out.find("cannot read /nonexistent/engine.yaml"), std::string::npos)
      << missing.out;
  EXPECT_EQ(run_binary("play --game chess --engine '" + kCampaign + "'", "quit\\n").code, 2);
  EXPECT_EQ(run_binary("play", "quit\\n").code, 2);
}

}  // namespace
}  // namespace sp::selfplay
