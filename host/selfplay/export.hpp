// `selfplay export`: the games of a campaign or match file as text a script can read.
#pragma once

#include <string>

#include "host/selfplay/record_rules.hpp"

namespace sp::selfplay {

// The header line "game_id\topening\tfirst_player\twinner\tplies\tmoves" and then one line per
// /games row in game-id order: its id, opening (EWN: the setup), first player, winner ("0", "1"
// or "draw"), the number of its /plies rows and their text (RecordRules::ply_text, ply order, one
// space apart: EWN "3:b4-c3", a game without chance the move alone), tab-separated, each line
// ending in "\n". Moves come from /plies, never from the summary record in /games, which may be
// shortened; rows of games without a /games row are left out. Format-1 files give the same text
// (their setup is the opening). Tabs and line breaks inside a stored text become spaces. The same
// file gives the same bytes. Throws as verify_file does for a file that cannot be read. make_rules:
// where the game's rules come from (record_rules.hpp).
std::string export_text(const std::string& path,
                        const MakeRecordRules& make_rules = make_record_rules);

}  // namespace sp::selfplay
