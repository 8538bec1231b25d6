// SPSA: the gains and update rule against a hand computation, Delta from a seeded stream, bounds
// that hold whatever the results, a run that repeats exactly for a seed, parameters resolved by
// engine key name through the config schema (on EWN and on the tests-only tic-tac-toe, which has
// no playout keys), and `selfplay tune` with method spsa writing its HDF5 trajectory and YAML
// result.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "games/ewn/host.hpp"
#include "host/base/hdf5/h5.hpp"
#include "host/play/config/load.hpp"
#include "host/research/tune/spsa.hpp"
#include "host/research/tune/spsa_game.hpp"
#include "host/research/tune/tune_config.hpp"
#include "tests/games/tictactoe/host.hpp"
#include "tests/test_util.hpp"

namespace sp::tune {
namespace {

namespace fs = std::filesystem;

using test::TempDir;

SpsaParamConfig param(const std::string& name, double start, double lo, double hi, double c_end,
                      double r_end) {
  SpsaParamConfig c;
  c.name = name;
  c.start = start;
  c.min = lo;
  c.max = hi;
  c.c_end = c_end;
  c.r_end = r_end;
  return c;
}

TEST(Spsa, UpdateMatchesAHandComputation) {
  const std::vector<SpsaParamConfig> params = {param("exploration", 0.7, 0.05, 3, 0.2, 0.002),
                                               param("goal_weight", 2.0, 0.5, 8, 0.5, 0.004)};
  const uint32_t n = 10;
  const double big_a = 1, alpha = 0.602, gamma = 0.101;
  std::vector<SpsaGains> gains;
  for (const auto& p : params) gains.push_back(spsa_gains(p, n, big_a, alpha, gamma));
  // fishtest: c = c_end N^gamma, a = r_end c_end^2 (A + N)^alpha.
  EXPECT_NEAR(gains[0].c, 0.2 * std::pow(10.0, 0.101), 1e-12);
  EXPECT_NEAR(gains[0].a, 0.002 * 0.04 * std::pow(11.0, 0.602), 1e-15);
  // Iteration 3 with W = 5, L = 2, Delta = (+1, -1):
  // theta_i += a_k / c_k^2 * c_k * 3 * Delta_i, a_k = a / (A + 3)^alpha, c_k = c / 3^gamma.
  const std::vector<double> got =
      spsa_update({0.7, 2.0}, {+1, -1}, params, gains, 3, big_a, alpha, gamma, 5, 2);
  const double c0 = 0.2 * std::pow(10.0, 0.101) / std::pow(3.0, 0.101);
  const double a0 = 0.002 * 0.04 * std::pow(11.0, 0.602) / std::pow(4.0, 0.602);
  const double c1 = 0.5 * std::pow(10.0, 0.101) / std::pow(3.0, 0.101);
  const double a1 = 0.004 * 0.25 * std::pow(11.0, 0.602) / std::pow(4.0, 0.602);
  EXPECT_NEAR(got[0], 0.7 + a0 / c0 * 3, 1e-12);
  EXPECT_NEAR(got[1], 2.0 - a1 / c1 * 3, 1e-12);
  // At the last iteration c_k = c_end and R_k = r_end (with A = 0 the gains are exact).
  const SpsaGains g = spsa_gains(params[0], n, 0, alpha, gamma);
  EXPECT_NEAR(spsa_c_k(g, n, gamma), 0.2, 1e-12);
  const std::vector<double> last =
      spsa_update({0.7, 2.0}, {-1, +1}, params, {g, g}, n, 0, alpha, gamma, 1, 0);
  EXPECT_NEAR(last[0], 0.7 - 0.002 * 0.2, 1e-12);
  // No result, no move; a huge one is clipped into the bounds.
  EXPECT_EQ(spsa_update({0.7, 2.0}, {1, 1}, params, gains, 3, big_a, alpha, gamma, 4, 4),
            (std::vector<double>{0.7, 2.0}));
  EXPECT_EQ(spsa_update({0.7, 2.0}, {1, -1}, params, gains, 3, big_a, alpha, gamma, 100000, 0),
            (std::vector<double>{3.0, 0.5}));
  const std::vector<double> plus = spsa_perturb({2.95, 2.0}, {1, -1}, params, gains, 3, gamma, 1);
  EXPECT_EQ(plus[0], 3.0);
  EXPECT_NEAR(plus[1], 2.0 - c1, 1e-12);
}

TEST(Spsa, DeltaIsASeededStreamOfSigns) {
  EXPECT_EQ(spsa_delta(7, 3, 9), spsa_delta(7, 3, 9));
  int differ_k = 0, differ_seed = 0, plus = 0, minus = 0;
  for (uint32_t k = 1; k <= 50; ++k) {
    const auto d = spsa_delta(7, k, 5);
    for (int x : d) {
      ASSERT_TRUE(x == 1 || x == -1);
      (x > 0 ? plus : minus)++;
    }
    differ_k += d != spsa_delta(7, k + 1, 5);
    differ_seed += d != spsa_delta(8, k, 5);
  }
  EXPECT_GT(differ_k, 30);
  EXPECT_GT(differ_seed, 30);
  EXPECT_GT(plus, 80);
  EXPECT_GT(minus, 80);
}

void write_match_config(const std::string& path) {
  std::ofstream(path) << R"(
game: ewn
rules: {first_player: alternate, setup: random}
campaign: {concurrency: 4, seed: 3}
engines:
  player0: {type: mcts, rollouts_per_move: 24, rollouts_per_leaf: 8, policy: heavy}
  player1: {type: mcts, rollouts_per_move: 24, rollouts_per_leaf: 8, policy: heavy}
backend: {name: cpu, threads: 1}
output: {path: unused.h5}
match: {pairs: 1, sprt: {enabled: false}}
)";
}

SpsaSettings tiny(const TempDir& dir, bool mirror) {
  SpsaSettings s;
  s.match = dir.file("match.yaml");
  s.iterations = 4;
  s.pairs = 1;
  s.mirror = mirror;
  s.output = dir.file("spsa.h5");
  s.result = dir.file("spsa_result.yaml");
  // r_end so large that every decided iteration hits a bound.
  s.parameters = {param("exploration", 0.7, 0.3, 1.2, 0.1, 50),
                  param("goal_weight", 2.0, 1.0, 4.0, 0.5, 50),
                  param("capture_weight", 2.0, 1.0, 4.0, 0.5, 0.002)};
  return s;
}

TuneConfig tune_config(const SpsaSettings& s, uint64_t seed) {
  TuneConfig c;
  c.method = Method::kSpsa;
  c.seed = seed;
  c.spsa = s;
  c.source_path = "t.yaml";
  return c;
}

TEST(Spsa, RunRepeatsForASeedAndStaysInBounds) {
  TempDir dir;
  write_match_config(dir.file("match.yaml"));
  const std::atomic<bool> stop{false};
  for (bool mirror : {true, false}) {
    const SpsaSettings s = tiny(dir, mirror);
    std::FILE* null = std::fopen("/dev/null", "w");
    const SpsaResult a = run_spsa(tune_config(s, 11), null, stop);
    const SpsaResult b = run_spsa(tune_config(s, 11), null, stop);
    std::fclose(null);
    ASSERT_EQ(a.rows.size(), 4u);
    ASSERT_EQ(b.rows.size(), 4u);
    bool moved = false;
    for (size_t k = 0; k < a.rows.size(); ++k) {
      EXPECT_EQ(a.rows[k].theta, b.rows[k].theta);
      EXPECT_EQ(a.rows[k].wins, b.rows[k].wins);
      EXPECT_EQ(a.rows[k].losses, b.rows[k].losses);
      EXPECT_LE(a.rows[k].wins + a.rows[k].losses, mirror ? 2 : 4);
      for (size_t i = 0; i < s.parameters.size(); ++i) {
        EXPECT_GE(a.rows[k].theta[i], s.parameters[i].min);
        EXPECT_LE(a.rows[k].theta[i], s.parameters[i].max);
      }
      moved |= a.rows[k].wins != a.rows[k].losses;
    }
    if (moved) {
      EXPECT_NE(a.theta[0], 0.7);
    }
    EXPECT_TRUE(fs::exists(s.output));
    EXPECT_FALSE(fs::exists(s.output + ".partial"));
  }
}

using Outcome = ::sp::test::CommandResult;

Outcome selfplay(const std::string& args) {
  const std::string cmd = std::string("'") + SELFPLAY_BINARY + "' " + args + " 2>&1";
  return ::sp::test::run_command(cmd);
}

TEST(SpsaCli, TuneWritesTrajectoryAndResult) {
  TempDir dir;
  write_match_config(dir.file("match.yaml"));
  std::ofstream(dir.file("tune.yaml"))
      << "method: spsa\nseed: 4\nspsa:\n  match: " + dir.file("match.yaml") +
             "\n  iterations: 2\n  pairs: 1\n  output: " + dir.file("out/spsa.h5") +
             "\n  result: " + dir.file("out/spsa_result.yaml") + R"(
  parameters:
    - {name: exploration, start: 0.7, min: 0.1, max: 2, c_end: 0.1, r_end: 0.002}
    - {name: goal_weight, start: 2, min: 0.5, max: 8, c_end: 0.5, r_end: 0.002}
)";
  const Outcome r = selfplay("tune " + dir.file("tune.yaml"));
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("iter     2/2"), std::string::npos) << r.out;
  std::ifstream yaml(dir.file("out/spsa_result.yaml"));
  std::stringstream text;
  text << yaml.rdbuf();
  EXPECT_NE(text.str().find("\nexploration: "), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("\ngoal_weight: "), std::string::npos) << text.str();

  io::File f = io::open_file(dir.file("out/spsa.h5"), io::OpenMode::kRead);
  io::Dataset table = io::open_dataset(f.get(), "spsa");
  EXPECT_EQ(io::rows(table.get()), 2u);
  EXPECT_EQ(io::read_string_list_attribute(table.get(), "parameters"),
            (std::vector<std::string>{"exploration", "goal_weight"}));

  // Unknown parameter names fail with a hint at the key, before any game.
  std::ofstream(dir.file("bad.yaml")) << "method: spsa\nspsa:\n  match: " + dir.file("match.yaml") +
                                             "\n  output: " + dir.file("bad.h5") +
                                             "\n  parameters:\n"
                                             "    - {name: exploraton, start: 1, min: 0, max: 2}\n";
  const Outcome bad = selfplay("tune " + dir.file("bad.yaml"));
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("bad.yaml:6:14: key 'spsa.parameters.name': unknown engine key "
                         "\"exploraton\"; the keys SPSA can tune in engine A (engines.player0 of " +
                         dir.file("match.yaml") +
                         ", type mcts): exploration, goal_weight, capture_weight, eval_blend, "
                         "eval_scale, progressive_bias; did you mean 'exploration'?"),
            std::string::npos)
      << bad.out;
  EXPECT_FALSE(fs::exists(dir.file("bad.h5")));
}

