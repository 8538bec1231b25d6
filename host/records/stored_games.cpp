#include "host/records/stored_games.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include <yaml-cpp/yaml.h>

#include "host/play/selfplay/driver.hpp"

namespace sp::selfplay {
namespace {
constexpr uint64_t kBlock = 16384;
}  // namespace

std::optional<StoredGame> stored_game_of(const ExportedGame& e) {
  if (e.plies.size() != e.game.plies) return std::nullopt;
  StoredGame stored;
  stored.game = {e.row, e.game};
  for (size_t k = 0; k < e.plies.size(); ++k) {
    if (e.plies[k].ply != k) return std::nullopt;
    stored.plies.push_back({e.ply_rows[k], e.plies[k]});
  }
  return stored;
}

std::vector<ExportedGame> read_exported_games(const io::CampaignReader& reader, bool candidates) {
  std::vector<ExportedGame> out;
  for (uint64_t first = 0; first < reader.games_count(); first += kBlock) {
    const std::vector<io::GameRow> rows = reader.games(first, kBlock);
    for (size_t k = 0; k < rows.size(); ++k)
      if (rows[k].game_id != io::kNoGame) out.push_back({first + k, rows[k], {}, {}, {}});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.game.game_id < b.game.game_id; });
  std::map<uint64_t, size_t> at;  // game id -> its first entry in out
  for (size_t k = out.size(); k-- > 0;) at[out[k].game.game_id] = k;
  for (uint64_t first = 0; first < reader.plies_count(); first += kBlock) {
    const std::vector<io::PlyRow> rows = reader.plies(first, kBlock);
    for (size_t k = 0; k < rows.size(); ++k)
      if (const auto it = at.find(rows[k].game_id); it != at.end()) {
        out[it->second].ply_rows.push_back(first + k);
        out[it->second].plies.push_back(rows[k]);
      }
  }
  for (uint64_t first = 0; candidates && first < reader.candidates_count(); first += kBlock)
    for (const io::CandidateRow& row : reader.candidates(first, kBlock))
      if (const auto it = at.find(row.game_id); it != at.end())
        out[it->second].candidates.push_back(row);
  for (ExportedGame& g : out) {
    std::stable_sort(g.candidates.begin(), g.candidates.end(), [](const auto& a, const auto& b) {
      return a.ply != b.ply ? a.ply < b.ply : a.rank < b.rank;
    });
    std::vector<size_t> order(g.plies.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return g.plies[a].ply < g.plies[b].ply; });
    std::vector<io::PlyRow> plies;
    std::vector<uint64_t> rows;
    for (const size_t k : order) {
      plies.push_back(g.plies[k]);
      rows.push_back(g.ply_rows[k]);
    }
    g.plies = std::move(plies);
    g.ply_rows = std::move(rows);
  }
  return out;
}

std::string program_of(const io::FileMeta& meta) {
  if (!meta.program.empty()) return meta.program;
  return meta.git_commit.empty() ? std::string() : "selfplay, commit " + meta.git_commit;
}

Seats::Seats(const io::FileMeta& meta) {
  if (meta.match) {
    paired_ = true;
    engines_ = {"A: " + meta.match->engine_a, "B: " + meta.match->engine_b};
  }
  // The stored config: a campaign's engine types and pairing, every file's labels; a file without
  // a readable one gets no names (a match keeps its engines' descriptions).
  try {
    const YAML::Node tree = YAML::Load(meta.config_text);
    if (!tree.IsMap()) return;
    if (!meta.match)
      if (const YAML::Node paired = tree["campaign"]["paired"]; paired && paired.IsScalar())
        paired_ = paired.as<bool>();
    for (int e = 0; e < 2; ++e) {
      const std::string key = "player" + std::to_string(e);
      const YAML::Node engine = tree["engines"][key];
      if (const YAML::Node type = engine["type"]; !meta.match && type && type.IsScalar())
        engines_[e] = "engines." + key + " (" + type.as<std::string>() + ")";
      if (const YAML::Node label = engine["label"]; label && label.IsScalar())
        labels_[e] = label.as<std::string>();
    }
  } catch (const YAML::Exception&) {
    if (!meta.match) engines_ = {};
    labels_ = {};
    if (!meta.match) paired_ = false;
  }
}

std::array<std::string, 2> Seats::by_seat(const std::array<std::string, 2>& by_engine,
                                          uint64_t game_id) const {
  config::CampaignConfig cfg;
  cfg.paired = paired_;
  std::array<std::string, 2> out;
  for (int player = 0; player < 2; ++player)
    out[player] = by_engine[engine_for_player(cfg, static_cast<uint32_t>(game_id), player)];
  return out;
}

std::array<std::string, 2> Seats::engines(uint64_t game_id) const {
  return by_seat(engines_, game_id);
}

std::array<std::string, 2> Seats::labels(uint64_t game_id) const {
  return by_seat(labels_, game_id);
}

std::array<std::string, 2> Seats::players(uint64_t game_id) const {
  std::array<std::string, 2> out = engines(game_id);
  const std::array<std::string, 2> labels = this->labels(game_id);
  for (int p = 0; p < 2; ++p)
    if (!labels[p].empty()) out[p] = out[p].empty() ? labels[p] : labels[p] + " (" + out[p] + ")";
  return out;
}

}  // namespace sp::selfplay
