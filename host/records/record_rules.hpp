// The rules of one game as `selfplay verify` and `selfplay export` need them: replaying a game's
// stored rows, checking its stored positions, and the text of one ply. One small interface,
// implemented once for every game (GameRecordRules<G>, game_record_rules.hpp) and picked by the
// file's `game` attribute, while the reading, grouping and reporting of records stay in
// verify.cpp and export.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/game_host.hpp"
#include "host/base/hdf5/campaign_file.hpp"
#include "host/base/hdf5/records.hpp"

namespace sp::selfplay {

// A row with its index in its dataset, for messages ("/plies row 123").
template <class Row>
struct Indexed {
  uint64_t index = 0;
  Row row;
};

// One stored game: its /games row, its /plies rows sorted by ply and its /candidates rows sorted
// by ply, then rank (as the file has them). The caller has checked that the plies are numbered
// 0..n-1, each once, and n == game.row.plies.
struct StoredGame {
  Indexed<io::GameRow> game;
  std::vector<Indexed<io::PlyRow>> plies;
  std::vector<Indexed<io::CandidateRow>> candidates;
};

// The problems found in a file, one line each ("game 17, ply 5 (/plies row 123): ..."), in the
// order found; the first `limit` are kept, the rest only counted.
class Problems {
 public:
  explicit Problems(size_t limit) : limit_(limit) {}
  void add(std::string line) {
    if (lines_.size() < limit_) lines_.push_back(std::move(line));
    ++count_;
  }
  uint64_t count() const { return count_; }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  size_t limit_;
  uint64_t count_ = 0;
  std::vector<std::string> lines_;
};

// "game 17 (/games row 3)", "game 17, ply 5 (/plies row 123)": where a problem is.
std::string game_where(const Indexed<io::GameRow>& game);
std::string row_where(uint64_t game_id, uint64_t ply, const char* dataset, uint64_t row);

class RecordRules {
 public:
  virtual ~RecordRules() = default;

  // Replays a game through the rules: its opening, first player, each ply's player, chance (EWN:
  // the die; none in a game without chance) and move, and its winner, each against the rules
  // and, where the file's stored config says how games were set up and rolled, against that.
  // Reports every disagreement and keeps the replayed states that check_position needs (up to the
  // first ply it cannot play). The search records of each ply it plays are checked too: the
  // search kind known, the pv's plies legal one after the other from the ply's position and the
  // first of them the move played, each candidate a legal move there, ranked 0, 1, ... without a
  // gap, and no candidate of a ply the game does not have.
  virtual void replay(const StoredGame& game, Problems& problems) = 0;

  // Checks one /positions row of a replayed game (features: its stored values, empty when the
  // file has none): side to move, result and every feature recomputed from the replayed state,
  // compared exactly; features stored for a game that has none are a problem.
  virtual void check_position(const Indexed<io::PositionRow>& position,
                              std::span<const float> features, Problems& problems) = 0;

  // One ply in the game's notation, as records and `selfplay export` write it: EWN "3:b4-c3"
  // (chance, then move); a game without chance writes the move alone.
  virtual std::string ply_text(const io::PlyRow& ply) const = 0;

  // Board pictures (core/game_host.hpp PictureGame), for `selfplay export --format html`
  // and `boards`: the frame of the file's boards, nullopt for a game without pictures.
  virtual std::optional<BoardFrame> board_frame() const = 0;

  // The boards of game `game_id` as replay() last replayed it: before each ply it played, then
  // the position after the last (where a replay stopped at a ply it could not play, the boards
  // end there); forgets the game, so that an export holds one game's states at a time. Empty for
  // a game not replayed, one whose start could not be set up, or a game without pictures.
  virtual std::vector<BoardPicture> take_boards(uint64_t game_id) = 0;

  // The positions of game `game_id` as replay() last replayed it, as the game's position_text
  // writes them (chance drawn): before each ply it played; forgets the game. Empty for a game not
  // replayed or one whose start could not be set up (`selfplay book build`).
  virtual std::vector<std::string> take_positions(uint64_t game_id) = 0;

  // What could not be checked and why (a stored config this build cannot read), for stderr.
  const std::vector<std::string>& notes() const { return notes_; }

 protected:
  std::vector<std::string> notes_;
};

// The rules of the file's game (meta.game, one of games/games.hpp: GameRecordRules in
// game_record_rules.hpp), set up from its stored config (meta.config_text) or, failing that and
// where the game has the hooks for it, from its `rules` attribute. Throws sp::InputError naming
// `path` for a game this build does not know, or a file whose rules cannot be told.
std::unique_ptr<RecordRules> make_record_rules(const io::FileMeta& meta, const std::string& path);

// How verify_file and export_text get a file's rules: make_record_rules, or in tests
// make_game_record_rules<G> for a game outside the games list.
using MakeRecordRules =
    std::function<std::unique_ptr<RecordRules>(const io::FileMeta&, const std::string&)>;

}  // namespace sp::selfplay
