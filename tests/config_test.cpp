// Campaign configs: the malformed-file corpus, defaults, explain round trips and the CLI.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/philox.hpp"
#include "games/ewn/game.hpp"
#include "games/ewn/host.hpp"
#include "games/ewn/notation.hpp"
#include "host/engines/search/mcts.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/play/selfplay/memory.hpp"
#include "tests/config_docs.hpp"
#include "tests/test_util.hpp"

namespace {

namespace fs = std::filesystem;
using namespace sp::config;
using sp::EwnGame;

using sp::test::read_text;
using sp::test::source_path;
using sp::test::TempDir;

// The structs have no operator== (the ewn types are plain device structs): compare field by field.
void expect_same(const EngineConfig& a, const EngineConfig& b, const std::string& who) {
  SCOPED_TRACE(who);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.rollouts_per_move, b.rollouts_per_move);
  EXPECT_EQ(a.rollouts_per_leaf, b.rollouts_per_leaf);
  EXPECT_EQ(a.exploration, b.exploration);
  EXPECT_EQ(a.virtual_loss, b.virtual_loss);
  EXPECT_EQ(a.leaves_per_round, b.leaves_per_round);
  EXPECT_EQ(a.chance, b.chance);
  EXPECT_EQ(a.node_budget, b.node_budget);
  EXPECT_EQ(a.reuse_tree, b.reuse_tree);
  EXPECT_EQ(a.weights, b.weights);
  ASSERT_EQ(a.evaluation == nullptr, b.evaluation == nullptr);
  if (a.evaluation) {
    EXPECT_EQ(a.evaluation->w, b.evaluation->w);
  }
  EXPECT_EQ(a.eval_blend, b.eval_blend);
  EXPECT_EQ(a.eval_scale, b.eval_scale);
  EXPECT_EQ(a.progressive_bias, b.progressive_bias);
  EXPECT_EQ(a.depth, b.depth);
  EXPECT_EQ(a.time_ms, b.time_ms);
  EXPECT_EQ(a.tt_size_mb, b.tt_size_mb);
  EXPECT_EQ(a.star1, b.star1);
}

void expect_same(const Config<EwnGame>& a, const Config<EwnGame>& b) {
  EXPECT_EQ(a.game, b.game);
  for (int p = 0; p < 2; ++p) {
    EXPECT_EQ(a.policies[p].kind, b.policies[p].kind);
    EXPECT_EQ(a.policies[p].goal_weight, b.policies[p].goal_weight);
    EXPECT_EQ(a.policies[p].capture_weight, b.policies[p].capture_weight);
  }
  EXPECT_EQ(a.rules.rules.capture_own, b.rules.rules.capture_own);
  EXPECT_EQ(a.rules.rules.substitution, b.rules.rules.substitution);
  EXPECT_EQ(a.rules.setup, b.rules.setup);
  EXPECT_EQ(sp::ewn::to_string(a.rules.setup_p0), sp::ewn::to_string(b.rules.setup_p0));
  EXPECT_EQ(sp::ewn::to_string(a.rules.setup_p1), sp::ewn::to_string(b.rules.setup_p1));
  EXPECT_EQ(a.rules.first_player, b.rules.first_player);
  expect_same(a.engines[0], b.engines[0], "player0");
  expect_same(a.engines[1], b.engines[1], "player1");
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.games, b.games);
  EXPECT_EQ(a.concurrency, b.concurrency);
  EXPECT_EQ(a.paired, b.paired);
  EXPECT_EQ(a.backend.name, b.backend.name);
  EXPECT_EQ(a.backend.threads, b.backend.threads);
  EXPECT_EQ(a.backend.device, b.backend.device);
  EXPECT_EQ(a.backend.batch_rollouts, b.backend.batch_rollouts);
  EXPECT_EQ(a.output.path, b.output.path);
  EXPECT_EQ(a.output.positions_per_game, b.output.positions_per_game);
  EXPECT_EQ(a.output.flush_seconds, b.output.flush_seconds);
}

std::string error_of(const std::string& text, const std::string& name = "t.yaml") {
  try {
    load_campaign_config_text<EwnGame>(text, name);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for:\n" << text;
  return "";
}

struct CliRun {
  int status = -1;
  std::string output;  // stdout and stderr
};

CliRun run_selfplay(const std::string& args) {
  const sp::test::CommandResult r =
      sp::test::run_command(std::string("'") + SELFPLAY_BINARY + "' " + args + " 2>&1");
  return {r.code, r.out};
}

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

// A config that sets every key away from its default.
constexpr const char* kEveryKey = R"(game: ewn
rules:
  capture_own: false
  substitution: nearest
  first_player: alternate
  setup: explicit
  setup_p0: "654321"
  setup_p1: '214365'
campaign: {games: 12, concurrency: 3, seed: 0xFFFFFFFFFFFFFFFF, paired: true}
engines:
  player0:
    type: mcts
    rollouts_per_move: 96
    rollouts_per_leaf: 16
    exploration: 1.25
    virtual_loss: 0
    leaves_per_round: 2
    chance: round_robin
    node_budget_mb: 5000
    reuse_tree: false
    policy: heavy
    goal_weight: 3.5
    capture_weight: 0.00390625
    weights: weights/survival-distance.yaml
    eval_blend: 0.25
    eval_scale: 0.004
    progressive_bias: 1.5
  player1:
    type: expectimax
    weights: "../ewn/./weights/distance-control-safety.yaml"
    depth: 0
    time_ms: 50
    tt_size_mb: 64
    star1: no
backend:
  name: check
  threads: 2
  device: 1
  batch_rollouts: 1024
output:
  path: "runs/a \"quoted\" name\twith tab.h5"
  positions_per_game: 0
  flush_seconds: 0.25
)";

