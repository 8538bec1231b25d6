// RecordRules for any game: replays stored games with the game's rules (GameHost<G>), checks
// openings, first players and chance outcomes against the campaign's random streams (driver.hpp)
// as the file's stored config sets them up, and recomputes features (FeatureGame).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "core/errors.hpp"
#include "core/game_host.hpp"
#include "core/repetition.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/driver.hpp"
#include "host/records/record_rules.hpp"

namespace sp::selfplay {

namespace record_detail {

// The optional GameHost hooks (game_host.hpp) that replay a file whose stored config cannot be
// read: its rules from the `rules` attribute, each game's start from its opening text.
template <class G>
concept ReplaysWithoutConfig = requires(std::string_view text, int player) {
  { GameHost<G>::parse_rules(text) } -> std::same_as<std::optional<typename G::Rules>>;
  { GameHost<G>::opening_position(text, player) } -> std::same_as<typename G::State>;
};

// What messages call one chance outcome and several ("die", "dice").
template <class G>
std::string chance_name() {
  if constexpr (requires { GameHost<G>::kChanceName; })
    return GameHost<G>::kChanceName;
  else
    return "chance outcome";
}
template <class G>
std::string chances_name() {
  if constexpr (requires { GameHost<G>::kChancesName; })
    return GameHost<G>::kChancesName;
  else
    return "chance outcomes";
}

// "player 1 won", "a draw": how a game ended (G::winner), for messages.
inline std::string ending(int winner) {
  return winner == 0 || winner == 1 ? "player " + std::to_string(winner) + " won" : "a draw";
}

// /games `winner` of a G::winner(): draws are -1.
inline int stored_winner(int winner) { return winner == 0 || winner == 1 ? winner : -1; }

}  // namespace record_detail

template <HostGame G>
class GameRecordRules final : public RecordRules {
 public:
  GameRecordRules(const io::FileMeta& meta, const std::string& path) {
    std::string why;
    cfg_ = stored_config(meta, path, why);
    if (cfg_) {
      rules_ = GameHost<G>::rules_of(cfg_->rules);
    } else {
      std::optional<typename G::Rules> rules;
      if constexpr (record_detail::ReplaysWithoutConfig<G>)
        rules = GameHost<G>::parse_rules(meta.rules);
      if (!rules)
        throw InputError(path + ": cannot tell the rules its games were played under: the stored " +
                         "config cannot be read (" + why + ") and the rules attribute is \"" +
                         meta.rules + "\"");
      rules_ = *rules;
      std::string checked = "openings and first players";
      if constexpr (ChanceGame<G>)
        checked = "openings, first players and " + record_detail::chances_name<G>();
      notes_.push_back("the stored config cannot be read (" + why + "): " + checked +
                       " are checked against the rules only");
    }
    if constexpr (FeatureGame<G>) {
      const auto names = G::feature_names();
      // A file from before features were appended holds a prefix of this build's list: those
      // are compared.
      features_comparable_ = meta.feature_names.size() <= names.size();
      for (size_t i = 0; features_comparable_ && i < meta.feature_names.size(); ++i)
        features_comparable_ = meta.feature_names[i] == names[i];
      file_features_ = static_cast<int>(meta.feature_names.size());
      if (!features_comparable_)
        notes_.push_back(
            "the file's feature_names differ from this build's: features not recomputed");
    }
  }

