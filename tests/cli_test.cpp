// The `selfplay` command line, run as a separate process: perft against the reference table,
// rules given with --rule, exit codes, help, the bench signature across thread counts and
// backends, and demo records replayed through the library.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/perft.hpp"
#include "games/checkers/game.hpp"
#include "games/checkers/notation.hpp"
#include "games/ewn/ewn.hpp"
#include "games/ewn/game.hpp"
#include "games/ewn/notation.hpp"
#include "tests/test_util.hpp"

namespace sp::ewn {
namespace {

enum class Capture { kStdout, kStderr, kBoth };

using Outcome = ::sp::test::CommandResult;

Outcome selfplay(const std::string& args, Capture capture = Capture::kStdout) {
  std::string cmd = std::string("'") + SELFPLAY_BINARY + "' " + args;
  switch (capture) {
    case Capture::kStdout:
      cmd += " 2>/dev/null";
      break;
    case Capture::kStderr:
      cmd += " 2>&1 >/dev/null";
      break;
    case Capture::kBoth:
      cmd += " 2>&1";
      break;
  }
  return ::sp::test::run_command(cmd);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

struct PerftRow {
  const char* position;
  uint64_t nodes[5];
};
// ../shared/reference/ewn.md, depths 1..5.
constexpr PerftRow kTable[] = {
    {"ABC2/DE3/F3f/3ed/2cba 0 1", {3, 54, 1134, 21570, 460914}},
    {"ABC2/DE3/F3f/3ed/2cba 0 6", {3, 54, 972, 18555, 350291}},
};

TEST(Cli, PerftMatchesReferenceTable) {
  for (const auto& row : kTable)
    for (int d = 1; d <= 5; ++d) {
      const Outcome r = selfplay("perft --position '" + std::string(row.position) + "' --depth " +
                                 std::to_string(d));
      ASSERT_EQ(r.code, 0) << row.position << " depth " << d;
      EXPECT_EQ(r.out, std::to_string(row.nodes[d - 1]) + "\n") << row.position << " depth " << d;
    }
}

// `--position start` is the game's start under the rules (issue 41, item 7): checkers' counts of
// ../shared/reference/checkers.md, Gomoku's empty 15x15 and 20x20 boards; EWN, whose first move
// waits for a die, has no one start and says so.
TEST(Cli, PerftFromTheStartOfGamesWithoutChance) {
  const uint64_t checkers[] = {7, 49, 302, 1469, 7361};
  for (int d = 1; d <= 5; ++d) {
    const Outcome r =
        selfplay("perft --game checkers --position start --depth " + std::to_string(d));
    ASSERT_EQ(r.code, 0) << d;
    EXPECT_EQ(r.out, std::to_string(checkers[d - 1]) + "\n") << d;
  }
  EXPECT_EQ(selfplay("perft --game gomoku --position start --depth 2").out, "50400\n");
  EXPECT_EQ(selfplay("perft --game gomoku --position start --depth 2 --rule board_size=20").out,
            "159600\n");
  const Outcome ewn = selfplay("perft --game ewn --position start --depth 1", Capture::kStderr);
  EXPECT_EQ(ewn.code, 2);
  EXPECT_NE(ewn.out.find("has no one start position"), std::string::npos) << ewn.out;
}

TEST(Cli, PerftDivideListsEveryLegalMoveAndSums) {
  const std::regex line_re(R"(^([a-e][1-5]-[a-e][1-5]|pass): ([0-9]+)$)");
  const std::regex total_re(R"(^total: ([0-9]+)$)");
  for (const auto& row : kTable)
    for (int d : {1, 3, 4}) {
      const Outcome r = selfplay("perft --position '" + std::string(row.position) + "' --depth " +
                                 std::to_string(d) + " --divide");
      ASSERT_EQ(r.code, 0);
      const State s = parse_position(row.position);
      MoveList legal;
      generate_moves(s, Rules{}, legal);
      uint64_t sum = 0, total = 0;
      int moves = 0;
      bool saw_total = false;
      for (const std::string& line : lines_of(r.out)) {
        std::smatch m;
        if (std::regex_match(line, m, line_re)) {
          ASSERT_FALSE(saw_total) << "move lines come before the total";
          ASSERT_LT(moves, legal.size) << r.out;
          EXPECT_EQ(m[1].str(), to_string(legal.moves[moves]))
              << "one line per legal move, in order";
          // Each move's count is perft of the child, dice enumerated.
          State child = s;
          apply(child, legal.moves[moves]);
          uint64_t want = 1;
          if (d > 1) {
            want = 0;
            for (int die = 1; die <= 6 && !is_over(child); ++die) {
              child.die = static_cast<uint8_t>(die);
              want += perft<EwnGame>(child, Rules{}, d - 1);
            }
          }
          EXPECT_EQ(std::stoull(m[2].str()), want) << line;
          sum += std::stoull(m[2].str());
          ++moves;
        } else if (std::regex_match(line, m, total_re)) {
          total = std::stoull(m[1].str());
          saw_total = true;
        } else {
          ADD_FAILURE() << "unexpected line: " << line;
        }
      }
      EXPECT_EQ(moves, legal.size);
      EXPECT_TRUE(saw_total);
      EXPECT_EQ(sum, total);
      EXPECT_EQ(total, row.nodes[d - 1]) << row.position << " depth " << d;
    }
}

TEST(Cli, PerftRuleOptionsReachTheRules) {
  // A position where both variants change the tree: blocked cubes and substitutions.
  const std::string pos = "4a/5/5/2BE1/2AF1 0 4";
  const State s = parse_position(pos);
  Rules no_own;
  no_own.capture_own = false;
  Rules nearest;
  nearest.substitution = Substitution::kNearest;
  for (int d = 1; d <= 4; ++d) {
    const std::string base = "perft --position '" + pos + "' --depth " + std::to_string(d);
    const Outcome a = selfplay(base), b = selfplay(base + " --rule capture_own=false"),
                  c = selfplay(base + " --game ewn --rule substitution=nearest");
    ASSERT_EQ(a.code, 0);
    ASSERT_EQ(b.code, 0);
    ASSERT_EQ(c.code, 0);
    EXPECT_EQ(a.out, std::to_string(perft<EwnGame>(s, Rules{}, d)) + "\n");
    EXPECT_EQ(b.out, std::to_string(perft<EwnGame>(s, no_own, d)) + "\n");
    EXPECT_EQ(c.out, std::to_string(perft<EwnGame>(s, nearest, d)) + "\n");
  }
  EXPECT_NE(perft<EwnGame>(s, Rules{}, 3), perft<EwnGame>(s, no_own, 3))
      << "the position must tell the variants apart";
  EXPECT_NE(perft<EwnGame>(s, Rules{}, 3), perft<EwnGame>(s, nearest, 3))
      << "the position must tell the variants apart";
}

// Any depth the count holds (issue 23: depth 13 was refused with "must be in [1, 12]"): a checkers
// ending at depths 13 and 14 counts as the library does, plain and divided.
TEST(Cli, PerftTakesDepthsPastTwelve) {
  const std::string position = "B:W31,32:B1,2";
  const checkers::State s = checkers::parse_position(position);
  for (const int depth : {13, 14}) {
    const std::string base =
        "perft --game checkers --position '" + position + "' --depth " + std::to_string(depth);
    const uint64_t want = perft<CheckersGame>(s, checkers::Rules{}, depth);
    ASSERT_GT(want, 0u);
    const Outcome plain = selfplay(base);
    EXPECT_EQ(plain.code, 0);
    EXPECT_EQ(plain.out, std::to_string(want) + "\n");
    const Outcome divided = selfplay(base + " --divide");
    EXPECT_EQ(divided.code, 0);
    EXPECT_NE(divided.out.find("\ntotal: " + std::to_string(want) + "\n"), std::string::npos)
        << divided.out;
  }
  const Outcome zero =
      selfplay("perft --game checkers --position '" + position + "' --depth 0", Capture::kStderr);
  EXPECT_EQ(zero.code, 2) << zero.out;
}

TEST(Cli, BadPositionIsAnInputError) {
  const Outcome r =
      selfplay("perft --position 'ABC2/DE3/F3f/3ed/2cba 0 7' --depth 2", Capture::kStderr);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("die must be 1-6"), std::string::npos) << r.out;
  const Outcome dup =
      selfplay("perft --position 'AAC2/DE3/F3f/3ed/2cba 0 1' --depth 2", Capture::kStderr);
  EXPECT_EQ(dup.code, 2);
  EXPECT_NE(dup.out.find("appears twice"), std::string::npos) << dup.out;
  const Outcome unrolled =
      selfplay("perft --position 'ABC2/DE3/F3f/3ed/2cba 0 -' --depth 2", Capture::kStderr);
  EXPECT_EQ(unrolled.code, 2);
  EXPECT_NE(unrolled.out.find("its chance outcome drawn"), std::string::npos) << unrolled.out;
  const Outcome over =
      selfplay("perft --position '1BC2/DE3/F3f/3ed/2cbA 1 1' --depth 2", Capture::kStderr);
  EXPECT_EQ(over.code, 2) << over.out;
  EXPECT_NE(over.out.find("the game is already over"), std::string::npos) << over.out;
}

// --rule reads the keys of the game's rules: section with the config's checks and messages.
TEST(Cli, RuleOptionErrorsComeFromTheRulesSection) {
  const std::string perft = "perft --position 'ABC2/DE3/F3f/3ed/2cba 0 1' --depth 1 ";
  const struct {
    const char* args;
    const char* message;
  } cases[] = {
      {"--rule capture_ownn=false",
       "--rule: key 'capture_ownn': unknown key, did you mean 'capture_own'?"},
      {"--rule colour=red",
       "--rule: key 'colour': unknown key (known keys here: capture_own, substitution, "},
      {"--rule substitution=sideways",
       "--rule: key 'substitution': must be one of next_lower_or_higher, nearest; found "
       "'sideways'"},
      {"--rule capture_own=maybe",
       "--rule: key 'capture_own': expected true or false, found 'maybe'"},
      {"--rule capture_own", "--rule: expected KEY=VALUE, found 'capture_own'"},
      {"--rule =false", "--rule: expected KEY=VALUE, found '=false'"},
      {"--rule capture_own=false --rule capture_own=true",
       "--rule: key 'capture_own': given twice"},
      {"--rule setup_p0=1234", "--rule: key 'setup_p0': "},
  };
  for (const auto& c : cases) {
    const Outcome r = selfplay(perft + c.args, Capture::kBoth);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(std::string("error: ") + c.message), std::string::npos) << c.args << "\n"
                                                                                 << r.out;
    EXPECT_EQ(lines_of(r.out).size(), 1u) << "one line: " << r.out;
  }
  // The same keys set what they set in a config: boolean spellings, an explicit default.
  const std::string pos = "perft --position '4a/5/5/2BE1/2AF1 0 4' --depth 3";
  EXPECT_EQ(selfplay(pos + " --rule capture_own=no").out,
            selfplay(pos + " --rule capture_own=false").out);
  EXPECT_EQ(selfplay(pos + " --rule substitution=next_lower_or_higher").out, selfplay(pos).out);
  // One value per occurrence: a second word is not taken as another rule.
  EXPECT_EQ(selfplay(pos + " --rule capture_own=false substitution=nearest", Capture::kBoth).code,
            2);
}

TEST(Cli, UsageErrorsExitWithTwo) {
  const char* cases[] = {
      "",                                                                // no subcommand
      "frobnicate",                                                      // unknown subcommand
      "perft --depth 2",                                                 // missing required option
      "perft --position 'ABC2/DE3/F3f/3ed/2cba 0 1' --depth 0",          // out of range
      "perft --position 'ABC2/DE3/F3f/3ed/2cba 0 1' --depth x",          // not a number
      "perft --position 'ABC2/DE3/F3f/3ed/2cba 0 1' --depth 1 --bogus",  // unknown option
      "perft --position 'ABC2/DE3/F3f/3ed/2cba 0 1' --depth 1 --rule substitution=sideways",
      "perft --position 'ABC2/DE3/F3f/3ed/2cba 0 1' --depth 1 --substitution nearest",  // old flag
      "perft --position 'ABC2/DE3/F3f/3ed/2cba 0 1' --depth 1 --no-capture-own",        // old flag
      "perft --game chess --position 'ABC2/DE3/F3f/3ed/2cba 0 1' --depth 1",
      "bench --seconds -1",
      "bench --threads many",
      "bench --playout policy=clever",
      "bench --playout polcy=heavy",
      "bench --game chess",
      "bench --search-only --playouts-only",
      "demo --game chess",
      "demo --rule setup=sideways",
      "demo --games 0",
      "demo --bogus",
  };
  for (const char* args : cases) {
    const Outcome r = selfplay(args, Capture::kBoth);
    EXPECT_EQ(r.code, 2) << "selfplay " << args << "\n" << r.out;
    EXPECT_FALSE(r.out.empty()) << "selfplay " << args << " must say what is wrong";
  }
}

TEST(Cli, UnknownBackendIsAnInputError) {
  // run and match once stored the name unchecked and failed later, in the YAML of the effective
  // config (exit 1, a yaml-cpp message).
  const ::sp::test::TempDir dir;
  for (const std::string& args :
       {std::string("bench --seconds 0"),
        "run " + ::sp::test::source_path("configs/ewn/campaign.yaml") + " --out " +
            dir.file("c.h5") + " --games 2",
        "match " + ::sp::test::source_path("configs/ewn/match-mcts-vs-expectimax.yaml") +
            " --out " + dir.file("m.h5") + " --pairs 1"}) {
    const Outcome r = selfplay(args + " --backend warp-drive", Capture::kStderr);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("unknown backend 'warp-drive'"), std::string::npos) << args << r.out;
    EXPECT_EQ(r.out.find("yaml-cpp"), std::string::npos) << args << r.out;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("c.h5")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("m.h5")));
}

