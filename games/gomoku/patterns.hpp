// Line patterns of Gomoku, kept up to date move by move, as strong Gomoku engines keep them: for
// every empty square, direction and side, what a stone of that side placed there would make on
// that line (a five, an open four, a four, an open three, ...), read from a table by the line's
// contents around the square, and for every square what the four lines make together (a four and
// an open three at once, two open threes). A move changes the lines of at most 40 squares, so
// it updates those and nothing else: no rescans. The pattern search (pattern_search.hpp) reads
// threats, its move generation and its evaluation from here; the evaluation features of
// features.hpp (own_to_* and opp_to_*) are the counts kept here. Host only.
//
// What the line classes mean. Take the line through an empty square q in one direction, up to
// five squares either way (the squares beyond cannot share a row of five with q; the fifth one
// tells an overline under the standard rule). Place a stone of the side on q. Then:
//   five       q stands in a winning row (five or more; under the standard rule exactly five)
//   open_four  two or more empty squares of the line would each complete a winning row through q
//              (_XXXX_, and X_XXX_X: one stone cannot stop both)
//   four       exactly one such square (XXXX against the edge or the other side, XX_XX, X_XXX)
//   open_three one more stone on the line makes an open four through q
//   three      one more stone makes a four through q, none an open four
//   open_two   one more stone makes an open three
//   two        one more stone makes a three
// Every row counted goes through q, so a line's class says what q adds, and an occupied square
// has none. Squares combine their four lines: four_three (a four and an open three, or two
// fours, on different lines) and double_three (two open threes, no four).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/pattern_codes.hpp"
#include "games/gomoku/zobrist.hpp"

namespace sp::gomoku::patterns {

enum Line : uint8_t { kNone, kTwo, kOpenTwo, kThree, kOpenThree, kFour, kOpenFour, kFive, kLines };
static_assert(kLines == kLineClasses);

// What a square makes over its four lines, for one side, strongest first where it matters for
// threats: kWinNext is an open four or two fours (it wins next move unless the opponent makes
// five first), kFourThree a four and an open three.
enum Combo : uint8_t {
  kComboNone,
  kComboTwo,          // a two or an open two on some line, nothing more
  kComboThree,        // a three
  kComboOpenThree,    // one open three (and no four)
  kComboDoubleThree,  // two or more open threes, no four
  kComboFour,         // one four, no open three
  kComboFourThree,    // a four and an open three on another line
  kComboWinNext,      // an open four, or fours on two lines
  kComboFive,         // a winning row
  kCombos
};

// ---- The line table

// A square's line in one direction, from one side's view: two bits per square at offsets
// -5..-1 and 1..5 (fields 0..9; the square itself is not in the key): 0 empty, 1 the side's
// stone, 2 blocked (the other side's stone or off the board).
inline constexpr int kReach = 5;
inline constexpr uint32_t kEmptyCell = 0, kOwnCell = 1, kBlockedCell = 2;
inline constexpr int kKeyBits = 4 * kReach;
constexpr int field_of(int offset) { return offset < 0 ? offset + kReach : offset + kReach - 1; }

class LineTable {
 public:
  explicit LineTable(WinRule rule) : rule_(rule), table_(new uint8_t[size_t{1} << kKeyBits]) {
    std::memset(table_.get(), kUnknown, size_t{1} << kKeyBits);
    // Every key of cells in {empty, own, blocked}: 3^10 of them.
    for (uint32_t i = 0; i < 59049; ++i) {
      uint32_t key = 0, rest = i;
      for (int f = 0; f < 2 * kReach; ++f, rest /= 3) key |= (rest % 3) << (2 * f);
      classify(key);
    }
  }
  Line operator[](uint32_t key) const { return static_cast<Line>(table_[key]); }

 private:
  static constexpr uint8_t kUnknown = 0xFF;
  static uint32_t cell(uint32_t key, int offset) { return (key >> (2 * field_of(offset))) & 3u; }
  static uint32_t with_own(uint32_t key, int offset) {
    return key | (kOwnCell << (2 * field_of(offset)));
  }

  // Whether the stone on the square stands in a winning row of the line.
  bool five(uint32_t key) const {
    int len = 1;
    for (int k = -1; k >= -kReach && cell(key, k) == kOwnCell; --k) ++len;
    for (int k = 1; k <= kReach && cell(key, k) == kOwnCell; ++k) ++len;
    return rule_ == WinRule::kStandard ? len == 5 : len >= 5;
  }

