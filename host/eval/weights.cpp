#include "host/eval/weights.hpp"

#include <cassert>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <memory>
#include <string_view>

#include "host/config/schema.hpp"

namespace sp::eval {
namespace {

using config::ConfigError;
using config::Document;
using config::Range;
using config::Section;

// The largest value of each feature, in kFeatureNames order: 6 cubes, 4 steps from the goal at
// most, 25 squares. Appending a feature means adding its bound here (the assert says so).
constexpr double kFeatureMax[] = {
    6,  6,   // cubes
    6,  6,   // lost
    24, 24,  // dist_sum: 6 cubes x 4 steps
    4,  4,   // dist_min
    6,  6,   // inv_dist: 6 x 1/(0 + 1)
    4,  4,   // dice_dist
    25, 25,  // reach
    6,  6,   // blocked
    6,  6,   // threats
    6,  6,  6, 6, 6, 6,  // own_dice_1..6: die rolls that move each cube
    6,  6,  6, 6, 6, 6,  // opp_dice_1..6
};
static_assert(std::size(kFeatureMax) == ewn::kNumFeatures, "give every feature its bound");

struct WeightsFile {
  std::string name, description;
  std::vector<double> w = std::vector<double>(ewn::kNumFeatures, 0.0);
};

Section<std::vector<double>> features_schema() {
  Section<std::vector<double>> s;
  for (int i = 0; i < ewn::kNumFeatures; ++i) {
    const std::string name(ewn::kFeatureNames[i]);
    s.real(
        name, [i](std::vector<double>& w) -> double& { return w[i]; }, 0.0,
        Range{-kMaxWeight, kMaxWeight}, "weight of " + name);
  }
  // A weight left out is more likely forgotten than meant to be 0, so every one is required.
  s.check([](const std::vector<double>&, const Document& doc, const std::string& path) {
    for (const std::string_view n : ewn::kFeatureNames) {
      const std::string key = config::detail::join(path, std::string(n));
      if (!doc.was_set(key))
        doc.fail_key(key, "missing: every feature needs a weight (write 0 to ignore one)");
    }
  });
  return s;
}

const Section<WeightsFile>& schema() {
  static const Section<WeightsFile> s = [] {
    Section<WeightsFile> top;
    top.string("name", &WeightsFile::name, "unnamed", false, "short name shown in logs");
    top.string("description", &WeightsFile::description, "", true, "what the weights express");
    top.section("weights", &WeightsFile::w, features_schema(),
                "one weight per feature, from the side to move's view");
    top.check([](const WeightsFile&, const Document& doc, const std::string&) {
      for (const char* key : {"name", "weights"})
        if (!doc.was_set(key)) doc.fail_key(key, "missing");
    });
    return top;
  }();
  return s;
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

Weights load_weights_text(const std::string& text, const std::string& name) {
  refuse_other_files(text, name);
  WeightsFile f = schema().load(text, name);
  Weights out;
  out.w = std::move(f.w);
  out.name = std::move(f.name);
  out.source = name;
  return out;
}

Weights load_weights(const std::string& path) {
  return load_weights_text(config::read_config_file(path), path);
}

double evaluate(const Weights& weights, const ewn::State& s, const ewn::Rules& rules) {
  assert(weights.w.size() == static_cast<size_t>(ewn::kNumFeatures));
  float f[ewn::kNumFeatures];
  ewn::extract_features(s, rules, f);
  double v = 0;
  for (int i = 0; i < ewn::kNumFeatures; ++i) v += weights.w[i] * static_cast<double>(f[i]);
  return v;
}

double evaluation_bound(const Weights& weights) {
  assert(weights.w.size() == static_cast<size_t>(ewn::kNumFeatures));
  double v = 0;
  for (int i = 0; i < ewn::kNumFeatures; ++i) v += std::abs(weights.w[i]) * kFeatureMax[i];
  return v;
}

}  // namespace sp::eval
