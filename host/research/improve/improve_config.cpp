#include "host/research/improve/improve_config.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "host/research/tune/game_features.hpp"

namespace sp::improve::detail {

std::vector<std::string> read_feature_list(const YAML::Node& v, config::Mark at,
                                           config::Document& doc, const std::string& path,
                                           const std::vector<std::string>& known) {
  if (v.IsNull() || (v.IsScalar() && v.Scalar() == "all")) return {};
  if (!v.IsSequence()) doc.fail(at, path, "must be all or a list of feature names");
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const YAML::Node& item : v) {
    const config::Mark item_at = config::detail::mark_of(item);
    const std::string name = config::detail::read_string(item, item_at, doc, path, false);
    if (tune::is_feature_pattern(name)) {
      if (std::none_of(known.begin(), known.end(),
                       [&](const std::string& k) { return tune::feature_selected(name, k); }))
        doc.fail(item_at, path, "the pattern '" + name + "' selects none of the game's features");
    } else if (std::find(known.begin(), known.end(), name) == known.end()) {
      const std::string hint = config::closest_match(name, known);
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      doc.fail(item_at, path,
               "unknown feature '" + name + "'" +
                   (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
                   "; the game's features: " + list);
    }
    if (!seen.insert(name).second) doc.fail(item_at, path, "feature '" + name + "' listed twice");
    out.push_back(name);
  }
  if (out.empty()) doc.fail(at, path, "an empty list tunes nothing: write all or name features");
  return out;
}

std::string reference_name(const std::string& path) {
  std::string name = std::filesystem::path(path).stem().string();
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '_' && ch != '-')
      ch = '-';
  return name.empty() ? "reference" : name;
}

std::string format_feature_list(const std::vector<std::string>& features) {
  if (features.empty()) return "all";
  std::string out = "[";
  for (size_t i = 0; i < features.size(); ++i) out += (i ? ", " : "") + features[i];
  return out + "]";
}

config::Section<DataSettings> data_keys(const std::vector<std::string>& known) {
  config::Section<DataSettings> s;
  s.integer("window", &DataSettings::window, 2, 1, 1000,
            "each fit reads the campaigns of the last `window` generations (this one included)");
  s.real("validation_fraction", &DataSettings::validation_fraction, 0.1,
         config::Range{0, 1, true, true},
         "share of the games held out to measure the fit (split by game), in (0, 1)");
  s.integer("positions_per_game", &DataSettings::positions_per_game, 0, 0, 4096,
            "at most this many stored positions per game, drawn by the seed; 0 = all");
  s.node(
      "skip_positions_with", &DataSettings::skip_positions_with, {},
      "list of the game's features and patterns such as *_to_five",
      [known](const YAML::Node& v, config::Mark at, config::Document& doc,
              const std::string& path) -> std::vector<std::string> {
        if (v.IsNull() || (v.IsSequence() && v.size() == 0)) return {};
        if (v.IsScalar() && v.Scalar() == "all")
          doc.fail(at, path, "all would leave no position: name the features to skip by");
        return read_feature_list(v, at, doc, path, known);
      },
      [](const std::vector<std::string>& f) { return f.empty() ? "[]" : format_feature_list(f); },
      "the fit leaves out positions where any of these features is nonzero (tactical positions, "
      "which the search decides, not the evaluation); empty: none");
  return s;
}

config::Section<SpsaStepSettings> spsa_step_keys() {
  using S = SpsaStepSettings;
  config::Section<S> s;
  s.node(
      "parameters", &S::parameters, {}, "list of {name, min, max, c_end, r_end}",
      [](const YAML::Node& v, config::Mark at, config::Document& doc, const std::string& path) {
        return tune::read_spsa_params(v, at, doc, path, false);
      },
      [](const std::vector<tune::SpsaParamConfig>& p) {
        return tune::format_spsa_params(p, false);
      },
      "the champion engine's keys SPSA tunes after each fit, each from the champion's value "
      "within [min, max]; empty: no SPSA step");
  s.only_if([](const S& x) { return !x.parameters.empty(); }, "with tune.spsa.parameters");
  s.integer("iterations", &S::iterations, 20, 1, 10'000'000, "SPSA iterations per generation");
  s.integer("pairs", &S::pairs, 4, 1, 1'000'000, "game pairs per iteration");
  s.boolean("mirror", &S::mirror, true,
            "true: theta + c_k Delta plays theta - c_k Delta; false: both play the champion's "
            "values and W - L is their difference");
  s.real("A", &S::big_a, -1, config::Range{-1, 1e9}, "stability constant A; -1 = 0.1 * iterations");
  s.real("alpha", &S::alpha, 0.602, config::Range{0, 10}, "a_k = a / (A + k)^alpha");
  s.real("gamma", &S::gamma, 0.101, config::Range{0, 10}, "c_k = c / k^gamma");
  return s;
}

