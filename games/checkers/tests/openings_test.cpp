// Openings from a file (issue 12, "selfplay can read a PDN file of positions"): `start: file` with
// `openings: FILE` reads PDN games or positions, or FEN lines, relative to the config; pair k
// plays position k mod N with the colours swapped; malformed files are refused with line and
// column; the deck (ballots or file) is part of the identity a resume must match, so a resume with
// another deck is refused in one line while a rewritten file with the same positions is not.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/text_lines.hpp"
#include "games/checkers/host.hpp"
#include "games/checkers/pdn.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/records/verify.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

using Host = GameHost<CheckersGame>;
using checkers::State;

std::string error_of(const std::string& text) {
  try {
    checkers::parse_openings(text, "o.pdn");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

const char* const kPdn = R"([Event "positions"]
[SetUp "1"]
[FEN "W:W18,K30:B1,5,K9"]
*

{ a ballot written as a game: its position after the moves is the opening }
1. 11-15 23-19 2. 8-11 *

[FEN "B:W21-32:B1-12"] 1. 9-13 1/2-1/2
)";

TEST(CheckersOpenings, PdnGamesAndPositionsGiveThePositionAfterTheirMoves) {
  const checkers::OpeningDeck deck = checkers::parse_openings(kPdn, "o.pdn");
  ASSERT_EQ(deck.positions.size(), 3u);
  EXPECT_EQ(checkers::fen(deck.positions[0]), "W:W18,K30:B1,5,K9");
  EXPECT_EQ(checkers::fen(deck.positions[1]),
            checkers::fen(checkers::ballot_position(checkers::parse_ballot("11-15 23-19 8-11"))));
  EXPECT_EQ(deck.positions[1].side, 1);
  EXPECT_EQ(deck.positions[2].side, 1) << "after 9-13 White moves";
  for (const State& s : deck.positions) {
    EXPECT_EQ(s.ply, 0);
    EXPECT_EQ(s.max_plies, State{}.max_plies) << "the rules set the limits when a game starts";
  }

  // The same positions as FEN lines: the same deck, the same identity.
  const std::string lines = "W:W18,K30:B1,5,K9\n\n; a comment\n" +
                            checkers::fen(deck.positions[1]) + "  \r\n# another\n" +
                            checkers::fen(deck.positions[2]) + "\n";
  const checkers::OpeningDeck same = checkers::parse_openings(lines, "o.fen");
  ASSERT_EQ(same.positions.size(), 3u);
  EXPECT_EQ(same.hash, deck.hash);
  EXPECT_NE(checkers::parse_openings("W:W18,K30:B1,5,K9\n", "one").hash, deck.hash);

  // Comment lines before the first FEN do not make it PDN (issue 23, item 7).
  const checkers::OpeningDeck commented =
      checkers::parse_openings("# three positions\n\n; from the test\r\n" + lines, "o.fen");
  ASSERT_EQ(commented.positions.size(), 3u);
  EXPECT_EQ(commented.hash, deck.hash);
  try {
    checkers::parse_openings("# a comment\nW:W18,K30:B1,5,K99\n", "o.fen");
    ADD_FAILURE() << "an off-board square was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("o.fen:2:1: ", 0), 0u) << e.what();
  }
}

TEST(CheckersOpenings, MalformedFilesNameTheLineAndColumn) {
  struct Case {
    std::string text, want;
  };
  const std::vector<Case> corpus = {
      {"", "o.pdn: no game in the file"},
      {"{ nothing }\n", "o.pdn: no game in the file"},
      {"[FEN \"W:W18:B1\"] *\n\n1. 11-15 24-28 *\n", "o.pdn:3:10: "},
      {"[FEN \"W:W18:B1\"]\n[FEN \"B:W18:B1\"] *\n", "o.pdn:2:1: tag FEN given twice"},
      {"[FEN \"W:W18:B1\"] *\n[FEN \"B:W18:B1\"] *\n[FEN \"W:W18:B1\"] *\n",
       "o.pdn:3:1: the opening W:W18:B1 is listed twice (first on line 1)"},
      {"[FEN \"B:W6:B1\"] 1. 1x10 *\n", "o.pdn:1:1: the opening "},
      {"W:W18:B1\nB:W18:B1\nB:W18:Bx\n", "o.pdn:3:1: "},
      {"  W:W18:B1\n   B:W32:B28\n", "o.pdn:2:4: the opening B:W32:B28 is over"},
      {"B:WK1,K3,K5,K7,K9,K11,K13,K15,K17,K19,K21,K23:BK2,K4,K6,K8,K10,K12\n",
       "o.pdn:1:1: the opening's FEN"},
      // Draw counters are refused, not dropped (issue 41, item 7).
      {"W:W18:B1\nB:W18:B1 ply=12/400\n", "o.pdn:2:10: an opening's ply counter is not kept"},
      {"W:W18:B1 ply=2/400 quiet=3/80\n", "o.pdn:1:10: an opening's ply counter is not kept"},
      {"  W:W18:B1 quiet=3/80\n", "o.pdn:1:12: an opening's quiet counter is not kept"},
  };
  for (const Case& c : corpus)
    EXPECT_EQ(error_of(c.text).rfind(c.want, 0), 0u) << c.want << "\n-> " << error_of(c.text);
  EXPECT_NE(error_of("[FEN \"W:W18:B1\"] *\n\n1. 11-15 24-28 *\n").find("24-28"),
            std::string::npos);
  EXPECT_NE(error_of("[FEN \"B:W6:B1\"] 1. 1x10 *\n").find("is over: White is to move"),
            std::string::npos);
}

const char* const kFileCampaign = R"(game: checkers
rules: {max_plies: 100, quiet_plies: 20, start: file, openings: openings.pdn}
campaign: {games: 6, concurrency: 3, seed: 5, paired: true}
engines:
  player0: {type: random}
  player1: {type: alphabeta, depth: 2, weights: WEIGHTS}
backend: {name: cpu, threads: 1}
output: {positions_per_game: 2, flush_seconds: 0.05}
)";

