// The `selfplay` subcommands. Each registers its options on the CLI11 app and returns a runner
// that yields the process exit code (0 ok, 1 runtime failure, 2 usage or input error).
#pragma once

#include <CLI/CLI.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "games/ewn/ewn.hpp"

namespace sp::app {

using Runner = std::function<int()>;

// From the call on, SIGINT, SIGTERM and SIGHUP (a closed terminal or ssh session) set the returned
// flag instead of killing the process: the long commands (run, match, tune with spsa) poll it,
// finish cleanly (everything flushed) and exit with 130. SIGPIPE is ignored for every command
// (main), so a closed pipe on stdout or stderr fails those writes instead of killing the process.
const std::atomic<bool>& stop_on_signals();

Runner add_run(CLI::App& app);
Runner add_match(CLI::App& app);  // engine A against engine B in game pairs, Elo and SPRT
Runner add_perft(CLI::App& app);
Runner add_bench(CLI::App& app);
Runner add_demo(CLI::App& app);
Runner add_config(CLI::App& app);  // campaign YAML: --check FILE, --explain FILE
Runner add_play(CLI::App& app);    // a human against an engine on stdin/stdout
Runner add_tune(CLI::App& app);    // evaluation weights from campaign positions (Texel)
Runner add_verify(CLI::App& app);  // replays every stored game of a campaign or match file
Runner add_export(CLI::App& app);  // the games of a campaign or match file as text
// A format-2 copy of a format-1 campaign or match file (`selfplay convert IN OUT`).
Runner add_convert(CLI::App& app);

// --game NAME: the game a command plays (games/games.hpp lists them); with a config, the config's
// `game:` must agree. The help lists the known games.
CLI::Option* add_game_option(CLI::App& cmd, std::string& game);

// Throws sp::InputError when `path` does not exist or is a directory (verify, export, convert).
void check_input_file(const std::string& path);

// Validators for numeric options, used as option->transform(integer_in(lo, hi)): the text must be
// an integer (decimal or 0x hex, as in configs) or a finite real in [lo, hi]. NaN, inf, negative
// numbers and numbers that overflow are refused, and the parse error (exit 2) names the option.
// Every numeric option of every command is declared with one of them.
CLI::Validator integer_in(uint64_t lo, uint64_t hi);
CLI::Validator real_in(double lo, double hi);

// Rule options shared by commands that build EWN positions.
struct RuleFlags {
  bool no_capture_own = false;
  std::string substitution = "next_lower_or_higher";
};
void add_rule_flags(CLI::App& cmd, RuleFlags& flags);
ewn::Rules to_rules(const RuleFlags& flags);

}  // namespace sp::app
