#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "games/hosts.hpp"
#include "host/app/commands.hpp"
#include "host/app/options.hpp"
#include "host/play/config/load.hpp"
#include "host/play/terminal/human_game.hpp"
#include "host/protocols/pbrain.hpp"

#ifndef SELFPLAY_SOURCE_DIR
#define SELFPLAY_SOURCE_DIR "."
#endif

namespace sp::app {

std::string default_pbrain_config() {
  if (const char* env = std::getenv("SELFPLAY_PBRAIN_CONFIG"); env && *env) return env;
  const std::string shipped = std::string(SELFPLAY_SOURCE_DIR) + "/configs/gomoku/pbrain.yaml";
  if (!std::filesystem::exists(shipped))
    throw InputError(
        "no pbrain config: pass --config FILE or set SELFPLAY_PBRAIN_CONFIG (the "
        "shipped " +
        shipped + " is missing)");
  return shipped;
}

namespace {

// "gomoku": the games with GameHost's pbrain hooks.
template <class... Gs>
std::string pbrain_game_names(GameList<Gs...>) {
  std::string out;
  ((out += ProtocolGame<Gs> ? (out.empty() ? "" : ", ") + std::string(Gs::kName) : ""), ...);
  return out;
}

// Throws InputError unless game G speaks the Gomocup protocol.
template <class G>
void require_pbrain_game() {
  if constexpr (!ProtocolGame<G>)
    throw InputError(
        std::string(G::kName) +
        " has no Gomocup (pbrain) protocol; games that have it: " + pbrain_game_names(Games{}));
}

}  // namespace

Runner add_pbrain(CLI::App& app) {
  auto o = std::make_shared<EngineLikeOptions>();
  add_engine_options(app, *o,
                     "$SELFPLAY_PBRAIN_CONFIG, else the source tree's configs/gomoku/pbrain.yaml");
  return [o]() {
    if (!o->game.empty()) with_game(o->game, []<class G>() { require_pbrain_game<G>(); });
    const std::string path = o->config.empty() ? default_pbrain_config() : o->config;
    return with_game(config::config_file_game(path, o->game), [&]<class G>() -> int {
      require_pbrain_game<G>();
      if constexpr (ProtocolGame<G>) {
        config::Config<G> cfg = config::load_campaign_config<G>(path);
        apply_engine_options(*o, cfg);
        auto backend =
            rollout::make_backend<G>(cfg.backend.name, selfplay::play_backend_options(cfg));
        selfplay::PbrainSession<G> session(cfg, *backend, std::cin, std::cout, std::cerr);
        session.run();
      }
      return 0;
    });
  };
}

}  // namespace sp::app
