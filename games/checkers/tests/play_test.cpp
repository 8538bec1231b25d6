// `selfplay play --game checkers`: the terminal loop of host/play/terminal/human_game.hpp with
// checkers' hooks (games/checkers/host.hpp), driven by scripted streams: the board with its square
// numbers, side names, PDN moves in full and short forms, a bad move answered with the legal
// moves, the engine's move with its statistics (MCTS and alpha-beta), a game to its end replayed
// from the printed record, and the real binary with piped stdin.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "games/checkers/host.hpp"
#include "host/play/config/load.hpp"
#include "host/play/terminal/human_game.hpp"
#include "tests/test_util.hpp"

namespace sp::selfplay {
namespace {

using Host = GameHost<CheckersGame>;

config::Config<CheckersGame> test_config(const std::string& engine, const std::string& rules = "") {
  std::string text = "game: checkers\nrules: {" + rules +
                     "}\ncampaign:\n  seed: 9\nengines:\n  player0: " + engine +
                     "\nbackend:\n  name: cpu\n  threads: 1\n";
  const size_t at = text.find("WEIGHTS");
  if (at != std::string::npos)
    text.replace(at, 7, test::source_path("configs/checkers/weights/classic.yaml"));
  return config::load_campaign_config_text<CheckersGame>(text, "play.yaml");
}

const char* const kMcts = "{type: mcts, rollouts_per_move: 64, rollouts_per_leaf: 8}";
const char* const kAlphaBeta = "{type: alphabeta, depth: 3, weights: WEIGHTS}";

// An input stream whose next line is chosen from the output so far, when the loop reads it.
class Responder : public std::streambuf {
 public:
  using Answer = std::function<std::optional<std::string>(const std::string& output)>;
  Responder(const std::ostringstream& out, Answer answer) : out_(out), answer_(std::move(answer)) {}

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (++answered_ > 3000) return traits_type::eof();  // a loop that never ends fails
    const std::optional<std::string> line = answer_(out_.str());
    if (!line) return traits_type::eof();
    line_ = *line + "\n";
    setg(line_.data(), line_.data(), line_.data() + line_.size());
    return traits_type::to_int_type(*gptr());
  }

 private:
  const std::ostringstream& out_;
  Answer answer_;
  std::string line_;
  int answered_ = 0;
};

struct Session {
  std::string out;
  SessionSummary summary;
};

Session play(const config::Config<CheckersGame>& cfg, bool human_first, Responder::Answer answer) {
  std::ostringstream out;
  Responder buf(out, std::move(answer));
  std::istream in(&buf);
  auto backend = rollout::make_backend<CheckersGame>("cpu", play_backend_options(cfg));
  HumanGame<CheckersGame> game(cfg, *backend, human_first, in, out);
  Session s;
  s.summary = game.run();
  s.out = out.str();
  return s;
}

// Answers with the given lines in order, then ends the input.
Responder::Answer script(std::vector<std::string> lines) {
  auto left = std::make_shared<std::vector<std::string>>(std::move(lines));
  return [left](const std::string&) -> std::optional<std::string> {
    if (left->empty()) return std::nullopt;
    std::string line = left->front();
    left->erase(left->begin());
    return line;
  };
}

std::vector<std::string> lines_after(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    for (const std::string prompt : {"Your move> ", "Play again? [y/n] "})
      while (line.rfind(prompt, 0) == 0) line.erase(0, prompt.size());
    if (line.rfind(prefix, 0) == 0) out.push_back(line.substr(prefix.size()));
  }
  return out;
}

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// Plays the first listed legal move at every prompt; declines another game.
std::optional<std::string> first_legal_move(const std::string& out) {
  if (ends_with(out, "Play again? [y/n] ")) return "n";
  const auto listed = lines_after(out, "Legal moves: ");
  if (listed.empty()) return std::nullopt;
  return listed.back().substr(0, listed.back().find(','));
}

