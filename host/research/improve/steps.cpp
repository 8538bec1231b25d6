#include "host/research/improve/steps.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/philox.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/records.hpp"
#include "host/base/system/atomic_file.hpp"

namespace sp::improve {

uint64_t step_seed(uint64_t seed, uint32_t generation, Step step) {
  uint64_t x = splitmix64(seed);
  x = splitmix64(x ^ generation);
  return splitmix64(x ^ static_cast<uint64_t>(step));
}

std::string fit_rejection(const FitChange& f, bool require_validation_gain) {
  if (!f.weights_changed && !f.table_changed) return "the fit left every weight as it was";
  if (!require_validation_gain || !std::isfinite(f.loss)) return "";
  if (f.loss < f.loss_before) return "";
  if (f.table_changed && f.table_loss < f.table_loss_before) return "";
  return fmt::format(
      "validation loss did not fall ({:.6f} -> {:.6f}{})", f.loss_before, f.loss,
      std::isfinite(f.table_loss_before)
          ? fmt::format("; move scores {:.6f} -> {:.6f}", f.table_loss_before, f.table_loss)
          : "");
}

std::string weights_hash(const std::vector<double>& w, std::span<const double> move_scores,
                         std::span<const double> move_score_defaults) {
  uint64_t h = 0xcbf29ce484222325ull;
  const auto add = [&h](std::string_view text) {
    for (const char ch : text) {
      h ^= static_cast<unsigned char>(ch);
      h *= 0x100000001b3ull;
    }
  };
  for (const double v : w) add(fmt::format("{};", v));
  if (!move_scores.empty() && !std::ranges::equal(move_scores, move_score_defaults)) {
    add("|");
    for (const double v : move_scores) add(fmt::format("{};", v));
  }
  return fmt::format("{:016x}", h);
}

std::string generation_dir(const std::string& dir, uint32_t generation) {
  return fmt::format("{}/gen-{:03}", dir, generation);
}

std::string weights_file(const std::string& dir, uint32_t generation) {
  return generation_dir(dir, generation) + (generation == 0 ? "/weights.yaml" : "/candidate.yaml");
}

namespace loop_detail {

void write_text_file(const std::string& path, const std::string& text) {
  write_file_atomically(path, text);
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError("cannot read " + path);
  return ss.str();
}

std::string tune_yaml(const std::string& game, uint64_t seed,
                      const std::vector<std::string>& inputs, const DataSettings& data,
                      const TuneSettings& tune, const std::string& initial,
                      const std::string& output, const std::string& name, const std::string& log) {
  YAML::Emitter y;
  y << YAML::BeginMap;
  y << YAML::Key << "game" << YAML::Value << game;
  y << YAML::Key << "method" << YAML::Value << "texel";
  y << YAML::Key << "seed" << YAML::Value << seed;
  y << YAML::Key << "data" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "inputs" << YAML::Value << YAML::BeginSeq;
  for (const std::string& in : inputs) y << in;
  y << YAML::EndSeq;
  y << YAML::Key << "validation_fraction" << YAML::Value << data.validation_fraction;
  y << YAML::Key << "positions_per_game" << YAML::Value << data.positions_per_game;
  if (!data.skip_positions_with.empty()) {
    y << YAML::Key << "skip_positions_with" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const std::string& f : data.skip_positions_with) y << f;
    y << YAML::EndSeq;
  }
  y << YAML::EndMap;
  y << YAML::Key << "weights" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "initial" << YAML::Value << initial;
  y << YAML::Key << "output" << YAML::Value << output;
  y << YAML::Key << "name" << YAML::Value << name;
  y << YAML::Key << "tune" << YAML::Value;
  if (tune.features.empty()) {
    y << "all";
  } else {
    y << YAML::Flow << YAML::BeginSeq;
    for (const std::string& f : tune.features) y << f;
    y << YAML::EndSeq;
  }
  y << YAML::EndMap;
  y << YAML::Key << "texel" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "optimizer" << YAML::Value
    << (tune.optimizer == tune::Optimizer::kAdam ? "adam" : "gd");
  y << YAML::Key << "loss" << YAML::Value << (tune.loss == tune::Loss::kMse ? "mse" : "logloss");
  y << YAML::Key << "learning_rate" << YAML::Value << fmt::format("{}", tune.learning_rate);
  y << YAML::Key << "epochs" << YAML::Value << tune.epochs;
  y << YAML::Key << "l2" << YAML::Value << fmt::format("{}", tune.l2);
  y << YAML::Key << "log" << YAML::Value << log;
  y << YAML::EndMap;
  if (tune.move_scores.fit) {
    const TuneSettings::MoveScores& m = tune.move_scores;
    y << YAML::Key << "move_scores" << YAML::Value << YAML::BeginMap;
    y << YAML::Key << "fit" << YAML::Value << true;
    y << YAML::Key << "temperature" << YAML::Value << fmt::format("{}", m.temperature);
    y << YAML::Key << "learning_rate" << YAML::Value << fmt::format("{}", m.learning_rate);
    y << YAML::Key << "epochs" << YAML::Value << m.epochs;
    y << YAML::Key << "l2" << YAML::Value << fmt::format("{}", m.l2);
    y << YAML::EndMap;
  }
  y << YAML::EndMap;
  return std::string(
             "# The fit of one generation of selfplay improve (rerun: selfplay tune "
             "THIS_FILE).\n") +
         y.c_str() + "\n";
}

std::string spsa_yaml(const std::string& game, uint64_t seed, const SpsaStepSettings& spsa,
                      const std::vector<double>& start, const std::string& gdir) {
  const auto real = [](double v) { return config::detail::format_real(v); };
  YAML::Emitter y;
  y << YAML::BeginMap;
  y << YAML::Key << "game" << YAML::Value << game;
  y << YAML::Key << "method" << YAML::Value << "spsa";
  y << YAML::Key << "seed" << YAML::Value << seed;
  y << YAML::Key << "spsa" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "match" << YAML::Value << gdir + "/spsa-match.yaml";
  y << YAML::Key << "iterations" << YAML::Value << spsa.iterations;
  y << YAML::Key << "pairs" << YAML::Value << spsa.pairs;
  y << YAML::Key << "mirror" << YAML::Value << spsa.mirror;
  y << YAML::Key << "A" << YAML::Value << real(spsa.big_a);
  y << YAML::Key << "alpha" << YAML::Value << real(spsa.alpha);
  y << YAML::Key << "gamma" << YAML::Value << real(spsa.gamma);
  y << YAML::Key << "output" << YAML::Value << gdir + "/spsa.h5";
  y << YAML::Key << "result" << YAML::Value << gdir + "/spsa-result.yaml";
  y << YAML::Key << "parameters" << YAML::Value << YAML::BeginSeq;
  for (size_t i = 0; i < spsa.parameters.size(); ++i) {
    const tune::SpsaParamConfig& p = spsa.parameters[i];
    y << YAML::Flow << YAML::BeginMap;
    y << YAML::Key << "name" << YAML::Value << p.name;
    y << YAML::Key << "start" << YAML::Value << real(start.at(i));
    y << YAML::Key << "min" << YAML::Value << real(p.min);
    y << YAML::Key << "max" << YAML::Value << real(p.max);
    y << YAML::Key << "c_end" << YAML::Value << real(p.c_end);
    y << YAML::Key << "r_end" << YAML::Value << real(p.r_end);
    y << YAML::EndMap;
  }
  y << YAML::EndSeq;
  y << YAML::EndMap;
  y << YAML::EndMap;
  return std::string(
             "# The SPSA step of one generation of selfplay improve (rerun: selfplay tune "
             "THIS_FILE).\n") +
         y.c_str() + "\n";
}

std::string engine_keys_yaml(uint32_t champion, const std::vector<std::string>& keys,
                             const std::vector<double>& values) {
  std::string out = fmt::format(
      "# The engine keys of the champion (generation {}) that tune.spsa tunes: add them to the "
      "engine\n# that reads champion.yaml.\n",
      champion);
  for (size_t i = 0; i < keys.size(); ++i)
    out += keys[i] + ": " + config::detail::format_real(values.at(i)) + "\n";
  return out;
}

uint64_t file_rollouts(const std::string& path) {
  // The plies of complete games, not /perf: a resumed run replays the games a kill cut short, whose
  // batches /perf counts twice.
  const io::CampaignReader reader(path);
  constexpr uint64_t kChunk = 1 << 20;
  uint64_t n = 0;
  for (uint64_t first = 0; first < reader.plies_count(); first += kChunk)
    for (const io::PlyRow& p : reader.plies(first, kChunk)) n += p.rollouts;
  return n;
}

}  // namespace loop_detail
}  // namespace sp::improve
