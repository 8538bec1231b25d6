#include <iostream>

#include "games/hosts.hpp"
#include "host/app/commands.hpp"
#include "host/play/config/load.hpp"
#include "host/play/terminal/human_game.hpp"

namespace sp::app {

Runner add_play(CLI::App& app) {
  struct Opts {
    std::string game;
    std::string engine;
    bool human_first = false;
    uint64_t seed = 0;
    std::string backend;
  };
  auto o = std::make_shared<Opts>();
  add_game_option(app, o->game);
  app.add_option(
         "--engine", o->engine,
         "Campaign config (YAML): the engine is its engines.player0 section, the rules its rules "
         "section, e.g. configs/ewn/campaign.yaml")
      ->required();
  app.add_flag("--human-first", o->human_first,
               "You take the side that moves first (default: the engine does)");
  CLI::Option* seed =
      app.add_option("--seed", o->seed,
                     "Seed of openings and chance (default: the config's campaign.seed)")
          ->transform(integer_in(0, UINT64_MAX));
  app.add_option("--backend", o->backend,
                 "Rollout backend: auto, cpu, cuda, check (default: the config's backend.name)");
  return [o, seed]() {
    return with_game(config::config_file_game(o->engine, o->game), [&]<class G>() {
      config::Config<G> cfg = config::load_campaign_config<G>(o->engine);
      if (seed->count()) cfg.seed = o->seed;
      if (!o->backend.empty()) cfg.backend.name = o->backend;
      auto backend =
          rollout::make_backend<G>(cfg.backend.name, selfplay::play_backend_options(cfg));
      selfplay::HumanGame<G> session(cfg, *backend, o->human_first, std::cin, std::cout);
      session.run();
      return 0;
    });
  };
}

}  // namespace sp::app
