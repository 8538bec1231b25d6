// SPSA (simultaneous perturbation stochastic approximation) for the parameters that positions
// cannot fit: search constants and rollout-policy weights of engine A of a match config, named by
// their engine keys (spsa_game.hpp says which keys can be tuned). Gains as
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
#include <functional>
#include <string>
#include <vector>

#include "core/config/schema.hpp"

namespace sp::tune {

struct TuneConfig;

struct SpsaParamConfig {
  std::string name;  // the engine key it sets, e.g. "exploration"
  double start = 0, min = 0, max = 1;
  double c_end = 0.1;    // perturbation size at the last iteration, in the parameter's units
  double r_end = 0.002;  // learning rate at the last iteration (a_end / c_end^2)
  config::Mark name_at, min_at, max_at;  // where the tune config wrote them
};

// A list of parameters as a config writes it: {name, start, min, max, c_end, r_end} each (c_end and
// r_end optional); without start where the caller knows the start (selfplay improve: the
// champion's value). Fails through doc at the item for a missing or unknown key, a name listed
// twice, min above max.
std::vector<SpsaParamConfig> read_spsa_params(const YAML::Node& v, config::Mark at,
                                              config::Document& doc, const std::string& path,
                                              bool with_start);
std::string format_spsa_params(const std::vector<SpsaParamConfig>& params, bool with_start);

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

// The keys SPSA can tune among an engine's keys (config::Section::keys of its section): the
// real-valued ones (real, fixed_point) that apply to its type, in declaration order.
std::vector<std::string> spsa_tunable(const std::vector<config::KeyInfo>& keys);

// Fails through doc (the tune config) at p.name_at unless p.name is one of spsa_tunable(keys):
// an unknown key (with a did-you-mean hint), a key that is not a real number, or one that does not
// apply to the engine's type, each listing the tunable keys. engine says which engine, for the
// messages: "engine A (engines.player0 of match.yaml, type mcts)".
// where: the list's key ("spsa.parameters" of a tune config).
void check_spsa_name(const SpsaParamConfig& p, const std::vector<config::KeyInfo>& keys,
                     const std::string& engine, const config::Document& doc,
                     const std::string& where = "spsa.parameters");

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

// Runs SPSA (method spsa) on config.spsa with config.seed, printing a line per iteration to out;
// writes spsa.output (HDF5, renamed into place when complete) and spsa.result (YAML, atomically).
// The game is spsa.match's (and config.game's, which must agree). Throws sp::InputError for
// unusable input: a ConfigError at the parameter's line for a name that is no tunable key of
// engine A, or a min or max outside the key's range.
SpsaResult run_spsa(const TuneConfig& config, std::FILE* out, const std::atomic<bool>& stop);

// What a game gives the SPSA loop: plays spsa.pairs game pairs of the match config on `seed`, with
// engine A's parameters at a and engine B's at *b (B as configured when b is null), and returns
// engine A's wins and losses in them; false when stopped before every pair was played.
using SpsaPlay = std::function<bool(uint64_t seed, const std::vector<double>& a,
                                    const std::vector<double>* b, int64_t& wins, int64_t& losses)>;

// The game-neutral loop of run_spsa: iterations, trajectory file (whose root attribute `config` is
// match_text) and result file. Precondition: config.spsa.parameters were checked.
SpsaResult run_spsa_loop(const TuneConfig& config, const std::string& match_text,
                         const SpsaPlay& play, std::FILE* out, const std::atomic<bool>& stop);

}  // namespace sp::tune
