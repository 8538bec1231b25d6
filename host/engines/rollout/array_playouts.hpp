// The plain reference playouts as host code uses them (`selfplay bench`): the game-neutral side
// (ArrayPlayouts; core/array_playouts.hpp) and every game's specialization
// (games/array_playouts.hpp), so that no translation unit sees the primary template for a game that
// has a reference program.
#pragma once

#include "core/array_playouts.hpp"
#include "games/array_playouts.hpp"