// kEveryKey as if it were a file in configs/ewn/: its relative weights paths resolve there.
const std::string kEveryKeyName = source_path("configs/ewn/every.yaml");

Config<EwnGame> every_key_expected() {
  Config<EwnGame> c;
  c.rules.rules.capture_own = false;
  c.rules.rules.substitution = sp::ewn::Substitution::kNearest;
  c.rules.first_player = sp::ewn::FirstPlayer::kAlternate;
  c.rules.setup = sp::ewn::SetupKind::kExplicit;
  c.rules.setup_p0 = sp::ewn::parse_arrangement("654321");
  c.rules.setup_p1 = sp::ewn::parse_arrangement("214365");
  c.games = 12;
  c.concurrency = 3;
  c.seed = ~uint64_t{0};
  c.paired = true;
  EngineConfig& e0 = c.engines[0];
  e0.type = EngineType::kMcts;
  e0.rollouts_per_move = 96;
  e0.rollouts_per_leaf = 16;
  e0.exploration = 1.25;
  e0.virtual_loss = 0;
  e0.leaves_per_round = 2;
  e0.chance = ChanceMode::kRoundRobin;
  e0.node_budget = 5000;
  e0.reuse_tree = false;
  c.policies[0].kind = sp::ewn::PolicyKind::kHeavy;
  c.policies[0].goal_weight = 896;  // 3.5 * 256
  c.policies[0].capture_weight = 1;
  e0.weights = source_path("configs/ewn/weights/survival-distance.yaml");
  e0.evaluation =
      std::make_shared<const sp::eval::Weights>(sp::eval::load_weights<sp::EwnGame>(e0.weights));
  e0.eval_blend = 0.25;
  e0.eval_scale = 0.004;
  e0.progressive_bias = 1.5;
  EngineConfig& e1 = c.engines[1];
  e1.type = EngineType::kExpectimax;
  e1.weights = source_path("configs/ewn/weights/distance-control-safety.yaml");  // normalised
  e1.evaluation =
      std::make_shared<const sp::eval::Weights>(sp::eval::load_weights<sp::EwnGame>(e1.weights));
  e1.depth = 0;
  e1.time_ms = 50;
  e1.tt_size_mb = 64;
  e1.star1 = false;
  c.backend.name = "check";
  c.backend.threads = 2;
  c.backend.device = 1;
  c.backend.batch_rollouts = 1024;
  c.output.path = "runs/a \"quoted\" name\twith tab.h5";
  c.output.positions_per_game = 0;
  c.output.flush_seconds = 0.25;
  return c;
}

TEST(ConfigCorpus, EveryMalformedFileFailsWithItsExpectedMessage) {
  const fs::path dir = source_path("tests/configs/bad");
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 20u);
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.filename().string());
    const std::string text = read_text(file);
    const std::string prefix = "# expect: ";
    ASSERT_EQ(text.rfind(prefix, 0), 0u) << "first line must be '# expect: <fragment>'";
    const std::string fragment = text.substr(prefix.size(), text.find('\n') - prefix.size());
    // Every expectation names its own file and a position in it.
    ASSERT_EQ(fragment.rfind(file.filename().string() + ":", 0), 0u) << fragment;
    try {
      load_campaign_config<EwnGame>(file.string());
      ADD_FAILURE() << "loaded without error";
    } catch (const ConfigError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(fragment), std::string::npos)
          << "message:  " << message << "\nexpected: " << fragment;
      EXPECT_EQ(message.rfind(file.string() + ":", 0), 0u) << message;
    }
  }
}

TEST(ConfigFile, MissingFileAndDirectoryAreConfigErrors) {
  TempDir tmp;
  const std::string missing = (tmp.path() / "nope.yaml").string();
  try {
    load_campaign_config<EwnGame>(missing);
    ADD_FAILURE() << "loaded a missing file";
  } catch (const sp::InputError& e) {  // ConfigError is an InputError: the CLI exits 2
    EXPECT_EQ(std::string(e.what()), "cannot read " + missing + ": No such file or directory");
  }
  try {
    load_campaign_config<EwnGame>(tmp.path().string());
    ADD_FAILURE() << "loaded a directory";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read " + tmp.path().string() + ": Is a directory");
  }
}

TEST(ConfigShipped, DefaultCampaignLoads) {
  const std::string path = source_path("configs/ewn/campaign.yaml");
  const Config<EwnGame> c = load_campaign_config<EwnGame>(path);
  EXPECT_EQ(c.source_path, path);
  EXPECT_EQ(c.source_text, read_text(path));
  // The README's main job: two equal MCTS engines, sized for about a minute on two cores.
  EXPECT_EQ(c.games, 1000u);
  for (const EngineConfig& e : c.engines) {
    EXPECT_EQ(e.type, EngineType::kMcts);
    EXPECT_EQ(e.rollouts_per_move, 20000u);
  }
}

