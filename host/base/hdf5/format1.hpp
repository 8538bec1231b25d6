// The rows of campaign format 1, the EWN-only layout every file was written in until format 2
// (records.hpp). CampaignReader reads them and presents them as format-2 rows; nothing writes
// them any more. Their HDF5 compounds (campaign_file.cpp) must stay exactly as format 1 stored
// them: tests/golden/format1_campaign_schema.txt and the fixtures in tests/data/ pin them.
#pragma once

#include <cstdint>

#include "host/base/hdf5/records.hpp"

namespace sp::io::format1 {

inline constexpr uint32_t kVersion = 1;

struct GameRow {
  uint64_t game_id = 0;
  uint64_t seed = 0;
  char setup[16] = {};  // "123456/654321": format 2's opening
  uint8_t first_player = 0;
  int8_t winner = -1;
  uint16_t plies = 0;
  double duration_s = 0;
  char record[1024] = {};
  uint8_t record_truncated = 0;
};

struct PlyRow {
  uint64_t game_id = 0;
  uint16_t ply = 0;
  uint8_t player = 0;
  uint8_t die = 0;    // 1..6: format 2's chance
  char move[8] = {};  // "b4-c3"
  uint32_t visits = 0;
  float root_value = 0;
  uint64_t rollouts = 0;
  float time_ms = 0;
};

// The format-2 row of a format-1 row: setup becomes opening, die becomes chance (a die, 1..6,
// fits int8; the 0 of an unwritten fill row stays 0), every other field is copied unchanged.
inline io::GameRow upgrade(const GameRow& old) {
  io::GameRow row;
  row.game_id = old.game_id;
  row.seed = old.seed;
  set_text(row.opening, text_of(old.setup));
  row.first_player = old.first_player;
  row.winner = old.winner;
  row.plies = old.plies;
  row.duration_s = old.duration_s;
  static_assert(sizeof row.record == sizeof old.record);
  set_text(row.record, text_of(old.record));
  row.record_truncated = old.record_truncated;
  return row;
}

inline io::PlyRow upgrade(const PlyRow& old) {
  io::PlyRow row;
  row.game_id = old.game_id;
  row.ply = old.ply;
  row.player = old.player;
  row.chance = static_cast<int8_t>(old.die);
  set_text(row.move, text_of(old.move));
  row.visits = old.visits;
  row.root_value = old.root_value;
  row.rollouts = old.rollouts;
  row.time_ms = old.time_ms;
  return row;
}

}  // namespace sp::io::format1
