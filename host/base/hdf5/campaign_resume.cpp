#include <algorithm>
#include <string>
#include <vector>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/file_install.hpp"
#include "host/base/hdf5/tables.hpp"

namespace sp::io {

using namespace internal;

namespace {

void check_compatible(const std::string& path, const FileMeta& stored, const FileMeta& meta) {
  const auto mismatch = [&](const std::string& what) {
    throw CampaignError("cannot resume '" + path + "': its " + what + " differs from this run's");
  };
  if (stored.game != meta.game) mismatch("game ('" + stored.game + "')");
  if (stored.seed != meta.seed) mismatch("seed (" + std::to_string(stored.seed) + ")");
  // A file written before features were appended to the game's list (names are only ever
  // appended) resumes with its own, shorter list: the rows keep its width (resume()).
  const bool prefix = stored.feature_names.size() <= meta.feature_names.size() &&
                      std::equal(stored.feature_names.begin(), stored.feature_names.end(),
                                 meta.feature_names.begin());
  if (!prefix) mismatch("feature_names");
  if (stored.match.has_value() != meta.match.has_value())
    throw CampaignError("cannot resume '" + path + "': it is " +
                        (stored.match ? "a match file" : "not a match file") + ", this run " +
                        (meta.match ? "plays a match" : "plays a campaign"));
}

// "'a', 'b' and 'c'".
std::string join_names(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) text += i + 1 == names.size() ? " and " : ", ";
    text += "'" + names[i] + "'";
  }
  return text;
}

// Copies the complete games of `from` into `to`, block by block (files can outgrow memory).
void copy_complete(const CampaignReader& from, Tables& to, ResumeReport& report) {
  constexpr uint64_t kBlock = 16384;
  for (uint64_t first = 0; first < from.games_count(); first += kBlock) {
    std::vector<GameRow> kept;
    for (const GameRow& row : from.games(first, kBlock)) {
      if (row.game_id != kNoGame && report.completed_games.insert(row.game_id).second) {
        kept.push_back(row);
      } else {
        ++report.dropped_rows;
      }
    }
    to.write_games(kept);
  }
  // The rows of complete games of a table of game rows (plies, candidates), block by block.
  const auto keep_complete = [&](uint64_t count, auto read, auto write, uint64_t& dropped) {
    for (uint64_t first = 0; first < count; first += kBlock) {
      auto kept = read(first);
      const auto end = std::remove_if(kept.begin(), kept.end(), [&](const auto& row) {
        return !report.completed_games.contains(row.game_id);
      });
      dropped += static_cast<uint64_t>(kept.end() - end);
      kept.erase(end, kept.end());
      write(kept);
    }
  };
  keep_complete(
      from.plies_count(), [&](uint64_t first) { return from.plies(first, kBlock); },
      [&](const std::vector<PlyRow>& rows) { to.write_plies(rows); }, report.dropped_plies);
  keep_complete(
      from.candidates_count(), [&](uint64_t first) { return from.candidates(first, kBlock); },
      [&](const std::vector<CandidateRow>& rows) { to.write_candidates(rows); },
      report.dropped_candidates);
  const size_t width = to.feature_count;
  for (uint64_t first = 0; first < from.positions_count(); first += kBlock) {
    const std::vector<PositionRow> rows = from.positions(first, kBlock);
    const std::vector<float> values = from.features(first, kBlock);
    std::vector<PositionRow> kept;
    std::vector<float> kept_values;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (report.completed_games.contains(rows[i].game_id)) {
        kept.push_back(rows[i]);
        kept_values.insert(kept_values.end(), values.begin() + i * width,
                           values.begin() + (i + 1) * width);
      } else {
        ++report.dropped_positions;
      }
    }
    to.write_positions(kept, kept_values);
  }
  for (uint64_t first = 0; first < from.perf_count(); first += kBlock) {
    std::vector<PerfRow> kept;
    for (const PerfRow& row : from.perf(first, kBlock)) {
      if (row.batch != kNoGame) {
        kept.push_back(row);
      } else {
        ++report.dropped_rows;
      }
    }
    to.write_perf(kept);
  }
  // The pairs in order, as long as both games of each are complete.
  std::vector<MatchPairRow> pairs;
  for (const MatchPairRow& row : from.match_pairs()) {
    if (row.pair_id != pairs.size() || !report.completed_games.contains(2 * row.pair_id) ||
        !report.completed_games.contains(2 * row.pair_id + 1))
      break;
    pairs.push_back(row);
  }
  if (to.match_pairs) to.write_match_pairs(pairs);
  report.match_pairs = pairs.size();
}

}  // namespace

CampaignWriter CampaignWriter::resume(const std::string& path, const FileMeta& meta,
                                      const WriterOptions& options) {
  return resume(lock_for_writing(path), path, meta, options);
}

CampaignWriter CampaignWriter::resume(FileLock lock, const std::string& path, const FileMeta& meta,
                                      const WriterOptions& options) {
  init_thread();
  check_lock(lock, path);
  ResumeReport report;
  const CampaignReader old(path);
  // Appending current rows to an older file would mix two layouts in one file, and rewriting
  // it here would change the format of a file under its owner's tools without asking.
  if (old.format_version() != kCampaignFormatVersion)
    throw CampaignError("cannot resume '" + path + "': it is a format-" +
                        std::to_string(old.format_version()) +
                        " campaign file, which this build reads but does not extend; run "
                        "`selfplay convert " +
                        path + " NEW` and resume NEW");
  // Resuming an index would replace it by a standalone file of the games it shows, and the
  // parts, still there, would go on without it.
  if (!old.index_parts().empty())
    throw CampaignError("cannot resume '" + path + "': it is an index over the part files " +
                        join_names(old.index_parts()) +
                        "; resume each part, then write the index again");
  check_compatible(path, old.meta(), meta);
  FileMeta kept = meta;
  kept.feature_names = old.meta().feature_names;  // a prefix of meta's (check_compatible)
  Tables tables = build_and_install(path, write_target(path) + ".resume.tmp", kept,
                                    [&](Tables& copy) { copy_complete(old, copy, report); });
  return start(std::move(lock), std::move(tables), options, std::move(report),
               meta.feature_names.size());
}

}  // namespace sp::io
