#include <cstdio>
#include <stdexcept>
#include <string>

#include "games/hosts.hpp"
#include "host/app/commands.hpp"
#include "host/app/options.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/mpi/comm.hpp"
#include "host/play/config/load.hpp"
#include "host/play/ranks/campaign_ranks.hpp"
#include "host/play/selfplay/campaign.hpp"

namespace sp::app {

Runner add_run(CLI::App& app) {
  struct Opts {
    std::string config;
    uint32_t games = 0;
    RunLikeOptions run;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("config", o->config, "Campaign config (YAML), e.g. configs/ewn/campaign.yaml")
      ->required();
  app.add_option("--games", o->games, "Number of games (overrides campaign.games)")
      ->transform(integer_in(1, 1000000000));
  add_run_options(app, o->run, "campaign", "summary");
  return [o]() {
    selfplay::RunOptions options;
    if (o->games) options.games = o->games;
    apply_run_options(o->run, options);
    const std::string resume = resume_command("run", o->config, o->run);
    uint32_t games = 0;
    selfplay::RunResult r;
    try {
      r = with_game(config::config_file_game(o->config, o->run.game), [&]<class G>() {
        const auto cfg =
            selfplay::with_overrides(config::load_campaign_config<G>(o->config), options);
        games = cfg.games;
        if (selfplay::ranked_run(cfg.output.path))
          return selfplay::run_campaign_ranks<G>(cfg, options, stop_on_signals());
        return selfplay::run_campaign<G>(cfg, options, stop_on_signals());
      });
    } catch (const io::CampaignWriteError& e) {
      throw std::runtime_error(std::string(e.what()) + "; continue with: " + resume);
    }
    if (dist::rank() != 0) return r.interrupted ? 130 : 0;  // rank 0 speaks for the run
    std::fputs(r.summary.c_str(), stdout);
    if (r.interrupted) {
      std::printf("interrupted after %llu of %u games; continue with: %s\n",
                  static_cast<unsigned long long>(r.games_in_file), games, resume.c_str());
      return 130;
    }
    return 0;
  };
}

}  // namespace sp::app
