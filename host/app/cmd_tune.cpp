#include <cstdio>
#include <memory>
#include <string>

#include "host/app/commands.hpp"
#include "host/tune/tune_config.hpp"
#include "host/tune/tune_run.hpp"

namespace sp::app {

Runner add_tune(CLI::App& app) {
  struct Opts {
    std::string config, out;
    bool explain = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("config", o->config, "Tune config (YAML), e.g. configs/ewn/tune.yaml")->required();
  app.add_option("--out", o->out, "Weights file to write (overrides weights.output)");
  app.add_flag("--explain", o->explain,
               "Print the effective configuration (every key, defaults filled in) and exit");
  return [o]() {
    tune::TuneConfig c = tune::load_tune_config(o->config);
    if (!o->out.empty()) c.weights.output = o->out;
    if (o->explain) {
      std::fputs(tune::explain_tune_config(c).c_str(), stdout);
      return 0;
    }
    switch (c.method) {
      case tune::Method::kTexel:
        tune::run_tune(c, stdout);
        return 0;
    }
    return 1;
  };
}

}  // namespace sp::app