const char* const kStartBoard =
    "     a b c d e f g h\n"
    "  8    b   b   b   b        1   2   3   4\n"
    "  7  b   b   b   b        5   6   7   8\n"
    "  6    b   b   b   b        9  10  11  12\n"
    "  5  .   .   .   .       13  14  15  16\n"
    "  4    .   .   .   .       17  18  19  20\n"
    "  3  w   w   w   w       21  22  23  24\n"
    "  2    w   w   w   w       25  26  27  28\n"
    "  1  w   w   w   w       29  30  31  32\n";

TEST(CheckersPlay, TheBoardShowsPiecesBesideTheSquareNumbers) {
  EXPECT_EQ(Host::board_text(checkers::initial_state()), kStartBoard);
  const std::string kings = Host::board_text(checkers::parse_position("W:WK1,32:BK29,5"));
  EXPECT_NE(kings.find("  8    W   .   .   .        1   2   3   4\n"), std::string::npos) << kings;
  EXPECT_NE(kings.find("  7  b   .   .   .        5   6   7   8\n"), std::string::npos) << kings;
  EXPECT_NE(kings.find("  1  B   .   .   w       29  30  31  32\n"), std::string::npos) << kings;
}

TEST(CheckersPlay, ABadMoveListsTheLegalOnesAndTheGameGoesOn) {
  const auto cfg = test_config(kMcts);
  const Session s =
      play(cfg, true, script({"11-18", "9-13-17", "help", "  11X15 ", "board", "quit"}));
  EXPECT_EQ(s.out.rfind("English checkers: you against the engine mcts(", 0), 0u) << s.out;
  EXPECT_NE(s.out.find("Enter moves such as 11-15; type help"), std::string::npos);
  EXPECT_NE(s.out.find("\nGame 1: you play Black (men b, kings B; moves first, down the board "
                       "toward 29-32);\nthe engine plays White (men w, kings W; up the board "
                       "toward 1-4). You move first.\n"),
            std::string::npos)
      << s.out;
  EXPECT_NE(s.out.find(std::string("\n") + kStartBoard + "Ply 1: your turn (player 0, Black)\n"),
            std::string::npos)
      << s.out;
  EXPECT_NE(s.out.find("Legal moves: 9-13, 10-14, 11-15, 12-16, 9-14, 10-15, 11-16\n"),
            std::string::npos);
  EXPECT_NE(s.out.find("Invalid move \"11-18\": column 1: not a legal move for Black in "
                       "B:W21-32:B1-12 (legal: 9-13 10-14 11-15 12-16 9-14 10-15 11-16) (help "
                       "lists the commands)\n"),
            std::string::npos)
      << s.out;
  EXPECT_NE(s.out.find("Invalid move \"9-13-17\""), std::string::npos) << s.out;
  EXPECT_NE(
      s.out.find("  22x15        a capture; a multi-jump names every landing square (9x18x27),\n"),
      std::string::npos)
      << "help: " << s.out;
  EXPECT_NE(s.out.find("Capturing is\ncompulsory"), std::string::npos) << "rules in the help";
  EXPECT_NE(s.out.find("A draw at ply 400 or after 80 plies without a capture or a man move,\n"
                       "or when the same position (with the same side to move) occurs 3 times.\n"),
            std::string::npos)
      << s.out;
  EXPECT_NE(s.out.find("You play 11-15\n"), std::string::npos) << "x for a plain move, any case";
  const auto engine = lines_after(s.out, "Engine plays ");
  ASSERT_EQ(engine.size(), 1u) << s.out;
  const std::regex stats(
      R"(^\d+-\d+ \(visits \d+, engine win \d+\.\d%, \d+ rollouts, \d+\.\d ms, \d+ tree nodes\)$)");
  EXPECT_TRUE(std::regex_match(engine[0], stats)) << engine[0];
  EXPECT_NE(s.out.find("Ply 3: your turn (player 0, Black)\n"), std::string::npos);
  EXPECT_TRUE(s.summary.quit);
}

