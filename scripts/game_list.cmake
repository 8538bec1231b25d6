# Writes the game list headers (games/games.cmake: sp_game_list) into OUT/games/ without a CMake
# build, for tools that compile sources by hand (scripts/kernel_resources.sh). Run from the
# repository root: cmake -DOUT=DIR -P scripts/game_list.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../games/games.cmake)
sp_game_list(${OUT} NAMES ${SELFPLAY_GAMES})
