#include "games/gomoku/notation.hpp"

#include <string>

namespace sp::gomoku {
namespace {

[[noreturn]] void fail(std::string_view what, std::string_view text, size_t column,
                       const std::string& message) {
  throw InputError(std::string(what) + " \"" + excerpt(text) + "\": column " +
                   std::to_string(column + 1) + ": " + message);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::string letters(int n) { return std::string("a-") + static_cast<char>('a' + n - 1); }
std::string board_name(int n) { return std::to_string(n) + "x" + std::to_string(n); }
const char* side_name(int side) { return side == 0 ? "Black" : "White"; }

// A square as written at text[*i]: a column letter and a row number on a board of size n. On
// success *i is past it; otherwise problem and *column say what and where.
struct Square {
  int x = 0, y = 0;
  bool ok = false;
  size_t column = 0;
  std::string problem;
};

Square read_square(std::string_view text, size_t* i, int n) {
  Square sq;
  const auto problem = [&](size_t column, std::string what) {
    sq.column = column;
    sq.problem = std::move(what);
    return sq;
  };
  const size_t start = *i;
  if (start >= text.size() || !is_letter(text[start]))
    return problem(start, "expected a column letter " + letters(n));
  const char c = static_cast<char>(text[start] | 0x20);  // lower case
  sq.x = c - 'a';
  if (sq.x >= n)
    return problem(start, std::string("column '") + c + "' is not on the " + board_name(n) +
                              " board (" + letters(n) + ")");
  size_t j = start + 1;
  if (j >= text.size() || !is_digit(text[j]))
    return problem(j, "expected a row number 1-" + std::to_string(n) + " after the column");
  if (text[j] == '0') return problem(j, "a row number has no leading zero");
  int row = 0;
  while (j < text.size() && is_digit(text[j]) && row <= kMaxSize)
    row = row * 10 + (text[j++] - '0');
  if (row > n)
    return problem(start + 1, "row " + std::to_string(row) + " is not on the " + board_name(n) +
                                  " board (1-" + std::to_string(n) + ")");
  sq.y = row - 1;
  sq.ok = true;
  *i = j;
  return sq;
}

// Checks that the square read at column can be played in s.
void check_legal(std::string_view what, std::string_view text, size_t column, const State& s, int x,
                 int y) {
  if (is_over(s)) {
    fail(what, text, column,
         s.winner == kNoWinner ? "the game is over (a draw: the board is full)"
                               : std::string("the game is over (") + side_name(s.winner) + " won)");
  }
  const int sq = y * s.size + x;
  for (int side = 0; side < 2; ++side)
    if (test_square(s.stones[side], sq))
      fail(what, text, column,
           square_name(x, y) + " is taken by a " + (side == 0 ? "Black" : "White") + " stone");
}

}  // namespace

std::string square_name(int x, int y) { return static_cast<char>('a' + x) + std::to_string(y + 1); }

std::string to_string(Move m) { return square_name(m.x, m.y); }

Move parse_move(const State& s, std::string_view text) {
  if (text.empty()) fail("move", text, 0, "empty; a move is written like h8");
  size_t i = 0;
  const Square sq = read_square(text, &i, s.size);
  if (!sq.ok) fail("move", text, sq.column, sq.problem);
  if (i != text.size()) fail("move", text, i, "unexpected text after the move");
  check_legal("move", text, 0, s, sq.x, sq.y);
  return Move{static_cast<uint8_t>(sq.x), static_cast<uint8_t>(sq.y)};
}

std::string moves_text(const std::vector<Move>& moves) {
  std::string out;
  for (const Move m : moves) out += to_string(m);
  return out;
}

State play_moves(State s, std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const size_t start = i;
    const Square sq = read_square(text, &i, s.size);
    if (!sq.ok) fail("moves", text, sq.column, sq.problem);
    check_legal("moves", text, start, s, sq.x, sq.y);
    apply(s, Move{static_cast<uint8_t>(sq.x), static_cast<uint8_t>(sq.y)});
  }
  return s;
}

std::string to_string(const State& s) {
  std::string out;
  for (int y = 0; y < s.size; ++y) {
    if (y) out += '/';
    int empty = 0;
    for (int x = 0; x < s.size; ++x) {
      const int sq = y * s.size + x;
      const char stone = test_square(s.stones[0], sq)   ? 'x'
                         : test_square(s.stones[1], sq) ? 'o'
                                                        : 0;
      if (!stone) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      out += stone;
    }
    if (empty) out += std::to_string(empty);
  }
  out += s.side == 0 ? " x" : " o";
  if (s.rule == WinRule::kStandard) out += " standard";
  return out;
}

State parse_position(std::string_view text) {
  const auto bad = [&](size_t column, const std::string& message) {
    fail("position", text, column, message);
  };
  if (text.empty()) bad(0, "empty; a position is rows joined by '/', then the side to move");
  // The rows: their cells as read, the board size from the first row.
  std::vector<std::vector<int8_t>> rows(1);  // -1 empty, 0 Black, 1 White
  size_t i = 0;
  for (; i < text.size() && text[i] != ' '; ++i) {
    const char c = text[i];
    if (c == '/') {
      if (rows.back().empty()) bad(i, "empty row");
      if (rows.size() == 1 && !is_board_size(static_cast<int>(rows[0].size())))
        bad(i, "the first row has " + std::to_string(rows[0].size()) +
                   " squares; boards are 15x15 or 20x20");
      if (rows.back().size() != rows[0].size())
        bad(i, "row " + std::to_string(rows.size()) + " has " + std::to_string(rows.back().size()) +
                   " squares, row 1 has " + std::to_string(rows[0].size()));
      if (rows.size() == kMaxSize) bad(i, "more than " + std::to_string(kMaxSize) + " rows");
      rows.emplace_back();
    } else if (c == 'x' || c == 'o') {
      rows.back().push_back(c == 'x' ? 0 : 1);
    } else if (is_digit(c)) {
      if (c == '0') bad(i, "a run of empty squares is at least 1");
      const size_t start = i;
      int run = 0;
      while (i < text.size() && is_digit(text[i]) && run <= kMaxSize)
        run = run * 10 + (text[i++] - '0');
      --i;
      if (rows.back().size() + run > kMaxSize)
        bad(start, "row " + std::to_string(rows.size()) + " is longer than " +
                       std::to_string(kMaxSize) + " squares");
      rows.back().insert(rows.back().end(), static_cast<size_t>(run), int8_t{-1});
    } else {
      bad(i, std::string("expected 'x', 'o', a number of empty squares or '/', got '") +
                 excerpt(text.substr(i, 1)) + "'");
    }
    if (rows.back().size() > kMaxSize)
      bad(i, "row " + std::to_string(rows.size()) + " is longer than " + std::to_string(kMaxSize) +
                 " squares");
  }
  const int n = static_cast<int>(rows[0].size());
  if (rows.back().size() != rows[0].size())
    bad(i, "row " + std::to_string(rows.size()) + " has " + std::to_string(rows.back().size()) +
               " squares, row 1 has " + std::to_string(rows[0].size()));
  if (!is_board_size(n) || static_cast<int>(rows.size()) != n)
    bad(i, "a board of " + std::to_string(rows.size()) + " rows of " + std::to_string(n) +
               " squares; boards are 15x15 or 20x20");
  if (i >= text.size() || i + 1 >= text.size())
    bad(i, "expected a space and the side to move ('x' or 'o') after the rows");
  State s;
  s.size = static_cast<uint8_t>(n);
  const char side = text[i + 1];
  if (side != 'x' && side != 'o') bad(i + 1, "expected the side to move, 'x' or 'o'");
  s.side = side == 'x' ? 0 : 1;
  i += 2;
  if (i < text.size()) {
    const std::string_view rest = text.substr(i);
    if (rest == " standard")
      s.rule = WinRule::kStandard;
    else if (rest != " freestyle")
      bad(i, "expected nothing more, or \" standard\" (exactly five wins) or \" freestyle\"");
  }
  int stones[2] = {0, 0};
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if (rows[y][x] >= 0) {
        set_square(s.stones[rows[y][x]], y * n + x);
        ++stones[rows[y][x]];
      }
  s.ply = static_cast<uint16_t>(stones[0] + stones[1]);
  const size_t at = text.find(' ') + 1;  // the side to move
  const int mover = s.side, other = mover ^ 1;
  if (stones[mover] > stones[other] || stones[other] > stones[mover] + 1)
    bad(at, std::string("Black has ") + std::to_string(stones[0]) + " stones and White " +
                std::to_string(stones[1]) + ", so " + side_name(mover) +
                " cannot be to move (the side to move has as many stones as the other or one "
                "fewer)");
  if (has_five(s.stones[mover], n, s.rule))
    bad(at, std::string(side_name(mover)) + " is to move but already has five in a row");
  if (has_five(s.stones[other], n, s.rule)) s.winner = static_cast<uint8_t>(other);
  return s;
}

}  // namespace sp::gomoku