TEST(ConfigShipped, DefaultCampaignWritesEveryKeyWithAComment) {
  const std::string path = source_path("configs/ewn/campaign.yaml");
  sp::test::expect_documented_config(path, explain_campaign_config(Config<EwnGame>{}));
}

TEST(ConfigDefaults, OmittedKeysTakeTheStructDefaults) {
  const Config<EwnGame> c = load_campaign_config_text<EwnGame>("game: ewn\n", "min.yaml");
  expect_same(c, Config<EwnGame>{});
  EXPECT_EQ(c.source_path, "min.yaml");
  EXPECT_EQ(c.source_text, "game: ewn\n");

  // Empty sections and a few keys: everything else keeps its default.
  const Config<EwnGame> d = load_campaign_config_text<EwnGame>(
      "rules:\nbackend: {}\nengines:\n  player1:\n    exploration: 1.5\n    policy: heavy\n",
      "partial.yaml");
  Config<EwnGame> expected;
  expected.engines[1].exploration = 1.5;
  expected.policies[1].kind = sp::ewn::PolicyKind::kHeavy;
  expect_same(d, expected);
}

TEST(ConfigValues, EveryKeyIsReadIntoItsField) {
  expect_same(load_campaign_config_text<EwnGame>(kEveryKey, kEveryKeyName), every_key_expected());
}

TEST(ConfigExplain, OutputLoadsBackIdentically) {
  for (const Config<EwnGame>& c :
       {Config<EwnGame>{}, load_campaign_config_text<EwnGame>(kEveryKey, kEveryKeyName),
        load_campaign_config<EwnGame>(source_path("configs/ewn/campaign.yaml"))}) {
    const std::string text = explain_campaign_config(c);
    SCOPED_TRACE(text);
    const Config<EwnGame> back = load_campaign_config_text<EwnGame>(text, "explained.yaml");
    expect_same(back, c);
    EXPECT_EQ(explain_campaign_config(back), text);
  }
}

TEST(ConfigExplain, EveryKeyHasItsHelpAsAComment) {
  const std::string text = explain_campaign_config(Config<EwnGame>{});
  EXPECT_NE(text.find("    rollouts_per_leaf: 8"), std::string::npos) << text;
  EXPECT_NE(text.find("# playouts run for each expanded leaf"), std::string::npos) << text;
  EXPECT_NE(text.find("(integer in [1, 65536])"), std::string::npos) << text;
  EXPECT_NE(text.find("goal_weight: 2.0 "), std::string::npos) << text;
  std::istringstream lines(text);
  std::string line;
  int keys = 0;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    ++keys;
    EXPECT_NE(line.find("  # "), std::string::npos) << "no help comment: " << line;
  }
  // game and 5 section headers; rules, campaign; 2 engine headers and the 20 keys of an mcts
  // engine (label, fanout, fanout_backup and book included); backend, output (search_candidates
  // and root_policy included)
  EXPECT_EQ(keys, 6 + 6 + 4 + 2 + 2 * 20 + 5 + 5);
  // With every key (what identities compare): the 4 keys of expectimax engines and the 4 of
  // pbrain engines too.
  const std::string all = explain_campaign_config(Config<EwnGame>{}, true);
  EXPECT_EQ(std::count(all.begin(), all.end(), '\n') - std::count(text.begin(), text.end(), '\n'),
            2 * (4 + 4));
  EXPECT_NE(all.find("    star1: true"), std::string::npos) << all;
  EXPECT_EQ(text.find("star1"), std::string::npos) << text;
}

TEST(ConfigValues, WeightsAreFixedPointRounded) {
  const auto weight = [](const std::string& value) {
    return load_campaign_config_text<EwnGame>("engines: {player0: {goal_weight: " + value + "}}",
                                              "w.yaml")
        .policies[0]
        .goal_weight;
  };
  EXPECT_EQ(weight("1"), 256u);
  EXPECT_EQ(weight("1.5"), 384u);
  EXPECT_EQ(weight("0.00390625"), 1u);
  EXPECT_EQ(weight("0.002"), 1u);  // 0.512 rounds up
  EXPECT_EQ(weight("100"), sp::ewn::kMaxWeight);
  EXPECT_EQ(weight("+2.5e0"), 640u);
  EXPECT_NE(error_of("engines: {player0: {goal_weight: 0.0019}}").find("rounds to 0"),
            std::string::npos);
}

TEST(ConfigValues, IntegersAcceptDecimalAndHexOnly) {
  const auto seed = [](const std::string& value) {
    return load_campaign_config_text<EwnGame>("campaign: {seed: " + value + "}", "s.yaml").seed;
  };
  EXPECT_EQ(seed("0"), 0u);
  EXPECT_EQ(seed("18446744073709551615"), ~uint64_t{0});
  EXPECT_EQ(seed("0x10"), 16u);
  EXPECT_NE(error_of("campaign: {seed: 1e3}").find("expected an integer, found '1e3'"),
            std::string::npos);
  EXPECT_NE(error_of("campaign: {games: 1000000001}").find("must be in [1, 1000000000]"),
            std::string::npos);
  EXPECT_EQ(load_campaign_config_text<EwnGame>("campaign: {games: 1000000000}", "g.yaml").games,
            1000000000u);
}