TEST(Cli, HelpForEverySubcommand) {
  for (const char* sub : {"", "perft ", "bench ", "demo "}) {
    const Outcome r = selfplay(std::string(sub) + "--help");
    EXPECT_EQ(r.code, 0) << sub;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << sub << r.out;
  }
  EXPECT_NE(selfplay("perft --help").out.find("--divide"), std::string::npos);
  for (const char* sub : {"perft", "bench", "demo", "play"})
    EXPECT_NE(selfplay(std::string(sub) + " --help").out.find("--game"), std::string::npos) << sub;
  EXPECT_NE(selfplay("perft --help").out.find("--rule KEY=VALUE"), std::string::npos);
  EXPECT_NE(selfplay("demo --help").out.find("--rule KEY=VALUE"), std::string::npos);
  EXPECT_NE(selfplay("bench --help").out.find("--playout KEY=VALUE"), std::string::npos);
  EXPECT_NE(selfplay("bench --help").out.find("--threads"), std::string::npos);
  EXPECT_NE(selfplay("demo --help").out.find("--games"), std::string::npos);
  const Outcome top = selfplay("--help");
  for (const char* sub : {"perft", "bench", "demo"})
    EXPECT_NE(top.out.find(sub), std::string::npos) << sub;
}

std::string signature_of(const std::string& args) {
  const Outcome r = selfplay("bench --playouts-only --seconds 0.2 " + args);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  const std::regex re(R"(^signature: ([0-9]+)$)");
  std::string sig;
  int found = 0;
  for (const std::string& line : lines_of(r.out)) {
    std::smatch m;
    if (std::regex_match(line, m, re)) sig = m[1].str(), ++found;
  }
  EXPECT_EQ(found, 1) << args << "\n" << r.out;
  return sig;
}

