// The `selfplay` subcommands. Each registers its options on the CLI11 app and returns a runner
// that yields the process exit code (0 ok, 1 runtime failure, 2 usage or input error).
#pragma once

#include <CLI/CLI.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "core/game_host.hpp"

namespace sp::app {

using Runner = std::function<int()>;

// From the call on, SIGINT, SIGTERM and SIGHUP (a closed terminal or ssh session) set the returned
// flag instead of killing the process: the long commands (run, match, tune with spsa) poll it,
// finish cleanly (everything flushed) and exit with 130. SIGPIPE is ignored for every command
// (main), so a closed pipe on stdout or stderr fails those writes instead of killing the process.
const std::atomic<bool>& stop_on_signals();

// The seams of the tests that drive this program as a process (test_hooks.cpp), from the
// environment; none without it.
void install_test_hooks();

Runner add_run(CLI::App& app);
Runner add_match(CLI::App& app);  // engine A against engine B in game pairs, Elo and SPRT
Runner add_perft(CLI::App& app);
Runner add_bench(CLI::App& app);
Runner add_demo(CLI::App& app);
Runner add_config(CLI::App& app);  // campaign YAML: --check FILE, --explain FILE
Runner add_play(CLI::App& app);    // a human against an engine on stdin/stdout
// The Gomocup engine protocol on stdin/stdout (`selfplay pbrain`, or the `pbrain-selfplay` link).
Runner add_pbrain(CLI::App& app);
// The config `selfplay pbrain` plays without --config: $SELFPLAY_PBRAIN_CONFIG, else the source
// tree's configs/gomoku/pbrain.yaml; throws InputError when neither is there.
std::string default_pbrain_config();
// selfplay's engine protocol (docs/engine-protocol.md) on stdin/stdout: checkers, Gomoku.
Runner add_engine(CLI::App& app);
Runner add_tune(CLI::App& app);  // evaluation weights from campaign positions (Texel)
// The research loop: campaign, Texel fit and SPRT gate per generation
// (host/research/improve/loop.hpp).
Runner add_improve(CLI::App& app);
Runner add_verify(CLI::App& app);  // replays every stored game of a campaign or match file
Runner add_export(CLI::App& app);  // the games of a campaign or match file as text
// A format-2 copy of a format-1 campaign or match file (`selfplay convert IN OUT`).
Runner add_convert(CLI::App& app);
// A standalone copy of a campaign or match file or of an index over the files of an MPI run
// (`selfplay merge INPUT -o OUTPUT`).
Runner add_merge(CLI::App& app);
// Endgame databases: `selfplay egtb build|verify|probe` (checkers).
Runner add_egtb(CLI::App& app);
// Opening books from stored games: `selfplay book build` (an engine's `book` key plays them).
Runner add_book(CLI::App& app);

// --game NAME: the game a command plays (games/games.hpp lists them); with a config, the config's
// `game:` must agree. The help lists the known games. Commands without a config (with_config
// false) default an empty `game` to the first game of the list.
CLI::Option* add_game_option(CLI::App& cmd, std::string& game, bool with_config = true);

// Throws sp::InputError when `path` does not exist or is a directory (verify, export, convert).
void check_input_file(const std::string& path);

// Validators for numeric options, used as option->transform(integer_in(lo, hi)): the text must be
// an integer (decimal or 0x hex, as in configs) or a finite real in [lo, hi]. NaN, inf, negative
// numbers and numbers that overflow are refused, and the parse error (exit 2) names the option.
// Every numeric option of every command is declared with one of them.
CLI::Validator integer_in(uint64_t lo, uint64_t hi);
CLI::Validator real_in(double lo, double hi);
// For path options (--out): an empty text is refused (a usage error, exit 2), not taken for
// "the default".
CLI::Validator non_empty_path();

// Repeatable KEY=VALUE options read through one of a game's config sections: `--rule` (the keys
// of its `rules:` section, GameHost<G>::settings_section()) and `--playout` (an engine's playout
// keys, GameHost<G>::policy_section()). Keys, choices, ranges and messages are the config's, so
// `--rule capture_own=false` means what `rules: {capture_own: false}` means in a config.
CLI::Option* add_key_value_option(CLI::App& cmd, const std::string& name,
                                  std::vector<std::string>& values, const std::string& help);

// KEY=VALUE texts as a YAML map for read_key_values (throws InputError as it says).
YAML::Node key_value_map(const std::vector<std::string>& values, const std::string& option);

// The values over the section's declared defaults. Throws InputError (exit 2) for text that is not
// KEY=VALUE, a key given twice, an unknown key (with a did-you-mean hint) or a bad value, e.g.
// "--rule: key 'substitution': must be one of next_lower_or_higher, nearest; found 'x'".
template <class T>
T read_key_values(const config::Section<T>& section, const std::vector<std::string>& values,
                  const std::string& option) {
  T t{};
  section.apply_defaults(t);
  config::Document doc(option);
  section.read(t, key_value_map(values, option), config::Mark{}, doc, "");
  return t;
}

// The game settings of `--rule` values (the defaults for none).
template <HostGame G>
typename GameHost<G>::Settings rule_settings(const std::vector<std::string>& rules) {
  return read_key_values(GameHost<G>::settings_section(), rules, "--rule");
}

}  // namespace sp::app
