// Checkers evaluation tables: the features after the hand-picked ones (features.hpp), one per entry
// of a table the research loop tunes (docs/checkers.md "Evaluation tables"). Every entry is a
// balance from the side to move's view: its own value minus the opponent's value of the same
// entry, squares counted from each side's own back row (Black's square s is White's 33 - s), so a
// single weight per entry gives an evaluation that is antisymmetric by construction. The tables:
//   man_open_NN, man_end_NN     a man on square NN (1-28, counted as Black sees the board), times
//                               the phase: open = pieces on the board / 24, end = 1 - open
//   king_open_NN, king_end_NN   a king on square NN (1-32), the same way
//   back_open_P, back_end_P     the men on the own back row (squares 1-4) are exactly P ("none",
//                               "13" = the bridge, "1234" = all four), times the phase
//   runaway_D                   men with nothing in their forward cone, D rows (1-7) from crowning
//   tempo_men_A_B               the tempo (rows advanced, summed over the men) when A-B men are on
//                               the board
//   lead_L_pieces_A_B           ahead by L pieces (3: three or more) with A-B pieces on the board
//   kings_end_K                 K more kings (4: four or more) than the opponent, times end
// Weights of 0 leave the hand evaluation as it was, so weights files may leave table entries out
// (kRequiredFeatures). Host only.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "games/checkers/checkers.hpp"

