#include "host/selfplay/export.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "games/common/errors.hpp"
#include "games/hosts.hpp"
#include "host/io/campaign_file.hpp"
#include "host/selfplay/driver.hpp"

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

// Every game of the file with a /games row, in game-id order, with its /plies rows in ply order.
struct Exported {
  io::GameRow game;
  std::vector<io::PlyRow> plies;
};
std::vector<Exported> read_games(const io::CampaignReader& reader) {
  std::vector<io::GameRow> rows;
  for (uint64_t first = 0; first < reader.games_count(); first += kBlock)
    for (const io::GameRow& row : reader.games(first, kBlock))
      if (row.game_id != io::kNoGame) rows.push_back(row);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.game_id < b.game_id; });
  std::map<uint64_t, std::vector<io::PlyRow>> plies;
  for (const io::GameRow& g : rows) plies.try_emplace(g.game_id);
  for (uint64_t first = 0; first < reader.plies_count(); first += kBlock)
    for (const io::PlyRow& row : reader.plies(first, kBlock))
      if (const auto it = plies.find(row.game_id); it != plies.end()) it->second.push_back(row);
  std::vector<Exported> out;
  out.reserve(rows.size());
  for (const io::GameRow& g : rows) {
    std::vector<io::PlyRow>& p = plies[g.game_id];
    std::stable_sort(p.begin(), p.end(),
                     [](const auto& a, const auto& b) { return a.ply < b.ply; });
    out.push_back({g, std::move(p)});
  }
  return out;
}

// Who played each engine slot, and whether the seats swap in odd games, as far as the file says.
struct Seats {
  std::array<std::string, 2> engines;
  config::CampaignConfig cfg;  // only `paired` is set
};
Seats seats_of(const io::FileMeta& meta) {
  Seats s;
  if (meta.match) {
    s.cfg.paired = true;
    s.engines = {"A: " + meta.match->engine_a, "B: " + meta.match->engine_b};
    return s;
  }
  // A campaign's stored config; a file without a readable one gets no names.
  try {
    const YAML::Node tree = YAML::Load(meta.config_text);
    if (tree.IsMap()) {
      if (const YAML::Node paired = tree["campaign"]["paired"]; paired && paired.IsScalar())
        s.cfg.paired = paired.as<bool>();
      for (int e = 0; e < 2; ++e) {
        const std::string key = "player" + std::to_string(e);
        if (const YAML::Node type = tree["engines"][key]["type"]; type && type.IsScalar())
          s.engines[e] = "engines." + key + " (" + type.as<std::string>() + ")";
      }
    }
  } catch (const YAML::Exception&) {
    s = Seats{};
  }
  return s;
}

template <HostGame G>
std::string game_file(const io::CampaignReader& reader, const std::string& path) {
  std::string out;
  const Seats seats = seats_of(reader.meta());
  for (const Exported& e : read_games(reader)) {
    GameFileRecord r;
    r.game_id = e.game.game_id;
    r.opening = std::string(io::text_of(e.game.opening));
    r.first_player = e.game.first_player;
    r.winner = e.game.winner == 0 || e.game.winner == 1 ? e.game.winner : -1;
    for (const io::PlyRow& p : e.plies) {
      r.moves.emplace_back(io::text_of(p.move));
      r.chances.push_back(p.chance);
    }
    for (int player = 0; player < 2; ++player)
      r.players[player] =
          seats.engines[engine_for_player(seats.cfg, static_cast<uint32_t>(r.game_id), player)];
    r.event = reader.meta().match ? "selfplay match" : "selfplay campaign";
    r.site = reader.meta().host;
    r.start_time = reader.meta().start_time;
    try {
      out += GameHost<G>::game_file_text(r);
    } catch (const InputError& error) {
      throw InputError(path + ": " + error.what());
    }
  }
  return out;
}

}  // namespace

std::string export_text(const std::string& path, const MakeRecordRules& make_rules) {
  const io::CampaignReader reader(path);
  const std::unique_ptr<RecordRules> rules = make_rules(reader.meta(), path);
  std::string out = "game_id\topening\tfirst_player\twinner\tplies\tmoves\n";
  for (const Exported& e : read_games(reader)) {
    const io::GameRow& g = e.game;
    out += std::to_string(g.game_id) + '\t' + field(io::text_of(g.opening)) + '\t' +
           std::to_string(g.first_player) + '\t' +
           (g.winner == 0 || g.winner == 1 ? std::to_string(g.winner) : std::string("draw")) +
           '\t' + std::to_string(e.plies.size()) + '\t';
    for (size_t k = 0; k < e.plies.size(); ++k)
      out += (k ? " " : "") + field(rules->ply_text(e.plies[k]));
    out += '\n';
  }
  return out;
}

std::string export_games(const std::string& path, std::string_view format) {
  if (format == "tsv") return export_text(path);
  const io::CampaignReader reader(path);
  const std::string& game = reader.meta().game;
  if (!is_game(game))
    throw InputError(path + ": game '" + game +
                     "' has no export in this build (known: " + game_names_text() + ")");
  return with_game(game, [&]<class G>() -> std::string {
    std::string formats = "tsv";
    if constexpr (requires { GameHost<G>::kGameFileFormat; }) {
      if (format == GameHost<G>::kGameFileFormat) return game_file<G>(reader, path);
      formats += std::string(" or ") + GameHost<G>::kGameFileFormat;
    }
    throw InputError("--format " + excerpt(format) + ": " + path + " holds " + G::kName +
                     " games, which export as " + formats);
  });
}

}  // namespace sp::selfplay
