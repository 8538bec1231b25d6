// The whole schema of a campaign or match config of game G: the neutral keys of
// campaign_schema.hpp with the game's `rules:` section and each engine's playout keys from its
// GameHost. load.hpp's functions use it; a game is dispatched first (config_game) and its schema
// built once.
#pragma once

#include <memory>
#include <string>

#include "core/config/schema.hpp"
#include "games/games.hpp"
#include "games/hosts.hpp"
#include "host/engines/book/book_engine.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/engines/search/game_hooks.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/config/campaign_schema.hpp"

namespace sp::config {

template <HostGame G>
WeightsLoader weights_loader() {
  return [](const std::string& file) -> std::shared_ptr<const eval::Weights> {
    if constexpr (FeatureGame<G>)
      return std::make_shared<const eval::Weights>(eval::load_weights<G>(file));
    else
      throw InputError(std::string(G::kName) +
                       " has no evaluation features: no weights file applies");
  };
}

// "gomoku": the games of the list whose host part speaks the Gomocup protocol, for messages.
template <class... Gs>
std::string protocol_game_names(GameList<Gs...>) {
  std::string out;
  ((ProtocolGame<Gs> ? (out += (out.empty() ? "" : ", ") + std::string(Gs::kName), 0) : 0), ...);
  return out;
}
inline std::string protocol_game_names() { return protocol_game_names(Games{}); }

// engines.playerN of Config<G>: the neutral engine keys with G's playout keys in the middle.
template <HostGame G>
Section<Config<G>> engine_section(int p) {
  constexpr bool chance = ChanceGame<G>;
  const auto engine = [p](Config<G>& c) -> EngineConfig& { return c.engines[p]; };
  const auto policy = [p](Config<G>& c) -> typename G::Policy& { return c.policies[p]; };
  Section<Config<G>> s;
  s.include(engine, engine_type_key(chance));
  s.include(engine, engine_search_keys(chance));
  s.only_if([p](const Config<G>& c) { return applies_to_rollout_engines(c.engines[p]); },
            "for type mcts and flat");
  s.include(policy, GameHost<G>::policy_section());
  s.only_if({}, "");
  std::string example = std::string("configs/") + G::kName + "/weights/";
  if constexpr (requires { GameHost<G>::kWeightsExample; }) example = GameHost<G>::kWeightsExample;
  s.include(engine, engine_eval_keys(chance, weights_loader<G>(), example));
  if constexpr (search::hooks::HasForcedWin<G>) s.include(engine, engine_threat_keys());
  if constexpr (requires(const search::NativeEngineSpec& e) {
                  GameHost<G>::check_native_engine(e);
                })
    s.check([p](const Config<G>& c, const Document& doc, const std::string& path) {
      const EngineConfig& e = c.engines[p];
      if (e.type != EngineType::kAlphaBeta || e.search != SearchKind::kPattern) return;
      const std::string why = GameHost<G>::check_native_engine(native_engine_spec(e));
      if (!why.empty()) doc.fail_key(path + ".search", why);
    });
  if constexpr (search::hooks::HasQuiet<G>) s.include(engine, engine_quiescence_keys());
  if constexpr (EndgameGame<G>)
    s.include(engine, engine_egtb_keys([](EngineConfig& e, const std::string& dir) {
                e.endgame = nullptr;
                if (dir.empty()) return;
                auto tables = GameHost<G>::egtb_open(dir);
                if (tables->max_pieces() == 0)
                  throw InputError("no endgame database in " + excerpt(dir) +
                                   " (build them with `selfplay egtb build`)");
                e.endgame = std::move(tables);
              }));
  s.include(engine, engine_book_keys());
  s.check([p](const Config<G>& c, const Document& doc, const std::string& path) {
    if (const auto& book = c.engines[p].opening_book) {
      const std::string why = book::check_book<G>(*book, GameHost<G>::rules_of(c.rules));
      if (!why.empty()) doc.fail_key(path + ".book", why);
    }
  });
  s.include(engine, engine_pbrain_keys());
  if constexpr (!ProtocolGame<G>)
    s.check([p](const Config<G>& c, const Document& doc, const std::string& path) {
      if (c.engines[p].type == EngineType::kPbrain)
        doc.fail_key(path + ".type",
                     std::string("pbrain engines speak the Gomocup protocol, which ") + G::kName +
                         " does not have; known games that have it: " + protocol_game_names());
    });
  return s;
}

template <HostGame G>
Section<Config<G>> build_schema(bool match) {
  const auto self = [](Config<G>& c) -> Config<G>& { return c; };
  const auto neutral = [](Config<G>& c) -> CampaignConfig& { return c; };
  Section<Config<G>> s;
  s.choice(
      "game", [](Config<G>& c) -> std::string& { return c.game; }, std::string(G::kName),
      {{G::kName, G::kName}}, std::string("the game: ") + GameHost<G>::kTitle);
  s.section("rules", &Config<G>::rules, GameHost<G>::settings_section(),
            "rules variant and how games start");
  Section<Config<G>> campaign;
  campaign.include(neutral, campaign_keys(match));
  s.section("campaign", self, std::move(campaign),
            match ? "games at once and seed" : "how many games, how many at once, seed");
  Section<Config<G>> engines;
  engines.section("player0", self, engine_section<G>(0), "the engine playing player 0");
  engines.section("player1", self, engine_section<G>(1), "the engine playing player 1");
  s.section("engines", self, std::move(engines),
            match ? "engine A (player0) and engine B (player1)" : "one engine per player");
  s.section("backend", &Config<G>::backend, backend_keys(), "where playouts run");
  s.section("output", &Config<G>::output,
            output_keys(std::string("out/") + G::kName + (match ? "-match.h5" : "-campaign.h5"),
                        search::hooks::HasQuiet<G>),
            "where game records go");
  if (match) s.section("match", &Config<G>::match, match_keys(), "game pairs and the SPRT");
  return s;
}

template <HostGame G>
const Section<Config<G>>& campaign_schema(bool match) {
  static const Section<Config<G>> campaign = build_schema<G>(false);
  static const Section<Config<G>> matches = build_schema<G>(true);
  return match ? matches : campaign;
}

}  // namespace sp::config