TEST(Cli, BenchSignatureIsIndependentOfThreadsAndBackend) {
  const std::string one = signature_of("--threads 1");
  ASSERT_FALSE(one.empty());
  // The workload is 4096 x 16 playouts and the signature their total plies, so the average per
  // playout must be near the published 21.6 plies of a random game.
  const double avg = std::stod(one) / (4096.0 * 16);
  EXPECT_GT(avg, 15.0);
  EXPECT_LT(avg, 30.0);
  EXPECT_EQ(signature_of("--threads 2"), one);
  EXPECT_EQ(signature_of("--backend check --threads 2"), one);
  EXPECT_EQ(signature_of("--threads 1 --playout policy=heavy --playout goal_weight=3"), one)
      << "the signature workload is fixed";
}

// Demo games replay through the library: every ply is legal, the winner and the final position
// are what the printed moves produce, and the start is the game's opening for the seed.
TEST(Cli, DemoRecordsReplay) {
  const Outcome r = selfplay("demo --games 4 --seed 7");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::regex start_re(R"(^game ([0-9]+): start (.+ 0 -) \(opening ([1-6]{6})/([1-6]{6})\)$)");
  const std::regex winner_re(
      R"(^winner: player ([01]) after ([0-9]+) plies; final position (.+)$)");
  State s{};
  int games = 0, replayed = 0, game_plies = 0;
  bool in_game = false;
  for (const std::string& line : lines_of(r.out)) {
    std::smatch m;
    if (std::regex_match(line, m, start_re)) {
      EXPECT_EQ(std::stoi(m[1].str()), games);
      s = parse_position(m[2].str());
      // The opening of `rules: setup: random` for the seed: stream (seed, game, 0, kLeafSetup).
      WordStream rng({7, static_cast<uint32_t>(games), 0, kLeafSetup, 0});
      const Arrangement a0 = random_arrangement(rng), a1 = random_arrangement(rng);
      EXPECT_EQ(m[3].str(), to_string(a0));
      EXPECT_EQ(m[4].str(), to_string(a1));
      EXPECT_EQ(to_string(s), to_string(initial_state(a0, a1, 0)));
      in_game = true;
      game_plies = 0;
      ++games;
    } else if (line.rfind("record: ", 0) == 0) {
      ASSERT_TRUE(in_game);
      std::istringstream plies(line.substr(8));
      for (std::string ply; plies >> ply;) {
        ASSERT_FALSE(is_over(s)) << "moves after the end: " << ply;
        ASSERT_GE(ply.size(), 3u);
        ASSERT_EQ(ply[1], ':') << ply;
        ASSERT_TRUE(ply[0] >= '1' && ply[0] <= '6') << ply;
        s.die = static_cast<uint8_t>(ply[0] - '0');
        apply(s, parse_move(s, Rules{}, ply.substr(2)));  // throws on an illegal move
        ASSERT_TRUE(state_ok(s));
        ++replayed;
        ++game_plies;
      }
    } else if (std::regex_match(line, m, winner_re)) {
      ASSERT_TRUE(in_game);
      EXPECT_TRUE(is_over(s));
      EXPECT_EQ(std::stoi(m[1].str()), s.winner);
      EXPECT_EQ(std::stoi(m[2].str()), game_plies);
      EXPECT_EQ(m[3].str(), to_string(s));
      in_game = false;
    }
  }
  EXPECT_EQ(games, 4);
  EXPECT_FALSE(in_game);
  EXPECT_GT(replayed, 4 * 5);
}

