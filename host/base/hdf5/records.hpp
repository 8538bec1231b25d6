// The rows of a campaign file, as plain structs free of HDF5. Each maps one-to-one onto an HDF5
// compound (or, for positions, onto columns); strings are fixed-length and NUL-terminated because
// variable-length types are not SWMR-safe in HDF5 1.10. The field names are the column names.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

namespace sp::io {

// game_id of rows that a file sized but never wrote (the datasets' fill value, seen after a
// crash); never a real game id.
inline constexpr uint64_t kNoGame = std::numeric_limits<uint64_t>::max();

struct GameRow {
  uint64_t game_id = 0;
  uint64_t seed = 0;  // the campaign seed the game's random streams are keyed by
  // How the game started, in the game's notation: EWN "123456/654321" (player 0's, then player
  // 1's arrangement); empty for a game that always starts from the same position. Format 1 called
  // it `setup` (char[16]).
  char opening[64] = {};
  uint8_t first_player = 0;
  int8_t winner = -1;  // 0 or 1; -1 when the game has no winner
  uint16_t plies = 0;
  double duration_s = 0;  // wall-clock seconds the game took
  // A summary of the moves, "3:b4-c3 5:d2-c1 ...": each ply's text (the game's notation) one space
  // apart, cut after the last whole ply that fits (see set_record). record_truncated 1 means the
  // summary was shortened; the full game is always in /plies, and readers that need every move
  // (export, verify) rebuild it from there.
  char record[1024] = {};
  uint8_t record_truncated = 0;
  // How the game ended: 0 by the rules; else the player to move after the last ply forfeited
  // it (and lost): 1 time loss, 2 crash (an external engine's program ended), 3 illegal move
  // (search::Termination). Files written before the column existed read as 0.
  uint8_t termination = 0;

  friend bool operator==(const GameRow&, const GameRow&) = default;
};

// PlyRow::chance of a game without chance (no dice).
inline constexpr int8_t kNoChance = -1;

struct PlyRow {
  uint64_t game_id = 0;
  uint16_t ply = 0;    // 0-based
  uint8_t player = 0;  // the side that moved
  // The chance outcome the move was chosen for, as the game's notation writes it (EWN: the die,
  // 1..6); kNoChance in games without chance. Format 1 called it `die` (uint8).
  int8_t chance = kNoChance;
  // The move in the game's notation: EWN "b4-c3", a checkers multi-jump of up to 12 captures
  // "9x18x27x20x11x2...", Gomoku "j10". Format 1 held char[8].
  char move[48] = {};
  uint32_t visits = 0;    // root visits of the search that chose the move
  float root_value = 0;   // search value of the chosen move for `player`: win probability, 0..1
  uint64_t rollouts = 0;  // rollouts the search counted against its budget (played + terminals)
  float time_ms = 0;      // wall time from the search's start to its decision, batch waits included
  // Format 3: what the search thought (docs/records.md). search: search::SearchKind (0: not
  // recorded); depth: deepest completed iteration of a depth-first search, -1 none; score: with
  // depth >= 0, the root's score for the mover in evaluation units; nodes: positions searched or
  // tree nodes; played: rollouts actually played; think_ms: the engine's own time in its calls
  // (an external program's: time_ms); pv: the principal variation from this ply, plies in the
  // game's notation one space apart (as `record`), cut after the last whole ply that fits.
  uint8_t search = 0;
  int16_t depth = -1;
  float score = 0;
  uint64_t nodes = 0;
  uint64_t played = 0;
  float think_ms = 0;
  char pv[160] = {};

  friend bool operator==(const PlyRow&, const PlyRow&) = default;
};

// A root move a search weighed at one ply (/candidates, format 3): rank 0 is its best.
struct CandidateRow {
  uint64_t game_id = 0;
  uint16_t ply = 0;
  uint16_t rank = 0;
  char move[48] = {};   // in the game's notation, as /plies `move`
  uint32_t visits = 0;  // MCTS: the move's visits; flat Monte Carlo: its rollouts
  float value = 0;      // the move's value for the mover, 0..1

  friend bool operator==(const CandidateRow&, const CandidateRow&) = default;
};

// One training position; its feature vector (F float32 values) is stored separately, row for row.
struct PositionRow {
  uint64_t game_id = 0;
  uint16_t ply = 0;
  uint8_t side_to_move = 0;
  float result = 0;  // game result from side_to_move's view: 1 win, 0 loss, 0.5 draw

  friend bool operator==(const PositionRow&, const PositionRow&) = default;
};

struct PerfRow {
  uint64_t batch = 0;
  double time_s = 0;  // seconds since the campaign started
  uint32_t leaves = 0;
  uint64_t rollouts = 0;
  float host_ms = 0;
  float backend_ms = 0;

  friend bool operator==(const PerfRow&, const PerfRow&) = default;
};

// One game pair of a match (/match/pairs), written when both its games are in /games: games
// 2 pair_id and 2 pair_id + 1, engine A playing player 0 in the first and player 1 in the second.
struct MatchPairRow {
  uint64_t pair_id = 0;
  float result_1 = 0;  // engine A's result in game 2 pair_id: 1 win, 0.5 draw, 0 loss
  float result_2 = 0;  // the same in game 2 pair_id + 1
  double llr = 0;      // GSPRT log-likelihood ratio after this pair (0 when the SPRT is off)

  friend bool operator==(const MatchPairRow&, const MatchPairRow&) = default;
};

// Copies `text` into a fixed field, NUL-terminated; returns false when it had to be shortened.
template <size_t N>
bool set_text(char (&field)[N], std::string_view text) {
  const size_t n = text.size() < N ? text.size() : N - 1;
  std::memcpy(field, text.data(), n);
  std::memset(field + n, 0, N - n);
  return n == text.size();
}

// The text of a fixed field: up to the first NUL or the whole field.
template <size_t N>
std::string_view text_of(const char (&field)[N]) {
  return std::string_view(field, strnlen(field, N));
}

// Plies of text one space apart, cut after the last whole ply that fits `field` (the shape of
// `record` and `pv`); returns whether it was cut.
template <size_t N>
bool set_plies_text(char (&field)[N], std::string_view plies) {
  constexpr size_t kCapacity = N - 1;
  const bool cut = plies.size() > kCapacity;
  if (cut) {
    plies = plies.substr(0, kCapacity + 1);
    const size_t space = plies.rfind(' ');
    plies = plies.substr(0, space == std::string_view::npos ? kCapacity : space);
  }
  set_text(field, plies);
  return cut;
}

// Stores a game's summary record. A record longer than the field is cut after its last whole ply
// that fits (at a space) and record_truncated is set: the full record stays in /plies.
inline void set_record(GameRow& row, std::string_view record) {
  row.record_truncated = set_plies_text(row.record, record);
}

}  // namespace sp::io