// The config lives in dir, its openings file beside it.
std::string write_config(const test::TempDir& dir, const std::string& text = kFileCampaign) {
  std::string config = text;
  config.replace(config.find("WEIGHTS"), 7,
                 test::source_path("configs/checkers/weights/classic.yaml"));
  write(dir.file("c.yaml"), config);
  return dir.file("c.yaml");
}

TEST(CheckersOpenings, PairKPlaysPositionKModNAndTheGamesVerify) {
  test::TempDir tmp;
  write(tmp.file("openings.pdn"), kPdn);
  auto cfg = config::load_campaign_config<CheckersGame>(write_config(tmp));
  ASSERT_EQ(cfg.rules.start.kind, checkers::StartKind::kFile);
  EXPECT_EQ(cfg.rules.openings, tmp.file("openings.pdn")) << "relative to the config";
  const checkers::OpeningDeck deck = checkers::parse_openings(kPdn, "o");
  for (uint32_t game = 0; game < 8; ++game) {
    std::string opening;
    const State s = selfplay::start_position<CheckersGame>(cfg, game, &opening);
    EXPECT_EQ(opening, checkers::fen(deck.positions[(game / 2) % 3])) << "game " << game;
    EXPECT_EQ(s.max_plies, 100) << "the rules' draw limits";
    EXPECT_EQ(selfplay::engine_for_player(cfg, game, 1), game % 2 == 0 ? 1 : 0);
  }
  cfg.output.path = tmp.file("f.h5");
  std::atomic<bool> stop{false};
  selfplay::run_campaign<CheckersGame>(cfg, {}, stop);
  for (const auto& g : io::CampaignReader(cfg.output.path).games())
    EXPECT_EQ(io::text_of(g.opening), checkers::fen(deck.positions[g.game_id / 2]));
  const selfplay::VerifyReport report = selfplay::verify_file(cfg.output.path, 10);
  EXPECT_EQ(report.problems.count(), 0u)
      << (report.problems.lines().empty() ? "" : report.problems.lines()[0]);
  EXPECT_EQ(report.games, 6u);
}