// --rule reaches demo's openings and rules: mirrored setups, player 1 first, no own captures.
TEST(Cli, DemoTakesRules) {
  const Outcome r = selfplay(
      "demo --game ewn --games 3 --seed 5 --rule setup=mirrored --rule first_player=1 "
      "--rule capture_own=false");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::regex start_re(R"(^game [0-9]+: start (.+ 1 -) \(opening ([1-6]{6})/([1-6]{6})\)$)");
  Rules no_own;
  no_own.capture_own = false;
  State s{};
  int games = 0;
  for (const std::string& line : lines_of(r.out)) {
    std::smatch m;
    if (std::regex_match(line, m, start_re)) {
      EXPECT_EQ(m[2].str(), m[3].str()) << line;
      s = parse_position(m[1].str());
      ++games;
    } else if (line.rfind("record: ", 0) == 0) {
      std::istringstream plies(line.substr(8));
      for (std::string ply; plies >> ply;) {
        s.die = static_cast<uint8_t>(ply[0] - '0');
        apply(s, parse_move(s, no_own, ply.substr(2)));  // throws on an own capture
      }
      EXPECT_TRUE(is_over(s));
    }
  }
  EXPECT_EQ(games, 3) << r.out;
  // Own captures allowed, the same openings play differently.
  const Outcome own =
      selfplay("demo --game ewn --games 3 --seed 5 --rule setup=mirrored --rule first_player=1");
  ASSERT_EQ(own.code, 0);
  EXPECT_NE(own.out, r.out);
  EXPECT_EQ(lines_of(own.out)[0], lines_of(r.out)[0]);
}

