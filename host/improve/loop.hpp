// `selfplay improve`: the research loop. Each generation plays a self-play campaign with the
// champion's weights, fits a candidate to the positions of the last `data.window` campaigns
// (Texel), gates it against the champion in an SPRT match, and keeps it only when the SPRT accepts
// H1. Every `gate.anchor_every` generations and at the end the champion plays generation 0 on a
// fixed anchor match. What a generation wrote lives in DIR/gen-NNN/; DIR/lineage.h5 has a row per
// finished generation and DIR/champion.yaml the current best weights.
//
// Every step is a file the existing commands understand (campaign.yaml, tune.yaml, gate.yaml,
// anchor.yaml with their outputs), written before the step runs, so a researcher can rerun or
// inspect any of them. Seeds derive from (seed, generation, step) alone, and a resumed step
// continues its own file (campaigns and matches resume; a fit is rerun, it is deterministic), so a
// loop killed at any moment and resumed writes the same lineage, weights and records as one that
// ran through.
#pragma once

#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/game_host.hpp"
#include "host/common/log.hpp"
#include "host/config/load.hpp"
#include "host/eval/weights.hpp"
#include "host/improve/improve_config.hpp"
#include "host/improve/lineage.hpp"
#include "host/improve/loop_ranks.hpp"
#include "host/io/campaign_file.hpp"
#include "host/ranks/campaign_ranks.hpp"
#include "host/ranks/match_ranks.hpp"
#include "host/selfplay/campaign.hpp"
#include "host/selfplay/match.hpp"
#include "host/stats/match_stats.hpp"
#include "host/tune/tune_config.hpp"
#include "host/tune/tune_run.hpp"

namespace sp::improve {

struct ImproveOptions {
  std::string out;                      // DIR; required
  bool resume = false;                  // continue the loop in DIR
  std::optional<uint32_t> generations;  // overrides stop.generations
  std::optional<std::string> backend;   // overrides selfplay.backend.name (every step)
  std::optional<int> threads;           // overrides selfplay.backend.threads
  std::optional<int> device;            // overrides selfplay.backend.device
  bool live = false;                    // the steps rewrite their status line (a terminal)
};

struct ImproveResult {
  Lineage lineage;
  bool interrupted = false;
  std::string stopped_by;  // why the loop ended: "generations", "rejections", "wall clock"
  std::string summary;     // the closing table
};

// The steps of a generation; each has its own seed.
enum class Step : uint64_t { kCampaign = 1, kTune = 2, kGate = 3, kAnchor = 4, kSpsa = 5 };
// The seed of a step: splitmix64 over (seed, generation, step). The anchor match uses generation 0
// whatever generation plays it, so every anchor match plays the same openings and dice.
uint64_t step_seed(uint64_t seed, uint32_t generation, Step step);

// fnv1a64 over the weight values' shortest exact texts, as 16 hex digits.
std::string weights_hash(const std::vector<double>& w);

// DIR/gen-007 for generation 7.
std::string generation_dir(const std::string& dir, uint32_t generation);
// The weights file of generation g's candidate (gen-000/weights.yaml for generation 0): the file
// a champion's engines read.
std::string weights_file(const std::string& dir, uint32_t generation);

// What a resume must match: the effective config (every key) without backend and stop, whose
// values change how fast the loop runs or how long, not what it computes; the champion's weights
// given by their values. selfplay::identity_difference names the first key that differs.
std::string loop_identity(const std::string& explain_all, const std::vector<std::string>& names,
                          const std::vector<double>& initial_weights);

// selfplay::identity_difference of a stored loop identity and the current one, where keys the
// stored one lacks (added by a later version) count as equal when they hold their default (the
// identity of a default config): the loop then computes what it did when it started.
std::string loop_identity_difference(const std::string& stored, const std::string& current,
                                     const std::string& defaults);

// Claims DIR for the loop: refuses an existing, non-empty DIR without resume and a resume of a DIR
// without lineage.h5 (unless it holds only a start cut short: improve.yaml and gen-000); creates
// it. Returns whether a lineage is there to continue. Throws InputError.
bool claim_loop_dir(const std::string& dir, bool resume);

// The closing table: generation, verdict, gate games, Elo against the parent (95%), Elo of the
// champion against generation 0 where measured, reason.
std::string format_lineage_table(const Lineage& lineage);

// Why the loop stops before playing generation rows.size() (stop keys and --generations), or "".
std::string stop_reason(const Lineage& lineage, const StopSettings& stop);

// Consecutive rejections at the end of the lineage.
uint32_t trailing_rejections(const Lineage& lineage);

// Process CPU seconds (user + system), from getrusage.
double cpu_seconds_now();

namespace loop_detail {

using Clock = std::chrono::steady_clock;

// Progress lines: one per finished step, with the generation's and the loop's ETA from the mean
// step durations of the generations this run finished.
class LoopProgress {
 public:
  LoopProgress(uint32_t first, uint32_t last) : first_(first), last_(last) {}
  void start_generation(uint32_t g) {
    g_ = g;
    gen_start_ = Clock::now();
  }
  void step_done(const char* step, const std::string& what);
  void generation_done() {
    ++done_;
    total_ += seconds_since(gen_start_);
  }

