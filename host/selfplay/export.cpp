#include "host/selfplay/export.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "host/io/campaign_file.hpp"

namespace sp::selfplay {
namespace {

constexpr uint64_t kBlock = 16384;

// A stored text as one tab-separated field.
std::string field(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return out;
}

}  // namespace

std::string export_text(const std::string& path, const MakeRecordRules& make_rules) {
  const io::CampaignReader reader(path);
  const std::unique_ptr<RecordRules> rules = make_rules(reader.meta(), path);

  std::vector<io::GameRow> games;
  for (uint64_t first = 0; first < reader.games_count(); first += kBlock)
    for (const io::GameRow& row : reader.games(first, kBlock))
      if (row.game_id != io::kNoGame) games.push_back(row);
  std::stable_sort(games.begin(), games.end(),
                   [](const auto& a, const auto& b) { return a.game_id < b.game_id; });

  // Each game's plies as (ply, text), in the order of the file.
  std::map<uint64_t, std::vector<std::pair<uint16_t, std::string>>> plies;
  for (const io::GameRow& g : games) plies.try_emplace(g.game_id);
  for (uint64_t first = 0; first < reader.plies_count(); first += kBlock)
    for (const io::PlyRow& row : reader.plies(first, kBlock))
      if (const auto it = plies.find(row.game_id); it != plies.end())
        it->second.emplace_back(row.ply, field(rules->ply_text(row)));

  std::string out = "game_id\topening\tfirst_player\twinner\tplies\tmoves\n";
  for (const io::GameRow& g : games) {
    auto& moves = plies[g.game_id];
    std::stable_sort(moves.begin(), moves.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    out += std::to_string(g.game_id) + '\t' + field(io::text_of(g.opening)) + '\t' +
           std::to_string(g.first_player) + '\t' +
           (g.winner == 0 || g.winner == 1 ? std::to_string(g.winner) : std::string("draw")) +
           '\t' + std::to_string(moves.size()) + '\t';
    for (size_t k = 0; k < moves.size(); ++k) out += (k ? " " : "") + moves[k].second;
    out += '\n';
  }
  return out;
}

}  // namespace sp::selfplay
