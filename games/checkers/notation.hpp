// Checkers notation (PDN, ../shared/reference/checkers.md). Host only.
//
// Squares are the PDN numbers 1..32. Moves: `11-15`, captures with every landing square
// `9x18x27`. Reading accepts `-` or `x` between any squares (real files write `x` for plain
// moves), the full path, and a short form that leaves landing squares out (`9x27`) when exactly
// one legal move fits it.
//
// Positions: a FEN as PDN writes it, `B:W21,22,K30:B1,2,K5` (side to move, then each side's
// squares, K for a king), bare or as a tag `[FEN "..."]`; ranges such as `B1-12` are read, and
// written for runs of three or more men or kings (the start is `B:W21-32:B1-12`); a final `.` is
// read too. The draw counters follow when they differ from a fresh start under the default
// rules: ` ply=12/400` (plies played / max_plies) and ` quiet=3/80` (plies since the last capture
// or man move / quiet_limit, 0 = no such rule).
//
// Parsers throw sp::InputError naming the text, the 1-based column and what is wrong; the move
// lexer also reports without throwing (MoveText), for a PDN game reader to add its line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "games/checkers/checkers.hpp"

namespace sp::checkers {

std::string square_text(int sq);  // "1" for square 0, "32" for 31

// The squares a move passes through: its start, then every landing square.
struct MovePath {
  int squares[kMaxJumps + 1];
  int size;
};
MovePath path_of(Move m);

std::string to_string(Move m);  // "11-15", "22x15", "9x18x27"

// A move as written: its squares (0-based) in order. ok is false when the text is not a move;
// then column (0-based) and problem say where and why.
struct MoveText {
  int squares[kMaxJumps + 1] = {};
  int size = 0;
  bool ok = false;
  size_t column = 0;
  std::string problem;
};
MoveText lex_move(std::string_view text);

// The legal moves of s that the written squares fit: the full path, or a subsequence of it that
// keeps the start and the end; a full path match alone when there is one.
std::vector<Move> matching_moves(const State& s, const MoveText& written);

// A legal move of s from its text; throws InputError for text that is not a move, a move that is
// not legal (listing the legal ones) or a short form that fits several moves.
Move parse_move(const State& s, std::string_view text);

std::string fen(const State& s);        // "B:W21-32:B1-12"
std::string to_string(const State& s);  // the FEN, then the counters that differ from a fresh start
State parse_position(std::string_view text);

// The legal moves of s, separated by spaces, for messages.
std::string legal_moves_text(const State& s);

}  // namespace sp::checkers
