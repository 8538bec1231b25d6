#include "host/engines/eval/weights.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <string_view>

#include "core/config/schema.hpp"

namespace sp::eval {
namespace {

using config::ConfigError;
using config::Document;
using config::Range;
using config::Section;

// Weights by feature name: the schema's defaults create every entry, whatever the game's features.
using WeightMap = std::map<std::string, double, std::less<>>;

struct WeightsFile {
  std::string name, description;
  WeightMap w;
  WeightMap move_scores;
};

Section<WeightMap> move_scores_schema(const MoveScoreSpec& spec) {
  Section<WeightMap> s;
  for (size_t i = 0; i < spec.names.size(); ++i) {
    const std::string name(spec.names[i]);
    s.real(
        name, [name](WeightMap& w) -> double& { return w[name]; }, spec.defaults[i],
        Range{-kMaxWeight, kMaxWeight}, "move score " + name);
  }
  return s;
}

Section<WeightMap> features_schema(std::span<const std::string_view> names, size_t required) {
  Section<WeightMap> s;
  for (const std::string_view n : names) {
    const std::string name(n);
    s.real(
        name, [name](WeightMap& w) -> double& { return w[name]; }, 0.0,
        Range{-kMaxWeight, kMaxWeight}, "weight of " + name);
  }
  // A weight left out is more likely forgotten than meant to be 0, so every one is required, but
  // for the entries of evaluation tables (hundreds, mostly 0 until a fit moves them).
  s.check([names, required](const WeightMap&, const Document& doc, const std::string& path) {
    for (const std::string_view n : names.first(std::min(required, names.size()))) {
      const std::string key = config::detail::join(path, std::string(n));
      if (!doc.was_set(key))
        doc.fail_key(key, "missing: every feature needs a weight (write 0 to ignore one)");
    }
  });
  return s;
}

Section<WeightsFile> schema(std::span<const std::string_view> feature_names, size_t required,
                            const MoveScoreSpec& move_scores) {
  Section<WeightsFile> top;
  top.string("name", &WeightsFile::name, "unnamed", false, "short name shown in logs");
  top.string("description", &WeightsFile::description, "", true, "what the weights express");
  top.section("weights", &WeightsFile::w, features_schema(feature_names, required),
              "one weight per feature, from the side to move's view");
  if (!move_scores.names.empty())
    top.section("move_scores", &WeightsFile::move_scores, move_scores_schema(move_scores),
                "the search's move-score table: entries left out keep their defaults");
  top.check([](const WeightsFile&, const Document& doc, const std::string&) {
    for (const char* key : {"name", "weights"})
      if (!doc.was_set(key)) doc.fail_key(key, "missing");
  });
  return top;
}

// Whether a line of text starts with "key:", as the top-level keys of a weights file do.
bool has_line_starting(std::string_view text, std::string_view key) {
  for (size_t at = 0; at < text.size();) {
    const std::string_view line = text.substr(at, text.find('\n', at) - at);
    if (line.size() > key.size() && line.starts_with(key) && line[key.size()] == ':') return true;
    at += line.size() + 1;
  }
  return false;
}

// A file given as weights that is not even trying to be one (some other YAML file, a text or a
// binary file) is refused as a whole: quoting whatever its first line or key holds tells the
// user nothing and may put any bytes on the terminal. Files that look like weights (a map with
// name or weights, or YAML that does not parse but has such a line) get the schema's errors.
void refuse_other_files(const std::string& text, const std::string& name) {
  bool looks_like_weights = false;
  try {
    const YAML::Node root = YAML::Load(text);
    looks_like_weights = root.IsMap() && (root["weights"] || root["name"]);
  } catch (const YAML::Exception&) {
    looks_like_weights = has_line_starting(text, "weights") || has_line_starting(text, "name");
  }
  if (!looks_like_weights)
    throw ConfigError(excerpt(name) +
                      ": not a weights file: expected YAML with the keys name, description and "
                      "weights (one weight per feature), as in configs/ewn/weights/");
}

}  // namespace

Weights load_weights_text(const std::string& text, const std::string& name,
                          std::span<const std::string_view> feature_names, size_t required,
                          const MoveScoreSpec& move_scores) {
  refuse_other_files(text, name);
  WeightsFile f = schema(feature_names, required, move_scores).load(text, name);
  Weights out;
  for (const std::string_view n : feature_names) out.w.push_back(f.w.find(n)->second);
  for (const std::string_view n : move_scores.names)
    out.move_scores.push_back(f.move_scores.find(n)->second);
  out.name = std::move(f.name);
  out.source = name;
  return out;
}

Weights load_weights(const std::string& path, std::span<const std::string_view> feature_names,
                     size_t required, const MoveScoreSpec& move_scores) {
  return load_weights_text(config::read_config_file(path), path, feature_names, required,
                           move_scores);
}

}  // namespace sp::eval
