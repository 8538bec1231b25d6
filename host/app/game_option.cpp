#include "games/hosts.hpp"
#include "host/app/commands.hpp"

namespace sp::app {

CLI::Option* add_game_option(CLI::App& cmd, std::string& game, bool with_config) {
  if (!with_config) {
    if (game.empty()) game = Games::names().front();
    return cmd.add_option("--game", game, "Game: " + game_names_text())->capture_default_str();
  }
  return cmd.add_option("--game", game,
                        "Game: " + game_names_text() + " (default: the config's `game:`, else " +
                            Games::names().front() + ")");
}

}  // namespace sp::app
