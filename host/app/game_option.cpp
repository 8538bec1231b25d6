#include "games/hosts.hpp"
#include "host/app/commands.hpp"

namespace sp::app {

CLI::Option* add_game_option(CLI::App& cmd, std::string& game) {
  return cmd.add_option("--game", game, "Game: " + game_names_text() +
                                            " (default: the config's `game:`, else " +
                                            Games::names().front() + ")");
}

}  // namespace sp::app
