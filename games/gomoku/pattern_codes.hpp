// Pattern codes of Gomoku squares, as strong classical Gomoku engines weigh them: the four line
// classes (patterns.hpp) of an empty square for one side, as a multiset (the order of the
// directions does not matter), read from a table by the four classes. With 8 classes there are
// 330 codes; code 0 is four lines of nothing (also every occupied square). A code is named by its
// classes as digits, strongest first: 0 none, 1 two, 2 open two, 3 three, 4 open three, 5 four,
// 6 open four, 7 five. "6410" is an open four, an open three and a two on three of the square's
// lines. The evaluation weighs, per code, the squares of the side to move (own_code_DDDD) and of
// the other side (opp_code_DDDD) (features.hpp). Host only.
#pragma once

#include <array>
#include <cstdint>

namespace sp::gomoku::patterns {

inline constexpr int kLineClasses = 8;  // patterns::kLines
inline constexpr int kCodes = 330;      // multisets of 4 of 8 classes: C(11, 4)

struct CodeTables {
  uint16_t of[kLineClasses * kLineClasses * kLineClasses * kLineClasses];  // by 4 classes
  uint8_t lines[kCodes][4];  // the classes of each code, strongest first
  char name[kCodes][5];      // "6410"
};

constexpr CodeTables make_code_tables() {
  CodeTables t{};
  int code = 0;
  // Codes in the order of their classes read as ascending 4-digit numbers, d0 >= d1 >= d2 >= d3.
  for (int a = 0; a < kLineClasses; ++a)
    for (int b = 0; b <= a; ++b)
      for (int c = 0; c <= b; ++c)
        for (int d = 0; d <= c; ++d) {
          const int l[4] = {a, b, c, d};
          for (int i = 0; i < 4; ++i) {
            t.lines[code][i] = static_cast<uint8_t>(l[i]);
            t.name[code][i] = static_cast<char>('0' + l[i]);
          }
          t.name[code][4] = 0;
          ++code;
        }
  // Every ordering of the four classes maps to its code: sorted, strongest first, (a, b, c, d) is
  // code C(a + 3, 4) + C(b + 2, 3) + C(c + 1, 2) + d in the order above (a closed form, so that
  // building the table costs every file that includes this header nothing).
  const auto choose = [](int n, int k) {
    long r = 1;
    for (int i = 0; i < k; ++i) r = r * (n - i) / (i + 1);
    return n < k ? 0 : static_cast<int>(r);
  };
  for (int i = 0; i < kLineClasses * kLineClasses * kLineClasses * kLineClasses; ++i) {
    int l[4] = {i >> 9 & 7, i >> 6 & 7, i >> 3 & 7, i & 7};
    for (int x = 0; x < 4; ++x)  // descending
      for (int y = x + 1; y < 4; ++y)
        if (l[y] > l[x]) {
          const int s = l[x];
          l[x] = l[y];
          l[y] = s;
        }
    t.of[i] = static_cast<uint16_t>(choose(l[0] + 3, 4) + choose(l[1] + 2, 3) +
                                    choose(l[2] + 1, 2) + l[3]);
  }
  return t;
}

inline constexpr CodeTables kCodeTables = make_code_tables();

// The code of four line classes (any order).
constexpr int code_of(int l0, int l1, int l2, int l3) {
  return kCodeTables.of[((l0 * kLineClasses + l1) * kLineClasses + l2) * kLineClasses + l3];
}

static_assert(code_of(0, 0, 0, 0) == 0 && code_of(7, 7, 7, 7) == kCodes - 1);
static_assert(code_of(1, 4, 0, 6) == code_of(6, 4, 1, 0));

}  // namespace sp::gomoku::patterns
