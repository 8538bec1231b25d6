// Checkers evaluation features, from the side to move's view ("own" = side to move): the terms of
// a classic hand-tuned evaluation (material, centre, back-row guard, mobility), then those checkers
// programs add (tempo, runaway men, king mobility, trapped kings) and two for the endgame, which
// reward the side ahead for trading down and for bringing its kings to the opponent's pieces;
// after them the entries of the evaluation tables the research loop tunes (feature_tables.hpp). The
// same vector is written to /positions for tuning and scored by the linear evaluations of the
// engines, so names and order are part of the HDF5 format: append new features at the end. Host
// only.
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

#include "games/checkers/checkers.hpp"
#include "games/checkers/feature_tables.hpp"

namespace sp::checkers {

// The hand-picked features, which every weights file weighs; the table entries after them default
// to 0 (eval::required_features).
inline constexpr int kRequiredFeatures = 22;
inline constexpr int kNumFeatures = kRequiredFeatures + tables::kCount;

// Names in vector order.
inline constexpr std::array<std::string_view, kRequiredFeatures> kHandFeatureNames = {
    "own_men",  // men on the board
    "opp_men",
    "own_kings",  // kings on the board
    "opp_kings",
    "own_centre",  // pieces on the eight centre squares 10, 11, 14, 15, 18, 19, 22, 23
    "opp_centre",
    "own_back_row",  // men still on their own back row (guarding the crowning squares)
    "opp_back_row",
    "own_mobility",  // legal moves (each jump path one move)
    "opp_mobility",  // the opponent's legal moves, were it to move
    "own_tempo",     // rows the men have advanced from their own back row, summed
    "opp_tempo",
    "own_runaways",  // men with no piece in their forward cone: nothing can stop them crowning
    "opp_runaways",
    "own_king_mobility",  // empty squares next to the kings (king steps)
    "opp_king_mobility",
    "own_trapped_kings",  // kings without a step or a capture
    "opp_trapped_kings",
    "own_lead_trades",  // ahead in pieces: the lead times the pieces already off the board
    "opp_lead_trades",
    "own_king_chase",  // ahead in pieces: per king, 7 less its distance to the nearest opponent
                       // piece
    "opp_king_chase",
};
inline constexpr std::array<std::string_view, kNumFeatures> kFeatureNames = [] {
  std::array<std::string_view, kNumFeatures> names{};
  for (int i = 0; i < kRequiredFeatures; ++i) names[i] = kHandFeatureNames[i];
  for (int i = 0; i < tables::kCount; ++i) names[kRequiredFeatures + i] = tables::kNames.text[i];
  return names;
}();

// The largest |value| of each feature (the hand-picked ones are never negative).
// clang-format off
inline constexpr std::array<double, kRequiredFeatures> kHandFeatureMax = {
    kPiecesPerSide, kPiecesPerSide,  // men
    kPiecesPerSide, kPiecesPerSide,  // kings
    8, 8,                            // centre
    4, 4,                            // back row
    kMaxMoves, kMaxMoves,            // mobility
    72, 72,                          // tempo: 12 men 6 rows ahead
    kPiecesPerSide, kPiecesPerSide,  // runaways
    48, 48,                          // king mobility: 12 kings, 4 steps
    kPiecesPerSide, kPiecesPerSide,  // trapped kings
    276, 276,                        // lead trades: 12 ahead times 23 off
    84, 84,                          // king chase: 12 kings, 7
};
// clang-format on
inline constexpr std::array<double, kNumFeatures> kFeatureMax = [] {
  std::array<double, kNumFeatures> max{};
  for (int i = 0; i < kRequiredFeatures; ++i) max[i] = kHandFeatureMax[i];
  for (int i = 0; i < tables::kCount; ++i) max[kRequiredFeatures + i] = tables::max_of(i);
  return max;
}();

// PDN squares 10, 11, 14, 15, 18, 19, 22, 23: the dark squares of files c-f on rows 2-5.
inline constexpr uint32_t kCentre = 0x00666600u;

// The squares in the forward cone of a man of `side` on sq: every square it could reach moving
// forward, up to its crown row.
constexpr uint32_t forward_cone(int side, int sq) {
  uint32_t cone = 0;
  const int step = side == 0 ? 1 : -1;
  for (int r = row_of(sq) + step, k = 1; r >= 0 && r < 8; r += step, ++k)
    for (int f = file_of(sq) - k; f <= file_of(sq) + k; ++f)
      if (square_at(r, f) >= 0) cone |= 1u << square_at(r, f);
  return cone;
}
struct ForwardCones {
  uint32_t of[2][kSquares];
};
constexpr ForwardCones make_forward_cones() {
  ForwardCones c{};
  for (int side = 0; side < 2; ++side)
    for (int sq = 0; sq < kSquares; ++sq) c.of[side][sq] = forward_cone(side, sq);
  return c;
}
inline constexpr ForwardCones kForwardCones = make_forward_cones();

// The king distance (diagonal steps on an empty board, Chebyshev) between two squares.
constexpr int square_distance(int a, int b) {
  const int dr = row_of(a) > row_of(b) ? row_of(a) - row_of(b) : row_of(b) - row_of(a);
  const int df = file_of(a) > file_of(b) ? file_of(a) - file_of(b) : file_of(b) - file_of(a);
  return dr > df ? dr : df;
}

// Fills out[0..kNumFeatures), or out[0..kRequiredFeatures) without the tables. The draw counters
// do not enter.
inline void extract_features(const State& s, float* out, bool with_tables = true) {
  uint32_t runaway_men[2] = {0, 0};
  int tempo_of[2] = {0, 0};
  State other = s;
  other.side = static_cast<uint8_t>(s.side ^ 1);
  for (int view = 0; view < 2; ++view) {
    const int side = view == 0 ? s.side : s.side ^ 1;
    const uint32_t pieces = s.pieces[side], men = pieces & ~s.kings;
    out[0 + view] = static_cast<float>(count(men));
    out[2 + view] = static_cast<float>(count(pieces & s.kings));
    out[4 + view] = static_cast<float>(count(pieces & kCentre));
    out[6 + view] = static_cast<float>(count(men & back_row(side)));
    out[8 + view] = static_cast<float>(count_moves(view == 0 ? s : other));
  }
  const uint32_t empty = empty_squares(s), occupied_squares = ~empty;
  const int total = count(occupied_squares);
  for (int view = 0; view < 2; ++view) {
    const int side = view == 0 ? s.side : s.side ^ 1;
    const uint32_t pieces = s.pieces[side], men = pieces & ~s.kings, kings = pieces & s.kings;
    const uint32_t theirs = s.pieces[side ^ 1];
    int tempo = 0, runaways = 0;
    for (uint32_t m = men; m;) {
      const int sq = pop_lsb(m);
      tempo += side == 0 ? row_of(sq) : 7 - row_of(sq);
      const bool runaway = (kForwardCones.of[side][sq] & occupied_squares) == 0;
      runaways += runaway;
      if (runaway) runaway_men[side] |= 1u << sq;
    }
    tempo_of[side] = tempo;
    int king_steps = 0, trapped = 0, chase = 0;
    const int lead = count(pieces) - count(theirs);
    for (uint32_t k = kings; k;) {
      const int sq = pop_lsb(k);
      const uint32_t bit = 1u << sq;
      int steps = 0;
      bool jumps = false;
      for (int d = 0; d < kDirections; ++d) {
        const uint32_t next = shift(bit, d);
        steps += (next & empty) != 0;
        jumps = jumps || ((next & theirs) && (shift(next, d) & empty));
      }
      king_steps += steps;
      trapped += steps == 0 && !jumps;
      if (lead > 0 && theirs) {
        int nearest = 7;
        for (uint32_t t = theirs; t;) {
          const int d = square_distance(sq, pop_lsb(t));
          nearest = d < nearest ? d : nearest;
        }
        chase += 7 - nearest;
      }
    }
    out[10 + view] = static_cast<float>(tempo);
    out[12 + view] = static_cast<float>(runaways);
    out[14 + view] = static_cast<float>(king_steps);
    out[16 + view] = static_cast<float>(trapped);
    out[18 + view] = static_cast<float>(lead > 0 ? lead * (2 * kPiecesPerSide - total) : 0);
    out[20 + view] = static_cast<float>(chase);
  }
  if (!with_tables) return;
  float* table = out + kRequiredFeatures;
  for (int i = 0; i < tables::kCount; ++i) table[i] = 0;
  tables::add_table_features(s, runaway_men, tempo_of, table);
}

// The table entries' part of a linear evaluation, sum of w[j] times table entry j (w:
// tables::kCount weights), computed from the pieces rather than from the entries: what the dense
// sum over extract_features gives up to rounding, at a fraction of its cost (the engines'
// evaluation).
inline double table_score(const State& s, const double* w) {
  using namespace tables;
  const int own = s.side;
  const int pieces[2] = {count(s.pieces[0]), count(s.pieces[1])};
  const int total = pieces[0] + pieces[1];
  const float open = static_cast<float>(total) / (2 * kPiecesPerSide), end = 1 - open;
  const uint32_t occupied = s.pieces[0] | s.pieces[1];
  double open_sum = 0, end_sum = 0, plain = 0;
  int men_total = 0, kings[2] = {0, 0}, tempo[2] = {0, 0};
  for (int side = 0; side < 2; ++side) {
    const double sign = side == own ? 1 : -1;
    const uint32_t men = s.pieces[side] & ~s.kings, kings_of = s.pieces[side] & s.kings;
    men_total += count(men);
    kings[side] = count(kings_of);
    double side_open = 0, side_end = 0, side_plain = 0;
    for (uint32_t m = men; m;) {
      const int sq = pop_lsb(m), r = relative(side, sq), to_go = rows_to_crown(side, sq);
      side_open += w[kManOpen + r];
      side_end += w[kManEnd + r];
      tempo[side] += 7 - to_go;
      if ((kForwardCones.of[side][sq] & occupied) == 0) side_plain += w[kRunaway + to_go - 1];
    }
    for (uint32_t k = kings_of; k;) {
      const int r = relative(side, pop_lsb(k));
      side_open += w[kKingOpen + r];
      side_end += w[kKingEnd + r];
    }
    const uint32_t back = men & back_row(side);
    const int pattern = side == 0 ? static_cast<int>(back & 0xF)
                                  : static_cast<int>(((back >> 31) & 1) | ((back >> 29) & 2) |
                                                     ((back >> 27) & 4) | ((back >> 25) & 8));
    side_open += w[kBackOpen + pattern];
    side_end += w[kBackEnd + pattern];
    open_sum += sign * side_open;
    end_sum += sign * side_end;
    plain += sign * side_plain;
  }
  plain += w[kTempo + bucket(men_total)] * (tempo[own] - tempo[own ^ 1]);
  const int lead = pieces[own] - pieces[own ^ 1];
  if (lead != 0) {
    const int l = std::min(lead > 0 ? lead : -lead, kLeads);
    plain += (lead > 0 ? 1 : -1) * w[kLead + (l - 1) * kBuckets + bucket(total)];
  }
  const int king_lead = kings[own] - kings[own ^ 1];
  if (king_lead != 0) {
    const int k = std::min(king_lead > 0 ? king_lead : -king_lead, kKingLeads);
    end_sum += (king_lead > 0 ? 1 : -1) * w[kKingsEnd + k - 1];
  }
  return static_cast<double>(open) * open_sum + static_cast<double>(end) * end_sum + plain;
}

}  // namespace sp::checkers
