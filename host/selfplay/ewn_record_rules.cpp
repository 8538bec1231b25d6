// EWN behind RecordRules: replays stored games with the rules of games/ewn, checks setups (the
// /games opening), first players and dice (the /plies chance) against the campaign's random
// streams (driver.cpp), and recomputes features.
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "games/common/errors.hpp"
#include "games/ewn/features.hpp"
#include "games/ewn/host.hpp"
#include "games/ewn/notation.hpp"
#include "host/config/load.hpp"
#include "host/selfplay/driver.hpp"
#include "host/selfplay/record_rules.hpp"

namespace sp::selfplay {
namespace {

// The config stored in the file, without its engines and backend: they play no part in how a game
// is set up and rolled, and engines name weights files that need not exist where a file is
// checked. nullopt, with the reason in `why`, when it cannot be read.
std::optional<config::Config<EwnGame>> stored_config(const io::FileMeta& meta,
                                                    const std::string& path, std::string& why) {
  if (meta.config_text.empty()) {
    why = "the file stores no config";
    return std::nullopt;
  }
  try {
    YAML::Node tree = YAML::Load(meta.config_text);
    if (!tree.IsMap()) {
      why = "the stored config is not a YAML map";
      return std::nullopt;
    }
    tree.remove("engines");
    tree.remove("backend");
    YAML::Emitter out;
    out << tree;
    const std::string name = path + " (stored config)";
    return meta.match ? config::load_match_config_text<EwnGame>(out.c_str(), name, true)
                      : config::load_campaign_config_text<EwnGame>(out.c_str(), name, true);
  } catch (const YAML::Exception& e) {
    why = e.what();
  } catch (const InputError& e) {
    why = e.what();
  }
  return std::nullopt;
}

// The root attribute `rules` as campaign.cpp writes it: "capture_own=true substitution=nearest".
std::optional<ewn::Rules> parse_rules_attribute(const std::string& text) {
  ewn::Rules rules;
  bool capture = false, substitution = false;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    start = end + 1;
    if (item.empty()) continue;
    if (item == "capture_own=true" || item == "capture_own=false") {
      rules.capture_own = item == "capture_own=true";
      capture = true;
    } else if (item == "substitution=nearest" || item == "substitution=next_lower_or_higher") {
      rules.substitution = item == "substitution=nearest" ? ewn::Substitution::kNearest
                                                          : ewn::Substitution::kNextLowerOrHigher;
      substitution = true;
    } else {
      return std::nullopt;
    }
  }
  if (!capture || !substitution) return std::nullopt;
  return rules;
}

class EwnRecordRules final : public RecordRules {
 public:
  EwnRecordRules(const io::FileMeta& meta, const std::string& path) {
    std::string why;
    cfg_ = stored_config(meta, path, why);
    if (cfg_) {
      rules_ = cfg_->rules.rules;
    } else {
      const std::optional<ewn::Rules> rules = parse_rules_attribute(meta.rules);
      if (!rules)
        throw InputError(path + ": cannot tell the rules its games were played under: the stored " +
                         "config cannot be read (" + why + ") and the rules attribute is \"" +
                         meta.rules + "\"");
      rules_ = *rules;
      notes_.push_back("the stored config cannot be read (" + why +
                       "): setups, first players and dice are checked against the rules only");
    }
    features_comparable_ = meta.feature_names.size() == ewn::kFeatureNames.size();
    for (size_t i = 0; features_comparable_ && i < meta.feature_names.size(); ++i)
      features_comparable_ = meta.feature_names[i] == ewn::kFeatureNames[i];
    if (!features_comparable_)
      notes_.push_back(
          "the file's feature_names differ from this build's: features not recomputed");
  }

