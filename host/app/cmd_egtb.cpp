// `selfplay egtb build|verify|probe`: endgame databases of the games that have them (checkers;
// docs/checkers.md "Endgame databases").
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "core/endgame.hpp"
#include "core/errors.hpp"
#include "games/hosts.hpp"
#include "host/app/commands.hpp"
#include "host/base/system/system.hpp"
#include "host/base/system/work_pool.hpp"

namespace sp::app {
namespace {

struct Opts {
  std::string game;
  std::string dir;
  int pieces = 5;
  int threads = 0;
  std::string position;
};

const char* value_name(EndgameValue v) {
  switch (v) {
    case EndgameValue::kWin:
      return "win";
    case EndgameValue::kLoss:
      return "loss";
    case EndgameValue::kDraw:
      return "draw";
    case EndgameValue::kUnknown:
      break;
  }
  return "not in the databases";
}

ParallelFor pool_for(WorkPool& pool) {
  return [&pool](size_t items, const std::function<void(size_t)>& fn) { pool.run(items, fn); };
}

// Bytes of the folder's files with this extension (".egtb" values, ".plies" levels).
uint64_t folder_bytes(const std::string& dir, const char* extension) {
  uint64_t n = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == extension) n += it->file_size(ec);
  return n;
}

template <class G>
int run_build(const Opts& o) {
  WorkPool pool(o.threads);
  EndgameBuildOptions options;
  options.dir = o.dir;
  options.pieces = o.pieces;
  options.parallel_for = pool_for(pool);
  options.stop = &stop_on_signals();
  uint64_t built_positions = 0;
  double built_seconds_at_start = -1;
  options.progress = [&](const EndgameProgress& p) {
    if (p.kept) {
      std::fprintf(stderr, "egtb: %s already built (%d of %d tables)\n", p.table.c_str(),
                   p.tables_done, p.tables_total);
      return;
    }
    if (built_seconds_at_start < 0) built_seconds_at_start = 0;
    built_positions += p.wins + p.losses + p.draws;
    const uint64_t left = p.positions_total - p.positions_done;
    const double rate = p.seconds > 0 ? static_cast<double>(built_positions) / p.seconds : 0;
    std::fprintf(
        stderr,
        "egtb: %s built: %" PRIu64 " wins, %" PRIu64 " losses, %" PRIu64
        " draws; %d of %d tables, %.1f%% of positions, %.1f s, ETA %.0f s\n",
        p.table.c_str(), p.wins, p.losses, p.draws, p.tables_done, p.tables_total,
        100.0 * static_cast<double>(p.positions_done) / static_cast<double>(p.positions_total),
        p.seconds, rate > 0 ? static_cast<double>(left) / rate : 0.0);
  };
  const auto start = std::chrono::steady_clock::now();
  const EndgameBuildResult r = GameHost<G>::egtb_build(options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.stopped) {
    std::fprintf(stderr,
                 "egtb: stopped after %d tables; the same command resumes where it stopped\n",
                 r.tables_built + r.tables_kept);
    return 130;
  }
  std::printf(
      "%s endgame databases of 2 to %d pieces in %s: %d tables (%d built, %d kept), %" PRIu64
      " positions stored (Black to move; White to move is the colour flip), %s of values and "
      "%s of levels, %.1f s on %d threads\n",
      GameHost<G>::kTitle, o.pieces, o.dir.c_str(), r.tables_built + r.tables_kept, r.tables_built,
      r.tables_kept, r.positions, format_bytes(folder_bytes(o.dir, ".egtb")).c_str(),
      format_bytes(folder_bytes(o.dir, ".plies")).c_str(), seconds, pool.threads());
  std::printf("board configurations (side to move not counted, one side alone included):\n");
  for (int n = 1; n <= o.pieces; ++n)
    std::printf("  %d pieces: %" PRIu64 "\n", n, GameHost<G>::egtb_configurations(n));
  return 0;
}

template <class G>
int run_verify(const Opts& o) {
  WorkPool pool(o.threads);
  const EndgameVerifyResult r =
      GameHost<G>::egtb_verify(o.dir, pool_for(pool), [](const EndgameProgress& p) {
        std::fprintf(stderr, "egtb: %s checked (%d of %d tables, %.1f s)\n", p.table.c_str(),
                     p.tables_done, p.tables_total, p.seconds);
      });
  if (r.tables == 0) throw InputError("egtb verify: no endgame database in " + excerpt(o.dir));
  if (r.errors == 0) {
    std::printf("verified %d tables, %" PRIu64 " positions: OK\n", r.tables, r.positions);
    return 0;
  }
  for (const std::string& line : r.first_errors) std::printf("%s\n", line.c_str());
  std::printf("%" PRIu64 " of %" PRIu64 " positions in %d tables do not follow from their moves\n",
              r.errors, r.positions, r.tables);
  return 1;
}

template <class G>
int run_probe(const Opts& o) {
  const auto tables = GameHost<G>::egtb_open(o.dir);
  const typename G::State s = GameHost<G>::parse_position(o.position);
  std::printf("%s: %s for the side to move\n", GameHost<G>::position_text(s).c_str(),
              value_name(tables->probe(s)));
  typename G::MoveList list;
  G::generate_moves(s, typename G::Rules{}, list);
  for (int i = 0; i < list.size; ++i) {
    typename G::State child = s;
    G::apply(child, list.moves[i]);
    // The child's value is the opponent's: a loss there is a win for the mover.
    const EndgameValue v = tables->probe(child);
    const EndgameValue mover = v == EndgameValue::kWin    ? EndgameValue::kLoss
                               : v == EndgameValue::kLoss ? EndgameValue::kWin
                                                          : v;
    std::printf("  %s: %s\n", GameHost<G>::move_text(s, list.moves[i]).c_str(), value_name(mover));
  }
  return 0;
}

template <class G>
int dispatch(const Opts& o, int which) {
  if constexpr (!EndgameGame<G>) {
    throw InputError(std::string("egtb: ") + GameHost<G>::kTitle +
                     " has no endgame databases (checkers has)");
  } else {
    if (which == 0) return run_build<G>(o);
    if (which == 1) return run_verify<G>(o);
    return run_probe<G>(o);
  }
}

}  // namespace

