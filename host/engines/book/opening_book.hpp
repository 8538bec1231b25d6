// Opening books: for positions of the early game, the move that scored best in stored games, with
// what the games said of every move played there (`selfplay book build`, an engine's `book` key;
// docs/engines-and-matches.md "Opening books"). The file holds the game's notation only: positions
// as GameHost<G>::position_text writes them, moves as move_text; book_engine.hpp checks a book
// against a game's rules and plays from it.
//
// The file is text, tab-separated, readable by eye and by pandas:
//   # comment lines (the first says what wrote the file)
//   game<TAB>checkers                    header lines: key, tab, value
//   rules<TAB>...                        (describe_rules of the games' rules)
//   plies<TAB>16                         (the book covers the game's first 16 plies)
//   built<TAB>...                        (free text: the files and the selection rule)
//   position<TAB>rank<TAB>move<TAB>games<TAB>score
//   <position><TAB>0<TAB><move><TAB>57<TAB>0.614     rank 0: the book move
//   <position><TAB>1<TAB><move><TAB>21<TAB>0.476     the other moves played there, by score
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sp::book {

// One move of a book position: how often the side to move played it there, and how it scored.
struct BookMove {
  std::string move;    // in the game's notation
  uint64_t games = 0;  // games in which the position's side to move played it there
  double score = 0;    // that side's points per game after it: a win 1, a draw 1/2, a loss 0
};

// A position of the book: its moves, the book move first (rank 0), then the others the games
// played there, by score.
struct BookEntry {
  std::string position;  // GameHost<G>::position_text
  std::vector<BookMove> moves;
  size_t line = 0;  // the file's line of the book move (0 for a book made in memory)
};

struct OpeningBook {
  std::string game;   // G::kName
  std::string rules;  // GameHost<G>::describe_rules of the rules the games were played under
  int plies = 0;      // the plies from a game's start that the book covers (lookups stop there)
  std::string built;  // what it was built from and how (free text)
  std::vector<BookEntry> entries;
  std::string source;  // the file it was read from ("" for one made in memory)

  // The entry of a position (its position_text), or null.
  const BookEntry* find(std::string_view position) const;
  // The index find() uses; read_book and parse_book build it, a book made in memory calls it.
  void index();

  // The file's text (see the top of this file).
  std::string text() const;
  // 16 hex digits of a 64-bit FNV-1a hash of text() without its comment lines: what a run's
  // identity keeps of an engine's book (the file's path does not matter, its contents do).
  std::string digest() const;

 private:
  std::unordered_map<std::string, size_t> by_position_;
};

// The book of a file. Throws sp::InputError "FILE:LINE: what is wrong" for a file that cannot be
// read, a missing or unknown header key, a row without five fields, a rank out of order (each
// position's rows rank 0, 1, ... in a block), a position listed twice, games that are no count or
// are 0, a score outside [0, 1], or no rows at all. Moves and positions are checked against the
// game's rules by book_engine.hpp (check_book).
OpeningBook read_book(const std::string& path);
// The same for text; name stands for the file in messages and becomes source.
OpeningBook parse_book(const std::string& text, const std::string& name);

// Writes the book through write_file_atomically: a reader sees the old file or the new one.
void write_book(const std::string& path, const OpeningBook& book);

}  // namespace sp::book
