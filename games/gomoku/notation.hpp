// Gomoku notation. Host only.
//
// Squares as in Gomocup's `pos` openings and common usage: a letter for the column from `a` (the
// left, Gomocup x = 0) and a number for the row from 1 (the top, Gomocup y = 0): `h8` is the centre
// of 15x15, x = 7, y = 7. Reading also takes capital letters. A sequence of moves is written like
// a `pos` opening, the squares one after another without separators: `h8i9g7`. (Diagrams that
// count rows from the bottom show the same games mirrored top to bottom, which is a symmetry of
// freestyle and standard Gomoku.)
//
// Positions: the rows from the top (row 1) down, separated by '/', each from column a: `x` a Black
// stone, `o` a White stone, a number a run of empty squares; then a space and the side to move
// (`x` Black, `o` White), and ` standard` under the standard rule (exactly five wins). The empty
// 15x15 board with Black to move is fifteen `15`s joined by '/' and ` x`. The number of rows gives
// the board size (15 or 20).
//
// Parsers throw sp::InputError naming the text, the 1-based column and what is wrong.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "games/gomoku/gomoku.hpp"

namespace sp::gomoku {

std::string square_name(int x, int y);  // "h8" for x = 7, y = 7
std::string to_string(Move m);          // the same for a move

// A legal move of s from its text; throws InputError for text that is not a square, a square off
// the board, an occupied square or a finished game.
Move parse_move(const State& s, std::string_view text);

// Moves in `pos` form: the squares concatenated ("h8i9g7").
std::string moves_text(const std::vector<Move>& moves);
// Plays moves in `pos` form from s; throws InputError naming the column of the first move that is
// not a square or not legal (a move after the end of the game included).
State play_moves(State s, std::string_view text);

std::string to_string(const State& s);
State parse_position(std::string_view text);

}  // namespace sp::gomoku
