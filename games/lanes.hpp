// Every game's lane-parallel CPU playouts (LanePlayouts specializations, host only), included by
// host/engines/rollout/lane_playouts.hpp: the lanes.hpp of each game of SELFPLAY_GAMES that has one
// (written by CMake, games/games.cmake); the others keep the scalar playout.
#pragma once

#include "games/lane_list.hpp"  // generated