namespace sp::checkers::tables {

inline constexpr int kManSquares = 28;  // a man never stands on its own crown row
inline constexpr int kBackPatterns = 16;
inline constexpr int kRunawayRows = 7;
inline constexpr int kBuckets = 6;  // 1-4, 5-8, ..., 21-24 men or pieces on the board
inline constexpr int kLeads = 3;
inline constexpr int kKingLeads = 4;

// Offsets of the tables within the table block.
inline constexpr int kManOpen = 0;
inline constexpr int kManEnd = kManOpen + kManSquares;
inline constexpr int kKingOpen = kManEnd + kManSquares;
inline constexpr int kKingEnd = kKingOpen + kSquares;
inline constexpr int kBackOpen = kKingEnd + kSquares;
inline constexpr int kBackEnd = kBackOpen + kBackPatterns;
inline constexpr int kRunaway = kBackEnd + kBackPatterns;
inline constexpr int kTempo = kRunaway + kRunawayRows;
inline constexpr int kLead = kTempo + kBuckets;
inline constexpr int kKingsEnd = kLead + kLeads * kBuckets;
inline constexpr int kCount = kKingsEnd + kKingLeads;  // 187

// The names of the entries, in order.
struct Names {
  static constexpr int kLength = 24;
  char text[kCount][kLength] = {};
};
constexpr void put(char* out, std::string_view prefix, int a, int b = -1) {
  int n = 0;
  for (const char c : prefix) out[n++] = c;
  const auto two = [&](int v) {
    out[n++] = static_cast<char>('0' + v / 10);
    out[n++] = static_cast<char>('0' + v % 10);
  };
  if (a >= 0) two(a);
  if (b >= 0) {
    out[n++] = '_';
    two(b);
  }
}
constexpr Names make_names() {
  Names names;
  for (int i = 0; i < kManSquares; ++i) {
    put(names.text[kManOpen + i], "man_open_", i + 1);
    put(names.text[kManEnd + i], "man_end_", i + 1);
  }
  for (int i = 0; i < kSquares; ++i) {
    put(names.text[kKingOpen + i], "king_open_", i + 1);
    put(names.text[kKingEnd + i], "king_end_", i + 1);
  }
  for (int p = 0; p < kBackPatterns; ++p)
    for (const int phase : {0, 1}) {
      char* out = names.text[(phase == 0 ? kBackOpen : kBackEnd) + p];
      int n = 0;
      for (const char c :
           phase == 0 ? std::string_view("back_open_") : std::string_view("back_end_"))
        out[n++] = c;
      if (p == 0)
        for (const char c : std::string_view("none")) out[n++] = c;
      for (int b = 0; b < 4; ++b)
        if (p >> b & 1) out[n++] = static_cast<char>('1' + b);
    }
  for (int d = 0; d < kRunawayRows; ++d) {
    char* out = names.text[kRunaway + d];
    put(out, "runaway_", -1);
    int n = 8;
    out[n] = static_cast<char>('1' + d);
  }
  for (int b = 0; b < kBuckets; ++b) {
    put(names.text[kTempo + b], "tempo_men_", 4 * b + 1, 4 * b + 4);
    for (int l = 0; l < kLeads; ++l) {
      char* out = names.text[kLead + l * kBuckets + b];
      const std::string_view prefix = "lead_";
      int n = 0;
      for (const char c : prefix) out[n++] = c;
      out[n++] = static_cast<char>('1' + l);
      put(out + n, "_pieces_", 4 * b + 1, 4 * b + 4);
    }
  }
  for (int k = 0; k < kKingLeads; ++k) {
    put(names.text[kKingsEnd + k], "kings_end_", -1);
    names.text[kKingsEnd + k][10] = static_cast<char>('1' + k);
  }
  return names;
}
inline constexpr Names kNames = make_names();

// The largest |value| of each entry.
constexpr double max_of(int i) {
  if (i >= kRunaway && i < kRunaway + kRunawayRows) return kPiecesPerSide;
  if (i >= kTempo && i < kTempo + kBuckets) return 72;  // 12 men 6 rows ahead
  return 1;
}

// Square sq as side sees it (Black's numbering: its back row is 0-3).
constexpr int relative(int side, int sq) { return side == 0 ? sq : kSquares - 1 - sq; }
// Rows a man of side on sq still has to go to crown.
constexpr int rows_to_crown(int side, int sq) { return side == 0 ? 7 - row_of(sq) : row_of(sq); }
constexpr int bucket(int n) {
  return n <= 0 ? 0 : (n - 1) / 4 < kBuckets ? (n - 1) / 4 : kBuckets - 1;
}

// Adds the table entries of the position to out[0..kCount), which the caller zeroed. occupied,
// runaway and tempo come from the hand features' pass (features.hpp): runaways[side] = the men of
// side with an empty forward cone, tempo[side] = its rows advanced.
inline void add_table_features(const State& s, const uint32_t runaways[2], const int tempo[2],
                               float* out) {
  const int own = s.side;
  const int pieces[2] = {count(s.pieces[0]), count(s.pieces[1])};
  const int total = pieces[0] + pieces[1];
  const float open = static_cast<float>(total) / (2 * kPiecesPerSide), end = 1 - open;
  int men_total = 0, kings[2] = {0, 0};
  for (int side = 0; side < 2; ++side) {
    const float sign = side == own ? 1.0f : -1.0f;
    const uint32_t men = s.pieces[side] & ~s.kings, kings_of = s.pieces[side] & s.kings;
    men_total += count(men);
    kings[side] = count(kings_of);
    for (uint32_t m = men; m;) {
      const int r = relative(side, pop_lsb(m));
      out[kManOpen + r] += sign * open;
      out[kManEnd + r] += sign * end;
    }
    for (uint32_t k = kings_of; k;) {
      const int r = relative(side, pop_lsb(k));
      out[kKingOpen + r] += sign * open;
      out[kKingEnd + r] += sign * end;
    }
    const uint32_t back = men & back_row(side);
    const int pattern = side == 0 ? static_cast<int>(back & 0xF)
                                  : static_cast<int>(((back >> 31) & 1) | ((back >> 29) & 2) |
                                                     ((back >> 27) & 4) | ((back >> 25) & 8));
    out[kBackOpen + pattern] += sign * open;
    out[kBackEnd + pattern] += sign * end;
    for (uint32_t m = runaways[side]; m;)
      out[kRunaway + rows_to_crown(side, pop_lsb(m)) - 1] += sign;
  }
  out[kTempo + bucket(men_total)] = static_cast<float>(tempo[own] - tempo[own ^ 1]);
  const int lead = pieces[own] - pieces[own ^ 1];
  if (lead != 0) {
    const int l = (lead > 0 ? lead : -lead) < kLeads ? (lead > 0 ? lead : -lead) : kLeads;
    out[kLead + (l - 1) * kBuckets + bucket(total)] = lead > 0 ? 1.0f : -1.0f;
  }
  const int king_lead = kings[own] - kings[own ^ 1];
  if (king_lead != 0) {
    const int k = (king_lead > 0 ? king_lead : -king_lead) < kKingLeads
                      ? (king_lead > 0 ? king_lead : -king_lead)
                      : kKingLeads;
    out[kKingsEnd + k - 1] = king_lead > 0 ? end : -end;
  }
}

}  // namespace sp::checkers::tables