  Line classify(uint32_t key) {
    uint8_t& slot = table_[key];
    if (slot != kUnknown) return static_cast<Line>(slot);
    Line line = kNone;
    if (five(key)) {
      line = kFive;
    } else {
      int wins = 0;
      for (int k = -4; k <= 4; ++k)
        if (k != 0 && cell(key, k) == kEmptyCell && five(with_own(key, k))) ++wins;
      if (wins >= 2) {
        line = kOpenFour;
      } else if (wins == 1) {
        line = kFour;
      } else {
        Line best = kNone;
        for (int k = -4; k <= 4; ++k)
          if (k != 0 && cell(key, k) == kEmptyCell)
            best = std::max(best, classify(with_own(key, k)));
        line = best == kOpenFour    ? kOpenThree
               : best == kFour      ? kThree
               : best == kOpenThree ? kOpenTwo
               : best == kThree     ? kTwo
                                    : kNone;
      }
    }
    slot = line;
    return line;
  }

  WinRule rule_;
  std::unique_ptr<uint8_t[]> table_;
};

// The table of a win rule, built once (about 60,000 lines, a few ms) and shared.
inline const LineTable& line_table(WinRule rule) {
  static const LineTable freestyle(WinRule::kFreestyle);
  static const LineTable standard(WinRule::kStandard);
  return rule == WinRule::kStandard ? standard : freestyle;
}

constexpr Combo combine(const Line (&lines)[kDirections]) {
  int fives = 0, open_fours = 0, fours = 0, open_threes = 0, threes = 0, twos = 0;
  for (Line l : lines) {
    fives += l == kFive;
    open_fours += l == kOpenFour;
    fours += l == kFour;
    open_threes += l == kOpenThree;
    threes += l == kThree;
    twos += l == kTwo || l == kOpenTwo;
  }
  if (fives) return kComboFive;
  if (open_fours || fours >= 2) return kComboWinNext;
  if (fours) return open_threes ? kComboFourThree : kComboFour;
  if (open_threes >= 2) return kComboDoubleThree;
  if (open_threes) return kComboOpenThree;
  if (threes) return kComboThree;
  return twos ? kComboTwo : kComboNone;
}

// The combination of each pattern code's lines.
inline constexpr std::array<uint8_t, kCodes> kComboOfCode = [] {
  std::array<uint8_t, kCodes> t{};
  for (int k = 0; k < kCodes; ++k) {
    const uint8_t* l = kCodeTables.lines[k];
    const Line lines[kDirections] = {static_cast<Line>(l[0]), static_cast<Line>(l[1]),
                                     static_cast<Line>(l[2]), static_cast<Line>(l[3])};
    t[k] = combine(lines);
  }
  return t;
}();

// ---- The board

// Squares in a padded array: kReach squares of wall around the largest board, so that every
// offset up to kReach from a square of the board stays in the array.
inline constexpr int kStride = kMaxSize + 2 * kReach;
inline constexpr int kCells = kStride * kStride;
inline constexpr int kCellWords = (kCells + 63) / 64;

// A set of cells (padded indices).
struct CellSet {
  uint64_t w[kCellWords] = {};
  void set(int c) { w[c >> 6] |= uint64_t{1} << (c & 63); }
  void reset(int c) { w[c >> 6] &= ~(uint64_t{1} << (c & 63)); }
  bool test(int c) const { return (w[c >> 6] >> (c & 63)) & 1u; }
  bool any() const {
    for (uint64_t x : w)
      if (x) return true;
    return false;
  }
  int count() const {
    int n = 0;
    for (uint64_t x : w) n += count64(x);
    return n;
  }
  // The lowest cell, -1 if none.
  int first() const {
    for (int i = 0; i < kCellWords; ++i)
      if (w[i]) return 64 * i + lsb64(w[i]);
    return -1;
  }
  template <class F>
  void for_each(F&& f) const {
    for (int i = 0; i < kCellWords; ++i)
      for (uint64_t x = w[i]; x; x &= x - 1) f(64 * i + lsb64(x));
  }
};

// What a search and the features read: per side, the cells where a stone would make each level
// of threat. threat sets: kFiveSet (a winning row), kWinNextSet (an open four or two fours),
// kFourSet (a four or better on some line), kOpenThreeSet (an open three on some line, or better).
enum ThreatSet { kFiveSet, kWinNextSet, kFourSet, kOpenThreeSet, kThreatSets };

class Board {
 public:
  static constexpr uint8_t kEmpty = 0, kWall = 3;  // cells: 1 Black, 2 White

