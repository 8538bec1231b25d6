// The steps of a generation of `selfplay improve` and how each is run: their seeds and files, the
// tune configs of the fit and of SPSA, the campaign and match steps (on the ranks of a ranked
// loop), the matches of two weights files and the checks of a generation's weights file.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/config/schema.hpp"
#include "core/errors.hpp"
#include "core/game_host.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/config/game_schema.hpp"
#include "host/play/config/load.hpp"
#include "host/play/ranks/campaign_ranks.hpp"
#include "host/play/ranks/match_ranks.hpp"
#include "host/play/ranks/ranks.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/play/selfplay/match.hpp"
#include "host/research/improve/improve_config.hpp"
#include "host/research/improve/improve_options.hpp"
#include "host/research/improve/loop_ranks.hpp"
#include "host/research/tune/spsa.hpp"
#include "host/research/tune/spsa_game.hpp"
#include "host/research/tune/tune_config.hpp"
#include "host/research/tune/tune_run.hpp"

namespace sp::improve {

// The steps of a generation; each has its own seed.
enum class Step : uint64_t { kCampaign = 1, kTune = 2, kGate = 3, kAnchor = 4, kSpsa = 5 };
// The seed of a step: splitmix64 over (seed, generation, step). The anchor match uses generation 0
// whatever generation plays it, so every anchor match plays the same openings and dice.
uint64_t step_seed(uint64_t seed, uint32_t generation, Step step);

// What a generation's fit did, for the decision before its gate: whether it changed a weight or
// the move-score table, and the validation losses before and after (NaN where not measured: no
// held-out positions, or no move-score fit).
struct FitChange {
  bool weights_changed = false, table_changed = false;
  double loss_before = 0, loss = 0;
  double table_loss_before = 0, table_loss = 0;
};
// Why the fit is rejected before its gate, "" when the gate plays it: a fit that changed nothing;
// with require_validation_gain, a fit whose weights' validation loss did not fall and whose
// changed move-score table's did not either (a loss not measured cannot reject).
std::string fit_rejection(const FitChange& f, bool require_validation_gain);

// fnv1a64 over the weight values' shortest exact texts, as 16 hex digits; then, when a weights
// file's move-score table differs from the game's defaults (a fitted table), over "|" and its
// entries, so that a candidate that changed only the table has its own hash (files without one
// keep the hashes they always had).
std::string weights_hash(const std::vector<double>& w, std::span<const double> move_scores = {},
                         std::span<const double> move_score_defaults = {});

// DIR/gen-007 for generation 7.
std::string generation_dir(const std::string& dir, uint32_t generation);
// The weights file of generation g's candidate (gen-000/weights.yaml for generation 0): the file
// a champion's engines read.
std::string weights_file(const std::string& dir, uint32_t generation);

namespace loop_detail {

void write_text_file(const std::string& path, const std::string& text);  // atomically
std::string read_text_file(const std::string& path);                     // throws InputError

// The tune config of a generation's fit as YAML text.
std::string tune_yaml(const std::string& game, uint64_t seed,
                      const std::vector<std::string>& inputs, const DataSettings& data,
                      const TuneSettings& tune, const std::string& initial,
                      const std::string& output, const std::string& name, const std::string& log);

// The tune config (method spsa) of a generation's SPSA step as YAML text: its match
// GDIR/spsa-match.yaml, its outputs GDIR/spsa.h5 and GDIR/spsa-result.yaml, the parameters
// starting at `start`.
std::string spsa_yaml(const std::string& game, uint64_t seed, const SpsaStepSettings& spsa,
                      const std::vector<double>& start, const std::string& gdir);

// DIR/champion-engine.yaml: the champion's values of the keys tune.spsa tunes, as engine keys.
std::string engine_keys_yaml(uint32_t champion, const std::vector<std::string>& keys,
                             const std::vector<double>& values);

// Rollouts over the moves of a campaign or match file's stored games.
uint64_t file_rollouts(const std::string& path);

}  // namespace loop_detail

// The options of a step's campaign (selfplay::RunOptions) or match (MatchOptions): continued when
// resume, the loop's status line and --device.
template <class StepOptions>
StepOptions step_options(bool resume, bool live, std::optional<int> device) {
  StepOptions o;
  o.resume = resume;
  o.live = live;
  o.device = device;
  return o;
}

// A campaign step: the campaign of config file `path` (written by rank 0), on every rank of a
// ranked loop (rank 0 orders the others to play it) or as one process; continued when resume.
template <HostGame G>
selfplay::RunResult campaign_step(const config::Config<G>& campaign, const std::string& path,
                                  bool resume, const ImproveOptions& options,
                                  const std::atomic<bool>& stop) {
  const auto o = step_options<selfplay::RunOptions>(resume, options.live, options.device);
  if (ranked_loop() || selfplay::ranked_run(campaign.output.path)) {
    send_order({OrderKind::kCampaign, resume, path});
    return selfplay::run_campaign_ranks<G>(campaign, o, stop);
  }
  return selfplay::run_campaign<G>(campaign, o, stop);
}

// A match step, as campaign_step.
template <HostGame G>
selfplay::MatchResult match_step(const config::Config<G>& match, const std::string& path,
                                 bool resume, const ImproveOptions& options,
                                 const std::atomic<bool>& stop) {
  const auto o = step_options<selfplay::MatchOptions>(resume, options.live, options.device);
  if (ranked_loop() || selfplay::ranked_run(match.output.path)) {
    send_order({OrderKind::kMatch, resume, path});
    return selfplay::run_match_ranks<G>(match, o, stop);
  }
  return selfplay::run_match<G>(match, o, stop);
}

// The names of the champion engine's keys tune.spsa tunes (empty without it).
template <HostGame G>
std::vector<std::string> spsa_keys(const ImproveConfig<G>& c) {
  std::vector<std::string> out;
  for (const tune::SpsaParamConfig& p : c.tune.spsa.parameters) out.push_back(p.name);
  return out;
}

// The values of those keys in the champion engine as configured: generation 0's.
template <HostGame G>
std::vector<double> configured_engine_values(const ImproveConfig<G>& c) {
  const config::Section<config::Config<G>> engine = config::engine_section<G>(0);
  std::vector<double> out;
  for (const std::string& name : spsa_keys(c)) out.push_back(std::stod(engine.value(c.gate, name)));
  return out;
}

// Sets the engine keys `names` of engines.player<player> of cfg to values, as a config file
// would (values SPSA produced lie within the bounds load_improve_config checked).
template <HostGame G>
void set_engine_keys(config::Config<G>& cfg, int player, const std::vector<std::string>& names,
                     const std::vector<double>& values) {
  if (names.empty()) return;
  const config::Section<config::Config<G>> engine = config::engine_section<G>(player);
  config::Document doc("selfplay improve");
  for (size_t i = 0; i < names.size(); ++i)
    engine.set(cfg, names[i], YAML::Node(config::detail::format_real(values.at(i))), {}, doc,
               "engines.player" + std::to_string(player) + "." + names[i]);
}

// One side of a match of the loop: a generation's weights file and its engine key values
// (tune.spsa's keys; empty without it).
struct Side {
  std::string weights;
  std::vector<double> keys;
};

// Engine `engine` of match plays side's weights and key values (keys: the names).
template <HostGame G>
void set_side(config::Config<G>& match, int engine, const Side& side,
              const std::vector<std::string>& keys) {
  match.engines[engine].weights = side.weights;
  match.engines[engine].evaluation =
      std::make_shared<const eval::Weights>(eval::load_weights<G>(side.weights));
  set_engine_keys<G>(match, engine, keys, side.keys);
}

// A match of sides a (engine A) and b (engine B), both played by match's engines (the champion's
// settings) with their weights and key values (keys: the names): seed as given, PATH.yaml its
// config, PATH.h5 its games, continued when that file is there.
template <HostGame G>
selfplay::MatchResult weights_match(config::Config<G> match, uint64_t seed, const Side& a,
                                    const Side& b, const std::vector<std::string>& keys,
                                    const std::string& path, const ImproveOptions& options,
                                    const std::atomic<bool>& stop) {
  match.seed = seed;
  match.output.path = path + ".h5";
  set_side(match, 0, a, keys);
  set_side(match, 1, b, keys);
  loop_detail::write_text_file(path + ".yaml", config::explain_match_config<G>(match));
  return match_step<G>(match, path + ".yaml", std::filesystem::exists(match.output.path), options,
                       stop);
}

// The SPSA step of generation g (tune.spsa): the champion engine's keys tuned from `start`, both
// sides playing the weights file `weights` on the gate's settings. Writes DIR/gen-NNN/
// spsa-match.yaml (the games' config), spsa.yaml (the tune config: `selfplay tune spsa.yaml`
// reruns it), spsa.log, spsa.h5 (the trajectory) and spsa-result.yaml. Returns the tuned values;
// nullopt when stopped.
template <HostGame G>
std::optional<std::vector<double>> spsa_step(const ImproveConfig<G>& c, uint32_t g,
                                             const std::string& gdir, const std::string& weights,
                                             const std::vector<double>& start,
                                             const std::atomic<bool>& stop) {
  const uint64_t seed = step_seed(c.seed, g, Step::kSpsa);
  config::Config<G> match = c.gate;
  match.seed = seed;
  match.output.path = gdir + "/spsa-games.h5";  // not written: SPSA keeps only W - L
  match.games = 2 * uint64_t{c.tune.spsa.pairs};
  match.match.pairs = c.tune.spsa.pairs;
  match.match.sprt.enabled = false;
  for (const int engine : {0, 1}) {
    match.engines[engine].weights = weights;
    match.engines[engine].evaluation =
        std::make_shared<const eval::Weights>(eval::load_weights<G>(weights));
    set_engine_keys<G>(match, engine, spsa_keys(c), start);
  }
  loop_detail::write_text_file(gdir + "/spsa-match.yaml", config::explain_match_config<G>(match));
  loop_detail::write_text_file(gdir + "/spsa.yaml",
                               loop_detail::spsa_yaml(G::kName, seed, c.tune.spsa, start, gdir));
  const tune::TuneConfig tc = tune::load_tune_config(gdir + "/spsa.yaml");
  tune::check_spsa_outputs(tc);
  std::FILE* log_file = std::fopen((gdir + "/spsa.log").c_str(), "w");
  if (!log_file) throw std::runtime_error("cannot write " + gdir + "/spsa.log");
  tune::SpsaResult r;
  try {
    r = tune::run_spsa<G>(tc, config::load_match_config<G>(gdir + "/spsa-match.yaml"), log_file,
                          stop);
  } catch (...) {
    std::fclose(log_file);
    throw;
  }
  std::fclose(log_file);
  if (stop) return std::nullopt;
  return r.theta;
}

// Whether the weights file at path holds `expected` (as the lineage stores them, float32), by
// value: comments and the way numbers are written do not count. Throws InputError for a file that
// is not a weights file.
template <HostGame G>
bool weights_file_holds(const std::string& path, const std::vector<double>& expected) {
  const eval::Weights w = eval::load_weights<G>(path);
  bool same = w.w.size() == expected.size();
  for (size_t i = 0; same && i < expected.size(); ++i)
    same = static_cast<float>(w.w[i]) == static_cast<float>(expected[i]);
  return same;
}

// Throws InputError unless the weights file at path holds `expected`: a generation's file edited
// after the lineage recorded it.
template <HostGame G>
void check_weights_file(const std::string& path, const std::vector<double>& expected) {
  if (!weights_file_holds<G>(path, expected))
    throw InputError(path +
                     ": its weights are not the ones lineage.h5 recorded for it: edited "
                     "after the loop wrote it? Restore it, or start a new loop");
}

}  // namespace sp::improve
