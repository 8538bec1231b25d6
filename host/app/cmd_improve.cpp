#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "games/hosts.hpp"
#include "host/app/commands.hpp"
#include "host/base/mpi/comm.hpp"
#include "host/base/system/log.hpp"
#include "host/play/config/load.hpp"
#include "host/research/improve/improve_config.hpp"
#include "host/research/improve/loop.hpp"

namespace sp::app {

namespace {

// out/improve-<config stem>: configs/ewn/improve.yaml -> out/improve-ewn (the folder's name when
// the file is called improve.yaml, as the shipped ones are).
std::string default_dir(const std::string& config) {
  const std::filesystem::path p(config);
  std::string stem = p.stem().string();
  if (stem == "improve" && p.has_parent_path()) stem = p.parent_path().filename().string();
  return "out/improve-" + stem;
}

}  // namespace

Runner add_improve(CLI::App& app) {
  struct Opts {
    std::string config, out, backend, game;
    uint32_t generations = 0;
    int threads = -1, device = -1;
    bool resume = false, quiet = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("config", o->config, "Improve config (YAML), e.g. configs/ewn/improve.yaml")
      ->required();
  app.add_option("--out", o->out,
                 "The loop's directory (default out/improve-NAME, NAME the config's stem or, for "
                 "improve.yaml, its folder)")
      ->check(non_empty_path());
  app.add_flag("--resume", o->resume, "Continue the loop in its directory");
  app.add_option("--generations", o->generations,
                 "Generations in all, earlier runs' included (overrides stop.generations)")
      ->transform(integer_in(1, 1000000));
  app.add_option("--backend", o->backend,
                 "Rollout backend of every step: auto, cpu, cuda, check (overrides "
                 "selfplay.backend.name)");
  app.add_option("--threads", o->threads,
                 "CPU backend threads, 0 = all cores (overrides selfplay.backend.threads)")
      ->transform(integer_in(0, 4096));
  app.add_option("--device", o->device, "CUDA device (overrides selfplay.backend.device)")
      ->transform(integer_in(0, 63));
  add_game_option(app, o->game);
  app.add_flag("--quiet", o->quiet, "No progress output, only the closing table");
  return [o]() {
    log::set_quiet(o->quiet || dist::rank() != 0);
    improve::ImproveOptions options;
    options.out = o->out.empty() ? default_dir(o->config) : o->out;
    options.resume = o->resume;
    if (o->generations) options.generations = o->generations;
    if (!o->backend.empty()) options.backend = o->backend;
    if (o->threads >= 0) options.threads = o->threads;
    if (o->device >= 0) options.device = o->device;
    options.live = isatty(STDERR_FILENO) && !o->quiet;
    const std::string game = config::config_file_game(o->config, o->game);
    if (dist::rank() != 0) {  // a follower: plays its share of rank 0's campaigns and matches
      const bool interrupted = with_game(game, [&]<class G>() {
        improve::load_improve_config<G>(o->config);  // the same checks, the same errors
        return improve::follow_improve<G>(options, stop_on_signals());
      });
      return interrupted ? 130 : 0;
    }
    const improve::ImproveResult r = with_game(game, [&]<class G>() {
      const auto cfg = improve::with_overrides(improve::load_improve_config<G>(o->config), options);
      return improve::run_improve<G>(cfg, options, stop_on_signals());
    });
    std::fputs(r.summary.c_str(), stdout);
    const std::string dir = std::filesystem::absolute(options.out).lexically_normal().string();
    if (r.interrupted) {
      std::printf("interrupted; continue with: selfplay improve %s --out %s --resume\n",
                  o->config.c_str(), options.out.c_str());
      return 130;
    }
    std::printf(
        "stopped by %s; champion: %s/champion.yaml (generation %u), lineage: "
        "%s/lineage.h5\n",
        r.stopped_by.c_str(), dir.c_str(), r.lineage.rows.back().champion, dir.c_str());
    return 0;
  };
}

}  // namespace sp::app
