// EWN notation (../shared/reference/ewn.md): position strings `<board> <side> <die>`, moves
// `<from>-<to>` (or `pass`) and plies `<die>:<move>`. Host only. Parsers throw sp::InputError
// naming the text, the 1-based column and what is wrong.
#pragma once

#include <string>
#include <string_view>

#include "core/errors.hpp"
#include "games/ewn/ewn.hpp"

namespace sp::ewn {

std::string square_name(int sq);          // "a5" for 0, "e1" for 24
int parse_square(std::string_view text);  // -1 when text is not a square name

std::string to_string(const State& s);  // position string
State parse_position(std::string_view text);

std::string to_string(Move m);  // "b4-c3" or "pass"
// Parses a move and checks it against the legal moves of s (whose die must be rolled).
Move parse_move(const State& s, const Rules& rules, std::string_view text);

std::string ply_to_string(int die, Move m);  // "3:b4-c3"

// Arrangement as six digits 1..6 naming the cube on each start slot (see start_square()).
std::string to_string(const Arrangement& a);
Arrangement parse_arrangement(std::string_view text);

// A printable board with coordinates, for terminals and logs.
std::string board_diagram(const State& s);

}  // namespace sp::ewn
