// Matches (selfplay match) end to end: engines from configs (expectimax, MCTS with evaluation
// weights), determinism, the SPRT's early stop, pair counting against the games in the file, the
// /match group, resume after a kill, and config errors that name their key.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "games/ewn/host.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/driver.hpp"
#include "host/play/selfplay/match.hpp"
#include "tests/config_docs.hpp"
#include "tests/test_util.hpp"

namespace sp::selfplay {
namespace {

namespace fs = std::filesystem;
using test::Child;
using test::read_text;
using test::source_path;

const std::string kSurvival = source_path("configs/ewn/weights/survival-distance.yaml");

// MCTS against expectimax at depth 2, small enough for a unit test.
std::string mcts_vs_expectimax(int pairs, bool sprt) {
  return R"(
rules: {first_player: alternate, setup: random}
campaign: {concurrency: 8, seed: 21}
engines:
  player0: {type: mcts, rollouts_per_move: 160, rollouts_per_leaf: 8, leaves_per_round: 4}
  player1: {type: expectimax, depth: 2, weights: ')" +
         kSurvival + R"('}
backend: {name: cpu, threads: 2, batch_rollouts: 4096}
output: {path: unused.h5, positions_per_game: 2, flush_seconds: 0.05}
match: {pairs: )" +
         std::to_string(pairs) + ", sprt: {enabled: " + (sprt ? "true" : "false") +
         ", elo0: 0, elo1: 50}}\n";
}

// A lopsided match: MCTS with 300 rollouts per move against random moves.
const char* kLopsided = R"(
campaign: {concurrency: 16, seed: 9}
engines:
  player0: {type: mcts, rollouts_per_move: 300}
  player1: {type: random}
backend: {name: cpu, threads: 2, batch_rollouts: 8192}
output: {path: unused.h5, flush_seconds: 0.05}
match: {pairs: 500, sprt: {enabled: true, elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05}}
)";

class Match : public ::testing::Test {
 protected:
  config::Config<EwnGame> load(const std::string& text, const std::string& name = "m.yaml") const {
    std::ofstream(dir_ / name) << text;
    return config::load_match_config<EwnGame>((dir_ / name).string());
  }

