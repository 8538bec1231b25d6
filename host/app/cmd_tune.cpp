#include <atomic>
#include <cstdio>
#include <memory>
#include <string>

#include "host/app/commands.hpp"
#include "host/research/tune/spsa.hpp"
#include "host/research/tune/tune_config.hpp"
#include "host/research/tune/tune_run.hpp"

namespace sp::app {

Runner add_tune(CLI::App& app) {
  struct Opts {
    std::string config, out, log;
    bool explain = false, write_if_diverged = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("config", o->config, "Tune config (YAML), e.g. configs/ewn/tune.yaml")->required();
  app.add_option("--out", o->out,
                 "Weights file to write (overrides weights.output; spsa: spsa.result)")
      ->check(non_empty_path());
  app.add_option("--log", o->log, "texel: CSV of the printed epochs (overrides texel.log)");
  app.add_flag("--write-if-diverged", o->write_if_diverged,
               "texel: write the weights even when the fit diverged (sets "
               "texel.write_if_diverged)");
  app.add_flag("--explain", o->explain,
               "Print the effective configuration (every key, defaults filled in) and exit");
  return [o]() {
    tune::TuneConfig c = tune::load_tune_config(o->config);
    if (!o->out.empty()) {
      const bool spsa = c.method == tune::Method::kSpsa;
      (spsa ? c.spsa.result : c.weights.output) = o->out;
      c.overridden_by[spsa ? "spsa.result" : "weights.output"] = "--out";
    }
    if (!o->log.empty()) {
      c.texel.log = o->log;
      c.overridden_by["texel.log"] = "--log";
    }
    if (o->write_if_diverged) c.texel.write_if_diverged = true;
    if (o->explain) {
      std::fputs(tune::explain_tune_config(c).c_str(), stdout);
      return 0;
    }
    switch (c.method) {
      case tune::Method::kTexel:
        tune::run_tune(c, stdout);
        return 0;
      case tune::Method::kSpsa: {
        tune::check_spsa_outputs(c);
        const std::atomic<bool>& stop = stop_on_signals();
        tune::run_spsa(c, stdout, stop);
        return stop ? 130 : 0;
      }
    }
    return 1;
  };
}

}  // namespace sp::app
