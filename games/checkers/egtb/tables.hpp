// The endgame databases of one folder, open for lookups (`egtb.dir` of an engine, `selfplay egtb
// probe`): every file there whose name is a table_file_name, each checked when opened.
// A position is covered when both sides have pieces and its signature's file is open; the value is
// exact under the rules without draw counters (no quiet-move limit, no repetition draw, no ply
// limit: docs/checkers.md says how the engines use it).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "games/checkers/egtb/table.hpp"

namespace sp::checkers::egtb {

inline constexpr int kMaxPieces = 8;  // the most pieces a file name and these tables allow

class Tables {
 public:
  Tables() = default;
  // Opens every database file of dir (none is no error; a damaged one throws InputError). Throws
  // InputError when dir is not a readable folder.
  explicit Tables(const std::string& dir);

  // Opens dir/table_file_name(m) and, when it is there, dir/plies_file_name(m), and adds them
  // (replacing those of the same material).
  void add(const std::string& dir, const Material& m);
  bool has(const Material& m) const { return find(m) != nullptr; }

  // The value of s for its side to move; kUnknown when s is not covered. A side to move without
  // pieces has lost; one whose opponent has none wins if it can move (the opponent then cannot).
  Value probe(const State& s) const;
  // The value of a Black-to-move position; kUnknown when not covered.
  Value probe(const Boards& b) const;
  // The level of a covered won or lost position s (table.hpp); -1 when its table has no plies
  // file or s is not covered.
  int plies(const State& s) const;
  // After the move from `before` to `after` (both covered): 0 when it converted (took a piece,
  // crowned a man, or ended the game), else plies(after).
  int plies_after(const State& before, const State& after) const;

  // The most pieces of any open file's material, 0 when none is open.
  int max_pieces() const { return max_pieces_; }
  size_t size() const { return files_.size(); }
  uint64_t positions() const;
  const std::vector<std::unique_ptr<TableFile>>& files() const { return files_; }

 private:
  const TableFile* find(const Material& m) const {
    if (m.pieces() > kMaxPieces) return nullptr;
    return slots_[slot(m)];
  }
  static int slot(const Material& m) {
    return ((m.black_kings * (kMaxPieces + 1) + m.black_men) * (kMaxPieces + 1) + m.white_kings) *
               (kMaxPieces + 1) +
           m.white_men;
  }

  const TableFile* find_plies(const Material& m) const {
    if (m.pieces() > kMaxPieces) return nullptr;
    return plies_slots_[slot(m)];
  }

  std::vector<std::unique_ptr<TableFile>> files_, plies_files_;
  std::vector<const TableFile*> slots_ = std::vector<const TableFile*>(
      (kMaxPieces + 1) * (kMaxPieces + 1) * (kMaxPieces + 1) * (kMaxPieces + 1), nullptr);
  std::vector<const TableFile*> plies_slots_ =
      std::vector<const TableFile*>(slots_.size(), nullptr);
  int max_pieces_ = 0;
};

}  // namespace sp::checkers::egtb
