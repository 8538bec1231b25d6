// An opening book from stored games (`selfplay book build`): every game of the files replayed
// with its rules, the moves of its first plies counted by position, and the book that the rule
// chooses from them (host/engines/book/tally.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/engines/book/opening_book.hpp"
#include "host/engines/book/tally.hpp"

namespace sp::selfplay {

struct BookBuildReport {
  uint64_t games = 0;      // counted
  uint64_t skipped = 0;    // whose replay found a problem (`selfplay verify` says which)
  uint64_t positions = 0;  // distinct positions counted within the rule's plies, book or not
  std::vector<std::string> problems;  // the first few skipped games' problems
};

// The book of the games of `paths` (campaign, match or improve files of one game and rules) by
// `rule`; `built` records the files and the rule. Throws sp::InputError naming the file for one
// that cannot be read, files of different games or rules, or files without games.
book::OpeningBook build_book(const std::vector<std::string>& paths, const book::BookRule& rule,
                             BookBuildReport& report);

}  // namespace sp::selfplay
