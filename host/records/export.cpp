#include "host/records/export.hpp"

#include <array>
#include <cstdio>

#include "core/errors.hpp"
#include "games/hosts.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/records/stored_games.hpp"
#include "host/records/viewer.hpp"

namespace sp::selfplay {
namespace {

// A stored text as one tab-separated field.
std::string field(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return out;
}

// The file's games, or game `only` alone (InputError naming the path when it has no such game),
// with their /candidates rows when asked.
std::vector<ExportedGame> chosen_games(const io::CampaignReader& reader, const std::string& path,
                                       std::optional<uint64_t> only, bool candidates = false) {
  std::vector<ExportedGame> games = read_exported_games(reader, candidates);
  if (!only) return games;
  std::vector<ExportedGame> one;
  for (ExportedGame& g : games)
    if (g.game.game_id == *only) one.push_back(std::move(g));
  if (one.empty())
    throw InputError("--game " + std::to_string(*only) + ": " + path + " has no game " +
                     std::to_string(*only) + " (" + std::to_string(games.size()) + " games" +
                     (games.empty() ? std::string()
                                    : ", ids " + std::to_string(games.front().game.game_id) +
                                          " to " + std::to_string(games.back().game.game_id)) +
                     ")");
  return one;
}

template <HostGame G>
GameFileRecord game_record(const ExportedGame& e, const Seats& seats, const io::FileMeta& meta) {
  GameFileRecord r;
  r.game_id = e.game.game_id;
  r.opening = std::string(io::text_of(e.game.opening));
  r.first_player = e.game.first_player;
  r.winner = e.game.winner == 0 || e.game.winner == 1 ? e.game.winner : -1;
  for (const io::PlyRow& p : e.plies) {
    r.moves.emplace_back(io::text_of(p.move));
    r.chances.push_back(p.chance);
    r.times_ms.push_back(p.time_ms);
  }
  const std::array<std::string, 2> players = seats.players(r.game_id);
  r.players[0] = players[0];
  r.players[1] = players[1];
  r.event = meta.match ? "selfplay match" : "selfplay campaign";
  r.site = meta.host;
  r.start_time = meta.start_time;
  r.rules = meta.rules;
  r.program = program_of(meta);
  return r;
}

// The file's game's own format named `format`, or nullptr; *names gets the formats it has.
template <HostGame G>
const GameFileFormat* game_format(std::string_view format, std::string* names) {
  const GameFileFormat* found = nullptr;
  if constexpr (requires { GameHost<G>::kGameFileFormats; }) {
    for (const GameFileFormat& f : GameHost<G>::kGameFileFormats) {
      if (format == f.name) found = &f;
      if (names) *names += std::string(", ") + f.name;
    }
  }
  return found;
}

// Calls fn.template operator()<G>(reader) for the file's game.
template <class Fn>
auto with_file_game(const io::CampaignReader& reader, const std::string& path, Fn&& fn) {
  const std::string& game = reader.meta().game;
  if (!is_game(game))
    throw InputError(path + ": game '" + game +
                     "' has no export in this build (known: " + game_names_text() + ")");
  return with_game(game, fn);
}

// The game-file format `format` of the file's game G, or InputError listing what it exports as.
template <HostGame G>
const GameFileFormat& require_format(std::string_view format, const std::string& path) {
  std::string names = "tsv, html, boards";
  if (const GameFileFormat* f = game_format<G>(format, &names)) return *f;
  throw InputError("--format " + excerpt(format) + ": " + path + " holds " + G::kName +
                   " games, which export as " + names);
}

template <HostGame G>
std::string game_file_text(const ExportedGame& e, const Seats& seats, const io::FileMeta& meta,
                           const std::string& path, std::string_view format) {
  try {
    if constexpr (requires { GameHost<G>::kGameFileFormats; })
      return GameHost<G>::game_file_text(game_record<G>(e, seats, meta), format);
    else
      return {};
  } catch (const InputError& error) {
    throw InputError(path + ": " + error.what());
  }
}

bool is_picture_format(std::string_view format) { return format == "html" || format == "boards"; }

}  // namespace

std::string export_text(const std::string& path, const MakeRecordRules& make_rules,
                        std::optional<uint64_t> only) {
  const io::CampaignReader reader(path);
  const std::unique_ptr<RecordRules> rules = make_rules(reader.meta(), path);
  const Seats seats(reader.meta());
  std::string out =
      "game_id\topening\tfirst_player\twinner\tplies\tplayer0\tplayer1\tlabel0\tlabel1\tmoves\n";
  for (const ExportedGame& e : chosen_games(reader, path, only)) {
    const io::GameRow& g = e.game;
    const std::array<std::string, 2> players = seats.engines(g.game_id);
    const std::array<std::string, 2> labels = seats.labels(g.game_id);
    out += std::to_string(g.game_id) + '\t' + field(io::text_of(g.opening)) + '\t' +
           std::to_string(g.first_player) + '\t' +
           std::to_string(g.winner == 0 || g.winner == 1 ? g.winner : -1) + '\t' +
           std::to_string(e.plies.size()) + '\t' + field(players[0]) + '\t' + field(players[1]) +
           '\t' + field(labels[0]) + '\t' + field(labels[1]) + '\t';
    for (size_t k = 0; k < e.plies.size(); ++k)
      out += (k ? " " : "") + field(rules->ply_text(e.plies[k]));
    out += '\n';
  }
  return out;
}

std::string export_games(const std::string& path, std::string_view format,
                         std::optional<uint64_t> only) {
  if (format == "tsv") return export_text(path, make_record_rules, only);
  const io::CampaignReader reader(path);
  if (is_picture_format(format)) {
    const std::vector<ExportedGame> games = chosen_games(reader, path, only, true);
    return format == "html" ? html_viewer(reader, path, games) : board_lines(reader, path, games);
  }
  return with_file_game(reader, path, [&]<class G>() -> std::string {
    const GameFileFormat& f = require_format<G>(format, path);
    const std::vector<ExportedGame> games = chosen_games(reader, path, only);
    if (f.one_game_per_file && games.size() != 1)
      throw InputError("--format " + std::string(f.name) + " holds one game per file, and " + path +
                       " has " + std::to_string(games.size()) +
                       " games: choose one with --game ID, or write each to its own file with "
                       "--out DIRECTORY");
    const Seats seats(reader.meta());
    std::string out;
    for (const ExportedGame& e : games)
      out += game_file_text<G>(e, seats, reader.meta(), path, format);
    return out;
  });
}

bool one_game_per_file(const std::string& path, std::string_view format) {
  if (format == "tsv" || is_picture_format(format)) return false;
  const io::CampaignReader reader(path);
  return with_file_game(reader, path, [&]<class G>() -> bool {
    return require_format<G>(format, path).one_game_per_file;
  });
}

std::vector<std::pair<std::string, std::string>> export_game_files(const std::string& path,
                                                                   std::string_view format) {
  const io::CampaignReader reader(path);
  return with_file_game(
      reader, path, [&]<class G>() -> std::vector<std::pair<std::string, std::string>> {
        const GameFileFormat& f = require_format<G>(format, path);
        const Seats seats(reader.meta());
        std::vector<std::pair<std::string, std::string>> out;
        for (const ExportedGame& e : read_exported_games(reader)) {
          char name[40];
          std::snprintf(name, sizeof name, "game-%06llu",
                        static_cast<unsigned long long>(e.game.game_id));
          out.emplace_back(std::string(name) + f.extension,
                           game_file_text<G>(e, seats, reader.meta(), path, format));
        }
        return out;
      });
}

}  // namespace sp::selfplay
