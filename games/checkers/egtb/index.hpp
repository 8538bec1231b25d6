// The perfect index of checkers endgame positions (egtb/, docs/checkers.md "Endgame databases"):
// every position of one material signature, Black to move, gets a number in 0 .. size - 1, and
// every number stands for exactly one position. White-to-move positions are stored as their colour
// flip (the board turned half round, Black and White swapped), so one table per signature holds
// both sides to move.
//
// The number is a mixed radix over the pieces, men first: Black's men on row 0 (squares 0-3, where
// White's men cannot stand) and White's men on row 7 (28-31, where Black's cannot), then Black's
// men on the 24 middle squares, White's men on the middle squares Black's left free, then Black's
// kings on the squares the men left free and White's kings on the rest. Each set of squares is
// ranked in the combinatorial number system over the squares still free; a table of offsets by
// (Black's men on row 0, White's men on row 7) makes the whole a bijection.
#pragma once

#include <array>
#include <cstdint>

#include "games/checkers/checkers.hpp"

namespace sp::checkers::egtb {

// The pieces of a position with Black to move: kings and men of each side.
struct Material {
  int black_kings = 0, black_men = 0, white_kings = 0, white_men = 0;
  int pieces() const { return black_kings + black_men + white_kings + white_men; }
  int men() const { return black_men + white_men; }
  // The same position with the colours swapped (White's pieces become Black's).
  Material flipped() const { return {white_kings, white_men, black_kings, black_men}; }
  bool operator==(const Material&) const = default;
};

// A position as the index sees it: Black to move.
struct Boards {
  uint32_t black = 0, white = 0, kings = 0;
};

inline constexpr auto kBinomial = [] {
  std::array<std::array<uint64_t, 33>, 33> c{};
  for (int n = 0; n <= 32; ++n) {
    c[n][0] = 1;
    for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
  }
  return c;
}();
inline constexpr uint64_t binomial(int n, int k) {
  return n < 0 || k < 0 || k > n ? 0 : kBinomial[n][k];
}

inline constexpr uint32_t kRow0 = 0x0000000Fu;    // Black's back row: no White man
inline constexpr uint32_t kRow7 = 0xF0000000u;    // White's back row: no Black man
inline constexpr uint32_t kMiddle = 0x0FFFFFF0u;  // rows 1-6

// The board turned half round: square s becomes 31 - s (row r to 7 - r, file f to 7 - f).
inline constexpr uint32_t reverse_bits(uint32_t b) {
  b = ((b >> 1) & 0x55555555u) | ((b & 0x55555555u) << 1);
  b = ((b >> 2) & 0x33333333u) | ((b & 0x33333333u) << 2);
  b = ((b >> 4) & 0x0F0F0F0Fu) | ((b & 0x0F0F0F0Fu) << 4);
  b = ((b >> 8) & 0x00FF00FFu) | ((b & 0x00FF00FFu) << 8);
  return (b >> 16) | (b << 16);
}

// The position of s as Black to move: s itself, or its colour flip when White is to move.
inline Boards canonical(const State& s) {
  if (s.side == 0) return {s.pieces[0], s.pieces[1], s.kings};
  return {reverse_bits(s.pieces[1]), reverse_bits(s.pieces[0]), reverse_bits(s.kings)};
}

inline Material material_of(const Boards& b) {
  return {count(b.black & b.kings), count(b.black & ~b.kings), count(b.white & b.kings),
          count(b.white & ~b.kings)};
}

// A Black-to-move state of the boards, with no draw limits (the databases count no plies).
inline State state_of(const Boards& b) {
  State s;
  s.pieces[0] = b.black;
  s.pieces[1] = b.white;
  s.kings = b.kings;
  s.max_plies = 0xFFFF;
  s.quiet_limit = 0;
  return s;
}

// The rank of the set bits of `set` among the squares of `free` (set a subset of free): each
// square counted by its position among the free squares, the positions ranked in the
// combinatorial number system (sum of C(position_i, i + 1), positions ascending).
inline uint64_t rank_subset(uint32_t set, uint32_t free) {
  uint64_t r = 0;
  int i = 0;
  while (set) {
    const uint32_t bit = set & (0u - set);
    set ^= bit;
    r += binomial(count(free & (bit - 1)), ++i);
  }
  return r;
}

// The inverse: the k squares of `free` whose rank is r (r < C(count(free), k)).
inline uint32_t unrank_subset(uint64_t r, int k, uint32_t free) {
  uint32_t set = 0;
  int top = count(free);
  for (int i = k; i >= 1; --i) {
    int c = top - 1;
    while (binomial(c, i) > r) --c;
    r -= binomial(c, i);
    top = c;
    // The c-th free square (0-based).
    uint32_t f = free;
    for (int j = 0; j < c; ++j) f &= f - 1;
    set |= f & (0u - f);
  }
  return set;
}

// The index of one signature: its size and the offsets of its (row-0 men, row-7 men) blocks.
class SignatureIndex {
 public:
  explicit SignatureIndex(const Material& m) : m_(m) {
    uint64_t at = 0;
    for (int k0 = 0; k0 <= 4; ++k0)
      for (int k7 = 0; k7 <= 4; ++k7) {
        offset_[k0][k7] = at;
        at += block_size(k0, k7);
      }
    size_ = at;
  }
  const Material& material() const { return m_; }
  uint64_t size() const { return size_; }