TEST(Cli, DemoIsDeterministicPerSeed) {
  const Outcome a = selfplay("demo --games 2 --seed 3"), b = selfplay("demo --games 2 --seed 3"),
                c = selfplay("demo --games 2 --seed 4");
  ASSERT_EQ(a.code, 0);
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);
}

// ---- numeric options

// Every numeric option of every command, found in the help: "--seconds FLOAT:in [0, 3600]=2".
struct NumericOption {
  std::string command, name, type, validator;
};

std::vector<NumericOption> numeric_options() {
  std::vector<NumericOption> out;
  const std::regex re(R"(^\s+(--[a-z0-9-]+) (INT|UINT|FLOAT)(:in \[)?)");
  for (const char* command : {"run", "match", "bench", "demo", "perft", "play", "tune", "config"}) {
    const Outcome help = selfplay(std::string(command) + " --help");
    EXPECT_EQ(help.code, 0) << command;
    for (const std::string& line : lines_of(help.out)) {
      std::smatch m;
      if (std::regex_search(line, m, re)) out.push_back({command, m[1], m[2], m[3]});
    }
  }
  return out;
}

// The arguments a command needs besides the option tested (parsing fails before they are used).
std::string required_args(const std::string& command, const std::string& option) {
  if (command == "run" || command == "match") return "no-such-config.yaml";
  if (command == "play") return "--engine no-such-config.yaml";
  if (command == "perft")
    return "--position 'ABC2/DE3/F3f/3ed/2cba 0 1'" +
           std::string(option == "--depth" ? "" : " --depth 1");
  return "";
}

