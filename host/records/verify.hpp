// `selfplay verify`: replays every game of a campaign or match file through its game's rules
// (record_rules.hpp) and reports the rows that disagree with the replay.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/records/record_rules.hpp"

namespace sp::selfplay {

struct VerifyReport {
  explicit VerifyReport(size_t max_problems) : problems(max_problems) {}
  // Rows of the games that have a /games row (the complete games).
  uint64_t games = 0, plies = 0, positions = 0;
  uint64_t pairs = 0;  // /match/pairs rows of a match file
  // Rows a crashed or live writer left that belong to no complete game, and unwritten (fill)
  // rows: not checked (a resume drops them).
  uint64_t ignored_rows = 0;
  Problems problems;
  std::vector<std::string> notes;  // what could not be checked, and why
};

// Checks every complete game of the file at `path` (format 1 or 2): rows of one game are grouped
// by game id wherever they lie. Per game: one /games row, its /plies numbered 0..plies-1, its
// summary record equal to the plies' text (cut as io::set_record cuts it when record_truncated:
// the plies are the full game), then the game's replay (RecordRules::replay) and each of its
// /positions rows (RecordRules::check_position); in a match file, every /match/pairs row against
// its two games and the SPRT stored in the file (the pair's results for engine A, the LLR after
// it, pairs in order, none after a decision). Problems come in game-id order, the positions' after
// the games', the pairs' last. Throws sp::InputError for a file whose game or rules cannot be told,
// and lets io::CampaignError and io::H5Error through for a file that is not a readable campaign.
// make_rules: where the game's rules come from (record_rules.hpp).
VerifyReport verify_file(const std::string& path, size_t max_problems,
                         const MakeRecordRules& make_rules = make_record_rules);

}  // namespace sp::selfplay
