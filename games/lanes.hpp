// Every game's lane-parallel CPU playouts (LanePlayouts specializations, host only), included by
// host/rollout/simd/lane_playouts.hpp. A game with a lane path adds its header here; the others
// keep the scalar playout.
#pragma once

#include "games/checkers/lanes.hpp"
#include "games/ewn/lanes.hpp"
#include "games/gomoku/lanes.hpp"