TEST(CliNumbers, EveryNumericOptionRefusesNanInfNegativeAndOverflow) {
  const std::vector<NumericOption> options = numeric_options();
  // run, match: --games/--pairs, --threads; bench: 7; demo: --games, --seed; perft: --depth;
  // play: --seed.
  ASSERT_GE(options.size(), 15u);
  for (const NumericOption& o : options) {
    SCOPED_TRACE(o.command + " " + o.name);
    // Declared with integer_in/real_in: CLI11's own Range lets NaN through and wraps negatives.
    EXPECT_EQ(o.validator, ":in [");
    for (const std::string value : {"nan", "-1", "99999999999999999999999"}) {
      const std::string args =
          o.command + " " + required_args(o.command, o.name) + " " + o.name + " '" + value + "'";
      // timeout: a value that hangs the command must fail the test, not the test run.
      const Outcome r = ::sp::test::run_command("timeout 20 '" + std::string(SELFPLAY_BINARY) +
                                                "' " + args + " 2>&1");
      EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
      // One line, "error: " first, as every other error (issue 41, item 7).
      EXPECT_EQ(r.out.rfind("error: " + o.name + ": ", 0), 0u) << args << "\n" << r.out;
      EXPECT_EQ(lines_of(r.out).size(), 1u) << r.out;
      EXPECT_NE(r.out.find("found '" + value + "'"), std::string::npos) << args << "\n" << r.out;
    }
  }
}

// Argument errors are one line starting "error: " and saying where the options are listed; an
// empty --out is a usage error, not the default path (issue 41, item 7).
TEST(CliErrors, ArgumentErrorsAreOneLineAndAnEmptyOutIsRefused) {
  const std::string config = ::sp::test::source_path("configs/ewn/campaign.yaml");
  const Outcome typo = selfplay("run '" + config + "' --gmaes 4", Capture::kBoth);
  EXPECT_EQ(typo.code, 2);
  EXPECT_EQ(typo.out,
            "error: The following arguments were not expected: 4 --gmaes (selfplay run --help "
            "lists the options)\n");
  for (const std::string& args :
       {"run '" + config + "' --out ''",
        "improve '" + ::sp::test::source_path("configs/ewn/improve.yaml") + "' --out ''",
        "export '" + config + "' --out ''", "tune '" + config + "' --out ''"}) {
    const Outcome r = selfplay(args, Capture::kBoth);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
    EXPECT_EQ(r.out.rfind("error: --out: an empty path", 0), 0u) << args << "\n" << r.out;
    EXPECT_EQ(lines_of(r.out).size(), 1u) << r.out;
  }
}

