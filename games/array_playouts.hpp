// Every game's plain array reference playout (ArrayPlayouts specializations, host only), included
// by host/engines/rollout/array_playouts.hpp: the array_playout.hpp of each game of SELFPLAY_GAMES
// that has one (written by CMake, games/games.cmake); bench reports no ratio for the others.
#pragma once

#include "games/array_playout_list.hpp"  // generated
