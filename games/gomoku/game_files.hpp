// Gomoku games in the files of the field's tools, both ways: `selfplay export --format psq` and
// `--format sgf` write them, and an openings file (`rules.openings`) may be either.
//
// psq, piskvork's game file (one game per file), as piskvork and the Gomocup tournament manager
// save it:
//   Piskvorky 15x15, 11:11, 0
//   8,8,0          one line per stone: column, row (both from 1, the top-left corner), the
//   9,9,312        milliseconds the engine thought (0 for the opening's stones)
//   ...
//   <Black's name>
//   <White's name>
//   -1
// The opening's stones come first, as moves; Black moves first.
//
// SGF (FF[4], GM[4] for Gomoku), as Gomoku GUIs and c-gomoku-cli write it: a collection of game
// trees, each `(;FF[4]GM[4]CA[UTF-8]AP[selfplay]SZ[15]...;B[hh];W[ii]...)`, the point a column
// letter and a row letter from `a` (the top-left corner); PB/PW name the engines, RE gives the
// result (B+, W+, Draw), GN the game id, EV, PC and DT where and when; the opening's stones are
// moves too.
//
// As openings, each psq file gives one opening (its stones in order) and each SGF game tree one
// (its main line's B and W moves, or AB/AW setup stones, Black first); errors name the file, line
// and column. Host only.
#pragma once

#include <string>
#include <string_view>

#include "core/game_host.hpp"
#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/openings.hpp"

namespace sp::gomoku {

// One stored game as psq or SGF text, on a board of `size` (the file's rules). The opening's and
// each ply's squares must be squares (InputError otherwise).
std::string write_psq(const GameFileRecord& game, int size);
std::string write_sgf(const GameFileRecord& game, int size, std::string_view rule);

// Whether an openings file's text is psq or SGF (its first text after blanks is "Piskvorky" or
// "("), not the `pos` format of openings.hpp.
bool is_psq(std::string_view text);
bool is_sgf(std::string_view text);

// The openings of a psq or SGF file named `name`, checked as read_openings checks the `pos`
// format (no square twice in an opening, no position twice in a file). Throws InputError
// "NAME:LINE:COLUMN: what is wrong".
OpeningFile read_psq_openings(std::string_view text, std::string_view name);
OpeningFile read_sgf_openings(std::string_view text, std::string_view name);

}  // namespace sp::gomoku
