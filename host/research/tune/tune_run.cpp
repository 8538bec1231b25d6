#include "host/research/tune/tune_run.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "core/errors.hpp"
#include "host/base/system/atomic_file.hpp"
#include "host/base/system/build_info.hpp"
#include "host/base/system/system.hpp"
#include "host/research/tune/output_paths.hpp"

namespace sp::tune {
namespace {

// Text safe inside a one-line YAML comment.
std::string one_line(std::string s) {
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return s;
}

std::string loss_text(double v) {
  return std::isnan(v) ? std::string("-") : fmt::format("{:.6f}", v);
}

const char* loss_name(Loss l) { return l == Loss::kMse ? "mse" : "logloss"; }
const char* optimizer_name(Optimizer o) { return o == Optimizer::kAdam ? "adam" : "gd"; }
const char* search_name(KSearch s) { return s == KSearch::kGolden ? "golden-section" : "grid"; }

}  // namespace

std::string weights_yaml(const TuneConfig& config, const eval::Weights& initial,
                         const TuneReport& r) {
  const TuneConfig::Texel& t = config.texel;
  std::string out;
  out += "# Texel-tuned " + one_line(r.game) +
         " evaluation weights, written by `selfplay tune`: p = sigmoid(K * w . x)\n";
  out += "# fitted to the game results of self-play positions. Provenance:\n";
  out += "#   config        " + one_line(r.config_path) + "\n";
  out += "#   game          " + one_line(r.game) + "\n";
  out += "#   date (UTC)    " + r.date_utc + "\n";
  out += "#   git commit    " + one_line(r.git_commit) + "\n";
  out += "#   program       " + build::program_text() + "\n";
  out += "#   initial       " + one_line(r.initial_path) + " (" + one_line(r.initial_name) + ")\n";
  for (size_t i = 0; i < r.files.size(); ++i) {
    const FileSummary& f = r.files[i];
    out += fmt::format("#   {:<13} {} ({} positions of {} games)\n", i == 0 ? "inputs" : "",
                       one_line(f.path), f.positions, f.games);
  }
  for (const DuplicateFile& d : r.duplicates)
    out += fmt::format("#   {:<13} {} (the same {} as {})\n", "not counted", one_line(d.path),
                       d.same_inode ? "file" : "bytes", one_line(d.same_as));
  out +=
      fmt::format("#   train         {} positions of {} games\n", r.train_positions, r.train_games);
  out += fmt::format("#   validation    {} positions of {} games (fraction {}, seed {})\n",
                     r.validation_positions, r.validation_games, config.data.validation_fraction,
                     config.seed);
  out += fmt::format("#   K             {} ({} search on [{}, {}], loss {})\n",
                     config::detail::format_real(r.k.k), search_name(config.k.method), config.k.min,
                     config.k.max, loss_name(t.loss));
  out += fmt::format("#   train loss    {} -> {}\n", loss_text(r.result.before.train_loss),
                     loss_text(r.result.after.train_loss));
  out += fmt::format("#   valid. loss   {} -> {}\n", loss_text(r.result.before.validation_loss),
                     loss_text(r.result.after.validation_loss));
  out += fmt::format("#   optimiser     {}, learning rate {}, {} epochs, l2 {}\n",
                     optimizer_name(t.optimizer), t.learning_rate, t.epochs, t.l2);
  if (!r.result.diverged.empty())
    out += "#   WARNING       the fit diverged: " + one_line(r.result.diverged) +
           "; written because texel.write_if_diverged is set\n";
  out += "\n";
  out += "name: " + config::detail::quote(config.weights.name) + "\n";
  out +=
      "description: " +
      config::detail::quote(fmt::format(
          "Texel-tuned from {} positions of {} games, starting from {}; validation loss {} -> {}",
          r.train_positions, r.train_games, one_line(r.initial_name),
          loss_text(r.result.before.validation_loss), loss_text(r.result.after.validation_loss))) +
      "\n";
  out += "weights:\n";
  for (size_t i = 0; i < r.feature_names.size(); ++i) {
    const std::string line =
        "  " + r.feature_names[i] + ": " + config::detail::format_real(r.result.weights[i]);
    // At least one blank before the comment: YAML reads "1.5# x" as one scalar (found with
    // checkers' longer feature names).
    out +=
        fmt::format("{:<40}{}# {} {}\n", line, line.size() >= 40 ? " " : "",
                    r.tuned[i] ? "initial" : "fixed at", config::detail::format_real(initial.w[i]));
  }
  // The move-score table: fitted (move_scores.fit), or the initial file's as it gave them; the
  // entries that differ from the defaults.
  const MoveScoreReport* fit = r.fitted_move_scores ? &*r.fitted_move_scores : nullptr;
  const std::vector<double>& table = fit ? fit->result.weights : initial.move_scores;
  std::string scores;
  for (size_t i = 0; i < table.size() && i < r.move_scores.names.size(); ++i)
    if (table[i] != r.move_scores.defaults[i])
      scores += "  " + std::string(r.move_scores.names[i]) + ": " +
                config::detail::format_real(table[i]) + "\n";
  if (fit) {
    const MoveScoreEpoch &a = fit->result.history.front(), &b = fit->result.history.back();
    const bool valid = fit->validation_choices > 0;
    const ChoiceStats &before = valid ? a.validation : a.train,
                      &after = valid ? b.validation : b.train;
    out += fmt::format(
        "move_scores:  # fitted to {} moves (validation {}): softmax of score / T, T {} ({}), "
        "{} epochs, l2 {}; {} loss {:.4f} -> {:.4f}, first in the order {:.1f}% -> {:.1f}%, "
        "among the first five {:.1f}% -> {:.1f}%; entries not listed keep the ladder's values\n",
        fit->train_choices, fit->validation_choices, config::detail::format_real(fit->temperature),
        fit->temperature_fitted ? "fitted" : "given", config.move_scores.epochs,
        config.move_scores.l2, valid ? "validation" : "training", before.loss, after.loss,
        100 * before.top1, 100 * after.top1, 100 * before.top5, 100 * after.top5);
    out += scores.empty() ? "  {}\n" : scores;
  } else if (!scores.empty()) {
    out += "move_scores:  # the initial file's, as it gave them (not fitted)\n" + scores;
  }
  return out;
}

std::string setting_name(const TuneConfig& config, const std::string& key) {
  if (const auto it = config.overridden_by.find(key); it != config.overridden_by.end())
    return "option " + it->second;
  return config.source_path + ": key '" + key + "'";
}

void check_spsa_outputs(const TuneConfig& config) {
  const SpsaSettings& s = config.spsa;
  const std::string output = setting_name(config, "spsa.output");
  const std::string result = setting_name(config, "spsa.result");
  check_writable_file(s.output, output);
  check_writable_file(s.result, result);
  const std::vector<ReadFile> read = {{config.source_path, "the tune config"},
                                      {s.match, "spsa.match"}};
  check_not_an_input(s.output, output, read);
  check_not_an_input(s.result, result, read);
  if (same_file(s.output, s.result))
    throw InputError(result + ": " + excerpt(s.result) +
                     " is also spsa.output; the trajectory and the result need two files");
}

MoveScoreReport fit_move_score_table(const TuneConfig& config,
                                     const std::vector<std::string>& files, const std::string& game,
                                     const eval::MoveScoreSpec& spec,
                                     const std::vector<double>& initial, std::FILE* out) {
  const TuneConfig::MoveScores& c = config.move_scores;
  check_move_scores(config, game, spec.names);
  if (!has_move_choices(game))
    fail_at(config, c.fit.at, "move_scores.fit",
            game + " does not say which moves its search orders: no choices to fit");
  MoveScoreReport r;
  LoadedChoices loaded = load_move_choices(files, game);
  r.files = loaded.files;
  for (const ChoiceFileSummary& f : loaded.files)
    fmt::print(out, "moves       {} ({} choices in {} plies of {} games{})\n", f.path, f.choices,
               f.plies, f.games,
               f.unreplayed ? fmt::format("; {} games did not replay (selfplay verify says why)",
                                          f.unreplayed)
                            : std::string());
  if (loaded.choices.size() == 0)
    fail_at(config, c.fit.at, "move_scores.fit",
            "no move of the inputs' finished games is a choice of the search's ordering (no "
            "finished games, or only forced moves)");
  ChoiceSplit split =
      split_choices_by_game(loaded.choices, config.data.validation_fraction, config.seed);
  r.train_choices = split.train.size();
  r.validation_choices = split.validation.size();
  if (r.train_choices == 0)
    throw InputError(config.source_path +
                     ": key 'data.validation_fraction': every move choice went to the validation "
                     "set; lower the fraction or add games");
  const std::vector<double> w0 =
      initial.empty() ? std::vector<double>(spec.defaults.begin(), spec.defaults.end()) : initial;
  if (c.temperature > 0) {
    r.temperature = c.temperature;
  } else {
    try {
      const TemperatureFit t = fit_temperature(split.train, w0, 1e-3, 1e7);
      r.temperature = t.t;
      r.temperature_fitted = true;
    } catch (const InputError& e) {
      throw InputError(config.source_path + ": key 'weights.initial': " + e.what());
    }
  }
  MoveScoreFitOptions o;
  o.learning_rate = c.learning_rate;
  o.epochs = c.epochs;
  o.l2 = c.l2;
  o.report_every = c.report_every;
  o.bound = eval::kMaxWeight;
  o.tuned.assign(w0.size(), c.tune.empty());
  for (size_t j = 0; j < w0.size(); ++j)
    for (const FeatureName& f : c.tune)
      o.tuned[j] = o.tuned[j] || feature_selected(f.name, spec.names[j]);
  r.tuned = static_cast<size_t>(std::count(o.tuned.begin(), o.tuned.end(), true));
  fmt::print(out,
             "move scores train {} choices ({:.1f} candidates each), validation {}; T {:.6g} ({}); "
             "fitting {} of {} entries, learning rate {}, {} epochs, l2 {}\n",
             r.train_choices,
             static_cast<double>(split.train.candidates()) / static_cast<double>(r.train_choices),
             r.validation_choices, r.temperature,
             r.temperature_fitted ? "fitted to the initial table" : "move_scores.temperature",
             r.tuned, w0.size(), c.learning_rate, c.epochs, c.l2);
  fmt::print(out, "{:>8}  {:>10}  {:>10}  {:>10}  {:>10}  {:>10}  {:>10}\n", "epoch", "train loss",
             "top-1", "top-5", "valid loss", "top-1", "top-5");
  r.result = fit_move_scores(
      split.train, split.validation, w0, r.temperature, o, [&](const MoveScoreEpoch& e) {
        fmt::print(out,
                   "{:>8}  {:>10.5f}  {:>9.2f}%  {:>9.2f}%  {:>10.5f}  "
                   "{:>9.2f}%  {:>9.2f}%\n",
                   e.epoch, e.train.loss, 100 * e.train.top1, 100 * e.train.top5, e.validation.loss,
                   100 * e.validation.top1, 100 * e.validation.top5);
        std::fflush(out);
      });
  // The search rounds each entry to an integer: the file holds what it will use.
  for (double& v : r.result.weights) v = std::round(v);
  // The largest changes, for the reader.
  std::vector<size_t> order(w0.size());
  for (size_t j = 0; j < order.size(); ++j) order[j] = j;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::abs(r.result.weights[a] - w0[a]) > std::abs(r.result.weights[b] - w0[b]);
  });
  fmt::print(out, "\n{:<16}{:>10}  {:>10}  {:>12}\n", "entry", "initial", "fitted", "candidates");
  for (size_t i = 0; i < std::min<size_t>(12, order.size()); ++i) {
    const size_t j = order[i];
    if (r.result.weights[j] == w0[j]) break;
    fmt::print(out, "{:<16}{:>10}  {:>10}  {:>12}\n", spec.names[j], w0[j], r.result.weights[j],
               r.result.seen[j]);
  }
  return r;
}

