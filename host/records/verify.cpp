#include "host/records/verify.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/stats/match_stats.hpp"

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

// Engine A's result in game g of a match: A plays player 0 in even games, player 1 in odd ones.
stats::GameResult result_for_a(const io::GameRow& g) {
  if (g.winner != 0 && g.winner != 1) return stats::GameResult::kDraw;
  const int a = static_cast<int>(g.game_id & 1u);
  return g.winner == a ? stats::GameResult::kWin : stats::GameResult::kLoss;
}

float score_of(stats::GameResult r) {
  return r == stats::GameResult::kWin ? 1.0f : r == stats::GameResult::kDraw ? 0.5f : 0.0f;
}

// /match/pairs against the games: pair k counts games 2k and 2k+1 (both complete), rows come in
// pair order from 0, each result is engine A's in its game, each LLR is the GSPRT of the pairs up
// to it under the file's stored test, and no row follows the one where the test decided.
void check_match_pairs(const io::CampaignReader& reader, const io::MatchMeta& match,
                       const std::map<uint64_t, StoredGame>& games, Problems& problems) {
  stats::SprtConfig sprt{match.sprt_elo0, match.sprt_elo1, match.sprt_alpha, match.sprt_beta};
  stats::PairCounter counter;
  bool decided = false;
  for (uint64_t first = 0; first < reader.match_pairs_count(); first += kBlock) {
    const std::vector<io::MatchPairRow> rows = reader.match_pairs(first, kBlock);
    for (size_t i = 0; i < rows.size(); ++i) {
      const uint64_t index = first + i;
      const io::MatchPairRow& row = rows[i];
      const std::string where = "pair " + std::to_string(row.pair_id) + " (/match/pairs row " +
                                std::to_string(index) + ")";
      if (decided) {
        problems.add(where + ": the SPRT had decided at the row before; no pair follows");
        return;
      }
      if (row.pair_id != index) {
        problems.add(where + ": pairs must come in order from 0; expected pair " +
                     std::to_string(index));
        return;
      }
      const auto a = games.find(2 * row.pair_id), b = games.find(2 * row.pair_id + 1);
      if (a == games.end() || b == games.end()) {
        problems.add(where + ": game " +
                     std::to_string(a == games.end() ? 2 * row.pair_id : 2 * row.pair_id + 1) +
                     " of the pair is not a complete game of the file");
        return;
      }
      const stats::GameResult r1 = result_for_a(a->second.game.row);
      const stats::GameResult r2 = result_for_a(b->second.game.row);
      if (row.result_1 != score_of(r1) || row.result_2 != score_of(r2))
        problems.add(where + ": results " + fmt::format("{:g}/{:g}", row.result_1, row.result_2) +
                     ", engine A's results in games " + std::to_string(2 * row.pair_id) + " and " +
                     std::to_string(2 * row.pair_id + 1) + " are " +
                     fmt::format("{:g}/{:g}", score_of(r1), score_of(r2)));
      counter.add_pair(r1, r2);
      double llr = 0;
      if (match.sprt_enabled) {
        const stats::SprtState state = stats::sprt(counter.penta(), sprt);
        llr = state.llr;
        decided = state.decision != stats::SprtState::kContinue;
      }
      if (std::abs(row.llr - llr) > 1e-9 * std::max(1.0, std::abs(llr)))
        problems.add(where + ": LLR " + fmt::format("{:.12g}", row.llr) +
                     ", the pairs up to it give " + fmt::format("{:.12g}", llr));
    }
  }
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
  // Rows of a table of game rows (plies, candidates) to their games; rows of games without a
  // /games row are not checked.
  const auto gather = [&](uint64_t count, auto read, auto member) {
    for (uint64_t first = 0; first < count; first += kBlock) {
      const auto rows = read(first);
      for (size_t i = 0; i < rows.size(); ++i) {
        const auto it = games.find(rows[i].game_id);
        if (it == games.end()) {
          ++report.ignored_rows;
          continue;
        }
        (it->second.*member).push_back({first + i, rows[i]});
      }
    }
  };
  gather(
      reader.plies_count(), [&](uint64_t first) { return reader.plies(first, kBlock); },
      &StoredGame::plies);
  gather(
      reader.candidates_count(), [&](uint64_t first) { return reader.candidates(first, kBlock); },
      &StoredGame::candidates);

  for (auto& [id, game] : games) {
    ++report.games;
    std::stable_sort(
        game.candidates.begin(), game.candidates.end(), [](const auto& a, const auto& b) {
          return a.row.ply != b.row.ply ? a.row.ply < b.row.ply : a.row.rank < b.row.rank;
        });
    report.plies += game.plies.size();
    const bool numbered = check_numbering(game, problems);
    check_record(game, *rules, problems);
    if (numbered) rules->replay(game, problems);
    game.plies = {};  // the replay keeps what the positions need
    game.candidates = {};
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
  if (const auto& match = reader.meta().match) {
    check_match_pairs(reader, *match, games, problems);
    report.pairs = reader.match_pairs_count();
  }
  report.notes = rules->notes();
  return report;
}

}  // namespace sp::selfplay