// ---- parameters by engine key

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// A tune config with one parameter, read from YAML so that the marks are real.
TuneConfig one_param(const std::string& item) {
  return load_tune_config_text(
      "method: spsa\nspsa:\n  match: m.yaml\n  parameters:\n    - " + item + "\n", "t.yaml");
}

TEST(SpsaKeys, EwnTunesTheNeutralKeysAndItsPlayoutWeights) {
  const auto match = [](const std::string& engine) {
    return config::load_match_config_text<EwnGame>(
        "engines:\n  player0: " + engine + "\n  player1: {type: random}\n", "m.yaml");
  };
  const SpsaKeys<EwnGame> keys;
  const auto mcts = match("{type: mcts}");
  EXPECT_EQ(keys.tunable(mcts),
            (std::vector<std::string>{"exploration", "goal_weight", "capture_weight", "eval_blend",
                                      "eval_scale", "progressive_bias"}));
  EXPECT_EQ(keys.tunable(match("{type: flat}")),
            (std::vector<std::string>{"goal_weight", "capture_weight"}));
  EXPECT_EQ(keys.tunable(match("{type: random}")), std::vector<std::string>{});

  // Values are set as a config file would set them: goal_weight in steps of 1/256 (2.3 -> 589/256),
  // exploration exactly.
  config::Config<EwnGame> c = mcts;
  config::Document doc("m.yaml");
  keys.set(c, 0, "goal_weight", 2.3, {}, doc, "engines.player0.goal_weight");
  keys.set(c, 0, "exploration", 0.123456789, {}, doc, "engines.player0.exploration");
  keys.set(c, 1, "capture_weight", 0.5, {}, doc, "engines.player1.capture_weight");
  EXPECT_EQ(c.policies[0].goal_weight, 589u);
  EXPECT_EQ(c.engines[0].exploration, 0.123456789);
  EXPECT_EQ(c.policies[1].capture_weight, 128u);
  EXPECT_EQ(c.policies[0].capture_weight, mcts.policies[0].capture_weight);

  // A key of another engine type, one that is not a number, a min outside the key's range.
  const SpsaKeys<EwnGame>& k = keys;
  EXPECT_EQ(error_of([&] {
              k.check(one_param("{name: eval_blend, start: 0.1, min: 0, max: 1}"),
                      match("{type: flat}"));
            }),
            "t.yaml:5:14: key 'spsa.parameters.name': \"eval_blend\" applies only for type mcts; "
            "the keys SPSA can tune in engine A (engines.player0 of m.yaml, type flat): "
            "goal_weight, capture_weight");
  EXPECT_EQ(error_of([&] {
              k.check(one_param("{name: rollouts_per_leaf, start: 8, min: 1, max: 16}"), mcts);
            }),
            "t.yaml:5:14: key 'spsa.parameters.name': \"rollouts_per_leaf\" is not a real-valued "
            "key (integer in [1, 65536]); the keys SPSA can tune in engine A (engines.player0 of "
            "m.yaml, type mcts): exploration, goal_weight, capture_weight, eval_blend, eval_scale, "
            "progressive_bias");
  EXPECT_EQ(
      error_of([&] { k.check(one_param("{name: exploration, start: 1, min: -1, max: 2}"), mcts); }),
      "t.yaml:5:42: key 'spsa.parameters.min': must be in [0, 100], found -1.0 (the range "
      "of exploration)");
  EXPECT_EQ(error_of([&] {
              k.check(one_param("{name: goal_weight, start: 1, min: 0.001, max: 2}"), mcts);
            }),
            "t.yaml:5:42: key 'spsa.parameters.min': too small: 0.001 rounds to 0 in steps of "
            "1/256; the smallest value is 0.00390625 (the range of goal_weight)");
  EXPECT_EQ(error_of([&] {
              k.check(one_param("{name: exploration, start: 0.7, min: 0.1, max: 2}"), mcts);
            }),
            "(no error)");
}

