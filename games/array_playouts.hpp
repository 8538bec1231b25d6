// Every game's plain array reference playout (ArrayPlayouts specializations, host only), included
// by host/rollout/array_playouts.hpp. A game with such a program adds its header here; bench
// reports no ratio for the others.
#pragma once

#include "games/checkers/array_playout.hpp"
#include "games/ewn/array_playout.hpp"
#include "games/gomoku/array_playout.hpp"