TuneReport run_tune(const TuneConfig& config, std::FILE* out, const FeatureLookup& lookup) {
  TuneReport report;
  report.config_path = config.source_path;
  report.git_commit = build::git_commit();

  // The outputs first: a path that cannot be written, or that names a file read here, fails
  // before any work (and before a replaced input could be lost).
  const std::string& output = config.weights.output;
  if (output.empty())
    throw InputError(setting_name(config, "weights.output") +
                     ": missing: the weights file to write (or --out)");
  if (config.weights.initial.empty())
    throw InputError(setting_name(config, "weights.initial") +
                     ": missing: the weights file of the game to start from");
  const std::string& log_path = config.texel.log;
  check_writable_file(output, setting_name(config, "weights.output"));
  if (!log_path.empty()) check_writable_file(log_path, setting_name(config, "texel.log"));
  const std::vector<std::string> expanded = expand_inputs(config);
  std::vector<ReadFile> read = {{config.source_path, "the tune config"},
                                {config.weights.initial, "weights.initial"}};
  for (const std::string& f : expanded) read.push_back({f, "an input of data.inputs"});
  check_not_an_input(output, setting_name(config, "weights.output"), read);
  if (!log_path.empty()) {
    read.push_back({output, "weights.output"});
    check_not_an_input(log_path, setting_name(config, "texel.log"), read);
  }

  DistinctFiles distinct = distinct_files(expanded);
  const std::vector<std::string>& files = distinct.files;
  report.duplicates = std::move(distinct.duplicates);
  for (const DuplicateFile& d : report.duplicates)
    fmt::print(out, "input       {}: the same {} as {}; counted once\n", excerpt(d.path),
               d.same_inode ? "file" : "bytes", excerpt(d.same_as));

  // The game: the inputs', and with it the features the weights are for.
  const InputsGame inputs = inputs_game(files, setting_name(config, "data.inputs"));
  if (!config.game.name.empty() && config.game.name != inputs.game)
    fail_at(config, config.game.at, "game",
            config.game.name + ", but " + excerpt(inputs.file) + " holds games of " +
                excerpt(inputs.game));
  const GameFeatures features = [&] {
    try {
      return lookup(inputs.game);
    } catch (const InputError& e) {
      throw InputError(excerpt(inputs.file) + ": " + e.what());
    }
  }();
  if (features.names.empty())
    throw InputError(config.source_path + ": " + no_features_text(features.game) +
                     " (the game of " + excerpt(inputs.file) + ")");
  check_features(config, features.game, features.names);
  report.game = features.game;
  report.feature_names.assign(features.names.begin(), features.names.end());
  report.move_scores = features.move_scores;
  const std::vector<std::string>& names = report.feature_names;

  const eval::Weights initial = [&] {
    try {
      return eval::load_weights(config.weights.initial, features.names, features.required,
                                features.move_scores);
    } catch (const InputError& e) {
      throw InputError(config.source_path + ": key 'weights.initial': " + e.what());
    }
  }();
  report.initial_path = config.weights.initial;
  report.initial_name = initial.name;

  const auto selected = [&](size_t j) {
    const auto& tune = config.weights.tune;
    return tune.empty() || std::any_of(tune.begin(), tune.end(), [&](const FeatureName& t) {
             return feature_selected(t.name, names[j]);
           });
  };
  // A file from before features were appended may lack those that weigh nothing and stay so.
  std::vector<bool> may_lack(names.size());
  for (size_t j = 0; j < names.size(); ++j) may_lack[j] = !selected(j) && initial.w[j] == 0;
  // The features whose positions are left out; the files must have them.
  std::vector<size_t> skip;
  for (size_t j = 0; j < names.size(); ++j)
    if (std::any_of(config.data.skip_positions_with.begin(), config.data.skip_positions_with.end(),
                    [&](const FeatureName& t) { return feature_selected(t.name, names[j]); })) {
      skip.push_back(j);
      may_lack[j] = false;
    }
  LoadedPositions loaded =
      load_positions(files, names, config.data.positions_per_game, config.seed, may_lack, skip);
  report.files = loaded.files;
  uint64_t skipped = 0;
  for (const FileSummary& f : loaded.files) {
    std::string left_out;
    if (f.unfinished_rows)
      left_out += fmt::format("; {} rows of unfinished games skipped", f.unfinished_rows);
    if (f.skipped_rows)
      left_out +=
          fmt::format("; {} positions left out by data.skip_positions_with", f.skipped_rows);
    fmt::print(out, "input       {} ({} positions of {} games{})\n", f.path, f.positions, f.games,
               left_out);
    skipped += f.skipped_rows;
  }
  const size_t total = loaded.positions.size();
  if (total == 0 && skipped > 0)
    fail_at(config, config.data.skip_positions_with.front().at, "data.skip_positions_with",
            fmt::format("empty selection: it leaves out every one of the {} positions of "
                        "finished games",
                        skipped));
  if (total == 0)
    throw InputError(fmt::format(
        "{}: key 'data.inputs': empty selection: no positions of finished games in the {} file{} "
        "matched; campaigns store them with output.positions_per_game (0 = every ply)",
        config.source_path, files.size(), files.size() == 1 ? "" : "s"));
  Split split =
      split_by_game(std::move(loaded.positions), config.data.validation_fraction, config.seed);
  report.train_positions = split.train.size();
  report.train_games = count_games(split.train);
  report.validation_positions = split.validation.size();
  report.validation_games = count_games(split.validation);
  if (split.train.size() == 0)
    throw InputError(fmt::format(
        "{}: key 'data.validation_fraction': every one of the {} games went to the validation "
        "set; lower the fraction or add games",
        config.source_path, report.validation_games));
  fmt::print(out, "positions   train {} ({} games), validation {} ({} games)\n",
             report.train_positions, report.train_games, report.validation_positions,
             report.validation_games);

  // Which weights move, and their bounds (always within what a weights file may hold).
  const size_t f = names.size();
  TexelOptions options;
  options.loss = config.texel.loss;
  options.optimizer = config.texel.optimizer;
  options.learning_rate = config.texel.learning_rate;
  options.epochs = config.texel.epochs;
  options.l2 = config.texel.l2;
  options.report_every = config.texel.report_every;
  options.tuned.assign(f, false);
  options.lower.assign(f, -eval::kMaxWeight);
  options.upper.assign(f, eval::kMaxWeight);
  for (size_t j = 0; j < f; ++j) {
    options.tuned[j] = selected(j);
    if (const auto b = config.weights.bounds.find(names[j]); b != config.weights.bounds.end()) {
      options.lower[j] = b->second.lo;
      options.upper[j] = b->second.hi;
      if (initial.w[j] < options.lower[j] || initial.w[j] > options.upper[j])
        fmt::print(out, "note        initial {} = {} lies outside its bounds [{}, {}]; clipped\n",
                   names[j], initial.w[j], options.lower[j], options.upper[j]);
    }
  }
  report.tuned = options.tuned;
  const size_t tuned_count =
      static_cast<size_t>(std::count(options.tuned.begin(), options.tuned.end(), true));
  fmt::print(out, "initial     {} ({}); tuning {} of {} weights\n", config.weights.initial,
             initial.name, tuned_count, f);

  KFitOptions k_options;
  k_options.lo = config.k.min;
  k_options.hi = config.k.max;
  k_options.method = config.k.method;
  k_options.grid_points = config.k.grid_points;
  try {
    report.k = fit_k(split.train, initial.w, config.texel.loss, k_options);
  } catch (const InputError& e) {
    throw InputError(config.source_path + ": key 'weights.initial': " + e.what());
  }
  fmt::print(out,
             "K           {:.6g} ({} search on [{}, {}], training loss {:.6f} with the initial "
             "weights)\n",
             report.k.k, search_name(config.k.method), config.k.min, config.k.max, report.k.loss);
  if (report.k.at_boundary && report.k.k * report.k.k < config.k.min * config.k.max)
    fmt::print(out,
               "note        K is at the lower end of k.min..k.max: the initial weights predict "
               "the results hardly or backwards, and the tuned weights come out on a 1/K "
               "scale; lower k.min or start from other weights\n");
  else if (report.k.at_boundary)
    fmt::print(out, "note        K is at the upper end of k.min..k.max: raise k.max\n");
  fmt::print(out, "texel       loss {}, {}, learning rate {}, {} epochs, l2 {}\n",
             loss_name(config.texel.loss), optimizer_name(config.texel.optimizer),
             config.texel.learning_rate, config.texel.epochs, config.texel.l2);
  fmt::print(out, "{:>8}  {:>12}  {:>16}\n", "epoch", "train loss", "validation loss");
  // The CSV log: one row per printed epoch, for notebooks/tuning.ipynb.
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> log(nullptr, &std::fclose);
  if (!log_path.empty()) {
    const std::filesystem::path parent = std::filesystem::path(log_path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent);
    log.reset(std::fopen(log_path.c_str(), "w"));
    if (!log)
      throw InputError(setting_name(config, "texel.log") + ": cannot write " + excerpt(log_path) +
                       ": " + std::strerror(errno));
    fmt::print(log.get(), "epoch,k,train_loss,validation_loss\n");
  }
  report.result = tune_weights(split.train, split.validation, initial.w, report.k.k, options,
                               [&](const EpochReport& e) {
                                 fmt::print(out, "{:>8}  {:>12}  {:>16}\n", e.epoch,
                                            loss_text(e.train_loss), loss_text(e.validation_loss));
                                 std::fflush(out);
                                 if (log)
                                   fmt::print(log.get(), "{},{:.9g},{:.9g},{:.9g}\n", e.epoch,
                                              report.k.k, e.train_loss, e.validation_loss);
                               });
  log.reset();

  if (split.validation.size() > 0) {
    const EpochReport* best = &report.result.history.front();
    for (const EpochReport& e : report.result.history)
      if (e.validation_loss < best->validation_loss) best = &e;
    fmt::print(out, "best        validation loss {:.6f} at epoch {} (of the epochs printed)\n",
               best->validation_loss, best->epoch);
  }
  fmt::print(out, "\n{:<16}{:>14}  {:>14}\n", "weight", "initial", "tuned");
  for (size_t j = 0; j < f; ++j)
    fmt::print(out, "{:<16}{:>14.6g}  {:>14}\n", names[j], initial.w[j],
               options.tuned[j] ? fmt::format("{:.6g}", report.result.weights[j])
                                : std::string("(fixed)"));

  if (!report.result.diverged.empty()) {
    const std::string why = report.result.diverged;
    fmt::print(out, "\nwarning     the fit diverged: {}\n", why);
    std::fflush(out);
    bool finite = true;
    for (const double w : report.result.weights) finite = finite && std::isfinite(w);
    if (!config.texel.write_if_diverged || !finite)
      throw TuneDiverged(fmt::format(
          "{}: the fit diverged ({}); nothing written to {}: lower texel.learning_rate{}",
          config.source_path, why, excerpt(output),
          finite ? ", or set texel.write_if_diverged: true (--write-if-diverged) to write the "
                   "weights anyway"
                 : " (the weights are not finite numbers, so no file can hold them)"));
  }

  if (config.move_scores.fit.on) {
    if (features.move_scores.names.empty())
      fail_at(config, config.move_scores.fit.at, "move_scores.fit",
              features.game + " (the game of " + excerpt(inputs.file) +
                  ") has no move-score table (only Gomoku's pattern search has one)");
    fmt::print(out, "\n");
    report.fitted_move_scores = fit_move_score_table(
        config, files, features.game, features.move_scores, initial.move_scores, out);
    const MoveScoreFitResult& m = report.fitted_move_scores->result;
    if (!m.diverged.empty()) {
      fmt::print(out, "\nwarning     the move-score fit diverged: {}\n", m.diverged);
      std::fflush(out);
      if (!config.texel.write_if_diverged)
        throw TuneDiverged(
            fmt::format("{}: the move-score fit diverged ({}); nothing written to {}: lower "
                        "move_scores.learning_rate, or set texel.write_if_diverged: true "
                        "(--write-if-diverged) to write the table anyway",
                        config.source_path, m.diverged, excerpt(output)));
    }
  }

  report.date_utc = utc_now();
  const std::string text = weights_yaml(config, initial, report);
  // The file must read back as the weights just fitted; anything else is a bug here.
  const eval::Weights check = eval::load_weights_text(text, config.weights.output, features.names,
                                                      features.required, features.move_scores);
  const std::vector<double>& table =
      report.fitted_move_scores ? report.fitted_move_scores->result.weights : initial.move_scores;
  if (check.w != report.result.weights || check.move_scores != table)
    throw std::runtime_error("internal error: the weights file text does not read back exactly");
  write_file_atomically(config.weights.output, text);
  fmt::print(out, "\nwrote       {}\n", config.weights.output);
  return report;
}

}  // namespace sp::tune