// `selfplay --version`: the version, the commit and the build's options on one line, exit 0
// (issue 43, item 3).
TEST(Cli, VersionSaysTheCommitAndTheBuild) {
  const Outcome r = selfplay("--version", Capture::kBoth);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(std::regex_match(
      r.out,
      std::regex(R"(selfplay \d+\.\d+\.\d+, commit ([0-9a-f]{7,40}|unknown), built [a-z]*, )"
                 R"(cuda (on \(architectures [0-9,]+\)|off), mpi (on|off), native (on|off), )"
                 R"(sanitize (on|off)\n)")))
      << r.out;
}

TEST(CliNumbers, NanSecondsFailsAtOnceInsteadOfHanging) {
  for (const char* args :
       {"bench --seconds nan", "bench --sweep --sweep-seconds nan", "bench --seconds NaN",
        "bench --seconds -nan", "bench --seconds inf", "bench --sweep-seconds 1e999"}) {
    const Outcome r = ::sp::test::run_command("timeout 10 '" + std::string(SELFPLAY_BINARY) + "' " +
                                              args + " 2>&1");
    EXPECT_EQ(r.code, 2) << args << " (124: it hung)\n" << r.out;
    EXPECT_NE(r.out.find("must be a finite number in ["), std::string::npos) << r.out;
  }
}

TEST(CliNumbers, IntegersReadLikeConfigValues) {
  // Decimal or 0x hex, never octal; the largest seed is 2^64 - 1.
  const std::string ten = selfplay("demo --games 1 --seed 10").out;
  ASSERT_FALSE(ten.empty());
  EXPECT_EQ(selfplay("demo --games 1 --seed 010").out, ten);
  EXPECT_EQ(selfplay("demo --games 1 --seed 0xA").out, ten);
  EXPECT_EQ(selfplay("demo --games 1 --seed +10").out, ten);
  EXPECT_NE(selfplay("demo --games 1 --seed 8").out, ten);
  EXPECT_EQ(selfplay("demo --games 1 --seed 18446744073709551615").code, 0);
  const Outcome over = selfplay("demo --games 1 --seed 18446744073709551616", Capture::kBoth);
  EXPECT_EQ(over.code, 2) << over.out;
  EXPECT_NE(over.out.find("--seed: must be in [0, 18446744073709551615], found "
                          "'18446744073709551616'"),
            std::string::npos)
      << over.out;
  const Outcome real = selfplay("demo --games 1.5", Capture::kBoth);
  EXPECT_EQ(real.code, 2);
  EXPECT_NE(real.out.find("--games: expected an integer in [1, 1000], found '1.5'"),
            std::string::npos)
      << real.out;
  EXPECT_EQ(selfplay("bench --seconds 0 --threads 0x1").code, 0);
}

// ---- user input in errors

TEST(CliErrors, InputIsQuotedEscapedAndShort) {
  const std::string position = "ABC2/DE3/F3f/3ed/2cba 0 1\x1b[2J" + std::string(100 * 1024, 'x');
  try {
    parse_position(position);
    ADD_FAILURE() << "parsed";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\x1b'), std::string::npos);
    EXPECT_NE(what.find("2cba 0 1\\x1b[2Jxxx"), std::string::npos) << what;
    EXPECT_LT(what.size(), 400u) << what;
  }
  for (const char* bad : {"\x07", "\x1b"}) {
    try {
      parse_move(parse_position("ABC2/DE3/F3f/3ed/2cba 0 1"), Rules{}, std::string("b4-c") + bad);
      ADD_FAILURE() << "parsed";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
  // Through the command line: the position and an unknown backend name.
  // The raw bytes go through the shell inside single quotes.
  const Outcome perft =
      selfplay("perft --depth 1 --position 'ABC2/DE3/F3f/3ed/2cba 0 \x1b[31m'", Capture::kStderr);
  EXPECT_EQ(perft.code, 2) << perft.out;
  EXPECT_EQ(perft.out.find('\x1b'), std::string::npos) << perft.out;
  EXPECT_NE(perft.out.find("\\x1b"), std::string::npos) << perft.out;
  const Outcome backend = selfplay("bench --seconds 0 --backend '\x1b]0;x\x07'", Capture::kStderr);
  EXPECT_EQ(backend.code, 2) << backend.out;
  EXPECT_NE(backend.out.find("unknown backend '\\x1b]0;x\\x07'"), std::string::npos) << backend.out;
}

}  // namespace
}  // namespace sp::ewn
