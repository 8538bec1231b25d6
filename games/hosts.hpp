// Every game of games/games.hpp with its host-side part (GameHost specialization), for host code
// that dispatches on the game (commands, config loading).
#pragma once

#include "games/checkers/host.hpp"
#include "games/ewn/host.hpp"
#include "games/games.hpp"
#include "games/gomoku/host.hpp"
