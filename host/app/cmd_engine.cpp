#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "games/hosts.hpp"
#include "host/app/commands.hpp"
#include "host/app/options.hpp"
#include "host/play/config/load.hpp"
#include "host/play/terminal/human_game.hpp"
#include "host/protocols/engine_session.hpp"

#ifndef SELFPLAY_SOURCE_DIR
#define SELFPLAY_SOURCE_DIR "."
#endif

namespace sp::app {

namespace {

// "checkers, gomoku": the games the engine protocol plays (no chance).
template <class... Gs>
std::string line_protocol_game_names(GameList<Gs...>) {
  std::string out;
  ((out +=
    selfplay::LineProtocolGame<Gs> ? (out.empty() ? "" : ", ") + std::string(Gs::kName) : ""),
   ...);
  return out;
}

template <class G>
void require_line_protocol_game() {
  if constexpr (!selfplay::LineProtocolGame<G>)
    throw InputError(std::string(G::kName) +
                     " has chance outcomes, which the engine protocol does not send; games it "
                     "plays: " +
                     line_protocol_game_names(Games{}));
}

// The config `selfplay engine --game G` plays without --config: $SELFPLAY_ENGINE_CONFIG, else
// the source tree's configs/<game>/engine.yaml (pbrain.yaml for Gomoku).
std::string default_engine_config(const std::string& game) {
  if (const char* env = std::getenv("SELFPLAY_ENGINE_CONFIG"); env && *env) return env;
  const std::string name = game == "gomoku" ? "pbrain.yaml" : "engine.yaml";
  const std::string shipped = std::string(SELFPLAY_SOURCE_DIR) + "/configs/" + game + "/" + name;
  if (!std::filesystem::exists(shipped))
    throw InputError("no engine config for " + game +
                     ": pass --config FILE or set SELFPLAY_ENGINE_CONFIG (the shipped " + shipped +
                     " is missing)");
  return shipped;
}

}  // namespace

Runner add_engine(CLI::App& app) {
  auto o = std::make_shared<EngineLikeOptions>();
  add_engine_options(app, *o,
                     "$SELFPLAY_ENGINE_CONFIG, else the source tree's configs/<game>/engine.yaml; "
                     "Gomoku: configs/gomoku/pbrain.yaml");
  return [o]() {
    if (!o->game.empty()) with_game(o->game, []<class G>() { require_line_protocol_game<G>(); });
    if (o->config.empty() && o->game.empty())
      throw InputError("selfplay engine: give --game (" + line_protocol_game_names(Games{}) +
                       ") or --config FILE");
    const std::string path = o->config.empty() ? default_engine_config(o->game) : o->config;
    return with_game(config::config_file_game(path, o->game), [&]<class G>() -> int {
      require_line_protocol_game<G>();
      if constexpr (selfplay::LineProtocolGame<G>) {
        config::Config<G> cfg = config::load_campaign_config<G>(path);
        apply_engine_options(*o, cfg);
        auto backend =
            rollout::make_backend<G>(cfg.backend.name, selfplay::play_backend_options(cfg));
        selfplay::EngineSession<G> session(cfg, *backend, std::cin, std::cout, std::cerr);
        session.run();
      }
      return 0;
    });
  };
}

}  // namespace sp::app