TEST(CheckersOpenings, StartFileAndOpeningsGoTogether) {
  test::TempDir tmp;
  write(tmp.file("openings.pdn"), "[FEN \"W:W18:B1\"] *\n[FEN \"W:W18:B1\"] *\n");
  const auto refused = [&](const std::string& text, const std::string& want) {
    try {
      config::load_campaign_config<CheckersGame>(write_config(tmp, text));
      ADD_FAILURE() << text << " accepted";
    } catch (const config::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  std::string text = kFileCampaign;
  refused(text, "openings.pdn:2:1: the opening W:W18:B1 is listed twice");
  refused(text.replace(text.find(", openings: openings.pdn"), 24, ""),
          "rules.openings': start: file needs an openings file");
  text = kFileCampaign;
  write(tmp.file("openings.pdn"), "W:W18:B1\n");
  refused(text.replace(text.find("start: file"), 11, "start: ballots"),
          "an openings file is read only with start: file");
  text = kFileCampaign;
  refused(text.replace(text.find("openings.pdn"), 12, "missing.pdn"), "missing.pdn");
}

// The identity a resume compares carries the deck by content: a rewritten file with the same
// positions resumes, another deck is refused in one line naming rules.openings.
TEST(CheckersOpenings, AResumeWithAnotherDeckIsRefused) {
  test::TempDir tmp;
  write(tmp.file("openings.pdn"), kPdn);
  const std::string config = write_config(tmp);
  const std::string out = tmp.file("r.h5");
  const auto selfplay = [&](const std::string& args) {
    return test::run_command(std::string(SELFPLAY_BINARY) + " run " + config + " --out " + out +
                             " --quiet " + args + " 2>&1");
  };
  auto r = selfplay("--games 2");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(io::CampaignReader(out).meta().identity.find("openings: 3 positions, fnv1a64 "),
            std::string::npos)
      << io::CampaignReader(out).meta().identity;

  const checkers::OpeningDeck deck = checkers::parse_openings(kPdn, "o");
  std::string lines;
  for (const State& s : deck.positions) lines += checkers::fen(s) + "\n";
  write(tmp.file("openings.pdn"), lines);
  r = selfplay("--games 4 --resume");
  EXPECT_EQ(r.code, 0) << "the same positions, written as FEN lines: " << r.out;

  write(tmp.file("openings.pdn"), lines + "B:W21-32:B1-12\n");
  r = selfplay("--games 6 --resume");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("rules.openings (3 positions, fnv1a64"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4 positions, fnv1a64"), std::string::npos) << r.out;
  EXPECT_EQ(io::CampaignReader(out).games_count(), 4u) << "the refused resume wrote nothing";
}

TEST(CheckersOpenings, TheBallotDeckIsPartOfTheIdentity) {
  auto cfg = config::load_campaign_config_text<CheckersGame>(
      "game: checkers\nrules: {start: ballots}\n", "b.yaml");
  const auto items = Host::settings_identity(cfg.rules);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].first, "openings");
  EXPECT_EQ(items[0].second.rfind(
                std::to_string(checkers::shipped_ballots().size()) + " ballots, fnv1a64 ", 0),
            0u)
      << items[0].second;
  const std::string identity = selfplay::run_identity<CheckersGame>(cfg, false);
  EXPECT_NE(identity.find(items[0].second), std::string::npos) << identity;
  cfg.rules.start = checkers::parse_start("standard");
  EXPECT_TRUE(Host::settings_identity(cfg.rules).empty());
}

// The PDN reader is linear (issue 41, item 3): 20,000 games of random moves from the start read
// with a bounded number of position steps (TextLines, counted, not timed); before, each game
// counted the lines from the start of the file, and each opening was compared with every earlier
// one (20k games: 4.5 s).
TEST(CheckersOpenings, LargePdnFilesReadInLinearWork) {
  std::string text;
  std::set<std::string> seen;
  std::mt19937 rng(7);
  while (seen.size() < 20000) {
    checkers::PdnGame game;
    State s = game.start;
    for (int ply = 0; ply < 12; ++ply) {
      checkers::MoveList moves;
      checkers::generate_moves(s, moves);
      if (moves.size == 0) break;
      const checkers::Move m = moves.moves[rng() % moves.size];
      game.moves.push_back(m);
      checkers::apply(s, m);
    }
    if (!checkers::has_move(s) || !seen.insert(checkers::fen(s)).second) continue;
    game.result = "*";
    text += checkers::write_pdn(game) + "\n";
  }
  TextLines::work() = 0;
  const checkers::OpeningDeck deck = checkers::parse_openings(text, "big.pdn");
  EXPECT_EQ(deck.positions.size(), seen.size());
  EXPECT_LE(TextLines::work(), text.size() + 4 * seen.size())
      << "position lookups grew faster than the file";
}

}  // namespace
}  // namespace sp
