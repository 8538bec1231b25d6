#include <cstdio>
#include <stdexcept>
#include <string>

#include "games/hosts.hpp"
#include "host/app/commands.hpp"
#include "host/app/options.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/mpi/comm.hpp"
#include "host/play/config/load.hpp"
#include "host/play/ranks/match_ranks.hpp"
#include "host/play/selfplay/match.hpp"

namespace sp::app {

Runner add_match(CLI::App& app) {
  struct Opts {
    std::string config;
    uint32_t pairs = 0;
    RunLikeOptions run;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("config", o->config,
                 "Match config (YAML): engines.player0 is engine A, engines.player1 engine B, e.g. "
                 "configs/ewn/match-mcts-vs-expectimax.yaml")
      ->required();
  app.add_option("--pairs", o->pairs, "Game pairs (overrides match.pairs)")
      ->transform(integer_in(1, 500000000));
  add_run_options(app, o->run, "match", "result");
  return [o]() {
    selfplay::MatchOptions options;
    if (o->pairs) options.pairs = o->pairs;
    apply_run_options(o->run, options);
    const std::string resume = resume_command("match", o->config, o->run);
    selfplay::MatchResult r;
    try {
      r = with_game(config::config_file_game(o->config, o->run.game), [&]<class G>() {
        const auto cfg = selfplay::with_overrides(config::load_match_config<G>(o->config), options);
        if (selfplay::ranked_run(cfg.output.path))
          return selfplay::run_match_ranks<G>(cfg, options, stop_on_signals());
        return selfplay::run_match<G>(cfg, options, stop_on_signals());
      });
    } catch (const io::CampaignWriteError& e) {
      throw std::runtime_error(std::string(e.what()) + "; continue with: " + resume);
    }
    if (dist::rank() != 0) return r.interrupted ? 130 : 0;  // rank 0 speaks for the run
    std::fputs(r.report.c_str(), stdout);
    if (r.interrupted) {
      std::printf("interrupted; continue with: %s\n", resume.c_str());
      return 130;
    }
    return 0;
  };
}

}  // namespace sp::app
