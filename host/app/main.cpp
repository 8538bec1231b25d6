// selfplay: GPU-accelerated Monte Carlo self-play research tool.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "host/app/commands.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/errors.hpp"
#include "host/base/mpi/comm.hpp"
#include "host/base/system/atomic_file.hpp"
#include "host/base/system/build_info.hpp"
#include "host/base/system/process_tree.hpp"

namespace {

int report(const std::exception& e, int code) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return code;
}

}  // namespace

namespace sp::app {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_stop_signal(int) { g_stop.store(true); }

}  // namespace

const std::atomic<bool>& stop_on_signals() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) sigaction(signal, &action, nullptr);
  return g_stop;
}

}  // namespace sp::app

namespace {

int run_command(int argc, char** argv);

}  // namespace

// Under an MPI launcher every rank runs the same command; an error on one rank ends them all
// (the others would wait for it), a success or a stop (130) lets MPI end in order.
int main(int argc, char** argv) {
  try {
    sp::dist::init(argc, argv);
  } catch (const sp::InputError& e) {
    return report(e, 2);
  } catch (const std::exception& e) {
    return report(e, 1);
  }
  const int code = run_command(argc, argv);
  if (code != 0 && code != 130 && sp::dist::size() > 1) sp::dist::abort(code);
  sp::dist::finalize();
  return code;
}

namespace {

int run_command(int argc, char** argv) {
  // A reader that goes away (`selfplay run C 2>&1 | head -1`) must not kill a campaign at its next
  // log line: writes to a closed pipe fail with EPIPE instead, and the run goes on.
  std::signal(SIGPIPE, SIG_IGN);
  // What external engines start ends with them: orphans of their processes become ours to end
  // (host/base/system/process_tree.hpp).
  sp::adopt_orphans();
  sp::app::install_test_hooks();
  CLI::App app{
      "selfplay: Monte Carlo self-play for EinStein wuerfelt nicht, Gomoku and English checkers "
      "(CPU and CUDA backends)"};
  app.require_subcommand(1);
  std::map<CLI::App*, sp::app::Runner> runners;
  auto add = [&](const char* name, const char* help, sp::app::Runner (*reg)(CLI::App&)) {
    CLI::App* cmd = app.add_subcommand(name, help);
    runners[cmd] = reg(*cmd);
  };
  add("run", "Run a self-play campaign from a YAML config, writing games to HDF5",
      &sp::app::add_run);
  add("match", "Play engine A against engine B in game pairs: Elo, pentanomial counts, SPRT",
      &sp::app::add_match);
  add("perft", "Count leaf nodes of the move tree (chance enumerated) for rules validation",
      &sp::app::add_perft);
  add("bench", "Rollout throughput and the deterministic playout and search signatures",
      &sp::app::add_bench);
  add("demo", "Play a few random games and print their records", &sp::app::add_demo);
  add("config", "Check a campaign YAML file or print its effective configuration",
      &sp::app::add_config);
  add("play", "Play a game against an engine in the terminal", &sp::app::add_play);
  add("pbrain", "Play Gomoku as a Gomocup engine: the pbrain protocol on stdin and stdout",
      &sp::app::add_pbrain);
  add("engine",
      "Play as an engine speaking selfplay's engine protocol on stdin and stdout (checkers, "
      "Gomoku; docs/engine-protocol.md)",
      &sp::app::add_engine);
  add("tune", "Tune evaluation weights on the positions of campaign HDF5 files (Texel)",
      &sp::app::add_tune);
  add("improve",
      "The research loop: self-play, fit, SPRT gate, repeat; stronger weights with their lineage",
      &sp::app::add_improve);
  add("verify", "Replay every game of a campaign or match file; report the first bad rows",
      &sp::app::add_verify);
  add("export",
      "Write the games of a campaign or match file as text, one line per game, or in the game's "
      "own format (checkers: PDN)",
      &sp::app::add_export);
  add("convert", "Copy a campaign or match file of format 1 or 2 into a new file of format 3",
      &sp::app::add_convert);
  add("merge",
      "Copy a campaign, match or index file (the main file of an MPI run) into one standalone file",
      &sp::app::add_merge);
  add("egtb",
      "Endgame databases: build them by retrograde analysis, verify them, probe a position "
      "(checkers)",
      &sp::app::add_egtb);
  add("book",
      "Opening books: the best-scoring moves of the first plies of stored games, for an engine's "
      "`book` key",
      &sp::app::add_book);

  // Called as pbrain-selfplay (the link the build puts next to the binary, for Gomocup managers,
  // which start an engine without arguments): `selfplay pbrain` with the same arguments.
  app.set_version_flag("--version", sp::build::program_text(),
                       "Print the version, the commit and the build's options, and exit");
  std::vector<char*> args(argv, argv + argc);
  static char pbrain_command[] = "pbrain";
  if (argc >= 1 && std::string_view(argv[0]).ends_with("pbrain-selfplay"))
    args.insert(args.begin() + 1, pbrain_command);
  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line, as every other error: what is wrong, and where the options are listed.
    std::string where = "selfplay";
    for (const CLI::App* command : app.get_subcommands())
      if (command->parsed()) where += " " + command->get_name();
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    std::fprintf(stderr, "error: %s (%s --help lists the options)\n", what.c_str(), where.c_str());
    return 2;
  }
  // Bad input (a config, a notation, a file that is not a usable campaign, an output path that
  // cannot be written) exits with 2, a failure while working (a full disk) with 1; either way
  // the message is one line.
  try {
    for (const auto& [cmd, run] : runners)
      if (cmd->parsed()) return run();
  } catch (const sp::InputError& e) {
    return report(e, 2);
  } catch (const sp::io::CampaignError& e) {
    return report(e, 2);
  } catch (const sp::io::H5FileError& e) {
    return report(e, 2);
  } catch (const std::filesystem::filesystem_error& e) {
    return report(e, sp::io::is_system_failure(e.code().value()) ? 1 : 2);
  } catch (const sp::FileWriteError& e) {
    return report(e, sp::io::is_system_failure(e.error()) ? 1 : 2);
  } catch (const std::exception& e) {
    return report(e, 1);
  }
  return 2;
}

}  // namespace
