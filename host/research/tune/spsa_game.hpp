// The part of SPSA that knows the game: which engine keys of a match config of game G can be tuned
// and how a value is set, and run_spsa<G>, which plays the iterations of spsa.hpp's loop.
//
// A parameter is an engine key of engine A (engines.player0): any real-valued key (Section::real
// or fixed_point) that applies to its type, i.e. the neutral search keys (exploration, eval_blend,
// eval_scale, progressive_bias of mcts) and the game's playout keys
// (GameHost<G>::policy_section()). Values are set through the section the config file is read with
// (config::engine_section), so ranges and fixed-point steps are declared once and a tuned value is
// one a config could hold.
#pragma once

#include <atomic>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/config/schema.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/config/game_schema.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/play/selfplay/match.hpp"
#include "host/play/selfplay/memory.hpp"
#include "host/research/tune/spsa.hpp"
#include "host/research/tune/tune_config.hpp"

namespace sp::tune {

template <HostGame G>
class SpsaKeys {
 public:
  SpsaKeys() : engines_{config::engine_section<G>(0), config::engine_section<G>(1)} {}

  // The keys of engines.player<player> (0 = A, 1 = B) of match, with whether they apply to it.
  std::vector<config::KeyInfo> keys(const config::Config<G>& match, int player) const {
    return engines_[player].keys(match);
  }
  // The keys SPSA can tune in engine A of match.
  std::vector<std::string> tunable(const config::Config<G>& match) const {
    return spsa_tunable(keys(match, 0));
  }

  // Sets key `name` of engines.player<player> in c to value as a config file writing it would
  // (range, fixed-point rounding), failing through doc at `at` with `path`.
  void set(config::Config<G>& c, int player, const std::string& name, double value, config::Mark at,
           config::Document& doc, const std::string& path) const {
    engines_[player].set(c, name, YAML::Node(config::detail::format_real(value)), at, doc, path);
  }

  // Checks the parameters of config (the tune config) against engine A of match: each names a
  // tunable key (check_spsa_name), and its min and max are values that key can hold. Throws
  // ConfigError at the parameter's line.
  void check(const TuneConfig& config, const config::Config<G>& match) const {
    config::Document doc(config.source_path);
    const std::vector<config::KeyInfo> a = keys(match, 0);
    const std::string engine = "engine A (engines.player0 of " + excerpt(match.source_path) +
                               ", type " + type_text(match) + ")";
    for (const SpsaParamConfig& p : config.spsa.parameters) {
      check_spsa_name(p, a, engine, doc);
      config::Config<G> scratch = match;
      try {
        set(scratch, 0, p.name, p.min, p.min_at, doc, "spsa.parameters.min");
        set(scratch, 0, p.name, p.max, p.max_at, doc, "spsa.parameters.max");
      } catch (const config::ConfigError& e) {
        throw config::ConfigError(std::string(e.what()) + " (the range of " + p.name + ")");
      }
    }
  }

  // Engine A's type as its config names it ("mcts").
  std::string type_text(const config::Config<G>& match) const {
    return engines_[0].value(match, "type");
  }

 private:
  config::Section<config::Config<G>> engines_[2];
};

// run_spsa (spsa.hpp) for a match config of game G, loaded from config.spsa.match.
template <HostGame G>
SpsaResult run_spsa(const TuneConfig& config, config::Config<G> cfg, std::FILE* out,
                    const std::atomic<bool>& stop) {
  const SpsaSettings& s = config.spsa;
  const SpsaKeys<G> keys;
  keys.check(config, cfg);
  if (s.threads > 0) cfg.backend.threads = s.threads;
  cfg.games = 2 * s.pairs;  // each iteration plays spsa.pairs pairs (play_pairs sets the same)
  selfplay::check_run_memory(cfg);
  const std::vector<config::KeyInfo> b_keys = keys.keys(cfg, 1);
  for (const SpsaParamConfig& p : s.parameters) {
    if constexpr (requires { GameHost<G>::inert_policy_key(cfg.policies[0], p.name); }) {
      const std::string why = GameHost<G>::inert_policy_key(cfg.policies[0], p.name);
      if (!why.empty())
        fmt::print(out, "note        {} has no effect in engine A: {}\n", p.name, why);
    }
    if (!s.mirror) continue;
    for (const config::KeyInfo& k : b_keys)
      if (k.name == p.name && !k.applies)
        fmt::print(out, "note        {} applies only {}: engine B plays without it\n", p.name,
                   k.applies_text);
  }
  auto backend = selfplay::make_campaign_backend<G>(cfg);
  // Errors setting a value cannot happen after check(): values stay within [min, max].
  config::Document doc(s.match);
  const SpsaPlay play = [&](uint64_t seed, const std::vector<double>& a,
                            const std::vector<double>* b, int64_t& wins, int64_t& losses) {
    config::Config<G> c = cfg;
    c.seed = seed;
    for (size_t i = 0; i < s.parameters.size(); ++i) {
      const std::string& name = s.parameters[i].name;
      keys.set(c, 0, name, a[i], {}, doc, "engines.player0." + name);
      if (b) keys.set(c, 1, name, (*b)[i], {}, doc, "engines.player1." + name);
    }
    const auto pairs = selfplay::play_pairs<G>(c, s.pairs, *backend, stop);
    if (pairs.size() < s.pairs) return false;
    wins = losses = 0;
    for (const auto& pair : pairs)
      for (stats::GameResult r : {pair.first, pair.second}) {
        wins += r == stats::GameResult::kWin;
        losses += r == stats::GameResult::kLoss;
      }
    return true;
  };
  return run_spsa_loop(config, cfg.source_text, play, out, stop);
}

}  // namespace sp::tune
