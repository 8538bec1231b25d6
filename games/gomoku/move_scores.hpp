// The move-score table of the pattern search (pattern_search.hpp): per pattern code
// (pattern_codes.hpp), how much a stone on a square does for the side to move there (attack: the
// code of the square for the side to move) and against the opponent (defend: the opponent's code
// of the square). A square's score is attack[own code] + defend[opponent's code]; the search
// orders its moves by it (after the table move and the killers) and move_count_pruning counts
// quiet moves in that order.
//
// The table has one entry per code and role, named attack_DDDD and defend_DDDD (DDDD the code's
// four line classes, strongest first, as in own_code_DDDD), 658 in all. A weights file may give
// any of them under `move_scores:`; the others keep the hand ladder's values (kLadderMoveScores),
// the table the search always had: the combination of the four lines (kAttack, kDefend: a double
// four above a four-three above an open four ...) plus a little for each line (kLine). Host only.
#pragma once

#include <array>
#include <cmath>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "games/gomoku/patterns.hpp"

namespace sp::gomoku {

inline constexpr int kMoveScoreEntries = 2 * (patterns::kCodes - 1);

// The entry of code k (1..kCodes-1) and role (0 attack, 1 defend).
constexpr int move_score_entry(int k, int role) { return 2 * (k - 1) + role; }

struct MoveScoreTables {
  int attack[patterns::kCodes], defend[patterns::kCodes];  // code 0 (nothing on any line): 0
};

// The hand ladder, as the search has always scored squares.
inline constexpr MoveScoreTables kLadderMoveScores = [] {
  constexpr int kAttack[patterns::kCombos] = {0, 10, 40, 200, 900, 300, 2500, 6000, 20000};
  constexpr int kDefend[patterns::kCombos] = {0, 8, 20, 150, 700, 150, 1500, 3000, 10000};
  constexpr int kLine[patterns::kLines] = {0, 2, 4, 5, 12, 15, 30, 60};
  MoveScoreTables t{};
  for (int k = 0; k < patterns::kCodes; ++k) {
    const uint8_t* l = patterns::kCodeTables.lines[k];
    const patterns::Line lines[kDirections] = {
        static_cast<patterns::Line>(l[0]), static_cast<patterns::Line>(l[1]),
        static_cast<patterns::Line>(l[2]), static_cast<patterns::Line>(l[3])};
    const int sum = kLine[l[0]] + kLine[l[1]] + kLine[l[2]] + kLine[l[3]];
    t.attack[k] = kAttack[patterns::combine(lines)] + sum;
    t.defend[k] = kDefend[patterns::combine(lines)] + sum;
  }
  return t;
}();

namespace move_scores_detail {

struct Names {
  char text[kMoveScoreEntries][12];  // "attack_6410"
};
constexpr Names make_names() {
  Names n{};
  for (int k = 1; k < patterns::kCodes; ++k)
    for (int role = 0; role < 2; ++role) {
      char* out = n.text[move_score_entry(k, role)];
      const char* prefix = role == 0 ? "attack_" : "defend_";
      int i = 0;
      for (; prefix[i]; ++i) out[i] = prefix[i];
      for (int j = 0; j < 4; ++j) out[i + j] = patterns::kCodeTables.name[k][j];
    }
  return n;
}
inline constexpr Names kNames = make_names();

}  // namespace move_scores_detail

// The entries' names and the ladder's values, in entry order.
inline constexpr std::array<std::string_view, kMoveScoreEntries> kMoveScoreNames = [] {
  std::array<std::string_view, kMoveScoreEntries> names{};
  for (int i = 0; i < kMoveScoreEntries; ++i) names[i] = move_scores_detail::kNames.text[i];
  return names;
}();
inline constexpr std::array<double, kMoveScoreEntries> kMoveScoreDefaults = [] {
  std::array<double, kMoveScoreEntries> v{};
  for (int k = 1; k < patterns::kCodes; ++k) {
    v[move_score_entry(k, 0)] = kLadderMoveScores.attack[k];
    v[move_score_entry(k, 1)] = kLadderMoveScores.defend[k];
  }
  return v;
}();

// The tables of kMoveScoreEntries values (rounded to integers); an empty span: the ladder.
// Throws std::invalid_argument for any other number of values.
inline MoveScoreTables move_scores_from(std::span<const double> entries) {
  if (entries.empty()) return kLadderMoveScores;
  if (entries.size() != static_cast<size_t>(kMoveScoreEntries))
    throw std::invalid_argument("pattern search: " + std::to_string(kMoveScoreEntries) +
                                " move scores expected, " + std::to_string(entries.size()) +
                                " given");
  MoveScoreTables t{};
  for (int k = 1; k < patterns::kCodes; ++k) {
    t.attack[k] = static_cast<int>(std::lround(entries[move_score_entry(k, 0)]));
    t.defend[k] = static_cast<int>(std::lround(entries[move_score_entry(k, 1)]));
  }
  return t;
}

}  // namespace sp::gomoku
