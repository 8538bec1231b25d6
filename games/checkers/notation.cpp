#include "games/checkers/notation.hpp"

#include <string>

namespace sp::checkers {
namespace {

[[noreturn]] void fail(std::string_view what, std::string_view text, size_t column,
                       const std::string& message) {
  throw InputError(std::string(what) + " \"" + excerpt(text) + "\": column " +
                   std::to_string(column + 1) + ": " + message);
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Reads a decimal number at text[*i] (at most `digits` digits); -1 when there is none or it is
// longer.
long read_number(std::string_view text, size_t* i, int digits) {
  const size_t start = *i;
  long v = 0;
  while (*i < text.size() && is_digit(text[*i])) {
    if (static_cast<int>(*i - start) == digits) return -1;
    v = v * 10 + (text[*i] - '0');
    ++*i;
  }
  return *i == start ? -1 : v;
}

const char* side_name(int side) { return side == 0 ? "Black" : "White"; }

}  // namespace

std::string square_text(int sq) { return std::to_string(sq + 1); }

MovePath path_of(Move m) {
  MovePath p{};
  uint32_t at = 1u << move_from(m);
  p.squares[p.size++] = move_from(m);
  const int jumps = move_jumps(m);
  if (jumps == 0) {
    p.squares[p.size++] = lsb(shift(at, move_direction(m, 0)));
    return p;
  }
  for (int i = 0; i < jumps; ++i) {
    const int d = move_direction(m, i);
    at = shift(shift(at, d), d);
    p.squares[p.size++] = lsb(at);
  }
  return p;
}

std::string to_string(Move m) {
  const MovePath p = path_of(m);
  const char sep = move_jumps(m) ? 'x' : '-';
  std::string out = square_text(p.squares[0]);
  for (int i = 1; i < p.size; ++i) out += sep + square_text(p.squares[i]);
  return out;
}

MoveText lex_move(std::string_view text) {
  MoveText r;
  const auto problem = [&](size_t column, std::string what) {
    r.ok = false;
    r.column = column;
    r.problem = std::move(what);
    return r;
  };
  if (text.empty()) return problem(0, "empty; a move is written like 11-15 or 22x15");
  size_t i = 0;
  for (;;) {
    const size_t start = i;
    const long v = read_number(text, &i, 2);
    if (v < 0) {
      if (start < text.size() && is_digit(text[start]))
        return problem(start, "square numbers have at most two digits (1-32)");
      return problem(start, "expected a square number 1-32");
    }
    if (v < 1 || v > kSquares)
      return problem(start, "square " + std::to_string(v) + " is not in 1-32");
    if (r.size == kMaxJumps + 1)
      return problem(start, "more than " + std::to_string(kMaxJumps + 1) +
                                " squares (a capture has at most " + std::to_string(kMaxJumps) +
                                " jumps)");
    r.squares[r.size++] = static_cast<int>(v) - 1;
    if (i == text.size()) break;
    if (text[i] != '-' && text[i] != 'x' && text[i] != 'X')
      return problem(i, "expected '-' or 'x' after a square");
    ++i;
  }
  if (r.size < 2) return problem(text.size(), "a move names at least two squares, like 11-15");
  r.ok = true;
  return r;
}

std::vector<Move> matching_moves(const State& s, const MoveText& written) {
  std::vector<Move> fits;
  if (!written.ok || written.size < 2) return fits;
  MoveList list;
  generate_moves(s, list);
  const int n = written.size;
  for (int k = 0; k < list.size; ++k) {
    const MovePath p = path_of(list.moves[k]);
    if (p.squares[0] != written.squares[0] || p.squares[p.size - 1] != written.squares[n - 1])
      continue;
    if (n == p.size) {
      bool same = true;
      for (int i = 0; i < n; ++i) same = same && p.squares[i] == written.squares[i];
      if (same) return {list.moves[k]};  // the full path names one move
    }
    // The inner written squares in order among the inner squares of the path.
    int matched = 0;
    for (int i = 1, q = 1; i < n - 1; ++i) {
      while (q < p.size - 1 && p.squares[q] != written.squares[i]) ++q;
      if (q >= p.size - 1) break;
      ++matched, ++q;
    }
    if (matched == n - 2) fits.push_back(list.moves[k]);
  }
  return fits;
}

std::string legal_moves_text(const State& s) {
  MoveList list;
  generate_moves(s, list);
  std::string out;
  for (int k = 0; k < list.size; ++k) out += (k ? " " : "") + to_string(list.moves[k]);
  return out;
}

Move parse_move(const State& s, std::string_view text) {
  constexpr std::string_view kWhat = "move";
  const MoveText written = lex_move(text);
  if (!written.ok) fail(kWhat, text, written.column, written.problem);
  if (is_over(s)) fail(kWhat, text, 0, "the game is over in " + to_string(s));
  const std::vector<Move> fits = matching_moves(s, written);
  if (fits.empty())
    fail(kWhat, text, 0,
         "not a legal move for " + std::string(side_name(s.side)) + " in " + to_string(s) +
             " (legal: " + legal_moves_text(s) + ")");
  if (fits.size() > 1) {
    std::string options;
    for (const Move m : fits) options += (options.empty() ? "" : ", ") + to_string(m);
    fail(kWhat, text, 0,
         "fits " + std::to_string(fits.size()) + " legal moves (" + options +
             "); write the full path");
  }
  return fits[0];
}

std::string fen(const State& s) {
  std::string out = s.side == 0 ? "B" : "W";
  for (const int side : {1, 0}) {
    out += side == 0 ? ":B" : ":W";
    // Runs of three or more squares of one kind (men or kings) as ranges.
    bool first = true;
    for (uint32_t b = s.pieces[side]; b;) {
      const int sq = lsb(b);
      const bool king = (s.kings >> sq) & 1u;
      const uint32_t kind = s.pieces[side] & (king ? s.kings : ~s.kings);
      int last = sq;
      while (last + 1 < kSquares && ((kind >> (last + 1)) & 1u)) ++last;
      if (last - sq < 2) last = sq;
      out += first ? "" : ",";
      out += (king ? "K" : "") + square_text(sq);
      if (last > sq) out += "-" + square_text(last);
      b &= ~(((2u << last) - 1) & ~((1u << sq) - 1));
      first = false;
    }
  }
  return out;
}

std::string to_string(const State& s) {
  const State fresh = initial_state();
  std::string out = fen(s);
  if (s.ply != 0 || s.max_plies != fresh.max_plies)
    out += " ply=" + std::to_string(s.ply) + "/" + std::to_string(s.max_plies);
  if (s.quiet != 0 || s.quiet_limit != fresh.quiet_limit)
    out += " quiet=" + std::to_string(s.quiet) + "/" + std::to_string(s.quiet_limit);
  return out;
}

State parse_position(std::string_view text) {
  constexpr std::string_view kWhat = "position";
  const auto bad = [&](size_t column, const std::string& message) {
    fail(kWhat, text, column, message);
  };
  // The FEN itself lies in [begin, end): the tag's quotes, or up to the first space.
  constexpr std::string_view kTag = "[FEN \"";
  size_t begin = 0, end = text.find(' ');
  size_t rest = end == std::string_view::npos ? text.size() : end;  // where the counters start
  if (text.substr(0, kTag.size()) == kTag) {
    begin = kTag.size();
    end = text.find('"', begin);
    if (end == std::string_view::npos) bad(text.size(), "the FEN tag has no closing '\"]'");
    if (text.substr(end) != "\"]")
      bad(end, "expected '\"]' to close the FEN tag, and nothing after it");
    rest = text.size();
  } else if (end == std::string_view::npos) {
    end = text.size();
  }
  if (end == begin) bad(begin, "empty; a position is a FEN like B:W21-32:B1-12");

  State s;
  s.pieces[0] = s.pieces[1] = s.kings = 0;
  size_t i = begin;
  if (text[i] != 'B' && text[i] != 'W') bad(i, "expected the side to move, 'B' or 'W'");
  s.side = text[i] == 'B' ? 0 : 1;
  ++i;
  bool seen[2] = {false, false};
  for (int section = 0; section < 2; ++section) {
    if (i >= end || text[i] != ':')
      bad(i, section == 0 ? "expected ':' after the side to move"
                          : "expected ':' and the other side's pieces");
    ++i;
    if (i >= end || (text[i] != 'B' && text[i] != 'W'))
      bad(i, "expected 'W' or 'B' to start a side's pieces");
    const int side = text[i] == 'B' ? 0 : 1;
    if (seen[side]) bad(i, std::string(side_name(side)) + "'s pieces are listed twice");
    seen[side] = true;
    ++i;
    bool first = true;
    while (i < end && text[i] != ':' && !(text[i] == '.' && i + 1 == end)) {
      if (!first) {
        if (text[i] != ',') bad(i, "expected ',' between squares");
        ++i;
      }
      first = false;
      const size_t item = i;
      const bool king = i < end && text[i] == 'K';
      if (king) ++i;
      size_t at = i;
      const long lo = read_number(text.substr(0, end), &i, 2);
      if (lo < 1 || lo > kSquares) bad(at, "expected a square number 1-32");
      long hi = lo;
      if (i < end && text[i] == '-') {
        at = ++i;
        hi = read_number(text.substr(0, end), &i, 2);
        if (hi < 1 || hi > kSquares) bad(at, "expected a square number 1-32 to end the range");
        if (hi < lo) bad(at, "the range ends below its start");
      }
      for (long v = lo; v <= hi; ++v) {
        const uint32_t bit = 1u << (v - 1);
        if (occupied(s) & bit) bad(item, "square " + std::to_string(v) + " is listed twice");
        if (!king && (bit & crown_row(side)))
          bad(item, "a " + std::string(side == 0 ? "black" : "white") + " man on " +
                        std::to_string(v) + " would have crowned (write K" + std::to_string(v) +
                        ")");
        s.pieces[side] |= bit;
        if (king) s.kings |= bit;
        if (count(s.pieces[side]) > kPiecesPerSide)
          bad(item, std::string(side_name(side)) + " has more than 12 pieces");
      }
    }
  }
  if (i < end && text[i] == '.') ++i;
  if (i < end) bad(i, "unexpected text after both sides' pieces");

  // Counters: " ply=P/M" and " quiet=Q/L", each at most once.
  bool seen_ply = false, seen_quiet = false;
  i = rest;
  while (i < text.size()) {
    if (text[i] != ' ') bad(i, "expected a space before ply= or quiet=");
    ++i;
    const std::string_view word = text.substr(i);
    const bool ply = word.substr(0, 4) == "ply=", quiet = word.substr(0, 6) == "quiet=";
    if (!ply && !quiet) bad(i, "expected ply=PLIES/MAX or quiet=PLIES/LIMIT");
    if ((ply && seen_ply) || (quiet && seen_quiet)) bad(i, "given twice");
    (ply ? seen_ply : seen_quiet) = true;
    i += ply ? 4 : 6;
    const long limit_max = ply ? 65535 : 255;
    size_t at = i;
    const long count_value = read_number(text, &i, 5);
    if (count_value < 0 || count_value > limit_max)
      bad(at, "expected a number 0-" + std::to_string(limit_max));
    if (i >= text.size() || text[i] != '/') bad(i, "expected '/' and the limit");
    at = ++i;
    const long limit = read_number(text, &i, 5);
    if (limit < (ply ? 1 : 0) || limit > limit_max)
      bad(at, "expected a limit " + std::string(ply ? "1" : "0") + "-" + std::to_string(limit_max));
    if (ply) {
      if (count_value > limit) bad(at, "more plies played than the limit");
      s.ply = static_cast<uint16_t>(count_value);
      s.max_plies = static_cast<uint16_t>(limit);
    } else {
      if (limit != 0 && count_value > limit) bad(at, "more quiet plies than the limit");
      s.quiet = static_cast<uint8_t>(count_value);
      s.quiet_limit = static_cast<uint8_t>(limit);
    }
  }
  if (!state_ok(s)) bad(0, "not a consistent position");
  return s;
}

}  // namespace sp::checkers
