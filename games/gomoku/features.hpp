// Gomoku evaluation features, from the side to move's view ("own" = side to move): the threat
// patterns of classic Gomoku evaluations, counted on every line. The same vector is written to
// /positions for tuning and scored by the linear evaluations of the engines, so names and order
// are part of the HDF5 format: append new features at the end. Host only.
//
// What a pattern is. A window is five squares in a row on one line that holds no stone of the
// other side (under the standard rule also none of the side's own stones just outside it, where a
// completed row would be six or more: such a window can never become exactly five). The stones of
// the side in a window form its stone set. On each line, every distinct stone set of two or more
// stones that is not part of a larger one of the same line counts once, by its size and by the
// number of windows it lies in:
//   five        five stones (0 in a game that is not over: a five ends it)
//   open_four   four stones in two or more windows: two squares complete a five (_XXXX_)
//   four        four stones in one window: one square completes a five (XXXX_ against the
//               edge or a stone of the other side, XX_XX, X_XXX)
//   open_three  three stones in two or more windows: one move makes an open four (_XXX_ with room,
//               _XX_X_)
//   three       three stones in one window (XXX__ against the edge or the other side, X__XX)
//   two         two stones in a window
//
// The features from own_to_five on are the line patterns of patterns.hpp, counted over the empty
// squares: own_to_x is the number of (empty square, direction) pairs where a stone of the side
// would make an x on that line (to_five: a winning row, so own_to_five > 0 means the side to move
// wins at once), and the squares of each combination of lines: to_double_four (an open four or
// fours on two lines: a win next move), to_four_three, to_double_three. The pattern search
// (pattern_search.hpp) keeps these counts move by move and weighs only them.
//
// After those 32 come the pattern codes (pattern_codes.hpp): own_code_DDDD and opp_code_DDDD count
// the empty squares of the side to move and of the other side whose four lines make code DDDD
// (every code but 0000). They refine the counts above, which are sums of them, so a weights file
// may leave them out (they weigh 0 then): the loop tunes them as a table (docs/gomoku.md).
#pragma once

#include <array>
#include <string_view>

#include "games/gomoku/gomoku.hpp"
#include "games/gomoku/patterns.hpp"