Runner add_egtb(CLI::App& app) {
  auto o = std::make_shared<Opts>();
  app.require_subcommand(1);
  CLI::App* build = app.add_subcommand(
      "build",
      "Build every endgame database of 2 to --pieces pieces by retrograde analysis "
      "(resumes a killed build)");
  CLI::App* verify = app.add_subcommand(
      "verify", "Check every stored value of a folder's databases against its moves' values");
  CLI::App* probe =
      app.add_subcommand("probe", "The databases' value of a position and of each of its moves");
  for (CLI::App* cmd : {build, verify, probe}) {
    o->game = "checkers";
    add_game_option(*cmd, o->game, false);
  }
  build->add_option("--out", o->dir, "Folder of the databases (made when missing)")
      ->required()
      ->transform(non_empty_path());
  build->add_option("--pieces", o->pieces, "The most pieces on the board (5: about 36 MB)")
      ->transform(integer_in(2, 7))
      ->required();
  for (CLI::App* cmd : {verify, probe})
    cmd->add_option("--dir", o->dir, "Folder of the databases")
        ->required()
        ->transform(non_empty_path());
  for (CLI::App* cmd : {build, verify})
    cmd->add_option("--threads", o->threads, "Threads (0: every core this process may use)")
        ->transform(integer_in(0, 4096));
  probe->add_option("--position", o->position, "The position (checkers: a FEN)")->required();
  return [o, build, verify]() {
    const int which = build->parsed() ? 0 : verify->parsed() ? 1 : 2;
    return with_game(o->game, [&]<class G>() { return dispatch<G>(*o, which); });
  };
}

}  // namespace sp::app