  // Precondition: material_of(b) == material().
  uint64_t rank(const Boards& b) const {
    const uint32_t black_men = b.black & ~b.kings, white_men = b.white & ~b.kings;
    const int k0 = count(black_men & kRow0), k7 = count(white_men & kRow7);
    const uint32_t black_mid = black_men & kMiddle;
    const uint32_t men = black_men | white_men;
    uint64_t r = rank_subset(black_men & kRow0, kRow0);
    r = r * binomial(4, k7) + rank_subset(white_men & kRow7, kRow7);
    r = r * binomial(24, m_.black_men - k0) + rank_subset(black_mid, kMiddle);
    r = r * binomial(24 - (m_.black_men - k0), m_.white_men - k7) +
        rank_subset(white_men & kMiddle, kMiddle & ~black_mid);
    r = r * binomial(32 - m_.men(), m_.black_kings) + rank_subset(b.black & b.kings, ~men);
    r = r * binomial(32 - m_.men() - m_.black_kings, m_.white_kings) +
        rank_subset(b.white & b.kings, ~(men | (b.black & b.kings)));
    return offset_[k0][k7] + r;
  }

  // Precondition: index < size().
  Boards unrank(uint64_t index) const {
    int k0 = 0, k7 = 0;
    for (int a = 0; a <= 4; ++a)
      for (int c = 0; c <= 4; ++c)
        if (block_size(a, c) != 0 && offset_[a][c] <= index) k0 = a, k7 = c;
    uint64_t r = index - offset_[k0][k7];
    const int mid_black = m_.black_men - k0, mid_white = m_.white_men - k7;
    const uint64_t n_wk = binomial(32 - m_.men() - m_.black_kings, m_.white_kings);
    const uint64_t n_bk = binomial(32 - m_.men(), m_.black_kings);
    const uint64_t n_wmid = binomial(24 - mid_black, mid_white);
    const uint64_t n_bmid = binomial(24, mid_black);
    const uint64_t n_w7 = binomial(4, k7);
    const uint64_t r_wk = r % n_wk;
    r /= n_wk;
    const uint64_t r_bk = r % n_bk;
    r /= n_bk;
    const uint64_t r_wmid = r % n_wmid;
    r /= n_wmid;
    const uint64_t r_bmid = r % n_bmid;
    r /= n_bmid;
    const uint64_t r_w7 = r % n_w7;
    const uint64_t r_b0 = r / n_w7;
    const uint32_t black_mid = unrank_subset(r_bmid, mid_black, kMiddle);
    const uint32_t black_men = unrank_subset(r_b0, k0, kRow0) | black_mid;
    const uint32_t white_men =
        unrank_subset(r_w7, k7, kRow7) | unrank_subset(r_wmid, mid_white, kMiddle & ~black_mid);
    const uint32_t men = black_men | white_men;
    const uint32_t black_kings = unrank_subset(r_bk, m_.black_kings, ~men);
    const uint32_t white_kings = unrank_subset(r_wk, m_.white_kings, ~(men | black_kings));
    return {black_men | black_kings, white_men | white_kings, black_kings | white_kings};
  }

 private:
  uint64_t block_size(int k0, int k7) const {
    if (k0 > m_.black_men || k7 > m_.white_men) return 0;
    const int mid_black = m_.black_men - k0, mid_white = m_.white_men - k7;
    return binomial(4, k0) * binomial(4, k7) * binomial(24, mid_black) *
           binomial(24 - mid_black, mid_white) * binomial(32 - m_.men(), m_.black_kings) *
           binomial(32 - m_.men() - m_.black_kings, m_.white_kings);
  }

  Material m_;
  uint64_t offset_[5][5] = {};
  uint64_t size_ = 0;
};

}  // namespace sp::checkers::egtb
