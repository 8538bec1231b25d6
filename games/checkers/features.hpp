// Checkers evaluation features, from the side to move's view ("own" = side to move): the terms of
// a classic hand-tuned evaluation (material, centre, back-row guard, mobility). The same vector is
// written to /positions for tuning and scored by the linear evaluations of the engines, so names
// and order are part of the HDF5 format: append new features at the end. Host only.
#pragma once

#include <array>
#include <string_view>

#include "games/checkers/checkers.hpp"

namespace sp::checkers {

inline constexpr int kNumFeatures = 10;

// Names in vector order.
inline constexpr std::array<std::string_view, kNumFeatures> kFeatureNames = {
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
};

// The largest value of each feature (every feature is non-negative).
// clang-format off
inline constexpr std::array<double, kNumFeatures> kFeatureMax = {
    kPiecesPerSide, kPiecesPerSide,  // men
    kPiecesPerSide, kPiecesPerSide,  // kings
    8, 8,                            // centre
    4, 4,                            // back row
    kMaxMoves, kMaxMoves,            // mobility
};
// clang-format on

// PDN squares 10, 11, 14, 15, 18, 19, 22, 23: the dark squares of files c-f on rows 2-5.
inline constexpr uint32_t kCentre = 0x00666600u;

// Fills out[0..kNumFeatures). The draw counters do not enter.
inline void extract_features(const State& s, float* out) {
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
}

}  // namespace sp::checkers
