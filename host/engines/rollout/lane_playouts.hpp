// The lane-parallel playouts as host code uses them: the game-neutral side (LanePlayouts, LaneTask,
// LaneFeed; core/simd/lane_playouts.hpp) and every game's specialization (games/lanes.hpp), so that
// no translation unit sees the primary template for a game that has lanes.
#pragma once

#include "core/simd/lane_playouts.hpp"
#include "games/lanes.hpp"