  Board() = default;
  explicit Board(const State& s) { set(s); }

  // The position of s (stones placed in any order: patterns do not depend on it).
  // Keeps the code weights (set_code_weights). The empty board of the rules is copied from one
  // built once (reset() refreshes every square, most of the cost of a board otherwise).
  void set(const State& s) {
    const int32_t* own = code_weight_[0];
    const int32_t* opp = code_weight_[1];
    if (is_board_size(s.size))
      *this = empty_board(Rules{s.size, s.rule});
    else
      reset(Rules{s.size, s.rule});
    for (int y = 0; y < n_; ++y)
      for (int x = 0; x < n_; ++x) {
        const int sq = y * n_ + x;
        for (int side = 0; side < 2; ++side)
          if (test_square(s.stones[side], sq)) place_stone(cell(x, y), side);
      }
    side_ = s.side;
    plies_ = 0;
    stones_ = s.ply;
    hash_ = zobrist_key(s);
    if (own && opp) set_code_weights(own, opp);
  }

  int size() const { return n_; }
  WinRule rule() const { return rule_; }
  int side_to_move() const { return side_; }
  int stones() const { return stones_; }
  bool full() const { return stones_ == n_ * n_; }
  uint64_t hash() const { return hash_; }
  static int cell(int x, int y) { return (y + kReach) * kStride + x + kReach; }
  static int x_of(int c) { return c % kStride - kReach; }
  static int y_of(int c) { return c / kStride - kReach; }
  static Move move_of(int c) {
    return Move{static_cast<uint8_t>(x_of(c)), static_cast<uint8_t>(y_of(c))};
  }
  uint8_t at(int c) const { return cells_[c]; }
  bool empty(int c) const { return cells_[c] == kEmpty; }
  Line line(int side, int d, int c) const { return static_cast<Line>(line_[side][d][c]); }
  Combo combo(int side, int c) const { return static_cast<Combo>(combo_[side][c]); }
  // The pattern code of c for side (pattern_codes.hpp; 0 for an occupied square).
  int code(int side, int c) const { return code_[side][c]; }
  // (empty square, direction) pairs of each line class, and squares of each combination and code.
  int line_count(int side, Line l) const { return line_count_[side][l]; }
  int combo_count(int side, Combo k) const { return combo_count_[side][k]; }
  int code_count(int side, int k) const { return code_count_[side][k]; }

  // Weights per code for the squares of the side to move (own) and of the other side (opp),
  // kCodes each (code 0 must weigh 0), kept by the caller while the board uses them; both
  // nullptr: none. The board then keeps code_score() up to date move by move.
  void set_code_weights(const int32_t* own, const int32_t* opp) {
    code_weight_[0] = own;
    code_weight_[1] = opp;
    weighed_ = own && opp;
    for (int side = 0; side < 2; ++side)
      for (int role = 0; role < 2; ++role) {
        code_sum_[side][role] = 0;
        if (weighed_)
          for (int k = 1; k < kCodes; ++k)
            code_sum_[side][role] += int64_t{code_weight_[role][k]} * code_count_[side][k];
      }
  }
  // Sum over the squares of the code weights, for the side to move: its squares by the own
  // weights, the other side's by the opp weights. 0 without weights.
  int64_t code_score() const { return code_sum_[side_][0] + code_sum_[side_ ^ 1][1]; }
  const CellSet& threats(int side, ThreatSet t) const { return threats_[side][t]; }
  // Empty cells within two squares of a stone.
  const CellSet& near() const { return near_set_; }

