// PDN game files (Portable Draughts Notation, ../shared/reference/checkers.md): whole games with
// their tags, as CheckerBoard-style programs read and write them. Host only.
//
// Writing (write_pdn), one game:
//   [Event "selfplay match"]        the game's tags in their order, then
//   [Result "1-0"]                  its result: 1-0 Black (the first player) won, 0-1 White won,
//                                   1/2-1/2 a draw, * unknown or unfinished
//   [SetUp "1"] [FEN "W:W...:B..."] only when it does not start from the standard position
//   1. 11-15 23-19 2. 8-11 22-18    numbered moves (a move number before each Black move, and
//   ... 1-0                         "1..." before a first move of White), every jump path in full,
//                                   lines of at most 79 characters, then the result again
// and a blank line after it.
//
// Reading (read_pdn), a file of games: each game is its tags (optional), its moves and a result
// token. Tags are `[Name "value"]` with \" and \\ escapes in the value; Result, SetUp and FEN are
// read into the game's fields, the rest kept in order. Between moves a file may have move numbers
// ("12.", "12...", also glued to the move: "12.11-15"; read but not checked against the ply, since
// programs number games from a FEN differently), comments in braces or from ';' to the end of the
// line, variations in parentheses (skipped, nested ones too), NAGs ($1) and !/? marks after a
// move. Moves are read as parse_move reads them (x or - between squares, unambiguous short jump
// forms) and must be legal in turn. A file of positions is a file of games without moves
// ([FEN "..."] *). Games are read without draw limits (a file's game ends where its moves end):
// their positions carry max_plies 65535 and quiet_limit 0.
//
// Errors are InputErrors "NAME:LINE:COLUMN: what is wrong" (1-based; columns count bytes).
#pragma once

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "games/checkers/checkers.hpp"

namespace sp::checkers {

struct PdnTag {
  std::string name, value;
  friend bool operator==(const PdnTag&, const PdnTag&) = default;
};

// s with the draw limits of a game read from a file: none.
inline State without_draw_limits(State s) {
  s.max_plies = 0xFFFF;
  s.quiet_limit = 0;
  return s;
}

struct PdnGame {
  std::vector<PdnTag> tags;  // every tag but Result, SetUp and FEN, in order
  State start = without_draw_limits(initial_state());
  std::vector<Move> moves;   // legal in turn from start
  std::string result = "*";  // "1-0", "0-1", "1/2-1/2" or "*"
  size_t line = 0;           // read_pdn: the line where the game starts (1-based); not compared
  // Bytewise on the start (states have no padding).
  friend bool operator==(const PdnGame& a, const PdnGame& b) {
    return a.tags == b.tags && std::memcmp(&a.start, &b.start, sizeof(State)) == 0 &&
           a.moves == b.moves && a.result == b.result;
  }
};

// The result token of a game that ended with `winner` (0 Black, 1 White, kNoWinner a draw).
std::string pdn_result(int winner);

// One game as PDN text, ending in a blank line. Precondition: the moves are legal in turn from
// start and the result is one of the four tokens; tag names are letters, digits and '_'. Control
// characters in tag values are written as spaces.
std::string write_pdn(const PdnGame& game);

// Every game of a PDN file's text; `name` (the file's path) starts the error messages. Throws
// InputError for malformed text, an illegal move, a Result tag that contradicts the result token,
// and a text without any game.
std::vector<PdnGame> read_pdn(std::string_view text, std::string_view name);

}  // namespace sp::checkers