TEST(ConfigErrors, CrossKeyCheckNamesTheKeyAndWhereItIs) {
  EXPECT_EQ(error_of("engines:\n  player1: {rollouts_per_leaf: 2000}\n", "x.yaml"),
            "x.yaml:2:32: key 'engines.player1.rollouts_per_leaf': must not exceed "
            "rollouts_per_move (1000), found 2000");
  // A random engine runs no playouts: it has no budget keys at all.
  EXPECT_EQ(error_of("engines:\n  player1: {type: random, rollouts_per_move: 1}\n", "r.yaml"),
            "r.yaml:2:46: key 'engines.player1.rollouts_per_move': applies only for type mcts and "
            "flat; remove it");
  // The key may come before `type`: the type decides after the whole section is read.
  EXPECT_EQ(
      error_of("engines:\n  player1: {depth: 3, type: mcts}\n", "d.yaml"),
      "d.yaml:2:20: key 'engines.player1.depth': applies only for type expectimax; remove it");
}

TEST(ConfigErrors, KeyWithoutAMarkIsBlamedOnTheNearestWrittenSection) {
  Document doc("d.yaml");
  doc.record("", Mark{1, 1});
  doc.record("engines", Mark{4, 3});
  try {
    doc.fail_key("engines.player0.rollouts_per_leaf", "too many");
    ADD_FAILURE() << "fail_key returned";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "d.yaml:4:3: key 'engines.player0.rollouts_per_leaf': too many");
  }
  try {
    doc.fail_key("output.path", "bad");
    ADD_FAILURE() << "fail_key returned";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "d.yaml:1:1: key 'output.path': bad");
  }
}

TEST(ConfigErrors, SuggestionsNeedACloseName) {
  EXPECT_EQ(closest_match("rollout_per_leaf", {"rollouts_per_move", "rollouts_per_leaf"}),
            "rollouts_per_leaf");
  EXPECT_EQ(closest_match("explor", {"type", "exploration"}), "exploration");
  EXPECT_EQ(closest_match("tpye", {"type", "chance"}), "type");
  EXPECT_EQ(closest_match("xyz", {"type", "chance"}), "");
  EXPECT_EQ(closest_match("", {"type"}), "");
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("ab", "ba"), 1u);
}

// Truncations and byte changes of a valid config either load or throw ConfigError; any other
// exception or a crash fails.
TEST(ConfigErrors, DamagedInputNeverCrashes) {
  const std::string text = kEveryKey;
  int loaded = 0, rejected = 0;
  const auto attempt = [&](const std::string& damaged) {
    try {
      load_campaign_config_text<EwnGame>(damaged, "damaged.yaml");
      ++loaded;
    } catch (const ConfigError&) {
      ++rejected;
    }
  };
  for (size_t n = 0; n < text.size(); n += 3) attempt(text.substr(0, n));
  sp::WordStream rng({12345, 0, 0, 0, 0});
  const char bytes[] = ":-[]{}#&*!|>'\"%@` \t\n0x9.,?~\xff";
  for (int i = 0; i < 2000; ++i) {
    std::string damaged = text;
    for (int k = 0; k < 3; ++k)
      damaged[rng.below(static_cast<uint32_t>(damaged.size()))] =
          bytes[rng.below(sizeof bytes - 1)];
    attempt(damaged);
  }
  EXPECT_GT(loaded, 0);
  EXPECT_GT(rejected, 0);
}

TEST(ConfigValues, ConcurrencyIsAutoOrOneTo65536) {
  const auto concurrency = [](const std::string& value) {
    return load_campaign_config_text<EwnGame>("campaign: {concurrency: " + value + "}", "c.yaml")
        .concurrency;
  };
  EXPECT_EQ(concurrency("auto"), 0u);
  EXPECT_EQ(concurrency("1"), 1u);
  EXPECT_EQ(concurrency("65536"), 65536u);
  EXPECT_NE(error_of("campaign: {concurrency: 0}").find("must be in [1, 65536], found 0"),
            std::string::npos);
  EXPECT_NE(error_of("campaign: {concurrency: 65537}").find("must be in [1, 65536], found 65537"),
            std::string::npos);
  EXPECT_NE(error_of("campaign: {concurrency: atuo}").find("did you mean 'auto'?"),
            std::string::npos);
  EXPECT_NE(error_of("campaign: {concurrency: many}").find("expected an integer, found 'many'"),
            std::string::npos);
  // auto is written back as auto and reads back; batch_rollouts 0 (the backend's size) is the
  // default.
  const Config<EwnGame> c =
      load_campaign_config_text<EwnGame>("campaign: {concurrency: auto}", "c.yaml");
  const std::string explained = explain_campaign_config(c);
  EXPECT_NE(explained.find("\n  concurrency: auto "), std::string::npos) << explained;
  EXPECT_EQ(load_campaign_config_text<EwnGame>(explained, "e.yaml").concurrency, 0u);
  EXPECT_EQ(c.backend.batch_rollouts, 0u);
  EXPECT_EQ(load_campaign_config_text<EwnGame>("backend: {batch_rollouts: 0}", "b.yaml")
                .backend.batch_rollouts,
            0u);
}

