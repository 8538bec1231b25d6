# The one list of games and the functions that register them (included by the top-level
# CMakeLists.txt and by scripts/game_list.cmake). A game is its folder games/<name>/ (game.hpp with the Game
# struct, host.hpp with its GameHost, optionally lanes.hpp and array_playout.hpp, and a
# CMakeLists.txt calling sp_game) and its name in SELFPLAY_GAMES: that one line puts it in the game
# list (games/games.hpp), the host parts (games/hosts.hpp), the lane kernels (games/lanes.hpp), the
# reference playouts (games/array_playouts.hpp), the build and every typed test suite
# (tests/game_types.hpp).
set(SELFPLAY_GAMES ewn checkers gomoku)

# The Game struct of a game: its capitalised name and "Game" (ewn: EwnGame, in namespace sp).
function(sp_game_type name out)
  string(SUBSTRING ${name} 0 1 first)
  string(TOUPPER ${first} first)
  string(SUBSTRING ${name} 1 -1 rest)
  set(${out} "${first}${rest}Game" PARENT_SCOPE)
endfunction()

# sp_game(NAME [SOURCES ...] [HOST ...] [LANES_AVX2 ...] [LANES_AVX512 ...]): called from
# games/NAME/CMakeLists.txt. SOURCES (rules, notation, files; host+device headers need none) make
# the library sp_game_NAME; HOST (config sections, openings) is built into sp_config, which holds
# the schema library they declare their keys with; LANES_* (lane-parallel CPU playouts, one file
# per ISA) into sp_rollout, which gives each list its ISA's flags.
function(sp_game name)
  cmake_parse_arguments(G "" "" "SOURCES;HOST;LANES_AVX2;LANES_AVX512" ${ARGN})
  add_library(sp_game_${name} STATIC ${G_SOURCES})
  target_link_libraries(sp_game_${name} PUBLIC sp_flags)
  list(TRANSFORM G_HOST PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)
  list(TRANSFORM G_LANES_AVX2 PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)
  list(TRANSFORM G_LANES_AVX512 PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)
  set_property(GLOBAL APPEND PROPERTY SP_GAME_HOST_SOURCES ${G_HOST})
  set_property(GLOBAL APPEND PROPERTY SP_GAME_LANE_SOURCES_AVX2 ${G_LANES_AVX2})
  set_property(GLOBAL APPEND PROPERTY SP_GAME_LANE_SOURCES_AVX512 ${G_LANES_AVX512})
endfunction()

# sp_game_list(DIR NAMES... [TYPES...] [FOLDERS...]): writes the game list headers for the games
# NAMES into DIR/games/: game_list.hpp (their game.hpp and SP_GAME_LIST(X)), host_list.hpp (their
# host.hpp), lane_list.hpp and array_playout_list.hpp (those of the games that have lanes.hpp or
# array_playout.hpp). TYPES (optional, in the same order) names the Game structs where they are
# not sp_game_type's; FOLDERS the folders, relative to the source root, where they are not
# games/NAME. Also runs as a script (scripts/game_list.cmake), for tools that build without CMake.
function(sp_game_list dir)
  cmake_parse_arguments(L "" "" "NAMES;TYPES;FOLDERS" ${ARGN})
  set(games "")
  set(hosts "")
  set(lanes "")
  set(arrays "")
  set(list "")
  list(LENGTH L_NAMES count)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    list(GET L_NAMES ${i} name)
    sp_game_type(${name} type)
    if(L_TYPES)
      list(GET L_TYPES ${i} type)
    endif()
    set(folder games/${name})
    if(L_FOLDERS)
      list(GET L_FOLDERS ${i} folder)
    endif()
    string(APPEND games "#include \"${folder}/game.hpp\"\n")
    string(APPEND hosts "#include \"${folder}/host.hpp\"\n")
    if(EXISTS ${CMAKE_SOURCE_DIR}/${folder}/lanes.hpp)
      string(APPEND lanes "#include \"${folder}/lanes.hpp\"\n")
    endif()
    if(EXISTS ${CMAKE_SOURCE_DIR}/${folder}/array_playout.hpp)
      string(APPEND arrays "#include \"${folder}/array_playout.hpp\"\n")
    endif()
    string(APPEND list " X(::sp::${type})")
  endforeach()
  set(note "// Written by CMake (sp_game_list, games/games.cmake) from SELFPLAY_GAMES; do not edit.\n#pragma once\n\n")
  file(CONFIGURE OUTPUT ${dir}/games/game_list.hpp
       CONTENT "${note}${games}\n#define SP_GAME_LIST(X)${list}\n" @ONLY)
  file(CONFIGURE OUTPUT ${dir}/games/host_list.hpp CONTENT "${note}${hosts}" @ONLY)
  file(CONFIGURE OUTPUT ${dir}/games/lane_list.hpp CONTENT "${note}${lanes}" @ONLY)
  file(CONFIGURE OUTPUT ${dir}/games/array_playout_list.hpp CONTENT "${note}${arrays}" @ONLY)
endfunction()
