// The game-neutral keys of campaign and match configs (campaign_schema.cpp), as sections that
// game_schema.hpp assembles with a game's own keys (its GameHost's rules and playout sections).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/config/schema.hpp"
#include "host/engines/eval/weights.hpp"
#include "host/play/config/campaign_config.hpp"

namespace sp::config {

// Reads a weights file for the game being configured (its features); throws InputError.
using WeightsLoader = std::function<std::shared_ptr<const eval::Weights>(const std::string& file)>;

// campaign.games (campaigns only), concurrency, seed, paired (campaigns only).
// with_seed false: without `seed:` (improve configs, whose loop sets every seed).
Section<CampaignConfig> campaign_keys(bool match, bool with_seed = true);

// An engine's keys in three runs, around the game's playout keys: its type (expectimax in a game
// with chance, alphabeta in one without), the rollout and tree keys, then the evaluation and
// depth-search keys with the cross-key checks. Each key is declared for the engine types it
// applies to (Section::only_if): explain() shows only those, a file setting another is refused.
Section<EngineConfig> engine_type_key(bool chance_game);
Section<EngineConfig> engine_search_keys(bool chance_game);
Section<EngineConfig> engine_eval_keys(bool chance_game, const WeightsLoader& load,
                                       const std::string& weights_example);
// The key of type alphabeta in games whose search has a threat search (the forced_win hook of
// host/engines/search/game_hooks.hpp): threat_nodes.
Section<EngineConfig> engine_threat_keys();
// The key of type alphabeta in games with quiet positions (the is_quiet hook): quiescence.
Section<EngineConfig> engine_quiescence_keys();
// egtb: the folder of an mcts or alphabeta engine's endgame databases, opened by `load` (games
// with them, EndgameGame).
Section<EngineConfig> engine_egtb_keys(std::function<void(EngineConfig&, const std::string&)> load);
// The keys of type pbrain (an external Gomocup engine): command and its time controls. Games
// without the protocol get no such engine (game_schema.hpp refuses the type).
Section<EngineConfig> engine_pbrain_keys();
// `book`: an opening book file (`selfplay book build`), read with the config.
Section<EngineConfig> engine_book_keys();
// The program of a pbrain command as it will be run: a path with '/' taken relative to the
// directory of `document` (the config file), a bare name looked up on PATH. Throws InputError
// when it is not an executable file.
std::string resolve_program(const std::string& document, const std::string& program);
// A command's words as one line that split_command reads back the same (quoted where needed).
std::string command_text(const std::vector<std::string>& words);
// True for the engine types that run playouts (mcts, flat): where the game's playout keys apply.
bool applies_to_rollout_engines(const EngineConfig& e);

Section<BackendConfig> backend_keys();
// An empty default_path: without `path:` (improve configs, whose loop names every file);
// quiet_key: with `quiet_positions` (games whose positions can be quiet, search::hooks::HasQuiet).
Section<OutputConfig> output_keys(const std::string& default_path, bool quiet_key = false);
Section<MatchSettings> match_keys();

}  // namespace sp::config