// backend.simd: the cpu playouts' path, a choice checked against the processor when the backend
// options are made.
TEST(Config, BackendSimdKey) {
  const auto load = [](const std::string& text) {
    return load_campaign_config_text<EwnGame>(text, "simd.yaml");
  };
  EXPECT_EQ(load("game: ewn\n").backend.simd, "auto");
  EXPECT_EQ(sp::selfplay::backend_options(load("backend: {simd: auto}")).simd,
            sp::rollout::SimdPath::kAuto);
  EXPECT_EQ(sp::selfplay::backend_options(load("backend: {simd: scalar}")).simd,
            sp::rollout::SimdPath::kScalar);
  try {
    load("backend: {simd: avx521}");
    FAIL() << "avx521 accepted";
  } catch (const sp::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'avx512'?"), std::string::npos) << e.what();
  }
  for (sp::rollout::SimdPath p : {sp::rollout::SimdPath::kAvx2, sp::rollout::SimdPath::kAvx512}) {
    const Config<EwnGame> c =
        load(std::string("backend: {simd: ") + sp::rollout::simd_path_name(p) + "}");
    if (sp::rollout::simd_path_supported(p)) {
      EXPECT_EQ(sp::selfplay::backend_options(c).simd, p);
    } else {
      EXPECT_THROW(sp::selfplay::backend_options(c), sp::InputError)
          << sp::rollout::simd_path_name(p);
    }
  }
}