  void replay(const StoredGame& stored, Problems& problems) override {
    const io::GameRow& g = stored.game.row;
    const std::string where = game_where(stored.game);
    Replayed& out = games_[g.game_id];
    out.plies = stored.plies.size();

    const std::string setup_text(io::text_of(g.opening));
    ewn::Arrangement setup[2];
    try {
      const size_t slash = setup_text.find('/');
      if (slash == std::string::npos) throw InputError("expected two arrangements joined by '/'");
      setup[0] = ewn::parse_arrangement(std::string_view(setup_text).substr(0, slash));
      setup[1] = ewn::parse_arrangement(std::string_view(setup_text).substr(slash + 1));
    } catch (const InputError& e) {
      problems.add(where + ": opening \"" + setup_text + "\" does not parse: " + e.what());
      return;
    }
    if (g.first_player > 1) {
      problems.add(where + ": first_player is " + std::to_string(g.first_player) + ", not 0 or 1");
      return;
    }
    // The campaign's random streams take 32-bit game ids (driver.hpp).
    const bool streams = cfg_ && g.game_id <= std::numeric_limits<uint32_t>::max();
    if (cfg_ && !streams) problems.add(where + ": game id beyond the 32-bit ids a campaign plays");
    const auto id = static_cast<uint32_t>(g.game_id);
    if (streams) {
      if (g.seed != cfg_->seed)
        problems.add(where + ": seed " + std::to_string(g.seed) + ", the file's config has " +
                     std::to_string(cfg_->seed));
      std::string want_text;
      const int first =
          GameHost<EwnGame>::start(cfg_->rules, cfg_->seed, stream_game(*cfg_, id), &want_text).side;
      if (want_text != setup_text)
        problems.add(where + ": opening " + setup_text + ", the file's config gives " + want_text);
      if (first != g.first_player)
        problems.add(where + ": first_player " + std::to_string(g.first_player) +
                     ", the file's config gives " + std::to_string(first));
    }

    ewn::State s = ewn::initial_state(setup[0], setup[1], g.first_player);
    for (const auto& [row, ply] : stored.plies) {
      const std::string at = row_where(g.game_id, ply.ply, "/plies", row);
      if (ewn::is_over(s)) {
        problems.add(at + ": the game was over (player " + std::to_string(s.winner) +
                     " won) before this ply");
        return;
      }
      if (ply.player != s.side)
        problems.add(at + ": player " + std::to_string(ply.player) + " moved, but player " +
                     std::to_string(s.side) + " is to move");
      if (ply.chance < 1 || ply.chance > 6) {
        problems.add(at + ": chance " + std::to_string(ply.chance) + " is not a die (1-6)");
        return;
      }
      if (streams) {
        const int want = 1 + draw_chance<EwnGame>(cfg_->seed, stream_game(*cfg_, id), ply.ply);
        if (want != ply.chance)
          problems.add(at + ": die " + std::to_string(ply.chance) + ", the campaign's dice give " +
                       std::to_string(want));
      }
      s.die = static_cast<uint8_t>(ply.chance);
      ewn::MoveList legal;
      ewn::generate_moves(s, rules_, legal);
      const std::string_view text = io::text_of(ply.move);
      const ewn::Move* move = nullptr;
      std::string options;
      for (int k = 0; k < legal.size; ++k) {
        const std::string name = ewn::to_string(legal.moves[k]);
        if (name == text) move = &legal.moves[k];
        options += (k ? ", " : "") + name;
      }
      if (!move) {
        problems.add(at + ": move " + std::string(text) + " is not legal for die " +
                     std::to_string(ply.chance) + " in " + ewn::to_string(s) +
                     " (legal: " + options + ")");
        return;
      }
      out.before.push_back(s);
      ewn::apply(s, *move);
    }
    if (!ewn::is_over(s)) {
      problems.add(where + ": the game is not over after its " + std::to_string(out.plies) +
                   " plies");
      return;
    }
    out.winner = s.winner;
    if (g.winner != s.winner)
      problems.add(where + ": winner " + std::to_string(g.winner) +
                   " recorded, the replay ends with player " + std::to_string(s.winner) +
                   " winning");
  }

  void check_position(const Indexed<io::PositionRow>& position, std::span<const float> features,
                      Problems& problems) override {
    const io::PositionRow& p = position.row;
    const auto it = games_.find(p.game_id);
    if (it == games_.end()) return;
    const Replayed& g = it->second;
    const std::string at = row_where(p.game_id, p.ply, "/positions", position.index);
    if (p.ply >= g.plies) {
      problems.add(at + ": the game has " + std::to_string(g.plies) + " plies");
      return;
    }
    if (p.ply >= g.before.size()) return;  // past the ply where the replay stopped
    const ewn::State& s = g.before[p.ply];
    if (p.side_to_move != s.side)
      problems.add(at + ": side_to_move " + std::to_string(p.side_to_move) +
                   ", the replay has player " + std::to_string(s.side) + " to move");
    if (g.winner != ewn::kNoWinner) {
      const float want = g.winner == s.side ? 1.0f : 0.0f;  // EWN games always have a winner
      if (std::bit_cast<uint32_t>(p.result) != std::bit_cast<uint32_t>(want))
        problems.add(at + fmt::format(": result {}, the replayed game gives {}", p.result, want));
    }
    if (!features_comparable_ || features.size() != static_cast<size_t>(ewn::kNumFeatures)) return;
    float want[ewn::kNumFeatures];
    ewn::extract_features(s, rules_, want);
    for (int k = 0; k < ewn::kNumFeatures; ++k) {
      if (std::bit_cast<uint32_t>(features[k]) != std::bit_cast<uint32_t>(want[k])) {
        problems.add(at + fmt::format(": feature {} is {}, recomputed {}", ewn::kFeatureNames[k],
                                      features[k], want[k]));
        return;
      }
    }
  }

  std::string ply_text(const io::PlyRow& ply) const override {
    return std::to_string(ply.chance) + ":" + std::string(io::text_of(ply.move));
  }

 private:
  struct Replayed {
    uint64_t plies = 0;              // in /plies
    std::vector<ewn::State> before;  // the state (die rolled) before each ply the replay played
    int winner = ewn::kNoWinner;     // set when the replay reached the end of the game
  };

  ewn::Rules rules_;
  std::optional<config::Config<EwnGame>> cfg_;
  bool features_comparable_ = false;
  std::unordered_map<uint64_t, Replayed> games_;
};

}  // namespace

std::unique_ptr<RecordRules> make_ewn_record_rules(const io::FileMeta& meta,
                                                   const std::string& path) {
  return std::make_unique<EwnRecordRules>(meta, path);
}

}  // namespace sp::selfplay