  MatchResult play(config::Config<EwnGame> cfg, const std::string& name) const {
    cfg.output.path = (dir_ / name).string();
    std::atomic<bool> stop{false};
    return run_match(cfg, MatchOptions{}, stop);
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  test::TempDir tmp_;
  const fs::path& dir_ = tmp_.path();
};

// Game records keyed by game id without wall-clock fields, and the /match/pairs rows.
struct Records {
  std::map<uint64_t, std::string> games, plies;
  std::vector<io::MatchPairRow> pairs;
  bool operator==(const Records&) const = default;
};

Records read_records(const std::string& path) {
  io::CampaignReader reader(path);
  Records r;
  for (const auto& g : reader.games())
    r.games[g.game_id] = std::string(io::text_of(g.opening)) + " first " +
                         std::to_string(g.first_player) + " winner " + std::to_string(g.winner) +
                         " " + std::string(io::text_of(g.record));
  for (const auto& p : reader.plies())
    r.plies[p.game_id] += std::to_string(p.chance) + std::string(io::text_of(p.move)) + "/" +
                          std::to_string(p.visits) + "/" + std::to_string(p.root_value) + "/" +
                          std::to_string(p.rollouts) + " ";
  r.pairs = reader.match_pairs();
  return r;
}

// Only the games of the counted pairs.
Records counted_only(Records r) {
  const uint64_t games = 2 * r.pairs.size();
  std::erase_if(r.games, [&](const auto& kv) { return kv.first >= games; });
  std::erase_if(r.plies, [&](const auto& kv) { return kv.first >= games; });
  return r;
}

std::string table(const MatchResult& r) {
  return stats::format_match_table(r.counter, r.sprt ? &r.sprt_config : nullptr);
}

TEST_F(Match, SameSeedSameRecordsAndTable) {
  const config::Config<EwnGame> cfg = load(mcts_vs_expectimax(6, false));
  const MatchResult first = play(cfg, "a.h5");
  const MatchResult second = play(cfg, "b.h5");
  ASSERT_EQ(first.counter.penta().pairs(), 6u);
  EXPECT_FALSE(first.sprt.has_value());
  EXPECT_EQ(table(first), table(second));
  const Records reference = read_records(path("a.h5"));
  ASSERT_EQ(reference.games.size(), 12u);
  ASSERT_EQ(reference.pairs.size(), 6u);
  EXPECT_EQ(read_records(path("b.h5")), reference);

  // Concurrency and batch size change the order games finish in, not the games or the pairs; a
  // label changes the names, not the games.
  config::Config<EwnGame> c = cfg;
  c.concurrency = 3;
  c.backend.batch_rollouts = 1;
  c.engines[0].label = "the first";
  const MatchResult labelled = play(c, "c.h5");
  EXPECT_EQ(table(labelled), table(first));
  EXPECT_EQ(read_records(path("c.h5")), reference);
  EXPECT_NE(labelled.report.find("engine A  the first (" + first.engine_a + ")  (engines.player0)"),
            std::string::npos)
      << labelled.report;
  EXPECT_NE(labelled.report.find("engine B  " + first.engine_b + "  (engines.player1)"),
            std::string::npos)
      << labelled.report;

  c = cfg;
  c.seed = 22;
  play(c, "d.h5");
  EXPECT_NE(read_records(path("d.h5")).games, reference.games) << "another seed, other games";
}

TEST_F(Match, SprtStopsALopsidedMatchEarlyWithTheLlrOutsideTheBounds) {
  const config::Config<EwnGame> cfg = load(kLopsided);
  const MatchResult r = play(cfg, "l.h5");
  ASSERT_TRUE(r.sprt.has_value());
  EXPECT_TRUE(r.sprt_stopped);
  EXPECT_FALSE(r.interrupted);
  EXPECT_EQ(r.sprt->decision, stats::SprtState::kAcceptH1);
  EXPECT_GE(r.sprt->llr, r.sprt->upper);
  const uint64_t counted = r.counter.penta().pairs();
  EXPECT_LT(counted, 500u);
  EXPECT_LT(r.games_played, 1000u) << "no new game starts after the decision";
  EXPECT_GE(r.games_played, 2 * counted);
  EXPECT_NE(r.report.find("SPRT: H1 accepted after " + std::to_string(counted) + " pairs"),
            std::string::npos)
      << r.report;

  // The rows are the sequential test: every LLR before the last inside the bounds.
  const Records rec = read_records(path("l.h5"));
  ASSERT_EQ(rec.pairs.size(), counted);
  for (size_t k = 0; k + 1 < rec.pairs.size(); ++k) {
    EXPECT_GT(rec.pairs[k].llr, r.sprt->lower) << "pair " << k;
    EXPECT_LT(rec.pairs[k].llr, r.sprt->upper) << "pair " << k;
  }
  EXPECT_EQ(rec.pairs.back().llr, r.sprt->llr);

  // The decision point does not depend on how many games run at once.
  config::Config<EwnGame> c = cfg;
  c.concurrency = 5;
  const MatchResult other = play(c, "l5.h5");
  EXPECT_EQ(table(other), table(r));
  EXPECT_EQ(counted_only(read_records(path("l5.h5"))), counted_only(rec));
}

// Engines without rollouts finish whole games between two batches (there are none): the SPRT's
// decision must still stop new games at once, not after the whole planned match.
TEST_F(Match, SprtStopsAMatchOfEnginesWithoutRollouts) {
  const config::Config<EwnGame> cfg = load(R"(
campaign: {concurrency: 4, seed: 3}
engines:
  player0: {type: expectimax, depth: 1, weights: ')" +
                                           kSurvival + R"('}
  player1: {type: random}
backend: {name: cpu, threads: 1}
output: {path: unused.h5, flush_seconds: 0.05}
match: {pairs: 2000, sprt: {enabled: true, elo0: 0, elo1: 50}}
)");
  const MatchResult r = play(cfg, "nr.h5");
  ASSERT_TRUE(r.sprt_stopped);
  const uint64_t counted = r.counter.penta().pairs();
  EXPECT_LT(counted, 2000u);
  EXPECT_LE(r.games_played, 2 * counted + 2 * cfg.concurrency)
      << "games kept starting after the SPRT decided";
}

// sprt.min_pairs withholds the decision: the match goes on past the pair where the test would have
// stopped, then stops at the first pair from min_pairs on with the LLR outside the bounds.
TEST_F(Match, SprtDecidesNoEarlierThanMinPairs) {
  const auto config_with = [&](int min_pairs) {
    return load(R"(
campaign: {concurrency: 4, seed: 3}
engines:
  player0: {type: expectimax, depth: 1, weights: ')" +
                kSurvival + R"('}
  player1: {type: random}
backend: {name: cpu, threads: 1}
output: {path: unused.h5, flush_seconds: 0.05}
match: {pairs: 2000, sprt: {enabled: true, elo0: 0, elo1: 50, min_pairs: )" +
                std::to_string(min_pairs) + "}}\n");
  };
  const MatchResult free = play(config_with(0), "free.h5");
  ASSERT_TRUE(free.sprt_stopped);
  const uint64_t first = free.counter.penta().pairs();
  const uint64_t min_pairs = first + 25;
  const MatchResult held = play(config_with(static_cast<int>(min_pairs)), "held.h5");
  ASSERT_TRUE(held.sprt_stopped);
  EXPECT_EQ(held.sprt_config.min_samples, min_pairs);
  const uint64_t counted = held.counter.penta().pairs();
  EXPECT_GE(counted, min_pairs);
  EXPECT_NE(held.report.find("H1 accepted after " + std::to_string(counted) + " pairs"),
            std::string::npos)
      << held.report;
  // The same pairs (same seed): the LLR left the bounds at `first` already, and the decision came
  // at the first pair from min_pairs on where it is outside them.
  const std::vector<io::MatchPairRow> rows = read_records(path("held.h5")).pairs;
  ASSERT_EQ(rows.size(), counted);
  EXPECT_GE(rows[first - 1].llr, held.sprt->upper);
  for (uint64_t k = min_pairs - 1; k + 1 < counted; ++k)
    EXPECT_TRUE(rows[k].llr > held.sprt->lower && rows[k].llr < held.sprt->upper) << "pair " << k;
}

TEST_F(Match, PairCountsMatchTheGamesInTheFile) {
  const config::Config<EwnGame> cfg = load(kLopsided);
  const MatchResult r = play(cfg, "p.h5");
  io::CampaignReader reader(path("p.h5"));
  std::map<uint64_t, io::GameRow> games;
  for (const auto& g : reader.games()) games[g.game_id] = g;
  const auto rows = reader.match_pairs();
  ASSERT_EQ(rows.size(), r.counter.penta().pairs());
  ASSERT_GT(rows.size(), 0u);
  stats::PairCounter recount;
  const auto score = [](stats::GameResult x) {
    return x == stats::GameResult::kWin ? 1.0f : x == stats::GameResult::kDraw ? 0.5f : 0.0f;
  };
  for (size_t k = 0; k < rows.size(); ++k) {
    SCOPED_TRACE("pair " + std::to_string(k));
    EXPECT_EQ(rows[k].pair_id, k);
    ASSERT_TRUE(games.count(2 * k) && games.count(2 * k + 1));
    const io::GameRow &g1 = games[2 * k], &g2 = games[2 * k + 1];
    // The pair shares the setup; engine A has player 0 in the first game, player 1 in the second.
    EXPECT_EQ(io::text_of(g1.opening), io::text_of(g2.opening));
    const auto a1 = g1.winner == 0 ? stats::GameResult::kWin : stats::GameResult::kLoss;
    const auto a2 = g2.winner == 1 ? stats::GameResult::kWin : stats::GameResult::kLoss;
    EXPECT_EQ(result_for_a(cfg, static_cast<uint32_t>(2 * k), g1.winner), a1);
    EXPECT_EQ(result_for_a(cfg, static_cast<uint32_t>(2 * k + 1), g2.winner), a2);
    EXPECT_EQ(rows[k].result_1, score(a1));
    EXPECT_EQ(rows[k].result_2, score(a2));
    recount.add_pair(a1, a2);
    EXPECT_EQ(rows[k].llr, stats::sprt(recount.penta(), r.sprt_config).llr);
  }
  EXPECT_EQ(recount.penta().counts, r.counter.penta().counts);
  EXPECT_EQ(recount.wdl().wins, r.counter.wdl().wins);
  EXPECT_EQ(recount.wdl().losses, r.counter.wdl().losses);

  // The /match attributes.
  ASSERT_TRUE(reader.meta().match.has_value());
  const io::MatchMeta& m = *reader.meta().match;
  EXPECT_EQ(m.engine_a, r.engine_a);
  EXPECT_EQ(m.engine_b, "random");
  EXPECT_EQ(m.pairs, 500u);
  EXPECT_TRUE(m.sprt_enabled);
  EXPECT_EQ(m.sprt_elo1, 50);
  EXPECT_EQ(m.sprt_upper, r.sprt->upper);
  EXPECT_EQ(m.sprt_lower, r.sprt->lower);
  EXPECT_NE(reader.meta().config_text.find("match:"), std::string::npos);
}

TEST_F(Match, ExpectimaxAndWeightedMctsLoadFromConfigAndPlay) {
  fs::create_directories(dir_ / "weights");
  fs::copy_file(kSurvival, dir_ / "weights" / "sd.yaml");
  fs::create_directories(dir_ / "configs");
  // Relative weights paths are taken from the config file's directory.
  const std::string text = R"(
campaign: {concurrency: 4, seed: 3}
engines:
  player0: {type: mcts, rollouts_per_move: 160, weights: ../weights/sd.yaml, eval_blend: 0.5,
            eval_scale: 0.01, progressive_bias: 0.5}
  player1: {type: expectimax, depth: 2, tt_size_mb: 1, star1: false, weights: ../weights/sd.yaml}
backend: {name: cpu, threads: 2}
match: {pairs: 4, sprt: {enabled: false}}
)";
  const config::Config<EwnGame> cfg = load(text, "configs/w.yaml");
  for (const config::EngineConfig& e : cfg.engines) {
    EXPECT_EQ(e.weights, (dir_ / "weights" / "sd.yaml").string());
    ASSERT_TRUE(e.evaluation);
    EXPECT_EQ(e.evaluation->name, "survival-distance");
  }
  EXPECT_EQ(cfg.engines[1].type, config::EngineType::kExpectimax);
  EXPECT_EQ(cfg.engines[1].tt_size_mb, 1u);
  EXPECT_FALSE(cfg.engines[1].star1);
  EXPECT_TRUE(cfg.paired);
  EXPECT_EQ(cfg.games, 8u);
  // The explained config names the resolved file, so it loads back from anywhere.
  const std::string explained = config::explain_match_config(cfg);
  EXPECT_EQ(
      config::explain_match_config(config::load_match_config_text<EwnGame>(explained, "/x/e.yaml")),
      explained);

  const MatchResult r = play(cfg, "w.h5");
  EXPECT_EQ(r.engine_b, "expectimax(survival-distance, depth 2, tt 1 MiB, history)");
  EXPECT_NE(r.engine_a.find("eval survival-distance blend=0.5"), std::string::npos) << r.engine_a;
  EXPECT_EQ(r.counter.penta().pairs(), 4u);
  io::CampaignReader reader(path("w.h5"));
  EXPECT_EQ(reader.games_count(), 8u);
  uint64_t plies = 0;
  for (const auto& g : reader.games()) plies += g.plies;
  EXPECT_EQ(reader.plies_count(), plies);
}

TEST_F(Match, EvaluationKeysAtTheirDefaultsLeaveMctsUnchanged) {
  const auto records_of = [&](const std::string& extra, const std::string& name) {
    const std::string text =
        "campaign: {concurrency: 4, seed: 8}\nengines:\n  player0: "
        "{type: mcts, rollouts_per_move: 160" +
        extra +
        "}\n  player1: {type: mcts, rollouts_per_move: 160}\n"
        "backend: {name: cpu, threads: 2}\nmatch: {pairs: 4, sprt: "
        "{enabled: false}}\n";
    play(load(text, name + ".yaml"), name + ".h5");
    return read_records(path(name + ".h5"));
  };
  const Records plain = records_of("", "plain");
  EXPECT_EQ(records_of(", weights: '" + kSurvival + "'", "weights_only"), plain);
  EXPECT_NE(records_of(", weights: '" + kSurvival + "', eval_blend: 0.5, eval_scale: 0.01", "blend")
                .plies,
            plain.plies);
  EXPECT_NE(
      records_of(", weights: '" + kSurvival + "', progressive_bias: 2, eval_scale: 0.01", "bias")
          .plies,
      plain.plies);
}

std::string error_of(const std::string& text, const std::string& name = "e.yaml") {
  try {
    config::load_match_config_text<EwnGame>(text, name);
  } catch (const config::ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for:\n" << text;
  return "";
}

TEST_F(Match, ConfigErrorsNameTheKey) {
  const std::string missing = (dir_ / "nope.yaml").string();
  EXPECT_EQ(error_of("engines:\n  player1: {type: expectimax, weights: nope.yaml}\n",
                     (dir_ / "e.yaml").string()),
            (dir_ / "e.yaml").string() + ":2:40: key 'engines.player1.weights': cannot read " +
                missing + ": No such file or directory");
  EXPECT_EQ(error_of("engines:\n  player1: {type: expectimax}\n"),
            "e.yaml:2:12: key 'engines.player1.weights': required for type expectimax: a weights "
            "file such as configs/ewn/weights/survival-distance.yaml");
  EXPECT_EQ(error_of("engines:\n  player0:\n    eval_blend: 0.3\n"),
            "e.yaml:3:17: key 'engines.player0.eval_blend': needs an evaluation: set weights to a "
            "weights file");
  EXPECT_EQ(error_of("engines:\n  player0: {progressive_bias: 1}\n"),
            "e.yaml:2:31: key 'engines.player0.progressive_bias': needs an evaluation: set weights "
            "to a weights file");
  EXPECT_NE(
      error_of("engines: {player0: {eval_blend: 1.5}}").find("key 'engines.player0.eval_blend'"),
      std::string::npos);
  EXPECT_NE(
      error_of("engines: {player1: {type: expectimax, depth: 0, weights: '" + kSurvival + "'}}")
          .find("key 'engines.player1.depth': 0 (no depth limit) needs a time limit"),
      std::string::npos);
  EXPECT_NE(
      error_of("engines: {player1: {type: expectimax, dept: 3}}").find("did you mean 'depth'"),
      std::string::npos);
  // A weights file with a mistake: the engine key and the file's own key and position.
  std::ofstream(dir_ / "bad-weights.yaml") << "name: bad\nweights: {own_cubez: 1}\n";
  const std::string bad =
      error_of("engines:\n  player0: {weights: bad-weights.yaml}\n", (dir_ / "e.yaml").string());
  EXPECT_EQ(bad, (dir_ / "e.yaml").string() + ":2:22: key 'engines.player0.weights': " +
                     (dir_ / "bad-weights.yaml").string() +
                     ":2:11: key 'weights.own_cubez': unknown key, did you mean 'own_cubes'?");
  // Match keys.
  EXPECT_EQ(error_of("match: {sprt: {elo0: 10, elo1: 5}}\n"),
            "e.yaml:1:32: key 'match.sprt.elo1': must be above elo0 (10.0), found 5.0");
  EXPECT_NE(error_of("match: {sprt: {alpha: 0.5}}").find("key 'match.sprt.alpha'"),
            std::string::npos);
  EXPECT_NE(error_of("match: {pairs: 0}").find("key 'match.pairs'"), std::string::npos);
  EXPECT_NE(error_of("match: {sprt: {min_pairs: -1}}").find("key 'match.sprt.min_pairs'"),
            std::string::npos);
  // A match always plays 2 x pairs games in pairs: those campaign keys do not exist here.
  EXPECT_NE(error_of("campaign: {games: 10}").find("key 'campaign.games': unknown key"),
            std::string::npos);
  EXPECT_NE(error_of("campaign: {paired: false}").find("key 'campaign.paired': unknown key"),
            std::string::npos);
  // ...and a campaign config has no match section.
  EXPECT_THROW(config::load_campaign_config_text<EwnGame>("match: {pairs: 3}\n", "c.yaml"),
               config::ConfigError);
}

TEST_F(Match, ShippedConfigHasEveryKeyWithACommentAndExplainsBack) {
  const std::string shipped = source_path("configs/ewn/match-mcts-vs-expectimax.yaml");
  const config::Config<EwnGame> cfg = config::load_match_config<EwnGame>(shipped);
  EXPECT_EQ(cfg.engines[0].type, config::EngineType::kMcts);
  EXPECT_EQ(cfg.engines[1].type, config::EngineType::kExpectimax);
  EXPECT_EQ(cfg.engines[1].weights, source_path("configs/ewn/weights/survival-distance.yaml"));
  test::expect_documented_config(shipped, config::explain_match_config(cfg));
  const std::string text = config::explain_match_config(cfg);
  EXPECT_EQ(
      config::explain_match_config(config::load_match_config_text<EwnGame>(text, "explained.yaml")),
      text);
}

TEST_F(Match, SchemaIsTheCampaignSchemaPlusTheMatchGroup) {
  const std::string file = path("schema.h5");
  {
    io::FileMeta meta;
    meta.game = "ewn";
    meta.config_text = "game: ewn";
    meta.feature_names = {"a", "b", "c"};
    meta.match = io::MatchMeta{"mcts(...)", "random", 2, true, 0, 50, 0.05, 0.05, -2.94, 2.94};
    io::CampaignWriter writer = io::CampaignWriter::create(file, meta);
    for (uint64_t id = 0; id < 2; ++id) {
      io::GameRow g;
      g.game_id = id;
      g.winner = static_cast<int8_t>(id);
      writer.append_game(g, {}, {}, {});
    }
    writer.append_match_pair(io::MatchPairRow{0, 1.0f, 1.0f, 0.25});
  }
  const std::string dump = io::schema_dump(file);
  const std::string golden = source_path("tests/golden/match_schema.txt");
  if (std::getenv("SELFPLAY_UPDATE_GOLDEN")) std::ofstream(golden) << dump;
  EXPECT_EQ(dump, read_text(golden)) << "regenerate with SELFPLAY_UPDATE_GOLDEN=1 after review";
  io::CampaignReader reader(file);
  EXPECT_EQ(reader.match_pairs(), (std::vector<io::MatchPairRow>{{0, 1.0f, 1.0f, 0.25}}));
  EXPECT_EQ(reader.meta().match->engine_a, "mcts(...)");
}

TEST_F(Match, RefusesToOverwriteAndExtendsByResume) {
  const config::Config<EwnGame> cfg = load(mcts_vs_expectimax(8, false));
  play(cfg, "full.h5");
  const Records full = read_records(path("full.h5"));
  config::Config<EwnGame> half = cfg;
  half.match.pairs = 4;
  half.games = 8;
  half.output.path = path("grown.h5");
  std::atomic<bool> stop{false};
  run_match(half, MatchOptions{}, stop);
  EXPECT_THROW(run_match(half, MatchOptions{}, stop), InputError) << "the output exists";
  MatchOptions resume;
  resume.resume = true;
  config::Config<EwnGame> other = half;
  other.seed = 99;
  EXPECT_THROW(run_match(other, resume, stop), InputError) << "another seed";
  config::Config<EwnGame> grown = cfg;
  grown.output.path = half.output.path;
  const MatchResult r = run_match(grown, resume, stop);
  EXPECT_EQ(r.games_played, 8u);
  EXPECT_EQ(r.games_in_file, 16u);
  EXPECT_EQ(r.counter.penta().pairs(), 8u);
  EXPECT_EQ(read_records(path("grown.h5")), full);
}

uint64_t games_in(const std::string& file) {
  try {
    return io::CampaignReader(file).games_count();
  } catch (const std::exception&) {
    return 0;
  }
}

TEST_F(Match, CliPrintsTheTableAndAKilledMatchResumesToTheSameResult) {
  std::ofstream(dir_ / "m.yaml") << mcts_vs_expectimax(40, false);
  const std::string yaml = (dir_ / "m.yaml").string();
  const std::string reference = path("reference.h5"), report = path("report.txt");
  ASSERT_EQ(Child({SELFPLAY_BINARY, "match", yaml, "--out", reference, "--quiet"}, report).wait(),
            0);
  const std::string text = read_text(report);
  EXPECT_NE(text.find("games 80  W "), std::string::npos) << text;
  EXPECT_NE(text.find("pentanomial  "), std::string::npos) << text;
  EXPECT_NE(text.find("SPRT off"), std::string::npos) << text;
  EXPECT_EQ(Child({SELFPLAY_BINARY, "match", yaml, "--out", reference, "--quiet"}).wait(), 2)
      << "an existing output is never overwritten";

  // Killed with 7 of 80 games in the file (the test hook of io::CampaignWriter::append_game stops
  // it right after the 7th is flushed): an odd number, so at least one pair has only one game.
  const std::string killed = path("killed.h5");
  Child child({SELFPLAY_BINARY, "match", yaml, "--out", killed, "--quiet"}, "/dev/null",
              {"SELFPLAY_TEST_STOP_AFTER_GAMES=7"});
  ASSERT_TRUE(child.wait_stopped()) << "the match ended before its 7th game";
  child.signal(SIGKILL);
  EXPECT_EQ(child.wait(), 128 + SIGKILL);
  ASSERT_EQ(games_in(killed), 7u);
  ASSERT_EQ(Child({SELFPLAY_BINARY, "match", yaml, "--out", killed, "--resume", "--quiet"}).wait(),
            0);
  EXPECT_EQ(read_records(killed), read_records(reference));
}

}  // namespace
}  // namespace sp::selfplay
