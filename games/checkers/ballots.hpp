// 3-move ballots: openings of three plies (Black, White, Black) from the standard start, as
// tournaments draw them. The deck shipped in configs/checkers/ballots.txt (made by
// experiments/checkers-ballots/, which says how) is compiled into the program, so a config with
// `start: ballots` needs no file at run time and its records replay wherever the program runs.
// Host only.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "games/checkers/checkers.hpp"

namespace sp::checkers {

struct Ballot {
  std::array<Move, 3> moves;
  friend bool operator==(const Ballot&, const Ballot&) = default;
};

// Every legal sequence of three plies from the standard start, in generate_moves order (the first
// ply's order first): the candidates a deck is chosen from.
std::vector<Ballot> three_ply_starts();

// "11-15 23-19 8-11": the moves one space apart, as /games stores a ballot game's opening.
std::string ballot_text(const Ballot& ballot);

// The position after the ballot's three plies from the standard start under `rules` (White to
// move, ply 3).
State ballot_position(const Ballot& ballot, const Rules& rules = {});

// A ballot from its text (three legal moves from the standard start, one or more spaces apart;
// short jump forms read as parse_move reads them). Throws InputError naming the column.
Ballot parse_ballot(std::string_view text);

// A ballots file: one ballot per line; '#' starts a comment to the end of the line; blank lines
// are skipped. Throws InputError "NAME:LINE:COLUMN: what is wrong" for a line that is no ballot, a
// ballot listed twice, or a file without one.
std::vector<Ballot> parse_ballots(std::string_view text, std::string_view name);

// The shipped deck (configs/checkers/ballots.txt as it was built in), in file order.
const std::vector<Ballot>& shipped_ballots();
std::string_view shipped_ballots_text();

}  // namespace sp::checkers
