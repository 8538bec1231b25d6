// `selfplay book build`: an opening book from the games of campaign, match and loop files
// (docs/engines-and-matches.md "Opening books"); an engine plays from it with its `book` key.
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "host/app/commands.hpp"
#include "host/engines/book/opening_book.hpp"
#include "host/engines/book/tally.hpp"
#include "host/records/book_build.hpp"

namespace sp::app {
namespace {

struct Opts {
  std::vector<std::string> files;
  std::string out;
  book::BookRule rule;
};

int run_build(const Opts& o) {
  for (const std::string& f : o.files) check_input_file(f);
  selfplay::BookBuildReport report;
  const book::OpeningBook book = selfplay::build_book(o.files, o.rule, report);
  if (book.entries.empty())
    throw InputError("no position of the " + std::to_string(report.games) +
                     " games passes the rule (min_games " + std::to_string(o.rule.min_games) +
                     "): play more games or lower --min-games; nothing written");
  book::write_book(o.out, book);
  std::printf("book: %zu positions of %" PRIu64 " seen in the first %d plies of %" PRIu64
              " %s games, written to %s\n",
              book.entries.size(), report.positions, o.rule.plies, report.games, book.game.c_str(),
              o.out.c_str());
  if (report.skipped) {
    std::printf("skipped %" PRIu64 " games that do not replay (`selfplay verify` says why):\n",
                report.skipped);
    for (const std::string& line : report.problems) std::printf("  %s\n", line.c_str());
  }
  return 0;
}

}  // namespace

Runner add_book(CLI::App& app) {
  auto o = std::make_shared<Opts>();
  app.require_subcommand(1);
  CLI::App* build = app.add_subcommand(
      "build",
      "An opening book from the games of campaign, match and improve-loop files: per position of "
      "the first --plies plies, the move that scored best in at least --min-games games");
  build->add_option("files", o->files, "Campaign, match or loop HDF5 files of one game and rules")
      ->required();
  build->add_option("--out", o->out, "The book file to write (replaced whole)")
      ->required()
      ->transform(non_empty_path());
  build->add_option("--plies", o->rule.plies, "Positions before this ply of a game (default 16)")
      ->transform(integer_in(1, 1000));
  build
      ->add_option("--min-games", o->rule.min_games,
                   "Games the book move was played in, at least (default 20)")
      ->transform(integer_in(1, uint64_t{1} << 40));
  build
      ->add_option("--min-gap", o->rule.min_gap,
                   "How much the book move outscores every other move played --min-games times "
                   "(default 0.05)")
      ->transform(real_in(0, 1));
  build
      ->add_option("--min-score", o->rule.min_score,
                   "The book move's score for the side that played it, at least (default 0.5)")
      ->transform(real_in(0, 1));
  return [o]() { return run_build(*o); };
}

}  // namespace sp::app
