// SPSA: the gains and update rule against a hand computation, Delta from a seeded stream, bounds
// that hold whatever the results, a run that repeats exactly for a seed, and `selfplay tune` with
// method spsa writing its HDF5 trajectory and YAML result.
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

#include "host/io/h5.hpp"
#include "host/tune/spsa.hpp"
#include "host/tune/tune_config.hpp"
#include "tests/test_util.hpp"

namespace sp::tune {
namespace {

namespace fs = std::filesystem;

using test::TempDir;

SpsaParamConfig param(SpsaParam p, double start, double lo, double hi, double c_end, double r_end) {
  SpsaParamConfig c;
  c.param = p;
  c.start = start;
  c.min = lo;
  c.max = hi;
  c.c_end = c_end;
  c.r_end = r_end;
  return c;
}

TEST(Spsa, UpdateMatchesAHandComputation) {
  const std::vector<SpsaParamConfig> params = {
      param(SpsaParam::kExploration, 0.7, 0.05, 3, 0.2, 0.002),
      param(SpsaParam::kGoalWeight, 2.0, 0.5, 8, 0.5, 0.004)};
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
  s.parameters = {param(SpsaParam::kExploration, 0.7, 0.3, 1.2, 0.1, 50),
                  param(SpsaParam::kGoalWeight, 2.0, 1.0, 4.0, 0.5, 50),
                  param(SpsaParam::kCaptureWeight, 2.0, 1.0, 4.0, 0.5, 0.002)};
  return s;
}

TEST(Spsa, RunRepeatsForASeedAndStaysInBounds) {
  TempDir dir;
  write_match_config(dir.file("match.yaml"));
  const std::atomic<bool> stop{false};
  for (bool mirror : {true, false}) {
    const SpsaSettings s = tiny(dir, mirror);
    std::FILE* null = std::fopen("/dev/null", "w");
    const SpsaResult a = run_spsa(s, 11, "t.yaml", null, stop);
    const SpsaResult b = run_spsa(s, 11, "t.yaml", null, stop);
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

  // Unknown parameter names fail with a hint at the key.
  std::ofstream(dir.file("bad.yaml")) << "method: spsa\nspsa:\n  parameters:\n"
                                         "    - {name: exploraton, start: 1, min: 0, max: 2}\n";
  const Outcome bad = selfplay("tune " + dir.file("bad.yaml"));
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("spsa.parameters"), std::string::npos) << bad.out;
}

}  // namespace
}  // namespace sp::tune
