// Checkers 3-move ballots (games/checkers/ballots.hpp, configs/checkers/ballots.txt) and PDN
// export: the candidates are every legal three-ply start; the shipped deck is built in as the file
// says, its header's counts and rule hold, and a sample of its decisions re-checks with the
// generator's search; ballot files with faults are refused with line and column; `start: ballots`
// gives game k (pair k when paired) ballot k mod N with the ballot as its opening, and such a
// campaign verifies; `selfplay export --format pdn` writes its games as PDN that reads back to the
// stored games, with the engines' seats swapping in a pair, and refuses a format the file's game
// lacks.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "experiments/checkers-ballots/score.hpp"
#include "games/checkers/ballots.hpp"
#include "games/checkers/host.hpp"
#include "games/checkers/pdn.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/play/selfplay/driver.hpp"
#include "host/records/verify.hpp"
#include "tests/config_docs.hpp"
#include "tests/test_util.hpp"

namespace sp {
namespace {

using checkers::Ballot;
using Host = GameHost<CheckersGame>;

std::string error_of(const std::string& text) {
  try {
    checkers::parse_ballots(text, "b.txt");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A number the deck's header states, from the text that follows it ("(\d+) kept").
long header_number(const std::string& header, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(header, m, std::regex(pattern))) return -1;
  return std::stol(m[1]);
}

TEST(CheckersBallots, CandidatesAreEveryLegalThreePlyStart) {
  const std::vector<Ballot> all = checkers::three_ply_starts();
  EXPECT_EQ(all.size(), 302u) << "perft 3 from the start";
  std::set<std::string> texts;
  for (const Ballot& b : all) {
    const std::string text = checkers::ballot_text(b);
    texts.insert(text);
    EXPECT_TRUE(checkers::parse_ballot(text) == b) << text;
    const checkers::State s = checkers::ballot_position(b);
    EXPECT_TRUE(checkers::state_ok(s)) << text;
    EXPECT_EQ(s.side, 1) << text;
    EXPECT_EQ(s.ply, 3) << text;
  }
  EXPECT_EQ(texts.size(), all.size()) << "no sequence twice";
}

TEST(CheckersBallots, TheShippedDeckIsTheFileItsHeaderDescribes) {
  const std::string file = test::read_text(test::source_path("configs/checkers/ballots.txt"));
  EXPECT_EQ(checkers::shipped_ballots_text(), file) << "the program has the file built in";
  const std::vector<Ballot>& deck = checkers::shipped_ballots();
  const std::vector<Ballot> all = checkers::three_ply_starts();
  // Kept in generation order, no two reaching one position.
  size_t at = 0;
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> positions;
  for (const Ballot& b : deck) {
    while (at < all.size() && !(all[at] == b)) ++at;
    EXPECT_LT(at, all.size()) << checkers::ballot_text(b) << " is out of order or no candidate";
    const checkers::State s = checkers::ballot_position(b);
    EXPECT_TRUE(positions.insert({s.pieces[0], s.pieces[1], s.kings}).second)
        << checkers::ballot_text(b) << " reaches the position of an earlier ballot";
  }
  std::string header;  // the comment lines
  for (size_t at = 0, end; at < file.size(); at = end + 1) {
    end = std::min(file.find('\n', at), file.size());
    if (file[at] == '#') header += file.substr(at, end - at) + "\n";
  }
  EXPECT_EQ(header_number(header, R"(The (\d+) kept)"), static_cast<long>(deck.size()));
  EXPECT_EQ(header_number(header, R"(ballot k mod (\d+))"), static_cast<long>(deck.size()));
  EXPECT_EQ(header_number(header, R"(Of the (\d+) legal)"), 302);
  const long transposed = header_number(header, R"(sequences, (\d+) reach)");
  const long lost = header_number(header, R"(and (\d+)\s+were dropped)");
  EXPECT_EQ(transposed + lost + static_cast<long>(deck.size()), 302) << header;
}

// The generator's decision, re-made for the first kept ballot and the first dropped one at the
// depth and threshold the header names (a search each, about a second).
TEST(CheckersBallots, ASampleOfTheDeckReChecksWithTheGeneratorsSearch) {
  const std::string file(checkers::shipped_ballots_text());
  const long depth = header_number(file, R"(--depth (\d+))");
  const long threshold = header_number(file, R"(--threshold (\d+))");
  ASSERT_GT(depth, 0);
  ASSERT_GE(threshold, 0);
  const eval::Weights weights =
      eval::load_weights<CheckersGame>(test::source_path("configs/checkers/weights/classic.yaml"));
  checkers::BallotScorer scorer(weights, static_cast<int>(depth));
  const std::vector<Ballot>& deck = checkers::shipped_ballots();
  const auto in_deck = [&](const Ballot& b) {
    return std::find(deck.begin(), deck.end(), b) != deck.end();
  };
  const checkers::BallotScore kept = scorer.score(deck.front());
  EXPECT_TRUE(checkers::keeps(kept, threshold)) << checkers::ballot_text(deck.front());
  // The first candidate left out that no earlier candidate transposes into: one found lost.
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;
  for (const Ballot& b : checkers::three_ply_starts()) {
    const checkers::State s = checkers::ballot_position(b);
    if (!seen.insert({s.pieces[0], s.pieces[1], s.kings}).second || in_deck(b)) continue;
    const checkers::BallotScore dropped = scorer.score(b);
    EXPECT_FALSE(checkers::keeps(dropped, threshold))
        << checkers::ballot_text(b) << " scores " << dropped.black << " yet is not in the deck";
    return;
  }
  ADD_FAILURE() << "the deck drops no ballot as lost";
}

TEST(CheckersBallots, BallotFilesWithFaultsNameTheLineAndColumn) {
  struct Case {
    std::string text, want;
  };
  const std::vector<Case> corpus = {
      {"", "b.txt: no ballot in the file"},
      {"# only a comment\n\n", "b.txt: no ballot in the file"},
      {"11-15 23-19 8-11\n11-15 23-19\n", "b.txt:2:12: a ballot has three moves"},
      {"11-15 23-19 8-11 22-17\n", "b.txt:1:18: more than three moves"},
      {"  11-15 23-20 8-11  # x\n", "b.txt:1:9: 23-20 is not a legal move for White"},
      {"11-15 23-19 8-33\n", "b.txt:1:15: square 33 is not in 1-32"},
      {"11-15\t23-19 8-11\n", "b.txt:1:6: separate the moves with spaces"},
      {"11-15 23-19 8-11\r\n9-13 22-18 10-14\n11-15 23-19 8-11\n",
       "b.txt:3:1: ballot 11-15 23-19 8-11 is listed twice (first on line 1)"},
  };
  for (const Case& c : corpus)
    EXPECT_EQ(error_of(c.text).rfind(c.want, 0), 0u) << c.want << "\n-> " << error_of(c.text);
  const auto two =
      checkers::parse_ballots("# deck\n11-15 23-19 8-11\n\n  9-13 22-18 10-14 # x", "b");
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(checkers::ballot_text(two[1]), "9-13 22-18 10-14");
}

const char* const kBallotCampaign = R"(game: checkers
rules: {max_plies: 100, quiet_plies: 20, start: ballots}
campaign: {games: 6, concurrency: 3, seed: 5, paired: true}
engines:
  player0: {type: random}
  player1: {type: alphabeta, depth: 2, weights: WEIGHTS}
backend: {name: cpu, threads: 1}
output: {positions_per_game: 2, flush_seconds: 0.05}
)";

config::Config<CheckersGame> ballot_config() {
  std::string text = kBallotCampaign;
  text.replace(text.find("WEIGHTS"), 7, test::source_path("configs/checkers/weights/classic.yaml"));
  return config::load_campaign_config_text<CheckersGame>(text, "ballots.yaml");
}

TEST(CheckersBallots, StartBallotsGivesPairKBallotKModNAsItsOpening) {
  const auto cfg = ballot_config();
  EXPECT_EQ(config::load_campaign_config_text<CheckersGame>(
                "game: checkers\nrules: {start: ballots}\n", "x.yaml")
                .rules.start.kind,
            checkers::StartKind::kBallots);
  const std::vector<Ballot>& deck = checkers::shipped_ballots();
  const uint32_t n = static_cast<uint32_t>(deck.size());
  for (const uint32_t stream : {0u, 1u, n - 1, n, n + 2}) {
    std::string opening;
    const checkers::State s = Host::start(cfg.rules, cfg.seed, stream, &opening);
    EXPECT_EQ(opening, checkers::ballot_text(deck[stream % n])) << "stream game " << stream;
    checkers::State want = checkers::ballot_position(deck[stream % n], cfg.rules.rules);
    EXPECT_EQ(std::memcmp(&s, &want, sizeof s), 0) << "stream game " << stream;
    EXPECT_EQ(s.max_plies, 100) << "the rules' draw limits";
  }
  // Paired: games 2k and 2k+1 share ballot k, and the engines swap colours between them.
  for (uint32_t game = 0; game < 8; ++game) {
    std::string opening;
    selfplay::start_position<CheckersGame>(cfg, game, &opening);
    EXPECT_EQ(opening, checkers::ballot_text(deck[(game / 2) % n])) << "game " << game;
    EXPECT_EQ(selfplay::engine_for_player(cfg, game, 1), game % 2 == 0 ? 1 : 0);
  }
}

class CheckersBallotFile : public ::testing::Test {
 protected:
  // The ballot campaign's file, played once for the tests of this fixture.
  static void SetUpTestSuite() {
    dir_ = new test::TempDir;
    auto cfg = ballot_config();
    cfg.output.path = dir_->file("ballots.h5");
    std::atomic<bool> stop{false};
    selfplay::run_campaign<CheckersGame>(cfg, {}, stop);
  }
  static void TearDownTestSuite() { delete dir_; }
  static std::string path() { return dir_->file("ballots.h5"); }
  static test::CommandResult selfplay(const std::string& args) {
    return test::run_command(std::string(SELFPLAY_BINARY) + " " + args + " 2>&1");
  }
  static inline test::TempDir* dir_ = nullptr;
};

TEST_F(CheckersBallotFile, GamesStartFromTheirBallotAndVerify) {
  io::CampaignReader reader(path());
  const auto games = reader.games();
  ASSERT_EQ(games.size(), 6u);
  const std::vector<Ballot>& deck = checkers::shipped_ballots();
  for (const auto& g : games) {
    EXPECT_EQ(io::text_of(g.opening), checkers::ballot_text(deck[g.game_id / 2]));
    EXPECT_EQ(g.first_player, 1) << "White moves after a ballot";
  }
  const selfplay::VerifyReport report = selfplay::verify_file(path(), 10);
  EXPECT_EQ(report.problems.count(), 0u)
      << (report.problems.lines().empty() ? "" : report.problems.lines()[0]);
  EXPECT_EQ(report.games, 6u);
}

TEST_F(CheckersBallotFile, ExportAsPdnReadsBackAsTheStoredGames) {
  const std::string out = dir_->file("games.pdn");
  const auto r = selfplay("export '" + path() + "' --format pdn --out '" + out + "'");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string text = test::read_text(out);
  EXPECT_EQ(selfplay("export '" + path() + "' --format pdn").out, text) << "the same bytes";
  const std::vector<checkers::PdnGame> pdn = checkers::read_pdn(text, out);

  io::CampaignReader reader(path());
  auto games = reader.games();
  std::sort(games.begin(), games.end(),
            [](const auto& a, const auto& b) { return a.game_id < b.game_id; });
  auto plies = reader.plies();
  std::sort(plies.begin(), plies.end(), [](const auto& a, const auto& b) {
    return std::tie(a.game_id, a.ply) < std::tie(b.game_id, b.ply);
  });
  ASSERT_EQ(pdn.size(), games.size());
  const auto tag = [](const checkers::PdnGame& g, const std::string& name) {
    for (const auto& t : g.tags)
      if (t.name == name) return t.value;
    return std::string("(none)");
  };
  for (size_t i = 0; i < games.size(); ++i) {
    const auto& g = games[i];
    const checkers::PdnGame& p = pdn[i];
    EXPECT_EQ(tag(p, "Round"), std::to_string(g.game_id));
    EXPECT_EQ(tag(p, "Event"), "selfplay campaign");
    EXPECT_EQ(tag(p, "GameType"), "21");
    EXPECT_EQ(tag(p, "Program"), reader.meta().program);  // what played the games
    EXPECT_TRUE(tag(p, "Program").starts_with("selfplay ")) << tag(p, "Program");
    EXPECT_TRUE(std::regex_match(tag(p, "Date"), std::regex(R"(\d{4}\.\d\d\.\d\d)")))
        << tag(p, "Date");
    // The ballot from the standard start, then the stored plies.
    std::string moves;
    for (const checkers::Move m : p.moves)
      moves += (moves.empty() ? "" : " ") + checkers::to_string(m);
    std::string want(io::text_of(g.opening));
    for (const auto& ply : plies)
      if (ply.game_id == g.game_id) want += " " + std::string(io::text_of(ply.move));
    EXPECT_EQ(moves, want) << "game " << g.game_id;
    EXPECT_EQ(p.result, g.winner == 0 ? "1-0" : g.winner == 1 ? "0-1" : "1/2-1/2");
    // Engine player0 (random) plays Black in even games and White in odd ones.
    const std::string random = "engines.player0 (random)",
                      alphabeta = "engines.player1 (alphabeta)";
    EXPECT_EQ(tag(p, "Black"), g.game_id % 2 == 0 ? random : alphabeta) << "game " << g.game_id;
    EXPECT_EQ(tag(p, "White"), g.game_id % 2 == 0 ? alphabeta : random) << "game " << g.game_id;
  }
}

TEST_F(CheckersBallotFile, AFormatTheGameLacksIsAnInputError) {
  const auto bogus = selfplay("export '" + path() + "' --format sgf");
  EXPECT_EQ(bogus.code, 2) << bogus.out;
  EXPECT_NE(bogus.out.find("--format sgf: " + path() +
                           " holds checkers games, which export as "
                           "tsv, html, boards, pdn"),
            std::string::npos)
      << bogus.out;
  const std::string ewn = test::source_path("tests/data/format1-campaign.h5");
  const auto none = selfplay("export '" + ewn + "' --format pdn");
  EXPECT_EQ(none.code, 2) << none.out;
  EXPECT_NE(none.out.find("holds ewn games, which export as tsv, html, boards\n"),
            std::string::npos)
      << none.out;
  EXPECT_EQ(selfplay("export '" + path() + "' --format tsv").out,
            selfplay("export '" + path() + "'").out);
}

// The shipped match config: ballots, one pass over the deck, every key that applies written with
// a comment; one pair of it through the CLI plays one ballot with the colours swapped.
TEST(CheckersMatchConfig, PlaysTheBallotsInPairsAndWritesEveryKey) {
  const std::string path = test::source_path("configs/checkers/match-mcts-vs-alphabeta.yaml");
  const auto cfg = config::load_match_config<CheckersGame>(path);
  EXPECT_EQ(cfg.rules.start.kind, checkers::StartKind::kBallots);
  EXPECT_EQ(cfg.match.pairs, checkers::shipped_ballots().size()) << "one pass over the deck";
  EXPECT_EQ(cfg.engines[0].type, config::EngineType::kMcts);
  EXPECT_EQ(cfg.engines[1].type, config::EngineType::kAlphaBeta);
  test::expect_documented_config(path, config::explain_match_config(cfg));

  test::TempDir tmp;
  const std::string out = tmp.file("m.h5");
  const auto r = test::run_command(std::string(SELFPLAY_BINARY) + " match '" + path +
                                   "' --pairs 1 --threads 2 --out '" + out + "' 2>&1");
  ASSERT_EQ(r.code, 0) << r.out;
  auto games = io::CampaignReader(out).games();
  ASSERT_EQ(games.size(), 2u);
  for (const auto& g : games)
    EXPECT_EQ(io::text_of(g.opening), checkers::ballot_text(checkers::shipped_ballots()[0]));
  const auto exported =
      test::run_command(std::string(SELFPLAY_BINARY) + " export '" + out + "' --format pdn 2>&1");
  ASSERT_EQ(exported.code, 0) << exported.out;
  const auto pdn = checkers::read_pdn(exported.out, "match.pdn");
  ASSERT_EQ(pdn.size(), 2u);
  const auto tag = [](const checkers::PdnGame& g, const std::string& name) {
    for (const auto& t : g.tags)
      if (t.name == name) return t.value;
    return std::string("(none)");
  };
  EXPECT_EQ(tag(pdn[0], "Event"), "selfplay match");
  EXPECT_EQ(tag(pdn[0], "Black").rfind("A: mcts(", 0), 0u) << tag(pdn[0], "Black");
  EXPECT_EQ(tag(pdn[0], "White").rfind("B: alphabeta(", 0), 0u) << tag(pdn[0], "White");
  EXPECT_EQ(tag(pdn[1], "Black"), tag(pdn[0], "White")) << "colours swapped in the pair";
  EXPECT_EQ(tag(pdn[1], "White"), tag(pdn[0], "Black"));
  EXPECT_EQ(selfplay::verify_file(out, 5).problems.count(), 0u);
}

}  // namespace
}  // namespace sp