// Tic-tac-toe has no playout keys: only the neutral search keys can be tuned, and an SPSA run
// works through the same generic code.
const char* const kTttMatch = R"(game: tictactoe
rules: {first_player: alternate, opening_moves: 2}
campaign: {concurrency: 4, seed: 2}
engines:
  player0: {type: mcts, rollouts_per_move: 16, rollouts_per_leaf: 4}
  player1: {type: mcts, rollouts_per_move: 16, rollouts_per_leaf: 4}
backend: {name: cpu, threads: 1}
match: {pairs: 2, sprt: {enabled: false}}
)";

TEST(SpsaKeys, TicTacToeTunesOnlyTheNeutralKeys) {
  const SpsaKeys<TicTacToe> keys;
  const auto match = config::load_match_config_text<TicTacToe>(kTttMatch, "m.yaml");
  EXPECT_EQ(keys.tunable(match), (std::vector<std::string>{"exploration", "eval_blend",
                                                           "eval_scale", "progressive_bias"}));
  EXPECT_EQ(error_of([&] {
              keys.check(one_param("{name: goal_weight, start: 2, min: 1, max: 4}"), match);
            }),
            "t.yaml:5:14: key 'spsa.parameters.name': unknown engine key \"goal_weight\"; the "
            "keys SPSA can tune in engine A (engines.player0 of m.yaml, type mcts): exploration, "
            "eval_blend, eval_scale, progressive_bias");
  const auto flat = config::load_match_config_text<TicTacToe>(
      "game: tictactoe\nengines: {player0: {type: flat}}\n", "f.yaml");
  EXPECT_EQ(error_of([&] {
              keys.check(one_param("{name: exploration, start: 1, min: 0, max: 2}"), flat);
            }),
            "t.yaml:5:14: key 'spsa.parameters.name': \"exploration\" applies only for type mcts; "
            "the keys SPSA can tune in engine A (engines.player0 of f.yaml, type flat): none");
}

