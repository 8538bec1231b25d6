#include "host/selfplay/verify.hpp"

#include <algorithm>
#include <map>
#include <span>
#include <string_view>

#include "host/io/campaign_file.hpp"

namespace sp::selfplay {
namespace {

constexpr uint64_t kBlock = 16384;  // rows read at once: files can outgrow memory

// The plies sorted by ply; false, with the problem reported, unless they are 0..n-1 each once.
bool check_numbering(StoredGame& game, Problems& problems) {
  auto& plies = game.plies;
  std::stable_sort(plies.begin(), plies.end(),
                   [](const auto& a, const auto& b) { return a.row.ply < b.row.ply; });
  for (size_t k = 0; k < plies.size(); ++k) {
    if (plies[k].row.ply == k) continue;
    if (k > 0 && plies[k].row.ply == plies[k - 1].row.ply)
      problems.add(row_where(game.game.row.game_id, plies[k].row.ply, "/plies", plies[k].index) +
                   ": a second row for this ply (the first is /plies row " +
                   std::to_string(plies[k - 1].index) + ")");
    else
      problems.add(game_where(game.game) + ": ply " + std::to_string(k) +
                   " is missing from /plies");
    return false;
  }
  if (plies.size() != game.game.row.plies)
    problems.add(game_where(game.game) + ": plies " + std::to_string(game.game.row.plies) +
                 " recorded, /plies holds " + std::to_string(plies.size()));
  return true;
}

std::vector<std::string_view> split(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const size_t space = text.find(' ');
    out.push_back(text.substr(0, space));
    if (space == std::string_view::npos) break;
    text.remove_prefix(space + 1);
  }
  return out;
}

// The /games record against the text of the game's plies, cut where io::set_record cuts it.
void check_record(const StoredGame& game, const RecordRules& rules, Problems& problems) {
  std::vector<std::string> texts;
  std::string full;
  for (const auto& ply : game.plies) {
    texts.push_back(rules.ply_text(ply.row));
    full += (full.empty() ? "" : " ") + texts.back();
  }
  io::GameRow expected;
  io::set_record(expected, full);
  const io::GameRow& stored = game.game.row;
  if (io::text_of(stored.record) == io::text_of(expected.record) &&
      stored.record_truncated == expected.record_truncated)
    return;
  const std::string where = game_where(game.game);
  const std::vector<std::string_view> tokens = split(io::text_of(stored.record));
  for (size_t k = 0; k < tokens.size() && k < texts.size(); ++k) {
    if (tokens[k] != texts[k]) {
      problems.add(where + ": the record has " + std::string(tokens[k]) + " at ply " +
                   std::to_string(k) + ", /plies row " + std::to_string(game.plies[k].index) +
                   " has " + texts[k]);
      return;
    }
  }
  if (tokens.size() != texts.size() && !(stored.record_truncated && tokens.size() < texts.size())) {
    problems.add(where + ": the record holds " + std::to_string(tokens.size()) + " plies, /plies " +
                 std::to_string(texts.size()));
    return;
  }
  problems.add(where + ": record_truncated is " + std::to_string(stored.record_truncated) +
               " with " + std::to_string(tokens.size()) + " of the " +
               std::to_string(texts.size()) + " plies in the record; the full record cut to " +
               std::to_string(sizeof stored.record - 1) + " characters holds " +
               std::to_string(split(io::text_of(expected.record)).size()));
}

}  // namespace

VerifyReport verify_file(const std::string& path, size_t max_problems,
                         const MakeRecordRules& make_rules) {
  const io::CampaignReader reader(path);
  const std::unique_ptr<RecordRules> rules = make_rules(reader.meta(), path);
  VerifyReport report(max_problems);
  Problems& problems = report.problems;

  std::map<uint64_t, StoredGame> games;
  for (uint64_t first = 0; first < reader.games_count(); first += kBlock) {
    const std::vector<io::GameRow> rows = reader.games(first, kBlock);
    for (size_t i = 0; i < rows.size(); ++i) {
      const Indexed<io::GameRow> row{first + i, rows[i]};
      if (row.row.game_id == io::kNoGame) {
        ++report.ignored_rows;
        continue;
      }
      const auto [it, fresh] = games.try_emplace(row.row.game_id);
      if (!fresh) {
        problems.add(game_where(row) + ": a second /games row for the game (the first is row " +
                     std::to_string(it->second.game.index) + ")");
        continue;
      }
      it->second.game = row;
    }
  }
  for (uint64_t first = 0; first < reader.plies_count(); first += kBlock) {
    const std::vector<io::PlyRow> rows = reader.plies(first, kBlock);
    for (size_t i = 0; i < rows.size(); ++i) {
      const auto it = games.find(rows[i].game_id);
      if (it == games.end()) {
        ++report.ignored_rows;
        continue;
      }
      it->second.plies.push_back({first + i, rows[i]});
    }
  }

  for (auto& [id, game] : games) {
    ++report.games;
    report.plies += game.plies.size();
    const bool numbered = check_numbering(game, problems);
    check_record(game, *rules, problems);
    if (numbered) rules->replay(game, problems);
    game.plies = {};  // the replay keeps what the positions need
  }

  const size_t width = reader.meta().feature_names.size();
  for (uint64_t first = 0; first < reader.positions_count(); first += kBlock) {
    const std::vector<io::PositionRow> rows = reader.positions(first, kBlock);
    const std::vector<float> values = reader.features(first, kBlock);
    for (size_t i = 0; i < rows.size(); ++i) {
      if (!games.contains(rows[i].game_id)) {
        ++report.ignored_rows;
        continue;
      }
      ++report.positions;
      const std::span<const float> features =
          values.size() >= (i + 1) * width
              ? std::span<const float>(values.data() + i * width, width)
              : std::span<const float>();
      rules->check_position({first + i, rows[i]}, features, problems);
    }
  }
  report.notes = rules->notes();
  return report;
}

}  // namespace sp::selfplay
