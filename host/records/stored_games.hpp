// The games of a campaign or match file as the exports read them: every /games row with its
// /plies rows, and who played each side as far as the file says.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/records.hpp"
#include "host/records/record_rules.hpp"

namespace sp::selfplay {

// A /games row and its /plies rows in ply order, with the rows' indices in their datasets, and
// when asked for its /candidates rows by ply, then rank.
struct ExportedGame {
  uint64_t row = 0;
  io::GameRow game;
  std::vector<uint64_t> ply_rows;
  std::vector<io::PlyRow> plies;
  std::vector<io::CandidateRow> candidates;
};

// Every game of the file with a /games row, in game-id order, with its /plies rows in ply order
// (and with `candidates` its /candidates rows); rows of games without a /games row are left out.
std::vector<ExportedGame> read_exported_games(const io::CampaignReader& reader,
                                              bool candidates = false);

// The game as RecordRules::replay takes it, or nullopt when its /plies rows are not plies 0 to
// n - 1, each once (replay expects that; `selfplay verify` says what is wrong).
std::optional<StoredGame> stored_game_of(const ExportedGame& e);

// The program that wrote the file, as `selfplay --version` names it: the root attribute
// `program`, or for a file written before it existed "selfplay, commit C" from its git_commit
// ("" when that is missing too).
std::string program_of(const io::FileMeta& meta);

// Who played player 0 and player 1 of game `game_id` (a match's engine descriptions, "A: ..."
// and "B: ...", a campaign's engine types, "engines.player0 (mcts)"; the seats swap in odd games
// of a paired file), with the labels the config gave the engines (`label:`); "" for what the file
// does not say.
class Seats {
 public:
  explicit Seats(const io::FileMeta& meta);
  // "label (description)" for an engine with a label, else its description.
  std::array<std::string, 2> players(uint64_t game_id) const;
  // The descriptions and the labels apart.
  std::array<std::string, 2> engines(uint64_t game_id) const;
  std::array<std::string, 2> labels(uint64_t game_id) const;

 private:
  std::array<std::string, 2> by_seat(const std::array<std::string, 2>& by_engine,
                                     uint64_t game_id) const;

  std::array<std::string, 2> engines_, labels_;
  bool paired_ = false;
};

}  // namespace sp::selfplay
