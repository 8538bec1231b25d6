// `selfplay export`: the games of a campaign or match file as text a script can read, in the
// game's own game-file formats for the programs of that game (checkers: PDN; Gomoku: psq and SGF),
// or as pictures: an HTML replay viewer and the boards of every ply (viewer.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "host/records/record_rules.hpp"

namespace sp::selfplay {

// The header line "game_id\topening\tfirst_player\twinner\tplies\tmoves" and then one line per
// /games row in game-id order: its id, opening (EWN: the setup), first player, winner ("0", "1"
// or "draw"), the number of its /plies rows and their text (RecordRules::ply_text, ply order, one
// space apart: EWN "3:b4-c3", a game without chance the move alone), tab-separated, each line
// ending in "\n". Moves come from /plies, never from the summary record in /games, which may be
// shortened; rows of games without a /games row are left out. Format-1 files give the same text
// (their setup is the opening). Tabs and line breaks inside a stored text become spaces. The same
// file gives the same bytes. Throws as verify_file does for a file that cannot be read. make_rules:
// where the game's rules come from (record_rules.hpp). only: that game alone.
std::string export_text(const std::string& path,
                        const MakeRecordRules& make_rules = make_record_rules,
                        std::optional<uint64_t> only = std::nullopt);

// The export in `format`:
//   "tsv"     export_text
//   "html"    the replay viewer (viewer.hpp html_viewer), any game with board pictures
//   "boards"  every ply's board as JSON lines (viewer.hpp board_lines)
//   another   one of the file's game's own game-file formats (GameHost<G>::kGameFileFormats,
//             core/game_host.hpp): every /games row in game-id order, its moves from
//             /plies, written one after the other by GameHost<G>::game_file_text with the engines
//             that played each side (a match's engine descriptions, a campaign's engine types; the
//             seats swap in odd games of a paired file) and the file's host and start time
// only: that game alone (InputError when the file has no /games row for it). A format of one game
// per file (psq) takes one game: a file of several without `only` is an InputError that says to
// choose one or export them as files (export_game_files). The same file gives the same bytes.
// Throws InputError naming the path for a format the file's game does not have (saying which it
// has), a game this build does not know, or a game whose record does not replay; otherwise as
// export_text does.
std::string export_games(const std::string& path, std::string_view format,
                         std::optional<uint64_t> only = std::nullopt);

// Whether `format` holds one game per file for the file's game (psq).
bool one_game_per_file(const std::string& path, std::string_view format);

// Every game by itself in a format of one game per file: ("game-000017.psq", its text) in
// game-id order. Throws as export_games does.
std::vector<std::pair<std::string, std::string>> export_game_files(const std::string& path,
                                                                   std::string_view format);

}  // namespace sp::selfplay