 private:
  static double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  }
  uint32_t first_, last_, g_ = 0, done_ = 0;
  double total_ = 0;
  Clock::time_point gen_start_ = Clock::now();
};

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

// The anchor row values from an earlier row that measured the same champion with the same pairs
// (the anchor match is deterministic, so its result would be the same); false when none did.
bool reuse_anchor(const Lineage& lineage, uint32_t champion, uint32_t pairs, LineageRow& row);

// Sets the anchor columns of row from a finished anchor match (engine A: the champion), and copies
// them from one row to another.
void set_anchor_columns(LineageRow& row, const selfplay::MatchResult& anchor);
void copy_anchor_columns(const LineageRow& from, LineageRow& to);

// The anchor guard's decision on a row whose gate accepted the candidate (row.champion: the
// candidate, row.parent its parent): kept when the candidate's anchor Elo is at least the
// parent's less margin, else rejected and the parent stays champion. The row's anchor columns
// become the champion's, its reason says both results. Returns whether the candidate was kept.
bool apply_anchor_guard(LineageRow& row, const LineageRow& candidate_anchor,
                        const LineageRow& parent_anchor, double margin,
                        const std::string& gate_reason);

// Sets the gate columns of row from a finished gate (engine A: the candidate).
void set_gate_columns(LineageRow& row, const selfplay::MatchResult& gate);

// Rollouts over the moves of a campaign or match file's stored games.
uint64_t file_rollouts(const std::string& path);

}  // namespace loop_detail

// The effective configuration of a loop: its config, with the backend overrides of options.
template <HostGame G>
ImproveConfig<G> with_overrides(ImproveConfig<G> c, const ImproveOptions& options) {
  selfplay::RunOptions run;
  run.backend = options.backend;
  run.threads = options.threads;
  run.device = options.device;
  selfplay::apply_overrides(c.selfplay, run);
  c.gate.backend = c.selfplay.backend;
  if (options.generations) c.stop.generations = *options.generations;
  return c;
}

struct GateOutcome {
  selfplay::MatchResult match;
  Verdict verdict = Verdict::kReject;
  std::string reason;
};

// The verdict of a gate: accept only when the SPRT accepted H1; H0 and an undecided SPRT (every
// pair played) reject.
GateOutcome gate_verdict(selfplay::MatchResult match, const config::SprtSettings& sprt);

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
  for (const auto& [engine, side] : {std::pair{0, &a}, std::pair{1, &b}}) {
    match.engines[engine].weights = side->weights;
    match.engines[engine].evaluation =
        std::make_shared<const eval::Weights>(eval::load_weights<G>(side->weights));
    set_engine_keys<G>(match, engine, keys, side->keys);
  }
  loop_detail::write_text_file(path + ".yaml", config::explain_match_config<G>(match));
  return match_step<G>(match, path + ".yaml", std::filesystem::exists(match.output.path), options,
                       stop);
}