config::Section<AnchorSettings> anchor_keys() {
  config::Section<AnchorSettings> s;
  s.integer("anchor_every", &AnchorSettings::every, 5, 0, 1'000'000,
            "the champion plays generation 0 and each of references every this many generations "
            "and at the end; 0 = only at the end");
  s.integer("anchor_pairs", &AnchorSettings::pairs, 200, 1, 500'000'000,
            "game pairs of each anchor and reference match (fixed length, the same openings every "
            "time)");
  s.boolean(
      "anchor_guard", &AnchorSettings::guard, false,
      "keep a candidate the SPRT accepted only if its anchor matches against generation 0 and "
      "each of references score at least its parent's (less anchor_guard_margin): the gate "
      "is head-to-head, and a candidate can beat its parent yet play worse against the rest");
  s.only_if([](const AnchorSettings& a) { return a.guard; }, "with anchor_guard: true");
  s.real("anchor_guard_margin", &AnchorSettings::guard_margin, 0, config::Range{0, 1000},
         "Elo the candidate's result against generation 0 or a reference may fall below its "
         "parent's and still be kept");
  return s;
}

config::Section<StopSettings> stop_keys() {
  config::Section<StopSettings> s;
  s.integer("generations", &StopSettings::generations, 10, 1, 1'000'000,
            "generations in all, those of earlier runs (resume) included");
  s.real("wall_seconds", &StopSettings::wall_seconds, 0, config::Range{0, 1e9},
         "no generation starts once the loop has run this long (all runs); 0 = no limit");
  s.integer("rejections", &StopSettings::rejections, 3, 0, 1'000'000,
            "stop after this many rejected candidates in a row; 0 = never");
  return s;
}

void refuse_seeds(const YAML::Node& root, config::Document& doc) {
  // A missing key of a const node is an invalid node: test each step before taking the next.
  const auto child = [](const YAML::Node& node, const char* key) {
    return node.IsMap() && node[key] ? node[key] : YAML::Node();
  };
  const auto refuse = [&](const YAML::Node& value, const char* path, const char* why) {
    if (value.IsDefined() && !value.IsNull()) doc.fail(config::detail::mark_of(value), path, why);
  };
  const YAML::Node selfplay = child(root, "selfplay");
  refuse(child(child(selfplay, "campaign"), "seed"), "selfplay.campaign.seed",
         "the loop sets each generation's campaign seed from its own `seed:`");
  refuse(child(child(selfplay, "output"), "path"), "selfplay.output.path",
         "the loop writes each generation's campaign to DIR/gen-NNN/campaign.h5");
  refuse(child(child(root, "gate"), "seed"), "gate.seed",
         "the loop sets each gate's seed from its own `seed:`");
}

void check_loop_keys(const config::Document& doc, const config::CampaignConfig& selfplay,
                     const config::CampaignConfig& gate) {
  using config::EngineType;
  const config::EngineConfig& champion = gate.engines[0];
  if (champion.type != EngineType::kAlphaBeta && champion.type != EngineType::kExpectimax &&
      champion.type != EngineType::kMcts)
    doc.fail_key("champion.type",
                 "must be an engine that evaluates with weights: alphabeta, expectimax or mcts "
                 "(with eval_blend or progressive_bias)");
  if (champion.type == EngineType::kMcts && champion.eval_blend == 0 &&
      champion.progressive_bias == 0)
    doc.fail_key("champion.eval_blend",
                 "an mcts champion uses its weights only through eval_blend or progressive_bias: "
                 "set one above 0");
  if (champion.weights.empty())
    doc.fail_key("champion.weights",
                 "required: the weights file the loop starts from (generation 0) and improves");
  if (!gate.match.sprt.enabled)
    doc.fail_key("gate.sprt.enabled",
                 "must be true: a candidate is accepted only when the SPRT accepts H1, so a gate "
                 "without it would reject every candidate");
  (void)selfplay;
}

}  // namespace sp::improve::detail
