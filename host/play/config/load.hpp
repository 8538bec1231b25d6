// Loading and explaining campaign and match configs (YAML). The keys, their types, ranges, defaults
// and help lines are declared once: the neutral ones in campaign_schema.cpp, a game's in its
// GameHost (game_schema.hpp assembles them); configs/<game>/campaign.yaml are the examples.
#pragma once

#include <string>

#include "core/config/schema.hpp"
#include "host/play/config/campaign_config.hpp"
#include "host/play/config/game_schema.hpp"

namespace sp::config {

// The game a config is for: its `game:` key, checked against the games list (games/games.hpp);
// when the key is absent, `requested` (--game), or else the first game of the list. Throws
// ConfigError naming the file, line and key, and listing the known games, for an unknown one, and
// for a `requested` game other than the config's.
std::string config_game(const std::string& text, const std::string& name,
                        const std::string& requested = "");
std::string config_file_game(const std::string& path,  // reads the file (read_config_file)
                             const std::string& requested = "");

// Reads a campaign config of game G: every key omitted takes its default. Throws ConfigError
// (an sp::InputError) "FILE:LINE:COLUMN: key 'a.b': what is wrong" for any unusable input, and
// "cannot read FILE: reason" when the file cannot be read. Fills source_path and source_text.
// lenient: keys that do not apply to an engine's type are ignored (configs stored in files by
// older versions, which wrote every key).
template <HostGame G>
Config<G> load_campaign_config_text(const std::string& text, const std::string& name,
                                    bool lenient = false) {
  Config<G> c = campaign_schema<G>(false).load(text, name, lenient);
  c.source_path = name;
  c.source_text = text;
  return c;
}
template <HostGame G>
Config<G> load_campaign_config(const std::string& path) {
  return load_campaign_config_text<G>(read_config_file(path), path);
}

// The effective configuration as YAML: every key that applies, defaults filled in, each with its
// help line and type as a comment (all: every key, as identities compare them). Loading the
// output gives back an identical config (source fields aside).
template <HostGame G>
std::string explain_campaign_config(const Config<G>& config, bool all = false) {
  return "# Effective selfplay campaign configuration: every key that applies, defaults filled "
         "in.\n" +
         campaign_schema<G>(false).explain(config, all);
}

// Match configs (selfplay match): the campaign keys without campaign.games and campaign.paired,
// plus a `match:` section (pairs, sprt). engines.player0 is engine A, engines.player1 engine B.
// The result has paired = true and games = 2 * match.pairs. Errors as for campaign configs.
template <HostGame G>
Config<G> load_match_config_text(const std::string& text, const std::string& name,
                                 bool lenient = false) {
  Config<G> c = campaign_schema<G>(true).load(text, name, lenient);
  c.paired = true;
  c.games = 2 * c.match.pairs;
  c.source_path = name;
  c.source_text = text;
  return c;
}
template <HostGame G>
Config<G> load_match_config(const std::string& path) {
  return load_match_config_text<G>(read_config_file(path), path);
}
template <HostGame G>
std::string explain_match_config(const Config<G>& config, bool all = false) {
  return "# Effective selfplay match configuration: every key that applies, defaults filled in.\n" +
         campaign_schema<G>(true).explain(config, all);
}

}  // namespace sp::config
