// Every key of a tune config, declared once. Defaults equal the initializers in tune_config.hpp.
#include "host/research/tune/tune_config.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "games/games.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/research/tune/game_features.hpp"

namespace sp::tune {

std::vector<SpsaParamConfig> read_spsa_params(const YAML::Node& v, config::Mark at,
                                              config::Document& doc, const std::string& path,
                                              bool with_start) {
  using config::Range;
  using config::detail::mark_of;
  std::vector<SpsaParamConfig> out;
  if (v.IsNull()) return out;
  const std::string shape =
      with_start ? "{name, start, min, max, c_end, r_end}" : "{name, min, max, c_end, r_end}";
  if (!v.IsSequence()) doc.fail(at, path, "expected a list of " + shape);
  std::vector<std::string> keys = {"name", "start", "min", "max", "c_end", "r_end"};
  if (!with_start) keys.erase(keys.begin() + 1);
  const Range any{-1e9, 1e9};
  for (const YAML::Node& item : v) {
    const config::Mark item_at = mark_of(item);
    SpsaParamConfig p;
    std::vector<bool> seen(keys.size(), false);
    config::detail::read_map(
        item, item_at, doc, path, keys,
        [&](size_t i, const YAML::Node& value, config::Mark value_at, const std::string& key_path) {
          seen[i] = true;
          const std::string& key = keys[i];
          if (key == "name") {
            // Which engine keys can be tuned depends on the engine: the caller checks the name.
            p.name = config::detail::read_string(value, value_at, doc, key_path, false);
            p.name_at = value_at;
            for (const auto& q : out)
              if (q.name == p.name) doc.fail(value_at, key_path, "parameter listed twice");
            return;
          }
          if (key == "min") p.min_at = value_at;
          if (key == "max") p.max_at = value_at;
          const bool positive = key == "c_end" || key == "r_end";
          const double x = config::detail::read_real(value, value_at, doc, key_path,
                                                     positive ? Range{0, 1e9, true, false} : any);
          (key == "start"   ? p.start
           : key == "min"   ? p.min
           : key == "max"   ? p.max
           : key == "c_end" ? p.c_end
                            : p.r_end) = x;
        });
    for (size_t i = 0; i < keys.size(); ++i)
      if (!seen[i] && keys[i] != "c_end" && keys[i] != "r_end")
        doc.fail(item_at, path, "missing key '" + keys[i] + "'");
    if (p.min > p.max) doc.fail(item_at, path, "min exceeds max");
    out.push_back(p);
  }
  return out;
}

std::string format_spsa_params(const std::vector<SpsaParamConfig>& params, bool with_start) {
  std::string out = "[";
  for (const auto& p : params)
    out += (out.size() > 1 ? ", " : "") +
           fmt::format("{{name: {}, {}min: {}, max: {}, c_end: {}, r_end: {}}}", p.name,
                       with_start ? "start: " + config::detail::format_real(p.start) + ", " : "",
                       config::detail::format_real(p.min), config::detail::format_real(p.max),
                       config::detail::format_real(p.c_end), config::detail::format_real(p.r_end));
  return out + "]";
}

namespace {

using config::ConfigError;
using config::Document;
using config::Mark;
using config::Range;
using config::Section;
using config::detail::join;
using config::detail::mark_of;
using config::detail::quote;

GameKey read_game(const YAML::Node& v, Mark at, Document& doc, const std::string& path) {
  if (v.IsNull()) return {};
  const std::string name = config::detail::read_string(v, at, doc, path, true);
  if (name.empty()) return {};
  if (!is_game(name)) {
    const std::string hint = config::closest_match(name, Games::names());
    doc.fail(at, path,
             "unknown game '" + name + "'" +
                 (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                 "; known games: " + game_names_text());
  }
  return {name, at};
}

std::string format_game(const GameKey& game) { return quote(game.name); }

std::string flow_list(const std::vector<std::string>& items, bool quoted) {
  std::string out = "[";
  for (const auto& s : items) out += (out.size() > 1 ? ", " : "") + (quoted ? quote(s) : s);
  return out + "]";
}

std::string comma_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::vector<InputPattern> read_inputs(const YAML::Node& v, Mark at, Document& doc,
                                      const std::string& path) {
  std::vector<InputPattern> out;
  if (v.IsNull()) return out;  // the check after loading says what is missing
  if (v.IsScalar()) {
    out.push_back({config::detail::read_string(v, at, doc, path, false), at});
    return out;
  }
  if (!v.IsSequence()) doc.fail(at, path, "expected a list of HDF5 files or globs, found a map");
  for (const YAML::Node& item : v) {
    const Mark item_at = mark_of(item);
    out.push_back({config::detail::read_string(item, item_at, doc, path, false), item_at});
  }
  if (out.empty()) doc.fail(at, path, "empty list: give at least one HDF5 file or glob");
  return out;
}

std::string format_inputs(const std::vector<InputPattern>& inputs) {
  std::vector<std::string> items;
  for (const auto& i : inputs) items.push_back(i.pattern);
  return flow_list(items, true);
}

std::vector<FeatureName> read_tune(const YAML::Node& v, Mark at, Document& doc,
                                   const std::string& path) {
  if (v.IsScalar() && v.Scalar() == "all") return {};
  std::vector<FeatureName> out;
  if (v.IsScalar()) {
    out.push_back({config::detail::read_string(v, at, doc, path, false), at});
    return out;
  }
  if (!v.IsSequence()) doc.fail(at, path, "expected all or a list of feature names");
  for (const YAML::Node& item : v) {
    const Mark item_at = mark_of(item);
    const std::string name = config::detail::read_string(item, item_at, doc, path, false);
    for (const FeatureName& f : out)
      if (f.name == name) doc.fail(item_at, path, "feature '" + name + "' is listed twice");
    out.push_back({name, item_at});
  }
  if (out.empty()) doc.fail(at, path, "empty list: name at least one feature, or write all");
  return out;
}

// data.skip_positions_with: a list of feature names and patterns; empty or null = none.
std::vector<FeatureName> read_skip(const YAML::Node& v, Mark at, Document& doc,
                                   const std::string& path) {
  if (v.IsNull() || (v.IsSequence() && v.size() == 0)) return {};
  if (v.IsScalar() && v.Scalar() == "all")
    doc.fail(at, path, "all would leave no position: name the features whose positions to skip");
  return read_tune(v, at, doc, path);
}

std::string format_skip(const std::vector<FeatureName>& skip) {
  std::vector<std::string> names;
  for (const FeatureName& f : skip) names.push_back(f.name);
  return flow_list(names, false);
}

std::string format_tune(const std::vector<FeatureName>& tune) {
  std::vector<std::string> names;
  for (const FeatureName& f : tune) names.push_back(f.name);
  return tune.empty() ? "all" : flow_list(names, false);
}

using Bounds = std::map<std::string, FeatureBounds>;

Bounds read_bounds(const YAML::Node& v, Mark at, Document& doc, const std::string& path) {
  Bounds out;
  if (v.IsNull()) return out;
  if (!v.IsMap()) doc.fail(at, path, "expected a map of feature: [lo, hi]");
  const Range range{-eval::kMaxWeight, eval::kMaxWeight};
  for (auto it = v.begin(); it != v.end(); ++it) {
    const YAML::Node key = it->first, value = it->second;
    const Mark key_at = mark_of(key);
    if (!key.IsScalar()) doc.fail(key_at, path, "keys must be feature names");
    const std::string name = key.Scalar();
    const std::string key_path = join(path, name);
    if (out.count(name)) doc.fail(key_at, key_path, "duplicate key");
    const Mark value_at = value.IsNull() ? key_at : mark_of(value);
    if (!value.IsSequence() || value.size() != 2)
      doc.fail(value_at, key_path, "expected [lo, hi], two numbers");
    const double lo = config::detail::read_real(value[0], mark_of(value[0]), doc, key_path, range);
    const double hi = config::detail::read_real(value[1], mark_of(value[1]), doc, key_path, range);
    if (lo > hi)
      doc.fail(value_at, key_path,
               "lower bound " + config::detail::format_real(lo) + " exceeds upper bound " +
                   config::detail::format_real(hi));
    doc.record(key_path, key_at);
    out[name] = {lo, hi, key_at};
  }
  return out;
}

std::string format_bounds(const Bounds& bounds) {
  std::string out = "{";
  for (const auto& [name, b] : bounds)
    out += (out.size() > 1 ? ", " : "") + name + ": [" + config::detail::format_real(b.lo) + ", " +
           config::detail::format_real(b.hi) + "]";
  return out + "}";
}

Section<TuneConfig::Data> data_schema() {
  using D = TuneConfig::Data;
  Section<D> s;
  s.node("inputs", &D::inputs, {}, "list of paths or globs", &read_inputs, &format_inputs,
         "campaign HDF5 files (selfplay run output) whose /positions are the training data");
  s.real("validation_fraction", &D::validation_fraction, 0.1, Range{0, 1, false, true},
         "share of the games (never of single positions) held out to measure the loss");
  s.integer("positions_per_game", &D::positions_per_game, 0, 0, 1 << 20,
            "at most this many positions per game, drawn by the seed; 0 = all stored");
  s.node("skip_positions_with", &D::skip_positions_with, {},
         "list of feature names and patterns such as *_to_five", &read_skip, &format_skip,
         "positions where any of these features is nonzero are left out (tactical positions, "
         "which the search decides, not the evaluation); before positions_per_game draws");
  return s;
}

Section<TuneConfig::WeightsKeys> weights_schema() {
  using W = TuneConfig::WeightsKeys;
  Section<W> s;
  s.string("initial", &W::initial, "", true,
           "weights file of the game to start from (method texel: required); K is fitted with "
           "these weights");
  s.string("output", &W::output, "", true,
           "weights file to write (method texel: required, or --out; replaced atomically); "
           "loadable like any weights file");
  s.string("name", &W::name, "tuned", false, "the name: written into the output file");
  s.node("tune", &W::tune, {},
         "all | list of feature names and patterns such as man_* (* any characters, ? one)",
         &read_tune, &format_tune, "the weights to fit; the others keep their initial values");
  s.node("bounds", &W::bounds, {}, "map of feature: [lo, hi]", &read_bounds, &format_bounds,
         "per-weight limits in the weights' own units; tuned values are clipped into them");
  return s;
}

Section<TuneConfig::K> k_schema() {
  using K = TuneConfig::K;
  Section<K> s;
  s.choice("method", &K::method, KSearch::kGolden,
           {{"golden", KSearch::kGolden}, {"grid", KSearch::kGrid}},
           "golden-section search or a log-spaced grid over [min, max]");
  s.real("min", &K::min, 1e-5, Range{0, 1e5, true, false}, "smallest K searched");
  s.real("max", &K::max, 10, Range{0, 1e5, true, false}, "largest K searched");
  s.integer("grid_points", &K::grid_points, 100, 2, 1'000'000,
            "grid: points from min to max, log-spaced");
  s.check([](const K& k, const Document& doc, const std::string& path) {
    if (k.min >= k.max)
      doc.fail_key(join(path, "max"), "must exceed k.min (" + config::detail::format_real(k.min) +
                                          "), found " + config::detail::format_real(k.max));
  });
  return s;
}

Section<TuneConfig::Texel> texel_schema() {
  using T = TuneConfig::Texel;
  Section<T> s;
  s.choice("optimizer", &T::optimizer, Optimizer::kAdam,
           {{"adam", Optimizer::kAdam}, {"gd", Optimizer::kGd}},
           "Adam or plain gradient descent, one full-batch step per epoch");
  s.choice("loss", &T::loss, Loss::kMse, {{"mse", Loss::kMse}, {"logloss", Loss::kLogLoss}},
           "mean squared error (R - p)^2 or log loss of p = sigmoid(K * w . x)");
  s.real("learning_rate", &T::learning_rate, 0.01, Range{0, 1000, true, false},
         "step size in logit units (K * weight), independent of the weights' scale");
  s.integer("epochs", &T::epochs, 300, 0, 10'000'000, "full passes over the training positions");
  s.real("l2", &T::l2, 0, Range{0, 1000}, "penalty l2 * sum of (K * weight)^2 over tuned weights");
  s.integer("report_every", &T::report_every, 10, 1, 10'000'000,
            "epochs between printed loss lines (the first and last are always printed)");
  s.string("log", &T::log, "", true,
           "CSV of the printed epochs (epoch, k, train_loss, validation_loss); \"\" = none");
  s.boolean("write_if_diverged", &T::write_if_diverged, false,
            "write weights.output even when the fit diverged (a loss that is not finite, or a "
            "final loss above the start); false: warn, write nothing and exit 1");
  return s;
}

Section<TuneConfig::MoveScores> move_scores_schema() {
  using M = TuneConfig::MoveScores;
  Section<M> s;
  s.node(
      "fit", &M::fit, {}, "true | false",
      [](const YAML::Node& v, Mark at, Document& doc, const std::string& path) {
        return TuneConfig::FitSwitch{config::detail::read_bool(v, at, doc, path), at};
      },
      [](const TuneConfig::FitSwitch& f) { return std::string(f.on ? "true" : "false"); },
      "fit the move-score table of the game's search (Gomoku: attack_* and defend_* per "
      "pattern code) to the moves played in the inputs' games; the fitted table goes to "
      "weights.output under move_scores:");
  s.only_if([](const M& x) { return x.fit.on; }, "with move_scores.fit");
  s.real("temperature", &M::temperature, 0, Range{0, 1e6},
         "T of the softmax over the candidates' scores / T; 0 = the T that fits the initial "
         "table best, then frozen");
  s.real("learning_rate", &M::learning_rate, 0.05, Range{0, 1000, true, false},
         "Adam's step, in units of score / T");
  s.integer("epochs", &M::epochs, 200, 0, 10'000'000, "full passes over the training choices");
  s.real("l2", &M::l2, 1e-4, Range{0, 1000},
         "penalty l2 * sum of ((entry - initial) / T)^2: entries the data rarely see stay near "
         "the initial table");
  s.integer("report_every", &M::report_every, 20, 1, 10'000'000,
            "epochs between printed lines (the first and last are always printed)");
  s.node("tune", &M::tune, {}, "all | list of entry names and patterns such as attack_*",
         &read_tune, &format_tune, "the entries to fit; the others keep the initial values");
  return s;
}

Section<SpsaSettings> spsa_schema() {
  using S = SpsaSettings;
  Section<S> s;
  s.string("match", &S::match, "", true,
           "match config (required): engines.player0 (A) is tuned, engines.player1 (B) is the "
           "opponent");
  s.integer("iterations", &S::iterations, 100, 1, 10'000'000, "SPSA iterations N");
  s.integer("pairs", &S::pairs, 4, 1, 1'000'000,
            "game pairs per iteration (per side unless mirror)");
  s.boolean("mirror", &S::mirror, true,
            "true: A plays theta + c_k Delta against B with theta - c_k Delta; false: both "
            "points play the fixed B and W - L is their difference");
  s.real("A", &S::big_a, -1, Range{-1, 1e9}, "stability constant A; -1 = 0.1 * iterations");
  s.real("alpha", &S::alpha, 0.602, Range{0, 10}, "a_k = a / (A + k)^alpha");
  s.real("gamma", &S::gamma, 0.101, Range{0, 10}, "c_k = c / k^gamma");
  s.string("output", &S::output, "out/spsa.h5", false, "HDF5 trajectory (/spsa table)");
  s.string("result", &S::result, "out/spsa_result.yaml", false,
           "final values, parameter: value (written atomically)");
  s.integer("threads", &S::threads, 0, 0, 4096, "cpu backend threads; 0 = the match config's");
  s.node(
      "parameters", &S::parameters, {}, "list of {name, start, min, max, c_end, r_end}",
      [](const YAML::Node& v, Mark at, Document& doc, const std::string& path) {
        return read_spsa_params(v, at, doc, path, true);
      },
      [](const std::vector<SpsaParamConfig>& p) { return format_spsa_params(p, true); },
      "tuned parameters: real-valued keys of engine A that apply to its type, e.g. exploration, "
      "eval_blend, eval_scale, progressive_bias (mcts) and the game's playout weights");
  return s;
}

const Section<TuneConfig>& schema() {
  static const Section<TuneConfig> s = [] {
    Section<TuneConfig> top;
    top.node("game", &TuneConfig::game, {}, "game name, or \"\"", &read_game, &format_game,
             "the game tuned (known: " + game_names_text() +
                 "); the inputs (texel) or spsa.match (spsa) must be of it; \"\" = theirs");
    top.choice("method", &TuneConfig::method, Method::kTexel,
               {{"texel", Method::kTexel}, {"spsa", Method::kSpsa}},
               "texel: fit the weights to game results of stored positions; spsa: tune engine "
               "parameters by matches");
    top.seed("seed", &TuneConfig::seed, 1,
             "seeds the validation split (a hash of game and seed) and per-game sampling");
    top.section("data", &TuneConfig::data, data_schema(), "training positions");
    top.section("weights", &TuneConfig::weights, weights_schema(),
                "which weights file to start from, which weights to fit, where to write");
    top.section("k", &TuneConfig::k, k_schema(),
                "the scale K in sigmoid(K * eval), fitted once on the training set, then frozen");
    top.section("texel", &TuneConfig::texel, texel_schema(), "the optimiser (method: texel)");
    top.section("move_scores", &TuneConfig::move_scores, move_scores_schema(),
                "the move-score table's fit (method: texel, games with one: Gomoku)");
    top.section("spsa", &TuneConfig::spsa, spsa_schema(), "method: spsa");
    top.check([](const TuneConfig& c, const Document& doc, const std::string&) {
      if (c.method == Method::kSpsa) {
        if (c.spsa.parameters.empty())
          doc.fail_key("spsa.parameters", "missing: list at least one parameter to tune");
        if (c.spsa.match.empty())
          doc.fail_key("spsa.match", "missing: the match config whose engines.player0 is tuned");
        return;
      }
      if (c.data.inputs.empty())
        doc.fail_key("data.inputs", "missing: list at least one campaign HDF5 file or glob");
      if (c.weights.tune.empty()) return;
      for (const auto& [name, b] : c.weights.bounds)
        if (std::none_of(c.weights.tune.begin(), c.weights.tune.end(),
                         [&](const FeatureName& f) { return feature_selected(f.name, name); }))
          doc.fail_key("weights.bounds." + name,
                       "bounds for '" + name + "', which weights.tune does not select");
    });
    return top;
  }();
  return s;
}

}  // namespace

TuneConfig load_tune_config_text(const std::string& text, const std::string& name) {
  TuneConfig c = schema().load(text, name);
  c.source_path = name;
  c.source_text = text;
  if (!c.game.name.empty()) {  // else run_tune checks the features, knowing the inputs' game
    const GameFeatures features = game_features(c.game.name);
    if (!features.names.empty())
      check_features(c, features.game, features.names);
    else if (c.method == Method::kTexel)
      fail_at(c, c.game.at, "game", no_features_text(features.game));
    check_move_scores(c, features.game, features.move_scores.names);
  }
  return c;
}

void check_features(const TuneConfig& config, const std::string& game,
                    std::span<const std::string_view> names) {
  const std::vector<std::string> known(names.begin(), names.end());
  const auto check = [&](const std::string& name, Mark at, const std::string& path) {
    if (std::find(known.begin(), known.end(), name) != known.end()) return;
    if (is_feature_pattern(name)) {
      if (std::any_of(known.begin(), known.end(),
                      [&](const std::string& k) { return feature_selected(name, k); }))
        return;
      fail_at(config, at, path,
              "the pattern " + quote(name) + " selects none of the features of " + game);
    }
    const std::string hint = config::closest_match(name, known);
    fail_at(config, at, path,
            "unknown feature " + quote(name) +
                (hint.empty() ? "; the features of " + game + ": " + comma_list(known)
                              : ", did you mean '" + hint + "'?"));
  };
  for (const FeatureName& f : config.weights.tune) check(f.name, f.at, "weights.tune");
  for (const FeatureName& f : config.data.skip_positions_with)
    check(f.name, f.at, "data.skip_positions_with");
  for (const auto& [name, b] : config.weights.bounds) check(name, b.at, "weights.bounds." + name);
}

void check_move_scores(const TuneConfig& config, const std::string& game,
                       std::span<const std::string_view> names) {
  const TuneConfig::MoveScores& m = config.move_scores;
  if (!m.fit.on && m.tune.empty()) return;
  if (names.empty()) {
    const std::string why =
        game + " has no move-score table (only Gomoku's pattern search has one)";
    if (m.fit.on) fail_at(config, m.fit.at, "move_scores.fit", why);
    fail_at(config, m.tune.front().at, "move_scores.tune", why);
  }
  const std::vector<std::string> known(names.begin(), names.end());
  for (const FeatureName& f : m.tune) {
    if (std::any_of(known.begin(), known.end(),
                    [&](const std::string& k) { return feature_selected(f.name, k); }))
      continue;
    const std::string hint = is_feature_pattern(f.name) ? "" : config::closest_match(f.name, known);
    fail_at(config, f.at, "move_scores.tune",
            (is_feature_pattern(f.name) ? "the pattern " + quote(f.name) + " selects no entry"
                                        : "unknown entry " + quote(f.name)) +
                (hint.empty() ? " of the move-score table of " + game +
                                    " (attack_DDDD and defend_DDDD per pattern code)"
                              : ", did you mean '" + hint + "'?"));
  }
}

TuneConfig load_tune_config(const std::string& path) {
  return load_tune_config_text(config::read_config_file(path), path);
}

std::string explain_tune_config(const TuneConfig& config) {
  return "# Effective selfplay tune configuration: every key, defaults filled in.\n" +
         schema().explain(config);
}

void fail_at(const TuneConfig& config, Mark at, const std::string& path, const std::string& what) {
  Document(config.source_path).fail(at, path, what);
}

}  // namespace sp::tune