TEST(SpsaKeys, TicTacToeRunRepeatsForASeed) {
  TempDir dir;
  const auto match = config::load_match_config_text<TicTacToe>(kTttMatch, "m.yaml");
  SpsaSettings s;
  s.match = "m.yaml";
  s.iterations = 3;
  s.pairs = 2;
  s.output = dir.file("ttt.h5");
  s.result = dir.file("ttt.yaml");
  s.parameters = {param("exploration", 0.7, 0.2, 1.5, 0.2, 50)};
  const std::atomic<bool> stop{false};
  std::FILE* null = std::fopen("/dev/null", "w");
  const SpsaResult a = run_spsa<TicTacToe>(tune_config(s, 5), match, null, stop);
  const SpsaResult b = run_spsa<TicTacToe>(tune_config(s, 5), match, null, stop);
  std::fclose(null);
  ASSERT_EQ(a.rows.size(), 3u);
  for (size_t k = 0; k < a.rows.size(); ++k) {
    EXPECT_EQ(a.rows[k].theta, b.rows[k].theta);
    EXPECT_EQ(a.rows[k].wins, b.rows[k].wins);
    EXPECT_LE(a.rows[k].wins + a.rows[k].losses, 4);
    EXPECT_GE(a.rows[k].theta[0], 0.2);
    EXPECT_LE(a.rows[k].theta[0], 1.5);
  }
  io::File f = io::open_file(s.output, io::OpenMode::kRead);
  io::Dataset table = io::open_dataset(f.get(), "spsa");
  EXPECT_EQ(io::rows(table.get()), 3u);
  EXPECT_EQ(io::read_string_list_attribute(table.get(), "parameters"),
            std::vector<std::string>{"exploration"});
}

}  // namespace
}  // namespace sp::tune