TEST(ConfigCli, CheckResolvesConcurrencyAuto) {
  TempDir tmp;
  // 2 x 256 / (4 leaves x 8 rollouts) = 16 games, fewer than the 100 of the campaign.
  const fs::path file = tmp.write("auto.yaml",
                                  "campaign: {games: 100, concurrency: auto}\nbackend: {name: cpu, "
                                  "threads: 1, batch_rollouts: 256}\n");
  const CliRun r = run_selfplay("config --check " + quoted(file));
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("concurrency: auto -> 16 games (target 256 rollouts per batch)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("node_budget_mb 16 MiB x 16 games"), std::string::npos) << r.output;
}

// Occurrences of what in text.
size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

TEST(ConfigCli, RunWarnsOnceWhenBatchesCannotReachTheTarget) {
  TempDir tmp;
  const std::string rest =
      "engines: {player0: {rollouts_per_move: 64}, player1: {rollouts_per_move: 64}}\n"
      "output: {flush_seconds: 0.05}\n";
  // 4 games x 32 rollouts per round = 128 < 4096: warned once, not once per batch or game.
  const fs::path small = tmp.write("small.yaml",
                                   "campaign: {games: 6, concurrency: 4}\nbackend: {name: cpu, "
                                   "threads: 1, batch_rollouts: 4096}\n" +
                                       rest);
  const CliRun r =
      run_selfplay("run " + quoted(small) + " --out " + quoted(tmp.path() / "small.h5"));
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(count(r.output, "under half the target"), 1u) << r.output;
  EXPECT_NE(r.output.find("batches reach at most 64 rollouts (4 games in flight"),
            std::string::npos)
      << r.output;
  for (const char* key : {"campaign.concurrency", "engines.*.leaves_per_round",
                          "engines.*.rollouts_per_leaf", "backend.batch_rollouts"})
    EXPECT_NE(r.output.find(key), std::string::npos) << key << "\n" << r.output;

  // 4 x 32 = 128 reaches a target of 128: no warning; auto resolves to 2 x 128 / 32 = 8 games.
  const fs::path fits = tmp.write("fits.yaml",
                                  "campaign: {games: 10, concurrency: auto}\nbackend: {name: cpu, "
                                  "threads: 1, batch_rollouts: 128}\n" +
                                      rest);
  const CliRun ok =
      run_selfplay("run " + quoted(fits) + " --out " + quoted(tmp.path() / "fits.h5"));
  EXPECT_EQ(ok.status, 0) << ok.output;
  EXPECT_EQ(count(ok.output, "under half the target"), 0u) << ok.output;
  EXPECT_EQ(count(ok.output, " warn "), 0u) << ok.output;
  EXPECT_EQ(count(ok.output, "concurrency: auto -> 8 games (target 128 rollouts per batch)"), 1u)
      << ok.output;
  // --quiet (scripted runs) leaves the advice out.
  const CliRun quiet =
      run_selfplay("run --quiet " + quoted(small) + " --out " + quoted(tmp.path() / "quiet.h5"));
  EXPECT_EQ(quiet.status, 0) << quiet.output;
  EXPECT_EQ(count(quiet.output, "under half the target"), 0u) << quiet.output;
}

TEST(ConfigCli, CheckAndExplain) {
  const std::string shipped = source_path("configs/ewn/campaign.yaml");
  const CliRun check = run_selfplay("config --check '" + shipped + "'");
  EXPECT_EQ(check.status, 0) << check.output;
  // ok, then the engines' memory: two MCTS trees of node_budget_mb for each of the games that
  // concurrency auto resolves to on this machine's backend.
  // (after the log lines of resolving concurrency auto, which go to stderr)
  EXPECT_NE(check.output.find("concurrency: auto -> "), std::string::npos) << check.output;
  // The backend auto chose is said once, though the backend is made again at the size of the
  // games auto resolves to (issue 41, item 7: the line came twice).
  EXPECT_EQ(count(check.output, "backend: auto -> "), 1u) << check.output;
  EXPECT_NE(check.output.find("\nok\nmemory: the engines need about "), std::string::npos)
      << check.output;
  EXPECT_NE(check.output.find("engines.player0.node_budget_mb 16 MiB x "), std::string::npos)
      << check.output;
  EXPECT_NE(check.output.find("; this machine has "), std::string::npos) << check.output;

  const CliRun explain = run_selfplay("config --explain '" + shipped + "'");
  ASSERT_EQ(explain.status, 0) << explain.output;
  EXPECT_EQ(explain.output, explain_campaign_config(load_campaign_config<EwnGame>(shipped)));
}

// A research loop or match config given without --improve or --match is recognised and checked
// as one, saying so (issue 41, item 7: it was refused for its first loop key, `seed`); a file that
// reads as neither keeps the campaign's error.
TEST(ConfigCli, LoopAndMatchConfigsAreRecognisedWithoutTheirFlag) {
  for (const char* game : {"ewn", "checkers", "gomoku"}) {
    const std::string loop = source_path(std::string("configs/") + game + "/improve.yaml");
    const CliRun r = run_selfplay("config --check " + quoted(fs::path(loop)));
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("is a research loop (selfplay improve) config (as with --improve)"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("\nok\nmemory: each campaign's engines need"), std::string::npos)
        << r.output;
  }
  const std::string match = source_path("configs/checkers/match-mcts-vs-alphabeta.yaml");
  const CliRun m = run_selfplay("config --check " + quoted(fs::path(match)));
  EXPECT_EQ(m.status, 0) << m.output;
  EXPECT_NE(m.output.find("is a match (selfplay match) config (as with --match)"),
            std::string::npos)
      << m.output;
}

TEST(ConfigCli, BadOrMissingFileExitsTwo) {
  TempDir tmp;
  const fs::path bad = tmp.write("bad.yaml", "campaign:\n  games: lots\n");
  for (const char* mode : {"--check", "--explain"}) {
    const CliRun r = run_selfplay(std::string("config ") + mode + " " + quoted(bad));
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_EQ(r.output, "error: " + bad.string() +
                            ":2:10: key 'campaign.games': expected an integer, found 'lots'\n");
  }
  const CliRun missing = run_selfplay("config --check " + quoted(tmp.path() / "missing.yaml"));
  EXPECT_EQ(missing.status, 2) << missing.output;
  EXPECT_NE(missing.output.find("error: cannot read "), std::string::npos) << missing.output;

  const CliRun neither = run_selfplay("config");
  EXPECT_EQ(neither.status, 2) << neither.output;
}

// ---- memory: expectimax tables and MCTS trees against the machine

// Expectimax on both sides with the largest tables: 64 GiB x 2 x 64 games = 8 TiB, more than any
// machine this runs on. campaign_keys: the campaign section's other keys.
std::string huge_tables(const std::string& campaign_keys) {
  const std::string engine =
      "{type: expectimax, weights: " + source_path("configs/ewn/weights/survival-distance.yaml") +
      ", tt_size_mb: 65536}";
  return "engines:\n  player0: " + engine + "\n  player1: " + engine +
         "\ncampaign: {concurrency: 64" + campaign_keys + "}\nbackend: {name: cpu, threads: 1}\n";
}

TEST(Memory, EstimateCountsEveryTreeAndTableOfTheGamesAtOnce) {
  Config<EwnGame> c = load_campaign_config_text<EwnGame>(
      "engines:\n  player0: {node_budget_mb: 3}\n  player1: {type: random}\n"
      "campaign: {games: 2, concurrency: 3}\n",
      "m.yaml");
  const uint64_t tree = uint64_t{3} << 20;
  sp::selfplay::MemoryEstimate m = sp::selfplay::estimate_memory(c);
  EXPECT_EQ(m.games_at_once, 2u);  // only two games exist
  EXPECT_EQ(m.bytes, 2 * tree);
  ASSERT_EQ(m.parts.size(), 1u);  // a random engine holds nothing
  EXPECT_EQ(m.parts[0].rfind("engines.player0.node_budget_mb 3 MiB x 2 games at once = ", 0), 0u)
      << m.parts[0];
  c.games = 10;
  c.engines[1].type = EngineType::kExpectimax;
  c.engines[1].tt_size_mb = 5;
  m = sp::selfplay::estimate_memory(c);
  EXPECT_EQ(m.bytes, 3 * (tree + (uint64_t{5} << 20)));
  // The check: above the machine's memory is an input error naming the keys; 0 = unknown.
  EXPECT_NO_THROW(sp::selfplay::check_memory(c, m.bytes));
  EXPECT_NO_THROW(sp::selfplay::check_memory(c, 0));
  try {
    sp::selfplay::check_memory(c, m.bytes - 1);
    ADD_FAILURE() << "no error";
  } catch (const sp::InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("m.yaml: the engines would need about ", 0), 0u) << what;
    for (const char* key : {"engines.player0.node_budget_mb", "engines.player1.tt_size_mb 5 MiB",
                            "campaign.concurrency", "memory of this machine"})
      EXPECT_NE(what.find(key), std::string::npos) << key << " missing in " << what;
  }
  // Products beyond 64 bits saturate instead of wrapping to a small number.
  c.concurrency = 65536;
  c.games = 1000000;
  c.engines[0].node_budget = 65536;
  c.engines[1].tt_size_mb = 65536;
  EXPECT_GT(sp::selfplay::estimate_memory(c).bytes, uint64_t{1} << 50);
}

