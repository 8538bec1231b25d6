// Gomoku opening files in the `pos` format of Gomocup tools (c-gomoku-cli's `-openings type=pos`,
// Yixin-Board's "getpos"): one opening per line, its stones as squares written one after another
// without separators, Black first: `h8i9g7`. A square is a column letter from `a` (Gomocup x = 0,
// the left edge) and a row number from 1 (Gomocup y = 0, the top edge), as our notation writes
// moves (notation.hpp): `d3` is x = 3, y = 2. Capital letters read too.
//
// Our additions, which c-gomoku-cli does not read: `#` starts a comment to the end of the line,
// and blank lines, spaces or tabs around an opening and a trailing '\r' are skipped.
//
// A file may also be a piskvork psq game or an SGF collection (game_files.hpp), told apart by its
// first text: each psq file gives one opening, each SGF game tree one.
//
// A file is read in two steps, so that a config can read it before it knows its board size and
// win rule: read_openings checks the text (letters a-z, rows 1-20, the largest board's), that no
// line places a stone twice and that no two lines give the same position; check_openings then
// checks every opening against the rules (each square on the board, no opening that already ends
// the game). Errors are InputError "NAME:LINE:COLUMN: what is wrong". Host only.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "games/gomoku/gomoku.hpp"

namespace sp::gomoku {

struct Opening {
  std::vector<Move> moves;   // Black first
  int line = 0;              // 1-based, in the file it was read from (0: made in memory)
  std::vector<int> columns;  // each move's 1-based column on that line
};

struct OpeningFile {
  std::string name;  // for messages: the path, or what the text is
  std::vector<Opening> openings;
  // The board the file says it is for (psq's header, SGF's SZ), which check_openings requires to
  // be the rules' board; 0 when the file does not say (the pos format, an SGF without SZ).
  int board_size = 0;
  int board_size_line = 0, board_size_column = 0;  // where it says so
};

// Step one: the text of a file named `name` (see above). Throws InputError for a malformed line,
// a square placed twice in one line, a position listed twice, or a file without an opening.
OpeningFile read_openings(std::string_view text, std::string_view name);

// Throws InputError for a position listed twice in the file (read_openings checks this).
void check_listed_once(const OpeningFile& file);

// Step two: throws InputError for a file made for another board than the rules' (psq, SGF), an
// opening with a square off the board of rules, or one whose stones make a winning row (the game
// would be over before it starts, or mid-opening).
void check_openings(const OpeningFile& file, const Rules& rules);

// Both steps.
OpeningFile parse_openings(std::string_view text, std::string_view name, const Rules& rules);

// A file's text from disk; throws InputError "cannot read PATH: reason".
OpeningFile load_openings(const std::string& path);

// The position after the opening's stones on the empty board of rules (checked by
// check_openings: every square on the board, the game not over).
State opening_state(const Opening& opening, const Rules& rules);

// A file's text: the header's lines each prefixed with "# " (none when header is empty), then one
// opening per line in `pos` form. read_openings gives back the same openings.
std::string write_openings(const std::vector<std::vector<Move>>& openings,
                           std::string_view header = {});

// configs/gomoku/openings.pos as it was built into the program (games/CMakeLists.txt), read and
// checked on 15x15 freestyle once.
std::string_view shipped_openings_text();
std::shared_ptr<const OpeningFile> shipped_openings();
inline constexpr const char* kShippedOpeningsName = "configs/gomoku/openings.pos (built in)";

}  // namespace sp::gomoku
