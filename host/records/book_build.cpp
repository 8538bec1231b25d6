#include "host/records/book_build.hpp"

#include <optional>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/records/record_rules.hpp"
#include "host/records/stored_games.hpp"

namespace sp::selfplay {

book::OpeningBook build_book(const std::vector<std::string>& paths, const book::BookRule& rule,
                             BookBuildReport& report) {
  if (paths.empty()) throw InputError("an opening book needs at least one file of games");
  book::BookTally tally;
  std::string game, rules;
  constexpr size_t kProblemLines = 5;
  for (const std::string& path : paths) {
    const io::CampaignReader reader(path);
    const io::FileMeta& meta = reader.meta();
    if (game.empty()) {
      game = meta.game;
      rules = meta.rules;
    } else if (meta.game != game || meta.rules != rules) {
      throw InputError(path + ": games of " + excerpt(meta.game) + " under \"" +
                       excerpt(meta.rules) + "\", but " + paths.front() + " has games of " +
                       excerpt(game) + " under \"" + excerpt(rules) +
                       "\": a book is of one game and rules");
    }
    const auto replay = make_record_rules(meta, path);
    for (const ExportedGame& e : read_exported_games(reader)) {
      const std::optional<StoredGame> stored = stored_game_of(e);
      Problems problems(1);
      if (stored)
        replay->replay(*stored, problems);
      else
        problems.add(game_where({e.row, e.game}) + ": its /plies rows are not plies 0 to n - 1");
      const std::vector<std::string> positions = replay->take_positions(e.game.game_id);
      if (problems.count() > 0 || positions.size() != e.plies.size()) {
        ++report.skipped;
        if (report.problems.size() < kProblemLines && !problems.lines().empty())
          report.problems.push_back(path + ": " + problems.lines().front());
        continue;
      }
      ++report.games;
      const int winner = e.game.winner;
      for (size_t k = 0; k < positions.size() && k < static_cast<size_t>(rule.plies); ++k) {
        const int mover = e.plies[k].player;
        const double points = winner == mover ? 1.0 : winner == 0 || winner == 1 ? 0.0 : 0.5;
        tally.add(positions[k], static_cast<int>(k), io::text_of(e.plies[k].move), points);
      }
    }
  }
  if (report.games == 0)
    throw InputError("no game of " + std::to_string(paths.size()) +
                     (paths.size() == 1 ? " file" : " files") + " could be counted" +
                     (report.skipped ? " (" + std::to_string(report.skipped) +
                                           " did not replay: `selfplay verify` says why)"
                                     : " (they hold no finished game)"));
  report.positions = tally.positions();
  book::OpeningBook out = tally.book(rule);
  out.game = game;
  out.rules = rules;
  out.built = fmt::format("{} games of {} file{}; plies {}, min_games {}, min_gap {}, min_score {}",
                          report.games, paths.size(), paths.size() == 1 ? "" : "s", rule.plies,
                          rule.min_games, rule.min_gap, rule.min_score);
  return out;
}

}  // namespace sp::selfplay