// The backend's batch buffers: the cuda backend's two slots (leaves, offsets, statistics) on the
// device and pinned on the host, as host/engines/cuda/cuda_backend.cu allocates them; a device that
// cannot hold them refuses the config, naming the keys that size the batches.
TEST(Memory, BackendBuffersCountOnTheHostAndOnTheDevice) {
  Config<EwnGame> c = load_campaign_config_text<EwnGame>(
      "engines:\n  player0: {node_budget_mb: 3}\n  player1: {node_budget_mb: 3}\n"
      "campaign: {games: 100, concurrency: 1024}\nbackend: {name: cuda}\n",
      "gpu.yaml");
  const sp::rollout::BackendOptions o = sp::selfplay::backend_options(c);
  const sp::rollout::BackendMemory cuda = sp::rollout::backend_memory<EwnGame>("cuda", o, false);
  const uint64_t slot =
      o.max_leaves * (sizeof(sp::rollout::Leaf<EwnGame>) + sizeof(sp::rollout::LeafStats)) +
      (o.max_leaves + 1) * sizeof(uint32_t);
  EXPECT_EQ(cuda.device, 2 * slot);
  EXPECT_EQ(cuda.host, 2 * slot + 2 * o.max_leaves * sizeof(uint32_t));
  EXPECT_TRUE(cuda.on_device);
  const sp::rollout::BackendMemory cpu = sp::rollout::backend_memory<EwnGame>("cpu", o, true);
  EXPECT_EQ(cpu.device, 0u);
  EXPECT_FALSE(cpu.on_device);
  EXPECT_GT(cpu.host, 0u);
  // auto and check follow the device: cuda's buffers with one, the cpu's without.
  EXPECT_EQ(sp::rollout::backend_memory<EwnGame>("auto", o, true).device, cuda.device);
  EXPECT_EQ(sp::rollout::backend_memory<EwnGame>("auto", o, false).device, 0u);
  EXPECT_EQ(sp::rollout::backend_memory<EwnGame>("check", o, true).host, cuda.host + cpu.host);

  sp::selfplay::MemoryEstimate m = sp::selfplay::estimate_memory(c);
  const uint64_t engines = m.bytes;
  sp::selfplay::add_backend_memory(m, c, cuda);
  EXPECT_EQ(m.bytes, engines + cuda.host);
  EXPECT_EQ(m.device_bytes, cuda.device);
  EXPECT_NE(m.summary().find("backend cuda batch buffers"), std::string::npos) << m.summary();
  EXPECT_NO_THROW(sp::selfplay::check_memory(c, m, m.bytes, m.device_bytes));
  EXPECT_NO_THROW(sp::selfplay::check_memory(c, m, 0, 0));  // unknown: nothing checked
  try {
    sp::selfplay::check_memory(c, m, m.bytes, m.device_bytes - 1);
    ADD_FAILURE() << "no error";
  } catch (const sp::InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("gpu.yaml: the GPU would need ", 0), 0u) << what;
    for (const char* key : {"campaign.concurrency", "leaves_per_round", "backend.batch_rollouts",
                            "free on CUDA device 0", "2 slots of batch buffers"})
      EXPECT_NE(what.find(key), std::string::npos) << key << " missing in " << what;
  }
  // The host's share is checked with the engines'.
  EXPECT_THROW(sp::selfplay::check_memory(c, m, engines + cuda.host - 1, 0), sp::InputError);
}

// config --check says what the device needs, here (no GPU) what the config would need on cuda.
TEST(ConfigCli, CheckShowsTheDeviceMemory) {
  const CliRun check =
      run_selfplay("config --check '" + source_path("configs/ewn/campaign.yaml") + "'");
  ASSERT_EQ(check.status, 0) << check.output;
  EXPECT_NE(check.output.find("\ndevice memory: "), std::string::npos) << check.output;
  EXPECT_NE(check.output.find("2 slots of batch buffers"), std::string::npos) << check.output;
  std::string reason;
  if (!sp::rollout::cuda_available(&reason)) {
    EXPECT_NE(check.output.find("no CUDA device here to check it against"), std::string::npos)
        << check.output;
  } else {
    EXPECT_NE(check.output.find(" free of "), std::string::npos) << check.output;
  }
}

TEST(Memory, CheckRunAndMatchRefuseTablesLargerThanTheMachine) {
  TempDir tmp;
  const fs::path config = tmp.write("huge.yaml", huge_tables(", games: 100"));
  const CliRun check = run_selfplay("config --check " + quoted(config));
  EXPECT_EQ(check.status, 2) << check.output;
  for (const char* needle :
       {"the engines would need about 8.0 TiB", "engines.player0.tt_size_mb 65536 MiB x 64 games",
        "engines.player1.tt_size_mb", "campaign.concurrency"})
    EXPECT_NE(check.output.find(needle), std::string::npos) << needle << "\n" << check.output;
  EXPECT_NE(check.output.rfind("ok\n", 0), 0u) << check.output;

  // run refuses before creating its output (or the folder it would go in).
  const fs::path out = tmp.path() / "sub" / "games.h5";
  const CliRun run = run_selfplay("run " + quoted(config) + " --out " + quoted(out) + " --quiet");
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("engines.player0.tt_size_mb 65536 MiB"), std::string::npos)
      << run.output;
  EXPECT_FALSE(fs::exists(tmp.path() / "sub"));

  // A match config: the same engines, paired.
  const fs::path match_config =
      tmp.write("huge-match.yaml", huge_tables("") + "match: {pairs: 50}\n");
  const CliRun match_check = run_selfplay("config --match --check " + quoted(match_config));
  EXPECT_EQ(match_check.status, 2) << match_check.output;
  const CliRun match =
      run_selfplay("match " + quoted(match_config) + " --out " + quoted(out) + " --quiet");
  EXPECT_EQ(match.status, 2) << match.output;
  EXPECT_NE(match.output.find("engines.player1.tt_size_mb 65536 MiB"), std::string::npos)
      << match.output;
  EXPECT_FALSE(fs::exists(tmp.path() / "sub"));
}