  void replay(const StoredGame& stored, Problems& problems) override {
    const io::GameRow& g = stored.game.row;
    const std::string where = game_where(stored.game);
    Replayed& out = games_[g.game_id];
    out.plies = stored.plies.size();

    const std::string opening(io::text_of(g.opening));
    if (g.first_player > 1) {
      problems.add(where + ": first_player is " + std::to_string(g.first_player) + ", not 0 or 1");
      return;
    }
    // The campaign's random streams take 32-bit game ids (driver.hpp).
    const bool streams = cfg_ && g.game_id <= std::numeric_limits<uint32_t>::max();
    if (cfg_ && !streams) problems.add(where + ": game id beyond the 32-bit ids a campaign plays");
    const auto id = static_cast<uint32_t>(g.game_id);
    State s{};
    if (streams) {
      if (g.seed != cfg_->seed)
        problems.add(where + ": seed " + std::to_string(g.seed) + ", the file's config has " +
                     std::to_string(cfg_->seed));
      // The replay starts where the config started the game, whatever the row says.
      std::string want;
      s = GameHost<G>::start(cfg_->rules, cfg_->seed, stream_game(*cfg_, id), &want);
      if (want != opening)
        problems.add(where + ": opening " + opening + ", the file's config gives " + want);
      if (G::side_to_move(s) != g.first_player)
        problems.add(where + ": first_player " + std::to_string(g.first_player) +
                     ", the file's config gives " + std::to_string(G::side_to_move(s)));
    } else if constexpr (record_detail::ReplaysWithoutConfig<G>) {
      try {
        s = GameHost<G>::opening_position(opening, g.first_player);
      } catch (const InputError& e) {
        problems.add(where + ": opening \"" + opening + "\" does not parse: " + e.what());
        return;
      }
    } else {
      return;  // no start to replay from (the config is there: a game id it cannot have)
    }

    out.end = s;
    for (const auto& [row, c] : stored.candidates)
      if (c.ply >= stored.plies.size()) {
        problems.add(row_where(g.game_id, c.ply, "/candidates", row) + ": the game has " +
                     std::to_string(stored.plies.size()) + " plies");
        break;
      }
    // The repetition rule draws a game that G::is_over does not end (core/repetition.hpp).
    PositionHistory<G> history(rules_);
    history.reset(s);
    bool repeated = false;
    for (const auto& [row, ply] : stored.plies) {
      const std::string at = row_where(g.game_id, ply.ply, "/plies", row);
      if (G::is_over(s) || repeated) {
        problems.add(at + ": the game was over (" +
                     (G::is_over(s)
                          ? record_detail::ending(G::winner(s))
                          : "a draw by repetition: " + GameHost<G>::position_text(s) +
                                " occurred " + std::to_string(history.limit()) + " times") +
                     ") before this ply");
        return;
      }
      if (ply.player != G::side_to_move(s))
        problems.add(at + ": player " + std::to_string(ply.player) + " moved, but player " +
                     std::to_string(G::side_to_move(s)) + " is to move");
      std::string for_chance;  // " for die 3" in messages
      if constexpr (ChanceGame<G>) {
        const int outcome = outcome_of(s, ply.chance);
        if (outcome < 0) {
          problems.add(at + ": chance " + std::to_string(ply.chance) + " is not a " +
                       record_detail::chance_name<G>() + " (" + outcomes_text(s) + ")");
          return;
        }
        if (streams) {
          const int want = value_of(s, draw_chance<G>(cfg_->seed, stream_game(*cfg_, id), ply.ply));
          if (want != ply.chance)
            problems.add(at + ": " + record_detail::chance_name<G>() + " " +
                         std::to_string(ply.chance) + ", the campaign's " +
                         record_detail::chances_name<G>() + " give " + std::to_string(want));
        }
        G::set_chance(s, outcome);
        for_chance = " for " + record_detail::chance_name<G>() + " " + std::to_string(ply.chance);
      } else if (ply.chance != io::kNoChance) {
        problems.add(at + ": chance " + std::to_string(ply.chance) + ", but " + G::kName +
                     " has no chance (" + std::to_string(io::kNoChance) + ")");
      }
      typename G::MoveList legal;
      G::generate_moves(s, rules_, legal);
      const std::string_view text = io::text_of(ply.move);
      int found = -1;
      std::string options;
      for (int k = 0; k < legal.size; ++k) {
        const std::string name = GameHost<G>::move_text(s, legal.moves[k]);
        if (found < 0 && name == text) found = k;
        options += (k ? ", " : "") + name;
      }
      if (found < 0) {
        problems.add(at + ": move " + std::string(text) + " is not legal" + for_chance + " in " +
                     GameHost<G>::position_text(s) + " (legal: " + options + ")");
        return;
      }
      check_search(s, at, ply, legal.moves[found], candidates_of(stored, ply.ply), problems);
      out.before.push_back(s);
      out.moves.push_back(legal.moves[found]);
      G::apply(s, legal.moves[found]);
      out.end = s;
      repeated = history.push(s);
    }
    if (g.termination != 0) {
      // A forfeit: the player to move after the last ply gave the game up and lost it.
      if (g.termination >= search::kTerminations) {
        problems.add(where + ": termination " + std::to_string(g.termination) +
                     " is not one of 0 (rules), 1 (time loss), 2 (crash), 3 (illegal move)");
        return;
      }
      const char* name = search::termination_name(static_cast<search::Termination>(g.termination));
      if (G::is_over(s) || repeated) {
        problems.add(
            where + ": termination " + name + " recorded, but the game was over (" +
            (repeated ? std::string("a draw by repetition") : record_detail::ending(G::winner(s))) +
            ") after its " + std::to_string(out.plies) + " plies");
        return;
      }
      out.finished = true;
      out.winner = 1 - G::side_to_move(s);
      if (g.winner != out.winner)
        problems.add(where + ": winner " + std::to_string(g.winner) + " recorded, but player " +
                     std::to_string(G::side_to_move(s)) + " forfeited (" + name + ") and player " +
                     std::to_string(out.winner) + " wins");
      return;
    }
    if (!G::is_over(s) && !repeated) {
      problems.add(where + ": the game is not over after its " + std::to_string(out.plies) +
                   " plies");
      return;
    }
    out.finished = true;
    out.winner = record_detail::stored_winner(G::is_over(s) ? G::winner(s) : G::kNoWinner);
    if (g.winner != out.winner)
      problems.add(where + ": winner " + std::to_string(g.winner) + " recorded, the replay ends " +
                   (out.winner >= 0 ? "with player " + std::to_string(out.winner) + " winning"
                                    : std::string("in a draw")));
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
    if constexpr (!FeatureGame<G>) {
      // A file-wide fault: said once, at the first position that shows it.
      if (!features.empty() && !featureless_reported_) {
        featureless_reported_ = true;
        problems.add(at + ": " + std::to_string(features.size()) + " features stored, but " +
                     G::kName + " has no features");
      }
    }
    if (p.ply >= g.before.size()) return;  // past the ply where the replay stopped
    const State& s = g.before[p.ply];
    const int side = G::side_to_move(s);
    if (p.side_to_move != side)
      problems.add(at + ": side_to_move " + std::to_string(p.side_to_move) +
                   ", the replay has player " + std::to_string(side) + " to move");
    if (g.finished) {
      // As campaign.hpp's to_rows scores a position: 1 win, 0 loss, 0.5 draw.
      const float want = g.winner == side ? 1.0f : g.winner >= 0 ? 0.0f : 0.5f;
      if (std::bit_cast<uint32_t>(p.result) != std::bit_cast<uint32_t>(want))
        problems.add(at + fmt::format(": result {}, the replayed game gives {}", p.result, want));
    }
    if constexpr (FeatureGame<G>) {
      if (!features_comparable_ || features.size() != static_cast<size_t>(file_features_)) return;
      float want[G::kNumFeatures];
      G::extract_features(s, rules_, want);
      for (int k = 0; k < file_features_; ++k) {
        if (std::bit_cast<uint32_t>(features[k]) != std::bit_cast<uint32_t>(want[k])) {
          problems.add(at + fmt::format(": feature {} is {}, recomputed {}", G::feature_names()[k],
                                        features[k], want[k]));
          return;
        }
      }
    }
  }