namespace sp::gomoku {

// The features every weights file weighs; then the pattern codes, two per code but 0 (own, opp).
inline constexpr int kRequiredFeatures = 32;
inline constexpr int kCodeFeatures = 2 * (patterns::kCodes - 1);
inline constexpr int kNumFeatures = kRequiredFeatures + kCodeFeatures;
// The first of the pattern features (patterns.hpp), and how many there are.
inline constexpr int kFirstPatternFeature = 12;
inline constexpr int kPatternFeatures = kRequiredFeatures - kFirstPatternFeature;
// The feature of code k (1..kCodes - 1) for the side to move (view 0) or the other side (view 1).
constexpr int code_feature(int k, int view) { return kRequiredFeatures + 2 * (k - 1) + view; }

namespace features_detail {

struct CodeNames {
  char text[kCodeFeatures][14];  // "own_code_6410"
};
constexpr CodeNames make_code_names() {
  CodeNames n{};
  for (int k = 1; k < patterns::kCodes; ++k)
    for (int view = 0; view < 2; ++view) {
      char* out = n.text[2 * (k - 1) + view];
      const char* prefix = view == 0 ? "own_code_" : "opp_code_";
      int i = 0;
      for (; prefix[i]; ++i) out[i] = prefix[i];
      for (int j = 0; j < 4; ++j) out[i + j] = patterns::kCodeTables.name[k][j];
    }
  return n;
}
inline constexpr CodeNames kCodeNames = make_code_names();

}  // namespace features_detail

// Names in vector order.
inline constexpr std::array<std::string_view, kRequiredFeatures> kRequiredFeatureNames = {
    "own_five",
    "opp_five",
    "own_open_four",
    "opp_open_four",
    "own_four",
    "opp_four",
    "own_open_three",
    "opp_open_three",
    "own_three",
    "opp_three",
    "own_two",
    "opp_two",
    "own_to_five",
    "opp_to_five",
    "own_to_open_four",
    "opp_to_open_four",
    "own_to_four",
    "opp_to_four",
    "own_to_open_three",
    "opp_to_open_three",
    "own_to_three",
    "opp_to_three",
    "own_to_open_two",
    "opp_to_open_two",
    "own_to_two",
    "opp_to_two",
    "own_to_double_four",
    "opp_to_double_four",
    "own_to_four_three",
    "opp_to_four_three",
    "own_to_double_three",
    "opp_to_double_three",
};
inline constexpr std::array<std::string_view, kNumFeatures> kFeatureNames = [] {
  std::array<std::string_view, kNumFeatures> names{};
  for (int i = 0; i < kRequiredFeatures; ++i) names[i] = kRequiredFeatureNames[i];
  for (int i = 0; i < kCodeFeatures; ++i)
    names[kRequiredFeatures + i] = features_detail::kCodeNames.text[i];
  return names;
}();

// Windows of five squares on the largest board, over the four directions: a bound on every count
// (each counted stone set has a window of its own).
inline constexpr int kMaxWindows =
    2 * kMaxSize * (kMaxSize - 4) + 2 * (kMaxSize - 4) * (kMaxSize - 4);

inline constexpr std::array<double, kNumFeatures> kFeatureMax = [] {
  std::array<double, kNumFeatures> a{};
  for (int i = 0; i < kNumFeatures; ++i)
    a[i] = i < kFirstPatternFeature        ? kMaxWindows
           : i < kFirstPatternFeature + 14 ? kDirections * kMaxSquares  // line counts
                                           : kMaxSquares;               // squares, codes
  return a;
}();

// The pattern features of the board b from the view of `mover` (the side to move): out[0..
// kPatternFeatures), in the order of kFeatureNames from own_to_five.
inline void pattern_features(const patterns::Board& b, int mover, float* out) {
  using namespace patterns;
  static constexpr Line kLineOrder[] = {kFive,  kOpenFour, kFour, kOpenThree,
                                        kThree, kOpenTwo,  kTwo};
  static constexpr Combo kComboOrder[] = {kComboWinNext, kComboFourThree, kComboDoubleThree};
  int i = 0;
  for (Line l : kLineOrder)
    for (int view = 0; view < 2; ++view)
      out[i++] = static_cast<float>(b.line_count(mover ^ view, l));
  for (Combo k : kComboOrder)
    for (int view = 0; view < 2; ++view)
      out[i++] = static_cast<float>(b.combo_count(mover ^ view, k));
}

namespace features_detail {

enum Pattern { kFive, kOpenFour, kFour, kOpenThree, kThree, kTwo, kPatterns };

// Adds the patterns of one line (len squares; own and other: the two sides' stones as bits
// 0..len - 1) for the side with the stones own.
inline void count_line(uint32_t own, uint32_t other, int len, WinRule rule, int* counts) {
  struct Set {
    uint32_t stones;
    int windows;
  };
  Set sets[kMaxSize];
  int n = 0;
  for (int start = 0; start + 5 <= len; ++start) {
    const uint32_t window = 0x1Fu << start;
    if (other & window) continue;
    if (rule == WinRule::kStandard &&
        ((start > 0 && ((own >> (start - 1)) & 1u)) || ((own >> (start + 5)) & 1u)))
      continue;
    const uint32_t stones = own & window;
    if (count(stones) < 2) continue;
    int i = 0;
    while (i < n && sets[i].stones != stones) ++i;
    if (i == n) sets[n++] = Set{stones, 0};
    ++sets[i].windows;
  }
  for (int i = 0; i < n; ++i) {
    bool part_of_larger = false;
    for (int j = 0; j < n && !part_of_larger; ++j)
      part_of_larger = j != i && (sets[i].stones & sets[j].stones) == sets[i].stones;
    if (part_of_larger) continue;
    const int size = count(sets[i].stones);
    const bool open = sets[i].windows >= 2;
    const Pattern p = size == 5   ? kFive
                      : size == 4 ? (open ? kOpenFour : kFour)
                      : size == 3 ? (open ? kOpenThree : kThree)
                                  : kTwo;
    ++counts[p];
  }
}

// Calls visit(x0, y0, dx, dy, len) for every line of five or more squares of a board of size n.
template <class Visit>
void for_each_line(int n, Visit&& visit) {
  for (int i = 0; i < n; ++i) {
    visit(0, i, 1, 0, n);  // rows
    visit(i, 0, 0, 1, n);  // columns
  }
  for (int c = -(n - 5); c <= n - 5;
       ++c) {  // diagonals x - y = c, anti-diagonals x + y = n - 1 + c
    const int len = n - (c < 0 ? -c : c);
    visit(c > 0 ? c : 0, c < 0 ? -c : 0, 1, 1, len);
    visit(c > 0 ? c : 0, c > 0 ? n - 1 : n - 1 + c, 1, -1, len);
  }
}

}  // namespace features_detail

// The pattern code features of the board b from the view of `mover`: out[0..kCodeFeatures).
inline void code_features(const patterns::Board& b, int mover, float* out) {
  for (int k = 1; k < patterns::kCodes; ++k)
    for (int view = 0; view < 2; ++view)
      out[2 * (k - 1) + view] = static_cast<float>(b.code_count(mover ^ view, k));
}

// Fills out[0..kNumFeatures), or with codes false out[0..kRequiredFeatures).
inline void extract_features(const State& s, float* out, bool codes = true);

// The first kFirstPatternFeature features only (the windows' counts: own_five .. opp_two), for
// evaluations that weigh nothing after them: no pattern board is built.
inline void extract_window_features(const State& s, float* out) {
  using namespace features_detail;
  int counts[2][kPatterns] = {};
  const int mover = s.side;
  for_each_line(s.size, [&](int x, int y, int dx, int dy, int len) {
    uint32_t stones[2] = {0, 0};
    for (int k = 0; k < len; ++k, x += dx, y += dy)
      for (int side = 0; side < 2; ++side)
        stones[side] |= static_cast<uint32_t>(test_square(s.stones[side], y * s.size + x)) << k;
    for (int view = 0; view < 2; ++view) {
      const int side = mover ^ view;
      count_line(stones[side], stones[side ^ 1], len, s.rule, counts[view]);
    }
  });
  for (int p = 0; p < kPatterns; ++p)
    for (int view = 0; view < 2; ++view) out[2 * p + view] = static_cast<float>(counts[view][p]);
}

inline void extract_features(const State& s, float* out, bool codes) {
  extract_window_features(s, out);
  const int mover = s.side;
  const patterns::Board b(s);
  pattern_features(b, mover, out + kFirstPatternFeature);
  if (codes) code_features(b, mover, out + kRequiredFeatures);
}

// The pattern features (kFirstPatternFeature .. kRequiredFeatures) of every child of s, the
// position after moves[k], as extract_features gives them (kPatternFeatures each, child after
// child): one board for all of them, each move played on it and taken back.
inline void child_pattern_features(const State& s, const Move* moves, int n, float* out) {
  patterns::Board b(s);
  for (int k = 0; k < n; ++k) {
    b.play(patterns::Board::cell(moves[k].x, moves[k].y));
    pattern_features(b, b.side_to_move(), out + k * kPatternFeatures);
    b.undo();
  }
}

// The weighed sum of the code features (w: their weights, kCodeFeatures of them) of s, straight
// from the board's code counts.
inline double code_score(const State& s, const double* w) {
  const patterns::Board b(s);
  double v = 0;
  for (int k = 1; k < patterns::kCodes; ++k)
    for (int view = 0; view < 2; ++view)
      if (const double x = w[2 * (k - 1) + view]; x != 0) v += x * b.code_count(s.side ^ view, k);
  return v;
}

}  // namespace sp::gomoku