// The gate match of a candidate: the candidate in engine A and the champion in engine B, c's gate
// rules, openings, pairs and SPRT.
template <HostGame G>
GateOutcome gate_candidate(const ImproveConfig<G>& c, uint64_t seed, const Side& candidate,
                           const Side& champion, const std::string& path,
                           const ImproveOptions& options, const std::atomic<bool>& stop) {
  return gate_verdict(
      weights_match<G>(c.gate, seed, candidate, champion, spsa_keys(c), path, options, stop),
      c.gate.match.sprt);
}

// The anchor match: the champion (A) against generation 0 (B) over anchor.pairs pairs, without the
// SPRT, always with generation 0's anchor seed (the same games for the same weights).
template <HostGame G>
selfplay::MatchResult anchor_match(const ImproveConfig<G>& c, const Side& champion,
                                   const Side& initial, const std::string& path,
                                   const ImproveOptions& options, const std::atomic<bool>& stop) {
  config::Config<G> anchor = c.gate;
  anchor.match.pairs = c.anchor.pairs;
  anchor.games = 2 * uint64_t{c.anchor.pairs};
  anchor.match.sprt.enabled = false;
  return weights_match<G>(anchor, step_seed(c.seed, 0, Step::kAnchor), champion, initial,
                          spsa_keys(c), path, options, stop);
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

// Runs (or, with options.resume, continues) the loop of config c in options.out. stop
// (SIGINT/SIGTERM/SIGHUP) ends it at the next point a step can stop cleanly; the result is then
// interrupted and --resume continues it. Throws InputError for a DIR that exists without resume
// (and the reverse), a resume with another config (naming the key), and the errors of the steps.
template <HostGame G>
ImproveResult run_improve(const ImproveConfig<G>& c, const ImproveOptions& options,
                          const std::atomic<bool>& stop) {
  namespace fs = std::filesystem;
  using namespace loop_detail;
  ImproveResult result;
  if constexpr (!FeatureGame<G>) {
    throw InputError(std::string(G::kName) + " has no evaluation features: nothing to improve");
  } else {
    const std::string dir = fs::absolute(options.out).lexically_normal().string();
    const std::string lineage_path = dir + "/lineage.h5";
    const std::string champion_path = dir + "/champion.yaml";
    const std::string initial_source = c.gate.engines[0].weights;
    std::vector<std::string> names;
    for (const std::string_view f : G::feature_names()) names.emplace_back(f);
    const eval::Weights initial = eval::load_weights<G>(initial_source);
    const std::string identity = loop_identity(explain_improve_config(c, true), names, initial.w);

    const bool have_lineage = claim_loop_dir(dir, options.resume);
    Lineage& lineage = result.lineage;
    if (have_lineage) {
      lineage = read_lineage(lineage_path);
      if (lineage.game != G::kName)
        throw InputError(lineage_path + " is a loop of " + lineage.game + ", this config plays " +
                         G::kName);
      ImproveConfig<G> defaults{};
      improve_config_schema<G>().apply_defaults(defaults);
      const std::string default_identity =
          loop_identity(explain_improve_config(defaults, true), names, initial.w);
      if (const std::string diff =
              loop_identity_difference(lineage.identity, identity, default_identity);
          !diff.empty())
        throw InputError("cannot resume " + dir + ": the config differs from the loop's at " +
                         diff + " (a resumed loop must compute what it started)");
      log::info(fmt::format("resume: {} finished generations in {}", lineage.rows.size() - 1,
                            lineage_path));
    } else {
      // Generation 0: the initial weights, copied so that the loop never reads them again.
      fs::create_directories(generation_dir(dir, 0));
      write_text_file(dir + "/improve.yaml", explain_improve_config(c));
      write_text_file(weights_file(dir, 0), read_text_file(initial_source));
      lineage.game = G::kName;
      lineage.config_text = explain_improve_config(c, true);
      lineage.identity = identity;
      lineage.features = names;
      LineageRow row;
      set_reason(row, "initial weights " + initial_source);
      const std::string hash = weights_hash(initial.w);
      std::snprintf(row.weights_hash, sizeof row.weights_hash, "%s", hash.c_str());
      row.anchor_elo = row.anchor_elo_lo = row.anchor_elo_hi = 0;
      lineage.rows.push_back(row);
      lineage.weights.push_back(initial.w);
      lineage.engine_keys = spsa_keys(c);
      if (!lineage.engine_keys.empty())
        lineage.engine_values.push_back(configured_engine_values(c));
      write_lineage(lineage_path, lineage);
    }
    const std::vector<std::string>& key_names = lineage.engine_keys;
    if (key_names != spsa_keys(c))  // the identity compares the config: only a damaged file
      throw InputError(lineage_path + ": its /engine keys are not tune.spsa's parameters");
    // Generation k as a side of a match: its weights file and key values.
    const auto side = [&](uint32_t k) {
      return Side{weights_file(dir, k),
                  key_names.empty() ? std::vector<double>{} : lineage.engine_values.at(k)};
    };
    // champion.yaml follows the lineage. A loop killed between the two writes left the previous
    // champion's file there, which is replaced; any other content was edited by hand: refused, as
    // is a generation's weights file whose values are not the lineage's.
    // With tune.spsa, champion-engine.yaml beside it holds the champion's engine keys.
    const auto publish_champion = [&] {
      const uint32_t champion = lineage.rows.back().champion;
      // Compared by values: a comment or a number written another way is not a change.
      if (!fs::exists(champion_path) ||
          !weights_file_holds<G>(champion_path, lineage.weights.at(champion)))
        write_text_file(champion_path, read_text_file(weights_file(dir, champion)));
      if (!key_names.empty()) {
        const std::string keys =
            engine_keys_yaml(champion, key_names, lineage.engine_values.at(champion));
        const std::string keys_path = dir + "/champion-engine.yaml";
        if (!fs::exists(keys_path) || read_text_file(keys_path) != keys)
          write_text_file(keys_path, keys);
      }
    };
    if (have_lineage) {
      const uint32_t champion = lineage.rows.back().champion;
      check_weights_file<G>(weights_file(dir, champion), lineage.weights.at(champion));
      check_weights_file<G>(weights_file(dir, 0), lineage.weights.at(0));  // the anchors' side
      const uint32_t previous =
          lineage.rows.size() >= 2 ? lineage.rows[lineage.rows.size() - 2].champion : champion;
      if (fs::exists(champion_path)) {
        const auto holds = [&](uint32_t k) {
          try {
            return weights_file_holds<G>(champion_path, lineage.weights.at(k));
          } catch (const InputError&) {
            return false;  // not a weights file any more
          }
        };
        if (!holds(champion) && !holds(previous))
          throw InputError("cannot resume " + dir + ": " + champion_path +
                           " is not the weights of generation " + std::to_string(champion) + " (" +
                           weights_file(dir, champion) +
                           ") the lineage names: edited by hand? Restore it from that file");
      }
    }
    publish_champion();

    const auto g_first = static_cast<uint32_t>(lineage.rows.size());
    LoopProgress progress(g_first, c.stop.generations);
    while (!stop) {
      result.stopped_by = stop_reason(lineage, c.stop);
      if (!result.stopped_by.empty()) break;
      const auto g = static_cast<uint32_t>(lineage.rows.size());
      const uint32_t parent = lineage.rows.back().champion;
      const std::string gdir = generation_dir(dir, g);
      fs::create_directories(gdir);
      progress.start_generation(g);
      const double cpu0 = cpu_seconds_now();
      const auto wall0 = Clock::now();
      LineageRow row;
      row.generation = g;
      row.parent = parent;
      row.champion = parent;
      const std::string parent_file = weights_file(dir, parent);
      const auto parent_weights =
          std::make_shared<const eval::Weights>(eval::load_weights<G>(parent_file));
      // The fit reads the campaigns of earlier generations too: one that is gone is said now,
      // before this generation's campaign is played for nothing.
      for (uint32_t k = g >= c.data.window ? g - c.data.window + 1 : 1; k < g; ++k)
        if (const std::string earlier = generation_dir(dir, k) + "/campaign.h5";
            !fs::is_regular_file(earlier))
          throw InputError("cannot continue " + dir + ": " + earlier +
                           ", which the fit of generation " + std::to_string(g) +
                           " reads (data.window " + std::to_string(c.data.window) +
                           "), is missing; restore it, or start a new loop");

      // 1. Self-play with the champion's weights where the engines use the initial ones.
      config::Config<G> campaign = c.selfplay;
      campaign.seed = step_seed(c.seed, g, Step::kCampaign);
      campaign.output.path = gdir + "/campaign.h5";
      for (int p = 0; p < 2; ++p) {
        config::EngineConfig& e = campaign.engines[p];
        if (e.weights.empty() || e.weights != initial_source) continue;
        e.weights = parent_file;
        e.evaluation = parent_weights;
        // The champion engine's own type plays with the champion's tuned keys too.
        if (e.type == c.gate.engines[0].type)
          set_engine_keys<G>(campaign, p, key_names, side(parent).keys);
      }
      write_text_file(gdir + "/campaign.yaml", config::explain_campaign_config<G>(campaign));
      {
        const selfplay::RunResult r = campaign_step<G>(
            campaign, gdir + "/campaign.yaml", fs::exists(campaign.output.path), options, stop);
        if (r.interrupted) {
          result.interrupted = true;
          break;
        }
        row.games = r.games_in_file;
        row.rollouts = file_rollouts(campaign.output.path);
        progress.step_done("campaign",
                           fmt::format("{} games, {} rollouts", row.games, row.rollouts));
      }

      // 2. The fit: the window's campaigns, starting from the champion.
      std::vector<std::string> inputs;
      for (uint32_t k = g >= c.data.window ? g - c.data.window + 1 : 1; k <= g; ++k)
        inputs.push_back(generation_dir(dir, k) + "/campaign.h5");
      const std::string candidate_path = weights_file(dir, g);
      write_text_file(gdir + "/tune.yaml",
                      tune_yaml(G::kName, step_seed(c.seed, g, Step::kTune), inputs, c.data, c.tune,
                                parent_file, candidate_path, fmt::format("gen-{:03}", g),
                                gdir + "/tune-losses.csv"));
      bool fitted = false, diverged = false;
      {
        const tune::TuneConfig tc = tune::load_tune_config(gdir + "/tune.yaml");
        std::FILE* log_file = std::fopen((gdir + "/tune.log").c_str(), "w");
        if (!log_file) throw std::runtime_error("cannot write " + gdir + "/tune.log");
        try {
          const tune::TuneReport report = tune::run_tune(tc, log_file);
          std::fclose(log_file);
          row.train_positions = report.train_positions;
          row.validation_positions = report.validation_positions;
          row.k = report.k.k;
          row.train_loss_before = report.result.before.train_loss;
          row.train_loss = report.result.after.train_loss;
          row.validation_loss_before = report.result.before.validation_loss;
          row.validation_loss = report.result.after.validation_loss;
          fitted = true;
        } catch (const tune::TuneDiverged& e) {
          std::fclose(log_file);
          diverged = true;
          row.verdict = static_cast<uint8_t>(Verdict::kReject);
          set_reason(row, std::string("fit diverged: ") + e.what());
        } catch (...) {
          std::fclose(log_file);
          throw;
        }
      }
      std::vector<double> candidate(names.size(), std::nan(""));
      if (fitted) {
        candidate = eval::load_weights<G>(candidate_path).w;
        const std::string hash = weights_hash(candidate);
        std::snprintf(row.weights_hash, sizeof row.weights_hash, "%s", hash.c_str());
        if (candidate == parent_weights->w) {
          fitted = false;
          row.verdict = static_cast<uint8_t>(Verdict::kReject);
          set_reason(row, "the fit left every weight as it was");
        } else if (c.tune.require_validation_gain && std::isfinite(row.validation_loss) &&
                   !(row.validation_loss < row.validation_loss_before)) {
          fitted = false;
          row.verdict = static_cast<uint8_t>(Verdict::kReject);
          set_reason(row, fmt::format("validation loss did not fall ({:.6f} -> {:.6f})",
                                      row.validation_loss_before, row.validation_loss));
        }
      }
      progress.step_done("tune", fitted
                                     ? fmt::format("{} positions, validation loss {:.6f} -> "
                                                   "{:.6f}",
                                                   row.train_positions, row.validation_loss_before,
                                                   row.validation_loss)
                                     : reason_of(row));

      // 2b. SPSA of the champion engine's keys (tune.spsa), with the weights the gate will play:
      // the fit's, or the champion's when the fit was rejected (the candidate is then the
      // champion's weights with new keys). A diverged fit rejects the generation without it.
      std::vector<double> candidate_keys = side(parent).keys;
      if (!key_names.empty() && !diverged) {
        if (stop) break;
        if (!fitted) {
          write_text_file(candidate_path, read_text_file(parent_file));
          candidate = parent_weights->w;
          const std::string hash = weights_hash(candidate);
          std::snprintf(row.weights_hash, sizeof row.weights_hash, "%s", hash.c_str());
        }
        const std::optional<std::vector<double>> tuned =
            spsa_step<G>(c, g, gdir, candidate_path, candidate_keys, stop);
        if (!tuned) {
          result.interrupted = true;
          break;
        }
        std::string moved;
        for (size_t i = 0; i < key_names.size(); ++i)
          moved += fmt::format("{}{} {} -> {}", i ? ", " : "", key_names[i],
                               config::detail::format_real(candidate_keys[i]),
                               config::detail::format_real((*tuned)[i]));
        const bool changed = *tuned != candidate_keys;
        candidate_keys = *tuned;
        progress.step_done("spsa", changed ? moved : "every key as it was: " + moved);
        if (changed) fitted = true;  // something to gate
      }

      // 3. The gate: candidate (A) against champion (B), SPRT. (A stop during the fit ends the loop
      // here: a resume fits again, deterministically.)
      if (stop) break;
      if (fitted) {
        const GateOutcome gate = gate_candidate<G>(c, step_seed(c.seed, g, Step::kGate),
                                                   {candidate_path, candidate_keys}, side(parent),
                                                   gdir + "/gate", options, stop);
        if (gate.match.interrupted) {
          result.interrupted = true;
          break;
        }
        set_gate_columns(row, gate.match);
        row.verdict = static_cast<uint8_t>(gate.verdict);
        if (gate.verdict == Verdict::kAccept) row.champion = g;
        set_reason(row, gate.reason);
        progress.step_done(
            "gate", fmt::format("{} {:+.1f} Elo [{:+.1f}, {:+.1f}]: {}", verdict_name(gate.verdict),
                                row.elo, row.elo_lo, row.elo_hi, gate.reason));

        // 3b. The anchor guard: an accepted candidate must also hold its parent's level against
        // generation 0, on the anchor match's games. Both results go in the row's anchor columns
        // (the champion's after this generation), so no anchor match repeats them.
        if (gate.verdict == Verdict::kAccept && c.anchor.guard) {
          LineageRow parent_anchor;
          if (parent == 0) {
            parent_anchor.anchor_elo = parent_anchor.anchor_elo_lo = parent_anchor.anchor_elo_hi =
                0;
          } else if (!reuse_anchor(lineage, parent, c.anchor.pairs, parent_anchor)) {
            const selfplay::MatchResult r =
                anchor_match<G>(c, side(parent), side(0), gdir + "/guard-parent", options, stop);
            if (r.interrupted) {
              result.interrupted = true;
              break;
            }
            set_anchor_columns(parent_anchor, r);
          }
          const selfplay::MatchResult r = anchor_match<G>(c, {candidate_path, candidate_keys},
                                                          side(0), gdir + "/guard", options, stop);
          if (r.interrupted) {
            result.interrupted = true;
            break;
          }
          LineageRow candidate_anchor;
          set_anchor_columns(candidate_anchor, r);
          apply_anchor_guard(row, candidate_anchor, parent_anchor, c.anchor.guard_margin,
                             gate.reason);
          progress.step_done("guard", reason_of(row));
        }
      }

      // 4. The anchor: the champion after this generation against generation 0.
      Lineage next = lineage;
      next.rows.push_back(row);
      const bool anchor_due =
          (c.anchor.every > 0 && g % c.anchor.every == 0) || !stop_reason(next, c.stop).empty();
      if (anchor_due && std::isnan(row.anchor_elo)) {
        if (stop) break;
        if (row.champion == 0) {
          row.anchor_elo = row.anchor_elo_lo = row.anchor_elo_hi = 0;
        } else if (!reuse_anchor(lineage, row.champion, c.anchor.pairs, row)) {
          const Side champion =
              row.champion == g ? Side{candidate_path, candidate_keys} : side(row.champion);
          const selfplay::MatchResult r =
              anchor_match<G>(c, champion, side(0), gdir + "/anchor", options, stop);
          if (r.interrupted) {
            result.interrupted = true;
            break;
          }
          set_anchor_columns(row, r);
        }
        progress.step_done("anchor",
                           fmt::format("champion gen {} against gen 0: {:+.1f} Elo [{:+.1f}, "
                                       "{:+.1f}] over {} pairs",
                                       row.champion, row.anchor_elo, row.anchor_elo_lo,
                                       row.anchor_elo_hi, row.anchor_pairs));
      }

      // 5. The lineage, then the champion it names.
      row.cpu_seconds = cpu_seconds_now() - cpu0;
      row.wall_seconds = std::chrono::duration<double>(Clock::now() - wall0).count();
      lineage.rows.push_back(row);
      lineage.weights.push_back(candidate);
      if (!key_names.empty()) lineage.engine_values.push_back(candidate_keys);
      write_lineage(lineage_path, lineage);
      publish_champion();
      progress.generation_done();
    }
    if (stop) result.interrupted = true;
    send_order({OrderKind::kEnd, false, ""});
    result.summary = format_lineage_table(lineage);
  }
  return result;
}

// A follower of a ranked loop (rank > 0, loop_ranks.hpp): plays its share of each campaign and
// match rank 0 orders, from the config file rank 0 wrote, until rank 0 says the loop ended.
// Returns whether a step was stopped (by a signal): the loop was then interrupted.
template <HostGame G>
bool follow_improve(const ImproveOptions& options, const std::atomic<bool>& stop) {
  bool interrupted = false;
  for (;;) {
    const StepOrder order = wait_order();
    if (order.kind == OrderKind::kEnd) return interrupted || stop;
    if (order.kind == OrderKind::kCampaign) {
      const auto o = step_options<selfplay::RunOptions>(order.resume, false, options.device);
      interrupted |=
          selfplay::run_campaign_ranks<G>(config::load_campaign_config<G>(order.config), o, stop)
              .interrupted;
    } else {
      const auto o = step_options<selfplay::MatchOptions>(order.resume, false, options.device);
      interrupted |=
          selfplay::run_match_ranks<G>(config::load_match_config<G>(order.config), o, stop)
              .interrupted;
    }
  }
}

}  // namespace sp::improve