  std::string ply_text(const io::PlyRow& ply) const override {
    return sp::ply_text<G>(ply.chance, io::text_of(ply.move));
  }

  std::optional<BoardFrame> board_frame() const override {
    if constexpr (PictureGame<G>)
      return GameHost<G>::board_frame(rules_);
    else
      return std::nullopt;
  }

  std::vector<BoardPicture> take_boards(uint64_t game_id) override {
    std::vector<BoardPicture> out;
    const auto it = games_.find(game_id);
    if (it == games_.end()) return out;
    if constexpr (PictureGame<G>) {
      if (it->second.end) {
        for (const State& s : it->second.before) out.push_back(GameHost<G>::picture(s));
        out.push_back(GameHost<G>::picture(*it->second.end));
      }
    }
    games_.erase(it);
    return out;
  }

  std::vector<std::string> take_positions(uint64_t game_id) override {
    std::vector<std::string> out;
    const auto it = games_.find(game_id);
    if (it == games_.end()) return out;
    for (const State& s : it->second.before) out.push_back(GameHost<G>::position_text(s));
    games_.erase(it);
    return out;
  }

  using State = typename G::State;
  using Move = typename G::Move;

  // The plies of a replayed game up to the first it could not play: the state before each (chance
  // drawn) and its move; then the game is forgotten. Empty for a game not replayed.
  struct Plays {
    std::vector<State> before;
    std::vector<Move> moves;
  };
  // The rules the games are replayed under.
  const typename G::Rules& rules() const { return rules_; }
  Plays take_plays(uint64_t game_id) {
    Plays out;
    const auto it = games_.find(game_id);
    if (it == games_.end()) return out;
    out.before = std::move(it->second.before);
    out.moves = std::move(it->second.moves);
    games_.erase(it);
    return out;
  }