  // The side to move places a stone on the empty cell c; the turn passes. Returns whether it
  // made a winning row.
  bool play(int c) {
    const int side = side_;
    const bool wins = line_[side][0][c] == kFive || line_[side][1][c] == kFive ||
                      line_[side][2][c] == kFive || line_[side][3][c] == kFive;
    place_stone(c, side);
    hash_ ^= stone_key(side, c) ^ kZobristKeys.white_to_move;
    side_ ^= 1;
    ++stones_;
    history_[plies_++] = static_cast<int16_t>(c);
    return wins;
  }
  // Takes back the last play().
  void undo() {
    const int c = history_[--plies_];
    side_ ^= 1;
    --stones_;
    hash_ ^= stone_key(side_, c) ^ kZobristKeys.white_to_move;
    remove_stone(c);
  }
  // The turn passes without a stone (a null move, for the threat searches); a second pass() takes
  // it back. Leaves the move history alone.
  void pass() {
    side_ ^= 1;
    hash_ ^= kZobristKeys.white_to_move;
  }
  // Cells played since set(), oldest first.
  int plies() const { return plies_; }
  int played(int i) const { return history_[i]; }

 private:
  static constexpr int kStep[kDirections] = {1, kStride, kStride + 1, 1 - kStride};

  // The empty board of rules, built once per board size and win rule.
  static const Board& empty_board(const Rules& rules) {
    static const auto make = [](uint8_t size, WinRule rule) {
      auto b = std::make_unique<Board>();
      b->reset(Rules{size, rule});
      return b;
    };
    static const std::unique_ptr<Board> boards[2][2] = {
        {make(15, WinRule::kFreestyle), make(15, WinRule::kStandard)},
        {make(20, WinRule::kFreestyle), make(20, WinRule::kStandard)}};
    return *boards[rules.size == 20 ? 1 : 0][rules.rule == WinRule::kStandard ? 1 : 0];
  }

  uint64_t stone_key(int side, int c) const {
    return kZobristKeys.stone[side][y_of(c) * n_ + x_of(c)];
  }

  void reset(const Rules& rules) {
    n_ = rules.size;
    rule_ = rules.rule;
    table_ = &line_table(rule_);
    std::memset(cells_, kWall, sizeof(cells_));
    std::memset(line_, 0, sizeof(line_));
    std::memset(combo_, 0, sizeof(combo_));
    std::memset(line_count_, 0, sizeof(line_count_));
    std::memset(combo_count_, 0, sizeof(combo_count_));
    std::memset(code_, 0, sizeof(code_));
    std::memset(code_count_, 0, sizeof(code_count_));
    std::memset(code_sum_, 0, sizeof(code_sum_));  // every square starts at code 0, which weighs 0
    std::memset(near_, 0, sizeof(near_));
    near_set_ = CellSet{};
    for (auto& side : threats_)
      for (CellSet& t : side) t = CellSet{};
    for (int side = 0; side < 2; ++side) {  // every square starts as kNone, then is refreshed
      line_count_[side][kNone] = static_cast<int16_t>(kDirections * n_ * n_);
      combo_count_[side][kComboNone] = static_cast<int16_t>(n_ * n_);
      code_count_[side][0] = static_cast<int16_t>(n_ * n_);
    }
    for (int y = 0; y < n_; ++y)
      for (int x = 0; x < n_; ++x) cells_[cell(x, y)] = kEmpty;
    for (int y = 0; y < n_; ++y)
      for (int x = 0; x < n_; ++x) {
        const int c = cell(x, y);
        for (int d = 0; d < kDirections; ++d) {
          uint32_t key = 0;
          for (int k = -kReach; k <= kReach; ++k)
            if (k != 0 && cells_[c + k * kStep[d]] == kWall)
              key |= kBlockedCell << (2 * field_of(k));
          key_[0][d][c] = key_[1][d][c] = key;
        }
        refresh(c);
      }
  }

  // Recomputes the lines of the empty cell c in direction d (every direction: d = -1) from its
  // keys, and its combination, keeping the counts and threat sets.
  void refresh(int c, int d = -1) {
    for (int side = 0; side < 2; ++side) {
      for (int dd = d < 0 ? 0 : d; dd < (d < 0 ? kDirections : d + 1); ++dd) {
        const uint8_t now = (*table_)[key_[side][dd][c]];
        uint8_t& old = line_[side][dd][c];
        if (old != now) {
          --line_count_[side][old];
          ++line_count_[side][now];
          old = now;
        }
      }
      const int code =
          code_of(line_[side][0][c], line_[side][1][c], line_[side][2][c], line_[side][3][c]);
      set_combo(side, c, static_cast<Combo>(kComboOfCode[code]));
      set_code(side, c, code);
    }
  }

