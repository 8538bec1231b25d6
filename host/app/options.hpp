// The option sets two commands share: `selfplay run` and `selfplay match` (a file of games played
// with a backend), `selfplay engine` and `selfplay pbrain` (an engine on stdin/stdout). Each
// command declares its own positional and count options and calls add_*_options where they go in
// its help; the names, help texts, checks and defaults are written here once.
#pragma once

#include <unistd.h>

#include <CLI/CLI.hpp>

#include <string>

#include "host/base/system/log.hpp"

namespace sp::config {
struct CampaignConfig;
}

namespace sp::app {

// The values of run's and match's common options; the empty or negative defaults mean "not given,
// the config's value".
struct RunLikeOptions {
  std::string out, backend, game;
  int threads = -1, device = -1;
  bool resume = false, quiet = false;
};

// --out, --backend, --threads, --device, --game, --resume and --quiet, in that order. `file` names
// what the output file holds ("campaign", "match") and `report` what --quiet still prints
// ("summary", "result").
void add_run_options(CLI::App& cmd, RunLikeOptions& o, const std::string& file,
                     const std::string& report);

// The given options over a selfplay::RunOptions or selfplay::MatchOptions (the fields they share);
// --quiet quiets the log, and the status line is live when stderr is a terminal.
template <class Options>
void apply_run_options(const RunLikeOptions& o, Options& options) {
  log::set_quiet(o.quiet);
  if (!o.out.empty()) options.output = o.out;
  if (!o.backend.empty()) options.backend = o.backend;
  if (o.threads >= 0) options.threads = o.threads;
  if (o.device >= 0) options.device = o.device;
  options.resume = o.resume;
  options.live = isatty(STDERR_FILENO);
}

// The command line that continues an interrupted or failed run: "selfplay COMMAND CONFIG --resume"
// with its --out, if one was given.
std::string resume_command(const std::string& command, const std::string& config,
                           const RunLikeOptions& o);

// The values of engine's and pbrain's common options; empty when not given.
struct EngineLikeOptions {
  std::string game, config, backend;
};

// --game, --config and --backend, in that order. `default_config` says which config the command
// plays without --config (the end of --config's help).
void add_engine_options(CLI::App& cmd, EngineLikeOptions& o, const std::string& default_config);

// --backend over the loaded config's backend.name.
void apply_engine_options(const EngineLikeOptions& o, config::CampaignConfig& cfg);

}  // namespace sp::app