 private:
  // The /candidates rows of ply `ply` of a game (sorted by ply, then rank).
  static std::span<const Indexed<io::CandidateRow>> candidates_of(const StoredGame& game,
                                                                  uint64_t ply) {
    const auto& all = game.candidates;
    const auto first = std::lower_bound(all.begin(), all.end(), ply,
                                        [](const auto& c, uint64_t p) { return c.row.ply < p; });
    auto last = first;
    while (last != all.end() && last->row.ply == ply) ++last;
    return {first, last};
  }

  // The legal move of s (chance drawn) whose text is `text`, or nullopt.
  std::optional<Move> legal_move(const State& s, std::string_view text) const {
    typename G::MoveList legal;
    G::generate_moves(s, rules_, legal);
    for (int k = 0; k < legal.size; ++k)
      if (GameHost<G>::move_text(s, legal.moves[k]) == text) return legal.moves[k];
    return std::nullopt;
  }

  // The search records of a ply played in s (chance drawn): see RecordRules::replay.
  void check_search(const State& s, const std::string& at, const io::PlyRow& ply, Move played,
                    std::span<const Indexed<io::CandidateRow>> candidates,
                    Problems& problems) const {
    if (ply.search >= search::kSearchKinds)
      problems.add(at + ": search " + std::to_string(ply.search) + " is no search kind (0-" +
                   std::to_string(search::kSearchKinds - 1) + ")");
    const std::string_view pv = io::text_of(ply.pv);
    State line = s;
    size_t k = 0;
    for (size_t start = 0; start < pv.size(); ++k) {
      const size_t end = std::min(pv.find(' ', start), pv.size());
      std::string_view token = pv.substr(start, end - start);
      start = end + 1;
      const std::string bad =
          at + ": pv ply " + std::to_string(k) + " (" + std::string(token) + ")";
      if (G::is_over(line)) {
        problems.add(bad + " follows the end of the game");
        return;
      }
      if constexpr (ChanceGame<G>) {
        const size_t colon = token.find(':');
        int value = -1;
        if (colon != std::string_view::npos) {
          try {
            value = std::stoi(std::string(token.substr(0, colon)));
          } catch (const std::exception&) {
          }
        }
        const int outcome = value < 0 ? -1 : outcome_of(line, value);
        if (outcome < 0 || (k == 0 && value != ply.chance)) {
          problems.add(
              bad + " does not start with " +
              (k == 0 ? "the ply's " + record_detail::chance_name<G>() + " " +
                            std::to_string(ply.chance)
                      : "a " + record_detail::chance_name<G>() + " (" + outcomes_text(line) + ")"));
          return;
        }
        G::set_chance(line, outcome);
        token.remove_prefix(colon + 1);
      }
      const std::optional<Move> move = legal_move(line, token);
      if (!move) {
        problems.add(bad + " is not legal in " + GameHost<G>::position_text(line));
        return;
      }
      if (k == 0 && !(*move == played)) {
        problems.add(bad + " is not the move played, " + std::string(io::text_of(ply.move)));
        return;
      }
      G::apply(line, *move);
    }
    for (size_t r = 0; r < candidates.size(); ++r) {
      const auto& [row, c] = candidates[r];
      const std::string where = row_where(c.game_id, c.ply, "/candidates", row);
      if (c.rank != r) {
        problems.add(where + ": rank " + std::to_string(c.rank) + ", expected " +
                     std::to_string(r) + " (ranks count from 0 without a gap)");
        return;
      }
      if (!legal_move(s, io::text_of(c.move)))
        problems.add(where + ": candidate " + std::string(io::text_of(c.move)) +
                     " is not legal in " + GameHost<G>::position_text(s));
      if (!(c.value >= 0 && c.value <= 1))
        problems.add(where + ": value " + fmt::format("{:g}", c.value) + " is not in [0, 1]");
    }
  }

