// SPSA (simultaneous perturbation stochastic approximation) for the parameters that positions
// cannot fit: search constants and rollout-policy weights of engine A of a match config. Gains as
// fishtest computes them (docs: /work/shared/reference/statistics.md, SPSA):
//   c = c_end * N^gamma, a = r_end * c_end^2 * (A + N)^alpha,
//   c_k = c / k^gamma, R_k = a / (A + k)^alpha / c_k^2  (k = 1..N),
//   theta += R_k c_k (W - L) Delta, clipped into [min, max],
// where Delta is +-1 per parameter and W - L counts engine A's games won minus lost with theta +
// c_k Delta against theta - c_k Delta. Everything random is a function of (seed, iteration).
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "games/ewn/host.hpp"
#include "host/config/campaign_config.hpp"

namespace sp::tune {

// The tunable parameters, by the engine config key they set.
enum class SpsaParam {
  kExploration,
  kGoalWeight,
  kCaptureWeight,
  kEvalBlend,
  kProgressiveBias,
  kEvalScale
};
const std::vector<std::string>& spsa_param_names();  // in enum order: "exploration", ...

struct SpsaParamConfig {
  SpsaParam param = SpsaParam::kExploration;
  double start = 0, min = 0, max = 1;
  double c_end = 0.1;    // perturbation size at the last iteration, in the parameter's units
  double r_end = 0.002;  // learning rate at the last iteration (a_end / c_end^2)
};

struct SpsaGains {
  double c = 0, a = 0;  // per parameter: c_k = c / k^gamma, a_k = a / (A + k)^alpha
};
SpsaGains spsa_gains(const SpsaParamConfig& p, uint32_t iterations, double big_a, double alpha,
                     double gamma);

// Delta of iteration k (1-based): +1 or -1 per parameter from a Philox stream keyed by (seed, k).
std::vector<int> spsa_delta(uint64_t seed, uint32_t iteration, size_t count);

// c_k of one parameter at iteration k.
double spsa_c_k(const SpsaGains& g, uint32_t k, double gamma);

// The update of one iteration, a pure function: theta_i += R_k c_k (W - L) Delta_i with c_k and
// R_k = a_k / c_k^2 of parameter i, then clipped into [min_i, max_i]. Returns the new theta.
std::vector<double> spsa_update(const std::vector<double>& theta, const std::vector<int>& delta,
                                const std::vector<SpsaParamConfig>& params,
                                const std::vector<SpsaGains>& gains, uint32_t k, double big_a,
                                double alpha, double gamma, int64_t wins, int64_t losses);

// theta +- c_k Delta clipped into the bounds: the points an iteration plays.
std::vector<double> spsa_perturb(const std::vector<double>& theta, const std::vector<int>& delta,
                                 const std::vector<SpsaParamConfig>& params,
                                 const std::vector<SpsaGains>& gains, uint32_t k, double gamma,
                                 int sign);

// Sets one parameter in an engine config (goal/capture weights rounded to their 1/256 steps, at
// least one step).
void apply_spsa_param(config::EngineConfig& engine, ewn::PlayoutPolicy& policy, SpsaParam param,
                      double value);

struct SpsaSettings {
  std::string match;  // match config: engine A (player0) is tuned, B (player1) is the opponent
  uint32_t iterations = 100;
  uint32_t pairs = 4;  // game pairs per iteration (per side when not mirrored)
  bool mirror = true;  // B plays theta - c_k Delta; false: B stays fixed and theta +- c_k Delta
                       // each play it, W - L is the difference of the two
  double big_a = -1;   // A; < 0 means 0.1 * iterations
  double alpha = 0.602, gamma = 0.101;
  std::string output = "out/spsa.h5";           // trajectory, /spsa table
  std::string result = "out/spsa_result.yaml";  // final values
  std::vector<SpsaParamConfig> parameters;
  int threads = 0;  // cpu backend threads, 0 = the match config's
};

struct SpsaRow {
  uint32_t iteration = 0;
  std::vector<double> theta;  // after the update
  std::vector<double> c_k;
  int64_t wins = 0, losses = 0;
};

struct SpsaResult {
  std::vector<SpsaRow> rows;
  std::vector<double> theta;
};

// Runs SPSA, printing a line per iteration to out; writes settings.output (HDF5, renamed into place
// when complete) and settings.result (YAML, atomically). Throws sp::InputError for unusable input.
SpsaResult run_spsa(const SpsaSettings& settings, uint64_t seed, const std::string& config_path,
                    std::FILE* out, const std::atomic<bool>& stop);

}  // namespace sp::tune
