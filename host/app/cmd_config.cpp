#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include "core/config/schema.hpp"
#include "games/hosts.hpp"
#include "host/app/commands.hpp"
#include "host/base/system/system.hpp"
#include "host/play/config/load.hpp"
#include "host/play/selfplay/campaign.hpp"
#include "host/play/selfplay/memory.hpp"
#include "host/research/improve/improve_config.hpp"

namespace sp::app {

Runner add_config(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  CLI::Option* explain =
      app.add_option("--explain", *file,
                     "Print the effective configuration of FILE as YAML: every key that applies, "
                     "defaults filled in, each with its help and range as a comment")
          ->type_name("FILE");
  CLI::Option* check =
      app.add_option("--check", *file,
                     "Validate FILE and estimate the engines' memory; print ok and the estimate, "
                     "or the first error (exit 2), also when the estimate exceeds the machine's "
                     "memory")
          ->type_name("FILE");
  explain->excludes(check);
  auto match = std::make_shared<bool>(false);
  app.add_flag("--match", *match, "FILE is a match config (selfplay match)");
  auto improve = std::make_shared<bool>(false);
  app.add_flag("--improve", *improve, "FILE is an improve config (selfplay improve)")
      ->excludes("--match");
  auto game = std::make_shared<std::string>();
  add_game_option(app, *game);
  app.require_option(1, 3);
  return [file, explain, match, improve, game]() {
    return with_game(config::config_file_game(*file, *game), [&]<class G>() {
      // Without --match or --improve, a file that is not a campaign config but reads as a loop or a
      // match config is checked as one, saying so; otherwise the campaign's error stands.
      if (!*improve && !*match) {
        try {
          (void)config::load_campaign_config<G>(*file);
        } catch (const config::ConfigError&) {
          const auto reads_as = [&](auto load) {
            try {
              load();
              return true;
            } catch (const std::exception&) {
              return false;
            }
          };
          if (reads_as([&] { (void)improve::load_improve_config<G>(*file); })) {
            *improve = true;
          } else if (reads_as([&] { (void)config::load_match_config<G>(*file); })) {
            *match = true;
          } else {
            throw;
          }
          std::fprintf(stderr, "config: %s is a %s config (as with --%s)\n", file->c_str(),
                       *improve ? "research loop (selfplay improve)" : "match (selfplay match)",
                       *improve ? "improve" : "match");
        }
      }
      if (*improve) {
        const improve::ImproveConfig<G> c = improve::load_improve_config<G>(*file);
        if (explain->count()) {
          std::fputs(improve::explain_improve_config(c).c_str(), stdout);
          return 0;
        }
        // Each step's run: the generation's campaign and the gate match, as the loop plays them.
        selfplay::check_run_memory(c.selfplay);
        selfplay::check_run_memory(c.gate);
        const selfplay::MemoryEstimate m = selfplay::estimate_run_memory(c.selfplay);
        const selfplay::MemoryEstimate g = selfplay::estimate_run_memory(c.gate);
        std::printf("ok\nmemory: each campaign's engines need %s, each gate's %s\n",
                    m.summary().c_str(), g.summary().c_str());
        // The matches against gate.references: the champion's engine against each reference's.
        for (const improve::Reference<G>& r : c.references) {
          config::Config<G> versus = c.gate;
          versus.engines[1] = r.engine;
          versus.policies[1] = r.policy;
          selfplay::check_run_memory(versus);
          std::printf("memory: each match against reference %s: %s\n", r.name.c_str(),
                      selfplay::estimate_run_memory(versus).summary().c_str());
        }
        return 0;
      }
      config::Config<G> c =
          *match ? config::load_match_config<G>(*file) : config::load_campaign_config<G>(*file);
      if (explain->count()) {
        std::fputs(
            (*match ? config::explain_match_config<G>(c) : config::explain_campaign_config<G>(c))
                .c_str(),
            stdout);
        return 0;
      }
      // What `run` and `match` would refuse, --check refuses too. Concurrency auto is resolved as
      // a run resolves it, on the backend the config names.
      if (c.concurrency == 0) selfplay::make_campaign_backend<G>(c);
      selfplay::check_run_memory(c);
      const uint64_t machine = usable_memory_bytes();
      const selfplay::MemoryEstimate m = selfplay::estimate_run_memory(c);
      std::printf("ok\nmemory: the engines need %s; this machine has %s\n", m.summary().c_str(),
                  machine ? format_bytes(machine).c_str() : "an unknown amount");
      // What a GPU needs: for a backend on one, against its device; for the others, what the
      // same config would need on cuda.
      config::Config<G> on_gpu = c;
      on_gpu.backend.name = "cuda";
      const selfplay::MemoryEstimate g = m.device_bytes ? m : selfplay::estimate_run_memory(on_gpu);
      uint64_t free_bytes = 0, total_bytes = 0;
      const bool device = rollout::cuda_device_memory(c.backend.device, &free_bytes, &total_bytes);
      std::printf("device memory: %s%s (%s); %s\n", m.device_bytes ? "" : "on backend cuda, ",
                  format_bytes(g.device_bytes).c_str(), g.device_part.c_str(),
                  device ? ("CUDA device " + std::to_string(c.backend.device) + " has " +
                            format_bytes(free_bytes) + " free of " + format_bytes(total_bytes))
                               .c_str()
                         : "no CUDA device here to check it against");
      return 0;
    });
  };
}

}  // namespace sp::app
