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
# games/NAME/CMakeLists.txt. SOURCES (rules, notation, files; host+device headers need none) and
# LANES_* (lane-parallel CPU playouts, one file per ISA, which get that ISA's flags and nothing
# else does: the CPU backend picks a path at run time, core/simd/simd_path.hpp) make the library
# sp_game_NAME, on core/ alone. HOST (config sections, openings, terminal play) makes
# sp_game_NAME_host, on sp_game_NAME and core/'s config schema; the bare GPU machine of the device
# check (SELFPLAY_DEVICE_CHECK_ONLY, no yaml-cpp) builds no host part.
function(sp_game name)
  cmake_parse_arguments(G "" "" "SOURCES;HOST;LANES_AVX2;LANES_AVX512" ${ARGN})
  if(G_SOURCES OR G_LANES_AVX2 OR G_LANES_AVX512)
    add_library(sp_game_${name} STATIC ${G_SOURCES} ${G_LANES_AVX2} ${G_LANES_AVX512})
    target_link_libraries(sp_game_${name} PUBLIC sp_core)
  else()
    add_library(sp_game_${name} INTERFACE)
    target_link_libraries(sp_game_${name} INTERFACE sp_core)
  endif()
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64|i.86")
    if(G_LANES_AVX2)
      set_source_files_properties(${G_LANES_AVX2} PROPERTIES COMPILE_OPTIONS "-mavx2")
    endif()
    if(G_LANES_AVX512)
      set_source_files_properties(${G_LANES_AVX512} PROPERTIES
                                  COMPILE_OPTIONS "-mavx512f;-mavx512bw;-mavx512dq;-mavx512vl")
      # GCC 12's AVX-512 headers warn about their own _mm512_undefined_* (GCC bug 105593): as
      # maybe-uninitialized at -O3, as uninitialized at -Og (the sanitizer build).
      if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
        set_property(SOURCE ${G_LANES_AVX512} APPEND PROPERTY COMPILE_OPTIONS
                     "-Wno-maybe-uninitialized;-Wno-uninitialized")
      endif()
    endif()
  endif()
  if(G_HOST AND NOT SELFPLAY_DEVICE_CHECK_ONLY)
    add_library(sp_game_${name}_host STATIC ${G_HOST})
    target_link_libraries(sp_game_${name}_host PUBLIC sp_game_${name} sp_core_config)
  endif()
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
