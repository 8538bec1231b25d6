// Every game of games/games.hpp with its host-side part (GameHost specialization), for host code
// that dispatches on the game (commands, config loading). The list is written by CMake from
// SELFPLAY_GAMES (games/games.cmake).
#pragma once

#include "games/games.hpp"
#include "games/host_list.hpp"  // generated: every game's host.hpp