  void set_code(int side, int c, int k) {
    uint16_t& old = code_[side][c];
    if (old == k) return;
    --code_count_[side][old];
    ++code_count_[side][k];
    if (weighed_)
      for (int role = 0; role < 2; ++role)
        code_sum_[side][role] += code_weight_[role][k] - code_weight_[role][old];
    old = static_cast<uint16_t>(k);
  }

  void set_combo(int side, int c, Combo k) {
    uint8_t& old = combo_[side][c];
    if (old == k) return;
    --combo_count_[side][old];
    ++combo_count_[side][k];
    old = k;
    CellSet* t = threats_[side];
    const bool in[kThreatSets] = {
        k == kComboFive, k >= kComboWinNext, k >= kComboFour,
        k == kComboOpenThree || k == kComboDoubleThree || k >= kComboFourThree};
    for (int i = 0; i < kThreatSets; ++i) in[i] ? t[i].set(c) : t[i].reset(c);
  }

  // Clears an occupied cell's lines from the counts (it makes nothing while occupied).
  void clear_lines(int c) {
    for (int side = 0; side < 2; ++side) {
      for (int d = 0; d < kDirections; ++d) {
        uint8_t& old = line_[side][d][c];
        --line_count_[side][old];
        ++line_count_[side][kNone];
        old = kNone;
      }
      set_combo(side, c, kComboNone);
      set_code(side, c, 0);
    }
  }

  // Refreshes every empty square whose lines pass through c, in the direction they share.
  void refresh_lines_through(int c) {
    for (int d = 0; d < kDirections; ++d)
      for (int k = -kReach; k <= kReach; ++k)
        if (k != 0 && cells_[c - k * kStep[d]] == kEmpty) refresh(c - k * kStep[d], d);
  }

  void place_stone(int c, int side) {
    cells_[c] = static_cast<uint8_t>(side + 1);
    clear_lines(c);
    near_set_.reset(c);
    for (int d = 0; d < kDirections; ++d)
      for (int k = -kReach; k <= kReach; ++k) {
        if (k == 0) continue;
        const int t = c - k * kStep[d];  // c lies at offset k from t
        const int shift = 2 * field_of(k);
        key_[side][d][t] |= kOwnCell << shift;
        key_[side ^ 1][d][t] |= kBlockedCell << shift;
      }
    refresh_lines_through(c);
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx) {
        const int t = c + dy * kStride + dx;
        if (++near_[t] == 1 && cells_[t] == kEmpty) near_set_.set(t);
      }
  }

  void remove_stone(int c) {
    const int side = cells_[c] - 1;
    cells_[c] = kEmpty;
    for (int d = 0; d < kDirections; ++d)
      for (int k = -kReach; k <= kReach; ++k) {
        if (k == 0) continue;
        const int t = c - k * kStep[d];
        const uint32_t mask = ~(3u << (2 * field_of(k)));
        key_[side][d][t] &= mask;
        key_[side ^ 1][d][t] &= mask;
      }
    refresh(c);
    refresh_lines_through(c);
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx) {
        const int t = c + dy * kStride + dx;
        if (--near_[t] == 0) near_set_.reset(t);
      }
    if (near_[c] > 0) near_set_.set(c);
  }

  int n_ = 15;
  WinRule rule_ = WinRule::kFreestyle;
  const LineTable* table_ = nullptr;
  int side_ = 0, stones_ = 0, plies_ = 0;
  uint64_t hash_ = 0;
  uint8_t cells_[kCells];
  uint32_t key_[2][kDirections][kCells];
  uint8_t line_[2][kDirections][kCells];
  uint8_t combo_[2][kCells];
  int16_t line_count_[2][kLines];
  int16_t combo_count_[2][kCombos];
  uint16_t code_[2][kCells];
  int16_t code_count_[2][kCodes];
  const int32_t* code_weight_[2] = {nullptr, nullptr};  // own, opp
  bool weighed_ = false;                                // both set
  int64_t code_sum_[2][2] = {};                         // by side, role (own, opp)
  uint8_t near_[kCells];
  CellSet near_set_;
  CellSet threats_[2][kThreatSets];
  int16_t history_[kMaxSquares];
};

}  // namespace sp::gomoku::patterns
