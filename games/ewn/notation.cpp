#include "games/ewn/notation.hpp"

#include <string>

namespace sp::ewn {
namespace {

[[noreturn]] void fail(std::string_view what, std::string_view text, size_t column,
                       const std::string& message) {
  throw InputError(std::string(what) + " \"" + excerpt(text) + "\": column " +
                   std::to_string(column + 1) + ": " + message);
}

char cube_char(int side, int cube) { return static_cast<char>((side == 0 ? 'A' : 'a') + cube); }

}  // namespace

std::string square_name(int sq) {
  std::string s;
  s += static_cast<char>('a' + col_of(sq));
  s += static_cast<char>('0' + (kSize - row_of(sq)));
  return s;
}

int parse_square(std::string_view text) {
  if (text.size() != 2) return -1;
  const char f = text[0], r = text[1];
  if (f < 'a' || f > 'e' || r < '1' || r > '5') return -1;
  return (kSize - (r - '0')) * kSize + (f - 'a');
}

std::string to_string(const State& s) {
  char board[kSquares] = {};
  for (int side = 0; side < 2; ++side)
    for (int c = 0; c < kCubes; ++c)
      if ((alive_of(s, side) >> c) & 1u) board[square_of(s, side, c)] = cube_char(side, c);
  std::string out;
  for (int row = 0; row < kSize; ++row) {
    if (row) out += '/';
    int empty = 0;
    for (int col = 0; col < kSize; ++col) {
      const char ch = board[row * kSize + col];
      if (!ch) {
        ++empty;
        continue;
      }
      if (empty) out += static_cast<char>('0' + empty), empty = 0;
      out += ch;
    }
    if (empty) out += static_cast<char>('0' + empty);
  }
  out += ' ';
  out += static_cast<char>('0' + s.side);
  out += ' ';
  out += s.die == kNoDie ? '-' : static_cast<char>('0' + s.die);
  return out;
}

State parse_position(std::string_view text) {
  constexpr std::string_view kWhat = "position";
  State s = empty_state();
  size_t i = 0;
  int row = 0, col = 0;
  bool last_digit = false;
  for (; i < text.size() && text[i] != ' '; ++i) {
    const char ch = text[i];
    if (ch == '/') {
      if (col != kSize)
        fail(kWhat, text, i,
             "rank " + std::to_string(kSize - row) + " has " + std::to_string(col) +
                 " squares, expected 5");
      if (++row >= kSize) fail(kWhat, text, i, "more than 5 ranks");
      col = 0;
      last_digit = false;
      continue;
    }
    if (ch >= '1' && ch <= '5') {
      if (last_digit)
        fail(kWhat, text, i, "two digits in a row (write the empty run as one digit)");
      col += ch - '0';
      last_digit = true;
      if (col > kSize)
        fail(kWhat, text, i, "rank " + std::to_string(kSize - row) + " is longer than 5 squares");
      continue;
    }
    const bool upper = ch >= 'A' && ch <= 'F', lower = ch >= 'a' && ch <= 'f';
    if (!upper && !lower)
      fail(kWhat, text, i,
           "unexpected character '" + excerpt({&ch, 1}) +
               "' (cubes are A-F and a-f, empty runs 1-5, ranks separated by '/')");
    if (col >= kSize)
      fail(kWhat, text, i, "rank " + std::to_string(kSize - row) + " is longer than 5 squares");
    const int side = upper ? 0 : 1, cube = ch - (upper ? 'A' : 'a');
    if ((alive_of(s, side) >> cube) & 1u)
      fail(kWhat, text, i, std::string("cube '") + ch + "' appears twice");
    place(s, side, cube, row * kSize + col);
    ++col;
    last_digit = false;
  }
  if (row != kSize - 1 || col != kSize)
    fail(kWhat, text, i,
         row != kSize - 1 ? "expected 5 ranks separated by '/', found " + std::to_string(row + 1)
                          : "rank 1 has " + std::to_string(col) + " squares, expected 5");
  if (i + 2 > text.size() || text[i] != ' ')
    fail(kWhat, text, i, "missing side to move after the board (format: <board> <side> <die>)");
  const char side = text[i + 1];
  if (side != '0' && side != '1') fail(kWhat, text, i + 1, "side to move must be 0 or 1");
  s.side = static_cast<uint8_t>(side - '0');
  if (i + 4 > text.size() || text[i + 2] != ' ')
    fail(kWhat, text, i + 2, "missing die after the side to move (1-6, or - when not rolled)");
  const char die = text[i + 3];
  if (die == '-')
    s.die = kNoDie;
  else if (die >= '1' && die <= '6')
    s.die = static_cast<uint8_t>(die - '0');
  else
    fail(kWhat, text, i + 3, "die must be 1-6 or -, found '" + excerpt({&die, 1}) + "'");
  if (i + 4 != text.size()) fail(kWhat, text, i + 4, "unexpected text after the die");

  for (int p = 0; p < 2; ++p) {
    if (alive_of(s, p) == 0)
      fail(kWhat, text, 0,
           "player " + std::to_string(p) + " has no cubes: the game is already over");
    if (s.occ[p] & (1u << goal_square(p)))
      fail(kWhat, text, 0,
           "player " + std::to_string(p) + " already stands on its goal " +
               square_name(goal_square(p)) + ": the game is already over");
  }
  return s;
}

std::string to_string(Move m) {
  if (m.is_pass()) return "pass";
  return square_name(m.from) + "-" + square_name(m.to);
}

Move parse_move(const State& s, const Rules& rules, std::string_view text) {
  constexpr std::string_view kWhat = "move";
  if (is_over(s)) fail(kWhat, text, 0, "the game is over");
  if (s.die == kNoDie) fail(kWhat, text, 0, "the die has not been rolled");
  MoveList legal;
  generate_moves(s, rules, legal);
  Move m;
  if (text != "pass") {
    if (text.size() != 5 || text[2] != '-')
      fail(kWhat, text, 0, "expected <from>-<to> such as b4-c3");
    const int from = parse_square(text.substr(0, 2)), to = parse_square(text.substr(3, 2));
    if (from < 0)
      fail(kWhat, text, 0, "'" + excerpt(text.substr(0, 2)) + "' is not a square (a1..e5)");
    if (to < 0)
      fail(kWhat, text, 3, "'" + excerpt(text.substr(3, 2)) + "' is not a square (a1..e5)");
    m = Move{static_cast<uint8_t>(from), static_cast<uint8_t>(to)};
  }
  for (int k = 0; k < legal.size; ++k)
    if (legal.moves[k] == m) return m;
  std::string options;
  for (int k = 0; k < legal.size; ++k) options += (k ? ", " : "") + to_string(legal.moves[k]);
  fail(kWhat, text, 0, "not legal with die " + std::to_string(s.die) + "; legal: " + options);
}

std::string ply_to_string(int die, Move m) { return std::to_string(die) + ":" + to_string(m); }

std::string to_string(const Arrangement& a) {
  std::string out;
  for (int slot = 0; slot < kCubes; ++slot) out += static_cast<char>('1' + a.cube_at_slot[slot]);
  return out;
}

Arrangement parse_arrangement(std::string_view text) {
  constexpr std::string_view kWhat = "arrangement";
  if (text.size() != kCubes) fail(kWhat, text, 0, "expected six digits 1-6, one per start square");
  Arrangement a;
  unsigned seen = 0;
  for (int slot = 0; slot < kCubes; ++slot) {
    const char ch = text[slot];
    if (ch < '1' || ch > '6')
      fail(kWhat, text, slot, "'" + excerpt({&ch, 1}) + "' is not a cube number 1-6");
    const int cube = ch - '1';
    if ((seen >> cube) & 1u) fail(kWhat, text, slot, std::string("cube ") + ch + " appears twice");
    seen |= 1u << cube;
    a.cube_at_slot[slot] = static_cast<uint8_t>(cube);
  }
  return a;
}

std::string board_diagram(const State& s) {
  std::string out;
  for (int row = 0; row < kSize; ++row) {
    out += static_cast<char>('0' + (kSize - row));
    out += " ";
    for (int col = 0; col < kSize; ++col) {
      const int sq = row * kSize + col;
      char ch = '.';
      for (int side = 0; side < 2; ++side)
        if (s.occ[side] & (1u << sq)) ch = cube_char(side, cube_on(s, side, sq));
      out += ' ';
      out += ch;
    }
    out += '\n';
  }
  out += "   a b c d e\n";
  return out;
}

}  // namespace sp::ewn