// ---- quoting user input in errors

TEST(Excerpt, EscapesControlBytesKeepsUtf8AndCuts) {
  using sp::excerpt;
  EXPECT_EQ(excerpt("plain text"), "plain text");
  EXPECT_EQ(excerpt("a\x1b[2Jb\tc\x7f"), "a\\x1b[2Jb\\x09c\\x7f");
  EXPECT_EQ(excerpt("w\xc3\xbcrfelt"), "w\xc3\xbcrfelt");  // valid UTF-8 stays
  EXPECT_EQ(excerpt("\xc2\x9b"
                    "31m"),
            "\\xc2\\x9b31m");                                    // C1 control (CSI) is escaped
  EXPECT_EQ(excerpt("bad \xff\xc3 end"), "bad \\xff\\xc3 end");  // not UTF-8
  EXPECT_EQ(excerpt(std::string("nul\0x", 5)), "nul\\x00x");
  const std::string big(100 * 1024, 'A');
  EXPECT_EQ(excerpt(big), std::string(sp::kExcerptBytes, 'A') + "...");
  EXPECT_EQ(excerpt(big, 3), "AAA...");
  EXPECT_EQ(excerpt("abc", 3), "abc");
  // A cut never splits an escape or a character.
  EXPECT_EQ(excerpt("ab\x01"
                    "cd",
                    3),
            "ab\\x01...");
  EXPECT_EQ(excerpt("ab\xc3\xbc"
                    "cd",
                    3),
            "ab\xc3\xbc...");
}

TEST(ConfigErrors, ValuesAreQuotedEscapedAndShort) {
  const std::string value = "\x1b]0;pwned\x07" + std::string(100 * 1024, 'x');
  const std::string e = error_of("campaign: {games: \"" + value + "\"}\n");
  EXPECT_EQ(e.find('\x1b'), std::string::npos) << e;
  EXPECT_EQ(e.find('\x07'), std::string::npos) << e;
  EXPECT_NE(e.find("found '\\x1b]0;pwned\\x07xxx"), std::string::npos) << e;
  EXPECT_LT(e.size(), 300u) << e;
  // A notation string inside a value: the arrangement parser quotes it the same way.
  const std::string n = error_of("rules: {setup: explicit, setup_p0: \"12\\e3456\"}\n");
  EXPECT_EQ(n.find('\x1b'), std::string::npos) << n;
  EXPECT_NE(n.find("\\x1b"), std::string::npos) << n;
}

TEST(ConfigErrors, AWeightsPathToAnotherFileSaysSoWithoutQuotingIt) {
  TempDir tmp;
  static constexpr char kPng[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDRSECRET";
  const std::string secret = "SECRET first line \x1b[31m";
  const std::vector<std::pair<std::string, std::string>> files = {
      {"text.txt", secret + "\nmore text\n"},
      {"map.yaml", "SECRET: 1\nother: [1, 2]\n"},
      {"broken.txt", "SECRET: [unclosed\n  - x\n"},
      {"binary.bin", std::string(kPng, sizeof kPng - 1)},
  };
  for (const auto& [name, text] : files) {
    SCOPED_TRACE(name);
    const fs::path file = tmp.write(name, text);
    const std::string e =
        error_of("engines:\n  player0: {type: expectimax, weights: " + file.string() + "}\n");
    EXPECT_NE(e.find("key 'engines.player0.weights': " + file.string() + ": not a weights file"),
              std::string::npos)
        << e;
    EXPECT_EQ(e.find("SECRET"), std::string::npos) << e;
  }
  // A file that is meant to be weights still gets the exact error.
  const fs::path near = tmp.write("near.yaml", "name: x\nweights: {own_cubez: 1}\n");
  EXPECT_NE(error_of("engines:\n  player0: {type: expectimax, weights: " + near.string() + "}\n")
                .find("did you mean 'own_cubes'?"),
            std::string::npos);
}

TEST(ConfigValues, FlushSecondsHasASaneMinimum) {
  EXPECT_EQ(load_campaign_config_text<EwnGame>("output: {flush_seconds: 0.05}\n", "t.yaml")
                .output.flush_seconds,
            0.05);
  for (const char* tiny : {"1e-300", "0.049", "0"})
    EXPECT_EQ(error_of(std::string("output: {flush_seconds: ") + tiny + "}\n"),
              std::string("t.yaml:1:25: key 'output.flush_seconds': must be in [0.05, 3600], "
                          "found ") +
                  tiny);
}

}  // namespace
