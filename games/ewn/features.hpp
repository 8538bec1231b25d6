// EWN evaluation features, from the side to move's view ("own" = side to move). The same vector is
// written to /positions for tuning and scored by the linear evaluations of the engines, so names
// and order are part of the HDF5 format: append new features at the end.
#pragma once

#include <array>
#include <string_view>

#include "games/ewn/ewn.hpp"

namespace sp::ewn {

inline constexpr int kNumFeatures = 30;

// Names in vector order.
inline constexpr std::array<std::string_view, kNumFeatures> kFeatureNames = {
    "own_cubes",  // cubes on the board
    "opp_cubes",
    "own_lost",  // cubes captured (6 - cubes)
    "opp_lost",
    "own_dist_sum",  // sum over cubes of steps to the goal corner
    "opp_dist_sum",
    "own_dist_min",  // steps of the closest cube (0 if none left)
    "opp_dist_min",
    "own_inv_dist",  // sum over cubes of 1 / (steps + 1)
    "opp_inv_dist",
    "own_dice_dist",  // expected steps of the cube(s) a die roll selects (average over 6 rolls)
    "opp_dice_dist",
    "own_reach",  // distinct squares reachable in one step
    "opp_reach",
    "own_blocked",  // cubes whose every forward square is occupied
    "opp_blocked",
    "own_threats",  // enemy cubes attacked (capturable in one step by some cube)
    "opp_threats",
    "own_dice_1",  // die rolls (0..6) that let cube 1 move; 0 once it is captured
    "own_dice_2",    "own_dice_3", "own_dice_4", "own_dice_5", "own_dice_6", "opp_dice_1",
    "opp_dice_2",    "opp_dice_3", "opp_dice_4", "opp_dice_5", "opp_dice_6",
};

// The largest value of each feature, in kFeatureNames order (every feature is non-negative): 6
// cubes, 4 steps from the goal at most, 25 squares. Linear evaluations take their bound from it.
// clang-format off
inline constexpr std::array<double, kNumFeatures> kFeatureMax = {
    6,  6,   // cubes
    6,  6,   // lost
    24, 24,  // dist_sum: 6 cubes x 4 steps
    4,  4,   // dist_min
    6,  6,   // inv_dist: 6 x 1/(0 + 1)
    4,  4,   // dice_dist
    25, 25,  // reach
    6,  6,   // blocked
    6,  6,   // threats
    6,  6,  6, 6, 6, 6,  // own_dice_1..6: die rolls that move each cube
    6,  6,  6, 6, 6, 6,  // opp_dice_1..6
};
// clang-format on

// Fills out[kNumFeatures]. Precondition: state_ok(s).
inline void extract_features(const State& s, const Rules& rules, float* out) {
  const int me = s.side;
  for (int view = 0; view < 2; ++view) {
    const int side = view == 0 ? me : me ^ 1;
    const uint32_t occ_all = s.occ[0] | s.occ[1];
    int cubes = 0, dist_sum = 0, dist_min = 0;
    float inv = 0, dice_dist = 0;
    uint32_t reach = 0;
    int blocked = 0;
    int dist_of[kCubes] = {};
    int rolls_of[kCubes] = {};
    for (int c = 0; c < kCubes; ++c) {
      if (!((alive_of(s, side) >> c) & 1u)) continue;
      const int sq = square_of(s, side, c);
      const int d = distance_to_goal(side, sq);
      dist_of[c] = d;
      dist_min = cubes == 0 ? d : (d < dist_min ? d : dist_min);
      ++cubes;
      dist_sum += d;
      inv += 1.0f / static_cast<float>(d + 1);
      const uint32_t steps = step_targets(side, sq);
      reach |= steps;
      if ((steps & ~occ_all) == 0) ++blocked;
    }
    if (cubes > 0) {
      for (int die = 1; die <= 6; ++die) {
        uint32_t movers = movable_cubes(alive_of(s, side), die, rules.substitution);
        const int n = count(movers);
        float sum = 0;
        while (movers) {
          const int c = pop_lsb(movers);
          sum += static_cast<float>(dist_of[c]);
          ++rolls_of[c];
        }
        dice_dist += sum / static_cast<float>(n);
      }
      dice_dist /= 6.0f;
    }
    const int threats = count(reach & s.occ[side ^ 1]);
    out[0 + view] = static_cast<float>(cubes);
    out[2 + view] = static_cast<float>(kCubes - cubes);
    out[4 + view] = static_cast<float>(dist_sum);
    out[6 + view] = static_cast<float>(dist_min);
    out[8 + view] = inv;
    out[10 + view] = dice_dist;
    out[12 + view] = static_cast<float>(count(reach));
    out[14 + view] = static_cast<float>(blocked);
    out[16 + view] = static_cast<float>(threats);
    for (int c = 0; c < kCubes; ++c) out[18 + 6 * view + c] = static_cast<float>(rolls_of[c]);
  }
}

}  // namespace sp::ewn