  struct Replayed {
    uint64_t plies = 0;         // in /plies
    std::vector<State> before;  // the state (chance drawn) before each ply the replay played
    std::vector<Move> moves;    // the move of each of those plies
    std::optional<State> end;   // the state after the last ply it played (or its start)
    bool finished = false;      // the replay reached the end of the game
    int winner = -1;            // then: as /games stores it, -1 for a draw
  };

  // The config stored in the file, without its engines and backend: they play no part in how a
  // game is set up and rolled, and engines name weights files that need not exist where a file is
  // checked. nullopt, with the reason in `why`, when it cannot be read.
  static std::optional<config::Config<G>> stored_config(const io::FileMeta& meta,
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
      return meta.match ? config::load_match_config_text<G>(out.c_str(), name, true)
                        : config::load_campaign_config_text<G>(out.c_str(), name, true);
    } catch (const YAML::Exception& e) {
      why = e.what();
    } catch (const InputError& e) {
      why = e.what();
    }
    return std::nullopt;
  }

  // The stored chance value of outcome k (0-based) drawn in s.
  static int value_of(State s, int k) requires ChanceGame<G> {
    G::set_chance(s, k);
    return GameHost<G>::chance_value(s);
  }
  // The outcome whose stored value is `value`; -1 when none is.
  static int outcome_of(const State& s, int value) requires ChanceGame<G> {
    for (int k = 0; k < G::kChanceOutcomes; ++k)
      if (value_of(s, k) == value) return k;
    return -1;
  }
  // The stored values of the outcomes: "1-6" when they run on by one, else listed.
  static std::string outcomes_text(const State& s) requires ChanceGame<G> {
    std::string list;
    bool run = true;
    for (int k = 0; k < G::kChanceOutcomes; ++k) {
      run = run && (k == 0 || value_of(s, k) == value_of(s, k - 1) + 1);
      list += (k ? ", " : "") + std::to_string(value_of(s, k));
    }
    if (run && G::kChanceOutcomes > 1)
      return std::to_string(value_of(s, 0)) + "-" +
             std::to_string(value_of(s, G::kChanceOutcomes - 1));
    return list;
  }

  typename G::Rules rules_{};
  std::optional<config::Config<G>> cfg_;
  bool features_comparable_ = false;
  int file_features_ = 0;  // the file's feature count (a prefix of the build's)
  bool featureless_reported_ = false;
  std::unordered_map<uint64_t, Replayed> games_;
};

// The rules of game G for the file at `path` (make_record_rules picks G by meta.game; tests call
// this directly for games outside the games list). Throws as make_record_rules does.
template <HostGame G>
std::unique_ptr<RecordRules> make_game_record_rules(const io::FileMeta& meta,
                                                    const std::string& path) {
  return std::make_unique<GameRecordRules<G>>(meta, path);
}

}  // namespace sp::selfplay
