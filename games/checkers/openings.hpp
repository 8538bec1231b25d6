// Opening positions from a file (`start: file`, `openings: FILE`): a PDN file of games or
// positions, or a file of plain FEN lines. Host only.
//
// A PDN file (pdn.hpp's reader, so its errors name line and column) gives one opening per game:
// the position its moves reach from its start ([FEN "..."] or the standard position); a file of
// positions is a file of games without moves, `[FEN "W:W18,K30:B1,5"] *`. A file whose first
// text is a FEN (`B:` or `W:`) is read as one FEN per line instead (blank lines and lines
// starting with ';' or '#' skipped). Every opening must leave the side to move a move, fit the
// 63 characters /games keeps of an opening as a FEN, and appear once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/deck_identity.hpp"
#include "games/checkers/checkers.hpp"

namespace sp::checkers {

struct OpeningDeck {
  std::vector<State> positions;  // in file order, with the default draw limits and no plies
  // What makes one deck another: FNV-1a 64 of the positions' FENs in order, one per line, so a
  // comment or a different way of writing the same positions keeps the identity.
  uint64_t hash = 0;
};

// The deck in a file's text; `name` (its path) starts the error messages, "NAME:LINE:COLUMN:
// what is wrong" (InputError).
OpeningDeck parse_openings(std::string_view text, std::string_view name);
// Reads the file at path; InputError when it cannot be read, or as parse_openings.
OpeningDeck read_openings(const std::string& path);

}  // namespace sp::checkers