// A whole game against alpha-beta: its moves show nodes and evaluations, the printed record
// replays to the announced result, and a ballot start shows the ballot as the start.
TEST(CheckersPlay, AGameToItsEndReplaysFromItsRecord) {
  for (const bool human_first : {true, false}) {
    SCOPED_TRACE(human_first ? "human first" : "engine first");
    const auto cfg = test_config(kAlphaBeta, "max_plies: 120, quiet_plies: 30");
    const Session s = play(cfg, human_first, first_legal_move);
    EXPECT_EQ(s.summary.games_finished, 1u) << s.out;
    const auto records = lines_after(s.out, "Record: ");
    ASSERT_EQ(records.size(), 1u) << s.out;
    ASSERT_EQ(lines_after(s.out, "Start: "),
              std::vector<std::string>{"B:W21-32:B1-12 ply=0/120 quiet=0/30"});
    checkers::State state = checkers::initial_state(cfg.rules.rules);
    checkers::State before = state;
    checkers::Move last{};
    std::istringstream plies(records[0]);
    for (std::string ply; plies >> ply;) {
      ASSERT_FALSE(checkers::is_over(state)) << records[0];
      before = state;
      last = checkers::parse_move(state, ply);
      EXPECT_EQ(checkers::to_string(last), ply) << "full paths";
      checkers::apply(state, last);
    }
    ASSERT_TRUE(checkers::is_over(state));
    const int winner = checkers::winner(state);
    const int human = human_first ? 0 : 1;
    std::string want = "Draw.";
    if (winner == human)
      want = "You win: " + Host::win_reason(before, last, true) + ".";
    else if (winner == (human ^ 1))
      want = "Engine wins: " + Host::win_reason(before, last, false) + ".";
    EXPECT_EQ(lines_after(s.out, want).size(), 1u) << want << "\n" << s.out;
    const std::regex stats(
        R"(^\d+[-x][\dx-]+ \((its only legal move|\d+ nodes, \d+ evaluations, \d+\.\d ms)\)$)");
    const auto engine = lines_after(s.out, "Engine plays ");
    ASSERT_FALSE(engine.empty());
    for (const std::string& line : engine) EXPECT_TRUE(std::regex_match(line, stats)) << line;
  }
  const auto ballots = test_config(kMcts, "start: ballots");
  const Session b = play(ballots, true, script({"quit"}));
  EXPECT_NE(b.out.find("You move first."), std::string::npos) << b.out;
  EXPECT_NE(b.out.find("Ply 1: your turn (player 1, White)\n"), std::string::npos) << b.out;
}

TEST(CheckersPlay, WinReasons) {
  // Black's king takes White's last piece.
  const checkers::State last = checkers::parse_position("B:W14:BK10");
  const checkers::Move take = checkers::parse_move(last, "10x17");
  EXPECT_EQ(Host::win_reason(last, take, true), "you took the engine's last piece");
  EXPECT_EQ(Host::win_reason(last, take, false), "it took your last piece");
  // White's man on 12 can neither step to 8 nor jump it to 3 once Black plays 1-5.
  const checkers::State block = checkers::parse_position("B:W12:B1,3,8");
  const checkers::Move close = checkers::parse_move(block, "1-5");
  EXPECT_EQ(Host::win_reason(block, close, true),
            "the engine's pieces are blocked, it has no move");
  EXPECT_EQ(Host::win_reason(block, close, false), "your pieces are blocked, you have no move");
}

TEST(CheckersPlayCli, PlaysFromTheShippedConfigAndQuits) {
  const std::string config = test::source_path("configs/checkers/campaign.yaml");
  const auto r = test::run_command(
      "printf 'hello\\n11-15\\nquit\\n' | '" + std::string(SELFPLAY_BINARY) +
      "' play --game checkers --engine '" + config + "' --human-first --backend cpu 2>&1");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find(kStartBoard), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Invalid move \"hello\": column 1: expected a square number 1-32"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("You play 11-15\n"), std::string::npos) << r.out;
  EXPECT_EQ(lines_after(r.out, "Engine plays ").size(), 1u) << r.out;
  EXPECT_TRUE(ends_with(r.out, "Bye. Games finished: 0 (you 0, engine 0).\n")) << r.out;
}

}  // namespace
}  // namespace sp::selfplay
