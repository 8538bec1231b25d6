// What stored games say of the moves played from each early position, and the book it gives
// (`selfplay book build`): the selection rule of docs/engines-and-matches.md "Opening books".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "host/engines/book/opening_book.hpp"

namespace sp::book {

// Which moves make the book. A position's move is its book move when it was played there in at
// least min_games games, scored best among the moves played there that often (ties: more games,
// then the move's text), scored at least min_score for the side that played it, and beat every
// other move played there at least min_games times by at least min_gap.
struct BookRule {
  int plies = 16;  // positions before a game's ply `plies` (0-based plies 0 .. plies-1)
  uint64_t min_games = 20;
  double min_gap = 0.05;
  double min_score = 0.5;
};

class BookTally {
 public:
  // The side to move in `position` (before the game's 0-based ply `ply`) played `move` and scored
  // `points` (1, 1/2 or 0) in the game's end. Plies at or past the rule's `plies` are not counted.
  void add(std::string_view position, int ply, std::string_view move, double points);

  // The book of the positions whose move passes the rule, in the order of the first ply they were
  // seen at, then their text; game, rules and built are the caller's.
  OpeningBook book(const BookRule& rule) const;

  uint64_t positions() const { return positions_.size(); }  // counted, book or not

 private:
  struct MoveTally {
    uint64_t games = 0;
    double points = 0;
  };
  struct PositionTally {
    int first_ply = 0;
    std::map<std::string, MoveTally, std::less<>> moves;
  };
  std::map<std::string, PositionTally, std::less<>> positions_;
};

}  // namespace sp::book
