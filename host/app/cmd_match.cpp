#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "games/hosts.hpp"
#include "host/app/commands.hpp"
#include "host/common/log.hpp"
#include "host/config/load.hpp"
#include "host/dist/comm.hpp"
#include "host/io/campaign_file.hpp"
#include "host/ranks/match_ranks.hpp"
#include "host/selfplay/match.hpp"

namespace sp::app {

Runner add_match(CLI::App& app) {
  struct Opts {
    std::string config;
    uint32_t pairs = 0;
    std::string out, backend, game;
    int threads = -1, device = -1;
    bool resume = false, quiet = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("config", o->config,
                 "Match config (YAML): engines.player0 is engine A, engines.player1 engine B, e.g. "
                 "configs/ewn/match-mcts-vs-expectimax.yaml")
      ->required();
  app.add_option("--pairs", o->pairs, "Game pairs (overrides match.pairs)")
      ->transform(integer_in(1, 500000000));
  app.add_option("--out", o->out, "Output HDF5 file (overrides output.path)")
      ->check(non_empty_path());
  app.add_option("--backend", o->backend,
                 "Rollout backend: auto, cpu, cuda, check (overrides backend.name)");
  app.add_option("--threads", o->threads,
                 "CPU backend threads, 0 = all cores (overrides backend.threads)")
      ->transform(integer_in(0, 4096));
  app.add_option("--device", o->device,
                 "CUDA device of every rank (overrides backend.device; without it, ranks of an "
                 "MPI run on one machine take distinct devices)")
      ->transform(integer_in(0, 63));
  add_game_option(app, o->game);
  app.add_flag("--resume", o->resume, "Continue the match in the existing output file");
  app.add_flag("--quiet", o->quiet, "No progress output, only the result");
  return [o]() {
    log::set_quiet(o->quiet);
    selfplay::MatchOptions options;
    if (o->pairs) options.pairs = o->pairs;
    if (!o->out.empty()) options.output = o->out;
    if (!o->backend.empty()) options.backend = o->backend;
    if (o->threads >= 0) options.threads = o->threads;
    if (o->device >= 0) options.device = o->device;
    options.resume = o->resume;
    options.live = isatty(STDERR_FILENO);
    const std::string resume_command =
        "selfplay match " + o->config + " --resume" + (o->out.empty() ? "" : " --out " + o->out);
    selfplay::MatchResult r;
    try {
      r = with_game(config::config_file_game(o->config, o->game), [&]<class G>() {
        const auto cfg = selfplay::with_overrides(config::load_match_config<G>(o->config), options);
        if (selfplay::ranked_run(cfg.output.path))
          return selfplay::run_match_ranks<G>(cfg, options, stop_on_signals());
        return selfplay::run_match<G>(cfg, options, stop_on_signals());
      });
    } catch (const io::CampaignWriteError& e) {
      throw std::runtime_error(std::string(e.what()) + "; continue with: " + resume_command);
    }
    if (dist::rank() != 0) return r.interrupted ? 130 : 0;  // rank 0 speaks for the run
    std::fputs(r.report.c_str(), stdout);
    if (r.interrupted) {
      std::printf("interrupted; continue with: %s\n", resume_command.c_str());
      return 130;
    }
    return 0;
  };
}

}  // namespace sp::app
