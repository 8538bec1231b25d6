#include "host/app/options.hpp"

#include "host/app/commands.hpp"
#include "host/play/config/campaign_config.hpp"

namespace sp::app {

void add_run_options(CLI::App& cmd, RunLikeOptions& o, const std::string& file,
                     const std::string& report) {
  cmd.add_option("--out", o.out, "Output HDF5 file (overrides output.path)")
      ->check(non_empty_path());
  cmd.add_option("--backend", o.backend,
                 "Rollout backend: auto, cpu, cuda, check (overrides backend.name)");
  cmd.add_option("--threads", o.threads,
                 "CPU backend threads, 0 = all cores (overrides backend.threads)")
      ->transform(integer_in(0, 4096));
  cmd.add_option("--device", o.device,
                 "CUDA device of every rank (overrides backend.device; without it, ranks of an "
                 "MPI run on one machine take distinct devices)")
      ->transform(integer_in(0, 63));
  add_game_option(cmd, o.game);
  cmd.add_flag("--resume", o.resume, "Continue the " + file + " in the existing output file");
  cmd.add_flag("--quiet", o.quiet, "No progress output, only the " + report);
}

std::string resume_command(const std::string& command, const std::string& config,
                           const RunLikeOptions& o) {
  return "selfplay " + command + " " + config + " --resume" +
         (o.out.empty() ? "" : " --out " + o.out);
}

void add_engine_options(CLI::App& cmd, EngineLikeOptions& o, const std::string& default_config) {
  add_game_option(cmd, o.game);
  cmd.add_option("--config", o.config,
                 "Campaign config (YAML): the engine is its engines.player0 section, the rules its "
                 "rules section (default: " +
                     default_config + ")");
  cmd.add_option("--backend", o.backend,
                 "Rollout backend: auto, cpu, cuda, check (default: the config's backend.name)");
}

void apply_engine_options(const EngineLikeOptions& o, config::CampaignConfig& cfg) {
  if (!o.backend.empty()) cfg.backend.name = o.backend;
}

}  // namespace sp::app
