// `selfplay improve` configs (YAML): the research loop's keys, declared once like the campaign and
// match keys, from which they borrow their sections: `rules:` and `selfplay:` are a campaign's,
// `champion:` is an engine's, `gate:` a match's. configs/<game>/improve.yaml are the commented
// examples; docs/improve.md explains the loop.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "core/errors.hpp"
#include "games/games.hpp"
#include "games/hosts.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/config/game_schema.hpp"
#include "host/play/config/load.hpp"
#include "host/research/tune/spsa.hpp"
#include "host/research/tune/spsa_game.hpp"
#include "host/research/tune/texel.hpp"

namespace sp::improve {

// data: which positions a generation's fit reads.
struct DataSettings {
  uint32_t window = 2;               // campaigns of the last `window` generations
  double validation_fraction = 0.1;  // of their games, held out
  uint32_t positions_per_game = 0;   // 0 = every stored position
  std::vector<std::string>
      skip_positions_with;  // features: positions where one is nonzero left out
};

// tune.spsa: the optional second step of each generation: SPSA (host/research/tune/spsa.hpp) of
// real-valued keys of the champion engine (exploration, eval_blend, eval_scale, progressive_bias
// of mcts, the game's playout weights), starting from the champion's values and played with the
// candidate's weights on the gate's settings.
struct SpsaStepSettings {
  std::vector<tune::SpsaParamConfig> parameters;  // empty: no SPSA step
  uint32_t iterations = 20;
  uint32_t pairs = 4;  // game pairs per iteration
  bool mirror = true;
  double big_a = -1;  // A; < 0 means 0.1 * iterations
  double alpha = 0.602, gamma = 0.101;
};

// tune: the Texel fit of each generation (the keys of a tune config's texel: section).
struct TuneSettings {
  tune::Optimizer optimizer = tune::Optimizer::kAdam;
  tune::Loss loss = tune::Loss::kMse;
  double learning_rate = 0.01;
  uint32_t epochs = 200;
  double l2 = 0;
  std::vector<std::string> features;  // tuned features; empty = all
  // A fit whose validation loss does not fall (the weights', nor with move_scores.fit the changed
  // move-score table's) is rejected without a gate; false: every fit that changed a weight goes
  // to the gate.
  bool require_validation_gain = true;
  // tune.move_scores: the fit of the move-score table too (a tune config's move_scores: keys).
  struct MoveScores {
    bool fit = false;
    double temperature = 0;
    double learning_rate = 0.05;
    uint32_t epochs = 200;
    double l2 = 1e-4;
  } move_scores;
  SpsaStepSettings spsa;
};

// gate: the anchor match's size and cadence (the rest of gate: is a match config's).
struct AnchorSettings {
  uint32_t every = 5;    // generations between anchor matches; 0 = only at the end
  uint32_t pairs = 200;  // game pairs of each anchor match (fixed length, no SPRT)
  // A candidate the SPRT accepted is kept only when its anchor match against generation 0 scores
  // at least its parent's less guard_margin Elo: a candidate can beat its parent and still play
  // worse against the rest (the gate is head-to-head only).
  bool guard = false;
  double guard_margin = 0;
};

// gate.references: an engine of its own config file (engines.player0 of a campaign or engine
// config, of any type a match plays: alpha-beta, MCTS, an external or pbrain program) that the
// champion plays on the anchor's games at each anchor match, and that every candidate the SPRT
// accepted plays before it is kept when gate.anchor_guard is on: the gauntlet.
template <HostGame G>
struct Reference {
  std::string name;  // the file's stem: the lineage's and the match files' name for it
  std::string path;  // absolute
  config::EngineConfig engine;
  typename G::Policy policy{};
};

// stop: when the loop ends (whichever comes first).
struct StopSettings {
  uint32_t generations = 10;  // generations played in all, resumed runs included
  double wall_seconds = 0;    // no generation starts after this much wall time; 0 = no limit
  uint32_t rejections = 3;    // consecutive rejected candidates; 0 = never stop for them
};

template <HostGame G>
struct ImproveConfig {
  std::string game = G::kName;
  uint64_t seed = 1;  // every step's seed derives from (seed, generation, step)
  // The campaign each generation plays: rules, campaign (games, concurrency, paired), engines,
  // backend and output (positions_per_game, flush_seconds). Its seed and output path are the
  // loop's. Engines whose weights are champion.weights play with the generation's champion.
  config::Config<G> selfplay;
  // The gate match: engines[0] is the champion engine as the `champion:` keys give it (its
  // weights are generation 0's); the loop puts the candidate's weights in engine A and the
  // champion's in engine B. rules (gate.rules, else the top-level rules), concurrency, pairs and
  // sprt come from `gate:`, the backend from selfplay.backend.
  config::Config<G> gate;
  AnchorSettings anchor;
  std::vector<Reference<G>> references;
  DataSettings data;
  TuneSettings tune;
  StopSettings stop;
  std::string source_path, source_text;
};

namespace detail {

inline const std::vector<std::pair<std::string, tune::Optimizer>>& optimizer_names() {
  static const std::vector<std::pair<std::string, tune::Optimizer>> v{
      {"adam", tune::Optimizer::kAdam}, {"gd", tune::Optimizer::kGd}};
  return v;
}
inline const std::vector<std::pair<std::string, tune::Loss>>& loss_names() {
  static const std::vector<std::pair<std::string, tune::Loss>> v{{"mse", tune::Loss::kMse},
                                                                 {"logloss", tune::Loss::kLogLoss}};
  return v;
}

// tune.features: `all` or a list of the game's feature names and patterns (tune::feature_selected),
// each once; a pattern must select at least one feature.
std::vector<std::string> read_feature_list(const YAML::Node& v, config::Mark at,
                                           config::Document& doc, const std::string& path,
                                           const std::vector<std::string>& known);
std::string format_feature_list(const std::vector<std::string>& features);

// The keys of improve configs that name no game's types.
config::Section<DataSettings> data_keys(const std::vector<std::string>& known);
config::Section<StopSettings> stop_keys();
config::Section<AnchorSettings> anchor_keys();
config::Section<SpsaStepSettings> spsa_step_keys();

// selfplay.campaign.seed and gate.seed, which the loop sets: refused with that reason (the schema
// would call them unknown keys).
void refuse_seeds(const YAML::Node& root, config::Document& doc);

// The checks that need the whole document: keys the loop sets itself (campaign seeds, output
// paths), a gate that cannot decide. Throws ConfigError at the key.
void check_loop_keys(const config::Document& doc, const config::CampaignConfig& selfplay,
                     const config::CampaignConfig& gate);

// The name of a reference from its file: the stem, kept to letters, digits, '.', '_' and '-'
// (the others become '-') so that it names its match files.
std::string reference_name(const std::string& path);

// gate.references: a list of engine config files, each read as a campaign config of game G (its
// engines.player0 is the reference), each once, their names distinct. An error in a file is
// reported at its item with the file's own message.
template <HostGame G>
std::vector<Reference<G>> read_references(const YAML::Node& v, config::Mark at,
                                          config::Document& doc, const std::string& path) {
  if (v.IsNull()) return {};
  if (!v.IsSequence()) doc.fail(at, path, "must be a list of engine config files");
  std::vector<Reference<G>> out;
  for (const YAML::Node& item : v) {
    const config::Mark item_at = config::detail::mark_of(item);
    const std::string text = config::detail::read_string(item, item_at, doc, path, false);
    Reference<G> r;
    r.path = config::detail::resolve_path(doc.name(), text);
    r.name = reference_name(r.path);
    for (const Reference<G>& other : out)
      if (other.name == r.name)
        doc.fail(item_at, path,
                 "two references named '" + r.name + "' (" + other.path + ", " + r.path +
                     "): the file names (stems) name them and must differ");
    try {
      const config::Config<G> cfg = config::load_campaign_config<G>(r.path);
      r.engine = cfg.engines[0];
      r.policy = cfg.policies[0];
    } catch (const InputError& e) {  // ConfigError too: its message names the file's line
      doc.fail(item_at, path, std::string("reference ") + text + ": " + e.what());
    }
    out.push_back(std::move(r));
  }
  return out;
}

template <HostGame G>
std::string format_references(const std::vector<Reference<G>>& refs) {
  std::string out = "[";
  for (size_t i = 0; i < refs.size(); ++i)
    out += (i ? ", " : "") + config::detail::quote(refs[i].path);
  return out + "]";
}

// A reference's engine as the YAML an engine section writes (every key): what the loop's identity
// compares, so that a reference whose file changed is not taken for the one a loop started with.
template <HostGame G>
std::string explain_reference(const Reference<G>& r) {
  config::Config<G> scratch{};
  scratch.engines[0] = r.engine;
  scratch.policies[0] = r.policy;
  return config::engine_section<G>(0).explain(scratch, true);
}

}  // namespace detail

template <HostGame G>
config::Section<ImproveConfig<G>> improve_schema() {
  using C = ImproveConfig<G>;
  using config::Section;
  const auto selfplay = [](C& c) -> config::Config<G>& { return c.selfplay; };
  const auto gate = [](C& c) -> config::Config<G>& { return c.gate; };
  Section<C> s;
  s.choice(
      "game", [](C& c) -> std::string& { return c.game; }, std::string(G::kName),
      {{G::kName, G::kName}}, std::string("the game: ") + GameHost<G>::kTitle);
  s.seed("seed", &C::seed, 1,
         "loop seed: each generation's campaign, fit and gate seeds derive from (seed, "
         "generation, step)");
  s.section(
      "rules", [](C& c) -> typename GameHost<G>::Settings& { return c.selfplay.rules; },
      GameHost<G>::settings_section(), "rules variant and how games start (self-play and gate)");

  Section<config::Config<G>> champion = config::engine_section<G>(0);
  s.section("champion", gate, std::move(champion),
            "the engine whose weights the loop improves; its weights: are generation 0");

  Section<config::Config<G>> play;
  {
    Section<config::Config<G>> campaign;
    campaign.include([](config::Config<G>& c) -> config::CampaignConfig& { return c; },
                     config::campaign_keys(false, false));
    const auto self = [](config::Config<G>& c) -> config::Config<G>& { return c; };
    play.section("campaign", self, std::move(campaign),
                 "games per generation, games at once, paired (the seed is the loop's)");
    Section<config::Config<G>> engines;
    engines.section("player0", self, config::engine_section<G>(0), "the engine playing player 0");
    engines.section("player1", self, config::engine_section<G>(1), "the engine playing player 1");
    play.section("engines", self, std::move(engines),
                 "one engine per player; weights equal to champion.weights follow the champion");
    play.section("backend", &config::Config<G>::backend, config::backend_keys(),
                 "where playouts run (self-play, gate and anchor matches)");
    play.section("output", &config::Config<G>::output,
                 config::output_keys("", search::hooks::HasQuiet<G>),
                 "positions stored per game, flush interval (the path is the loop's)");
  }
  s.section("selfplay", selfplay, std::move(play), "the campaign each generation plays");

  Section<TuneSettings> fit;
  fit.choice("optimizer", &TuneSettings::optimizer, tune::Optimizer::kAdam,
             detail::optimizer_names(), "adam | gd (plain gradient descent); full-batch steps");
  fit.choice("loss", &TuneSettings::loss, tune::Loss::kMse, detail::loss_names(),
             "mse: mean of (R - p)^2 | logloss: mean of -R log p - (1-R) log(1-p)");
  fit.real("learning_rate", &TuneSettings::learning_rate, 0.01, config::Range{0, 10, true, false},
           "step size in logit units (K * weight)");
  fit.integer("epochs", &TuneSettings::epochs, 200, 1, 10'000'000,
              "full passes over the training positions");
  fit.real("l2", &TuneSettings::l2, 0, config::Range{0, 1e6},
           "adds l2 * sum of (K * weight)^2 over the tuned weights");
  std::vector<std::string> known;
  if constexpr (FeatureGame<G>)
    for (const std::string_view f : G::feature_names()) known.emplace_back(f);
  fit.node(
      "features", &TuneSettings::features, {},
      "all, or a list of the game's features and patterns such as man_*",
      [known](const YAML::Node& v, config::Mark at, config::Document& doc,
              const std::string& path) {
        return detail::read_feature_list(v, at, doc, path, known);
      },
      detail::format_feature_list, "the weights the fit may change; the others keep their value");
  fit.boolean("require_validation_gain", &TuneSettings::require_validation_gain, true,
              "reject a fit whose validation loss does not fall (the weights', nor with "
              "move_scores.fit the changed move-score table's) without playing its gate; false: "
              "the gate decides every fit");
  {
    using M = TuneSettings::MoveScores;
    Section<M> m;
    m.boolean("fit", &M::fit, false,
              "each fit also fits the move-score table of the game's search (Gomoku's pattern "
              "search) to the moves played in the window's games (tune's move_scores:)");
    m.only_if([](const M& x) { return x.fit; }, "with tune.move_scores.fit");
    m.real("temperature", &M::temperature, 0, config::Range{0, 1e6},
           "T of the softmax over the candidates' scores / T; 0 = fitted to the parent's table");
    m.real("learning_rate", &M::learning_rate, 0.05, config::Range{0, 1000, true, false},
           "Adam's step, in units of score / T");
    m.integer("epochs", &M::epochs, 200, 0, 10'000'000, "full passes over the training moves");
    m.real("l2", &M::l2, 1e-4, config::Range{0, 1000},
           "penalty l2 * sum of ((entry - parent's) / T)^2");
    if constexpr (eval::MoveScoreGame<G>)
      fit.section("move_scores", &TuneSettings::move_scores, std::move(m),
                  "the move-score table's fit (games with one: Gomoku)");
  }
  fit.section("spsa", &TuneSettings::spsa, detail::spsa_step_keys(),
              "optional second step: SPSA of the champion engine's real-valued keys");
  s.section("data", &C::data, detail::data_keys(known), "which positions each fit reads");
  s.section("tune", &C::tune, std::move(fit), "the Texel fit of each generation");

  Section<C> g;
  g.section(
      "rules", [](C& c) -> typename GameHost<G>::Settings& { return c.gate.rules; },
      GameHost<G>::settings_section(),
      "the gate's and anchor's rules and openings; omitted: the top-level rules");
  g.include([](C& c) -> config::CampaignConfig& { return c.gate; },
            config::campaign_keys(true, false));
  g.include([](C& c) -> config::MatchSettings& { return c.gate.match; }, config::match_keys());
  g.include(&C::anchor, detail::anchor_keys());
  g.node(
      "references", &C::references, {}, "list of engine config files, relative to this file",
      [](const YAML::Node& v, config::Mark at, config::Document& doc, const std::string& path) {
        return detail::read_references<G>(v, at, doc, path);
      },
      detail::format_references<G>,
      "engines (engines.player0 of each file, any type a match plays) the champion plays at each "
      "anchor match; with anchor_guard an accepted candidate must hold its parent's level "
      "against each (the gauntlet)");
  s.section(
      "gate", [](C& c) -> C& { return c; }, std::move(g),
      "candidate (A) against champion (B), the champion's engine settings on both sides");
  s.section("stop", &C::stop, detail::stop_keys(), "when the loop ends");
  return s;
}

template <HostGame G>
const config::Section<ImproveConfig<G>>& improve_config_schema() {
  static const config::Section<ImproveConfig<G>> s = improve_schema<G>();
  return s;
}

// Reads an improve config of game G. Throws ConfigError "FILE:LINE:COLUMN: key 'a.b': what is
// wrong" as campaign configs do, and for keys the loop sets itself (selfplay.campaign.seed,
// selfplay.output.path, gate.seed), a champion without weights, a game without evaluation
// features, and a gate without its SPRT (gate.sprt.enabled: false: an undecided gate rejects, so
// it would reject every candidate).
template <HostGame G>
ImproveConfig<G> load_improve_config_text(const std::string& text, const std::string& name) {
  const auto& schema = improve_config_schema<G>();
  config::Document doc(name);
  const YAML::Node root = doc.parse(text);
  ImproveConfig<G> c{};
  schema.apply_defaults(c);
  detail::refuse_seeds(root, doc);
  try {
    schema.read(c, root, config::detail::mark_of(root), doc, "");
  } catch (const YAML::Exception& e) {
    doc.fail(config::detail::mark_of(root), "", std::string("YAML error: ") + e.what());
  }
  if constexpr (!FeatureGame<G>)
    doc.fail_key("game", std::string(G::kName) +
                             " has no evaluation features: improve tunes evaluation weights");
  detail::check_loop_keys(doc, c.selfplay, c.gate);
  // A first fit reads one generation's games: with fewer than one held out, its validation loss
  // is NaN, and a fit that must improve it could never be judged.
  if (c.tune.require_validation_gain &&
      c.data.validation_fraction * static_cast<double>(c.selfplay.games) < 1)
    doc.fail_key("data.validation_fraction",
                 "holds out fewer than one of the " + std::to_string(c.selfplay.games) +
                     " games a first fit reads, and tune.require_validation_gain judges every fit "
                     "by them: raise it to at least " +
                     std::to_string(1.0 / static_cast<double>(c.selfplay.games)) +
                     ", or set tune.require_validation_gain: false");
  if (!doc.was_set("gate.rules")) c.gate.rules = c.selfplay.rules;
  c.gate.engines[1] = c.gate.engines[0];
  c.gate.policies[1] = c.gate.policies[0];
  c.gate.backend = c.selfplay.backend;
  c.gate.paired = true;
  c.gate.games = 2 * c.gate.match.pairs;
  // tune.spsa.parameters: keys of the champion engine SPSA can tune, with bounds it can hold.
  if (!c.tune.spsa.parameters.empty()) {
    const tune::SpsaKeys<G> keys;
    const std::vector<config::KeyInfo> champion_keys = keys.keys(c.gate, 0);
    const std::string engine =
        "the champion engine (champion:, type " + keys.type_text(c.gate) + ")";
    for (const tune::SpsaParamConfig& p : c.tune.spsa.parameters) {
      tune::check_spsa_name(p, champion_keys, engine, doc, "tune.spsa.parameters");
      config::Config<G> scratch = c.gate;
      try {
        keys.set(scratch, 0, p.name, p.min, p.min_at, doc, "tune.spsa.parameters.min");
        keys.set(scratch, 0, p.name, p.max, p.max_at, doc, "tune.spsa.parameters.max");
      } catch (const config::ConfigError& e) {
        throw config::ConfigError(std::string(e.what()) + " (the range of " + p.name + ")");
      }
    }
  }
  c.source_path = name;
  c.source_text = text;
  return c;
}
template <HostGame G>
ImproveConfig<G> load_improve_config(const std::string& path) {
  return load_improve_config_text<G>(config::read_config_file(path), path);
}

// The effective configuration as commented YAML, every key with its default filled in (all: the
// keys that do not apply too, as identities compare them). Loading it gives the same config.
template <HostGame G>
std::string explain_improve_config(const ImproveConfig<G>& c, bool all = false) {
  return "# Effective selfplay improve configuration: every key that applies, defaults filled "
         "in.\n" +
         improve_config_schema<G>().explain(c, all);
}

}  // namespace sp::improve
